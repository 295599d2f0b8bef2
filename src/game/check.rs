//! Evaluating conditions and attributes against the state.

use super::{CreatureRef, Ctx, Game};
use crate::content::{Check, Condition, ItemFilter, QuestState, Who};

/// A failed condition: what it checks and what it saw, for the trace.
pub struct Failed {
    pub index: usize,
    pub check: String,
    pub saw: String,
}

impl Game {
    /// Resolves `self`, `target` or `player` in a context.
    pub fn resolve_who(&self, who: Who, ctx: &Ctx) -> Option<CreatureRef> {
        match who {
            Who::Bearer => Some(ctx.bearer),
            Who::Target => ctx.target,
            Who::Player => Some(CreatureRef::Player),
        }
    }

    /// An attribute: the base value plus the modifiers of the creature's active items whose condition
    /// holds against `against` (the opponent, if any).
    pub fn attribute(&self, who: CreatureRef, name: &str, against: Option<CreatureRef>) -> i64 {
        self.attribute_at(who, name, against, 0)
    }

    fn attribute_at(
        &self,
        who: CreatureRef,
        name: &str,
        against: Option<CreatureRef>,
        depth: u8,
    ) -> i64 {
        let Some(c) = self.creature(who) else {
            return 0;
        };
        let mut value = c.attributes.get(name).copied().unwrap_or(0);
        // Conditions inside modifiers see base values only, so modifiers cannot feed each other.
        if depth > 0 {
            return value;
        }
        let ctx = Ctx {
            bearer: who,
            target: against,
            cause: String::new(),
            stream: String::new(),
        };
        for stack in &c.inventory {
            let Some(def) = self.content.items.get(&stack.item) else {
                continue;
            };
            if def.slot.is_some() && !stack.equipped {
                continue;
            }
            for m in def.modifiers.iter().filter(|m| m.attribute == name) {
                if m.condition
                    .iter()
                    .all(|cond| self.holds_at(cond, &ctx, 1).unwrap_or(false))
                {
                    value += m.add;
                }
            }
        }
        value
    }

    pub fn count_matching(&self, who: CreatureRef, filter: &ItemFilter) -> u32 {
        let Some(c) = self.creature(who) else {
            return 0;
        };
        c.inventory
            .iter()
            .filter(|s| item_matches(&self.content, filter, &s.item))
            .map(|s| s.count)
            .sum()
    }

    pub fn quest_state(&self, quest: &crate::id::Id) -> QuestState {
        match self.state.quests.get(quest) {
            None => QuestState::NotStarted,
            Some(p) if p.done => QuestState::Done,
            Some(_) => QuestState::Active,
        }
    }

    /// Evaluates a condition list (AND); the first failure is returned for the trace.
    pub fn conditions_hold(&mut self, list: &[Condition], ctx: &Ctx) -> Result<(), Failed> {
        for (i, cond) in list.iter().enumerate() {
            let result = if let Check::Custom { id, args } = &cond.check {
                self.custom_check(id, args, ctx)
            } else {
                self.holds_at(cond, ctx, 0)
            };
            match result {
                Ok(true) => {}
                Ok(false) => {
                    return Err(Failed {
                        index: i + 1,
                        check: describe(cond),
                        saw: self.saw(cond, ctx),
                    })
                }
                Err(message) => {
                    return Err(Failed {
                        index: i + 1,
                        check: describe(cond),
                        saw: format!("an error: {message}"),
                    })
                }
            }
        }
        Ok(())
    }

    fn custom_check(
        &mut self,
        id: &crate::id::Id,
        args: &std::collections::BTreeMap<String, crate::content::Value>,
        ctx: &Ctx,
    ) -> Result<bool, String> {
        let Some(mut host) = self.host.take() else {
            return Err(format!("no script registers the check `{id}`"));
        };
        let result = host.check(self, id, args, ctx);
        self.host = Some(host);
        result
    }

