//! Evaluating conditions and attributes against the state.

use super::{CreatureRef, Ctx, Game};
use crate::content::{Check, Condition, ItemFilter, QuestState, Who};

/// What a failing condition saw: cheap to record on every evaluation, put into words only when asked.
#[derive(Debug, Clone, PartialEq)]
pub enum Saw {
    /// The creature the condition asks about does not exist here.
    Nobody,
    /// A creature (by definition) whose tags did not match.
    Tags(crate::id::Id),
    /// The number it compared: an attribute or an item count.
    Number(i64),
    Health {
        current: i64,
        max: i64,
    },
    Quest(QuestState),
    /// A Lua check said no.
    No,
    Error(String),
}

/// A failed condition: its position in the list (from 1) and what it saw.
pub struct Failed {
    pub index: usize,
    pub saw: Saw,
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
            cause: "",
            stream: "",
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
                        saw: self.saw(cond, ctx),
                    })
                }
                Err(message) => {
                    return Err(Failed {
                        index: i + 1,
                        saw: Saw::Error(message),
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

    /// What a failing condition saw.
    fn saw(&self, cond: &Condition, ctx: &Ctx) -> Saw {
        let who = match &cond.check {
            Check::HasTag { who, .. }
            | Check::Attribute { who, .. }
            | Check::HasItem { who, .. }
            | Check::HealthBelow { who, .. } => Some(*who),
            _ => None,
        };
        let creature = who
            .and_then(|w| self.resolve_who(w, ctx))
            .filter(|r| self.creature(*r).is_some());
        match (&cond.check, creature) {
            (Check::Quest { quest, .. }, _) => Saw::Quest(self.quest_state(quest)),
            (Check::Custom { .. }, _) => Saw::No,
            (_, None) => Saw::Nobody,
            (Check::HasTag { .. }, Some(r)) => Saw::Tags(
                self.creature(r)
                    .map(|c| c.def.clone())
                    .unwrap_or_else(|| crate::id::Id::new("core", "none")),
            ),
            (Check::Attribute { attribute, .. }, Some(r)) => {
                Saw::Number(self.attribute(r, attribute, ctx.target))
            }
            (Check::HasItem { filter, .. }, Some(r)) => {
                Saw::Number(self.count_matching(r, filter) as i64)
            }
            (Check::HealthBelow { .. }, Some(r)) => Saw::Health {
                current: self.creature(r).map_or(0, |c| c.health),
                max: self.attribute(r, "max_health", None),
            },
        }
    }
}

impl Saw {
    pub fn render(&self, content: &crate::content::Content) -> String {
        match self {
            Saw::Nobody => "no such creature here".into(),
            Saw::Tags(def) => {
                let tags = content
                    .creatures
                    .get(def)
                    .map(|c| {
                        c.tags
                            .iter()
                            .map(|t| t.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                format!("{def} with tags [{tags}]")
            }
            Saw::Number(n) => n.to_string(),
            Saw::Health { current, max } => format!("health {current} of {max}"),
            Saw::Quest(state) => format!("the quest {}", state.as_str()),
            Saw::No => "the script said no".into(),
            Saw::Error(message) => format!("an error: {message}"),
        }
    }
}

/// Whether an item definition passes a filter of item, tag and rarity.
pub fn item_matches(
    content: &crate::content::Content,
    filter: &ItemFilter,
    item: &crate::id::Id,
) -> bool {
    if filter.item.as_ref().is_some_and(|i| i != item) {
        return false;
    }
    if filter.tag.is_none() && filter.rarity.is_none() {
        return true;
    }
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