    /// Whether one built-in condition holds (with `not` applied). Custom checks need the host: see `conditions_hold`.
    pub fn holds_at(&self, cond: &Condition, ctx: &Ctx, depth: u8) -> Result<bool, String> {
        let creature = |who: Who| {
            self.resolve_who(who, ctx)
                .filter(|r| self.creature(*r).is_some())
        };
        let raw = match &cond.check {
            Check::HasTag { who, tag } => creature(*who)
                .and_then(|c| self.creature(c))
                .is_some_and(|c| c.tags.contains(tag)),
            Check::Attribute {
                who,
                attribute,
                value,
                below,
            } => match creature(*who) {
                Some(c) => {
                    let v = self.attribute_at(c, attribute, ctx.target.filter(|t| *t != c), depth);
                    if *below {
                        v < *value
                    } else {
                        v >= *value
                    }
                }
                None => false,
            },
            Check::HasItem { who, filter, count } => {
                creature(*who).is_some_and(|c| self.count_matching(c, filter) >= *count)
            }
            Check::HealthBelow { who, fraction } => match creature(*who) {
                Some(c) => {
                    let cur = self.creature(c).map(|c| c.health).unwrap_or(0) as f64;
                    let max = self.attribute_at(c, "max_health", None, depth).max(1) as f64;
                    cur < max * fraction
                }
                None => false,
            },
            Check::Quest { quest, state } => self.quest_state(quest) == *state,
            Check::Custom { id, .. } => {
                return Err(format!("the check `{id}` cannot be evaluated here"))
            }
        };
        Ok(raw != cond.negate)
    }

    /// What a failing condition saw, in words.
    fn saw(&self, cond: &Condition, ctx: &Ctx) -> String {
        let name = |who: Who| match self
            .resolve_who(who, ctx)
            .and_then(|r| self.creature(r).map(|c| (r, c)))
        {
            Some((r, c)) => format!("{} ({r})", c.name),
            None => format!("no `{}` creature", who.as_str()),
        };
        match &cond.check {
            Check::HasTag { who, .. } => {
                match self.resolve_who(*who, ctx).and_then(|r| self.creature(r)) {
                    Some(c) => format!(
                        "{} with tags [{}]",
                        c.name,
                        c.tags
                            .iter()
                            .map(|t| t.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    None => name(*who),
                }
            }
            Check::Attribute { who, attribute, .. } => match self.resolve_who(*who, ctx) {
                Some(r) if self.creature(r).is_some() => {
                    format!("{attribute} = {}", self.attribute(r, attribute, ctx.target))
                }
                _ => name(*who),
            },
            Check::HasItem { who, filter, .. } => match self.resolve_who(*who, ctx) {
                Some(r) if self.creature(r).is_some() => {
                    format!("{} holds {}", name(*who), self.count_matching(r, filter))
                }
                _ => name(*who),
            },
            Check::HealthBelow { who, .. } => {
                match self.resolve_who(*who, ctx).and_then(|r| self.creature(r)) {
                    Some(c) => format!(
                        "health {} of {}",
                        c.health,
                        c.attributes.get("max_health").copied().unwrap_or(0)
                    ),
                    None => name(*who),
                }
            }
            Check::Quest { quest, .. } => format!("the quest {}", self.quest_state(quest).as_str()),
            Check::Custom { .. } => "false".into(),
        }
    }
}

/// Whether an item definition passes a filter of item, tag and rarity.
pub fn item_matches(
    content: &crate::content::Content,
    filter: &ItemFilter,
    item: &crate::id::Id,
) -> bool {
    let def = content.items.get(item);
    filter.item.as_ref().is_none_or(|i| i == item)
        && filter
            .tag
            .as_ref()
            .is_none_or(|t| def.is_some_and(|d| d.tags.contains(t)))
        && filter
            .rarity
            .as_ref()
            .is_none_or(|r| def.is_some_and(|d| d.rarity.as_ref() == Some(r)))
}

/// A condition in words, for traces and generated reasons.
pub fn describe(cond: &Condition) -> String {
    let not = if cond.negate { "not " } else { "" };
    let text = match &cond.check {
        Check::HasTag { who, tag } => format!("{} has tag {tag}", who.as_str()),
        Check::Attribute {
            who,
            attribute,
            value,
            below,
        } => {
            format!(
                "{} {attribute} {} {value}",
                who.as_str(),
                if *below { "below" } else { "at least" }
            )
        }
        Check::HasItem { who, filter, count } => {
            let what = match (&filter.item, &filter.tag) {
                (Some(i), _) => i.to_string(),
                (None, Some(t)) => format!("items tagged {t}"),
                _ => "items".into(),
            };
            let rarity = filter
                .rarity
                .as_ref()
                .map(|r| format!(" of rarity {r}"))
                .unwrap_or_default();
            format!("{} has at least {count} {what}{rarity}", who.as_str())
        }
        Check::HealthBelow { who, fraction } => format!(
            "{} health below {}%",
            who.as_str(),
            (fraction * 100.0).round()
        ),
        Check::Quest { quest, state } => format!("quest {quest} is {}", state.as_str()),
        Check::Custom { id, .. } => format!("{id}"),
    };
    format!("{not}{text}")
}
