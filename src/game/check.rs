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
                    .map(|holds| (holds, Saw::No))
            } else {
                self.observe(cond, ctx, 0)
            };
            match result {
                Ok((true, _)) => {}
                Ok((false, saw)) => return Err(Failed { index: i + 1, saw }),
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
        self.observe(cond, ctx, depth).map(|(holds, _)| holds)
    }

    /// Evaluates a built-in condition once, returning whether it holds and what it saw (for the trace).
    fn observe(&self, cond: &Condition, ctx: &Ctx, depth: u8) -> Result<(bool, Saw), String> {
        let who = match &cond.check {
            Check::HasTag { who, .. }
            | Check::Attribute { who, .. }
            | Check::HasItem { who, .. }
            | Check::HealthBelow { who, .. } => Some(*who),
            _ => None,
        };
        let creature = who
            .and_then(|w| self.resolve_who(w, ctx))
            .and_then(|r| self.creature(r).map(|c| (r, c)));
        let (raw, saw) = match (&cond.check, creature) {
            (Check::Quest { quest, state }, _) => {
                let now = self.quest_state(quest);
                (now == *state, Saw::Quest(now))
            }
            (Check::Custom { id, .. }, _) => {
                return Err(format!("the check `{id}` cannot be evaluated here"))
            }
            (_, None) => (false, Saw::Nobody),
            (Check::HasTag { tag, .. }, Some((_, c))) => {
                (c.tags.contains(tag), Saw::Tags(c.def.clone()))
            }
            (
                Check::Attribute {
                    attribute,
                    value,
                    below,
                    ..
                },
                Some((r, _)),
            ) => {
                let v = self.attribute_at(r, attribute, ctx.target.filter(|t| *t != r), depth);
                (
                    if *below { v < *value } else { v >= *value },
                    Saw::Number(v),
                )
            }
            (Check::HasItem { filter, count, .. }, Some((r, _))) => {
                let held = self.count_matching(r, filter);
                (held >= *count, Saw::Number(held as i64))
            }
            (Check::HealthBelow { fraction, .. }, Some((r, c))) => {
                let max = self.attribute_at(r, "max_health", None, depth).max(1);
                (
                    (c.health as f64) < max as f64 * fraction,
                    Saw::Health {
                        current: c.health,
                        max,
                    },
                )
            }
        };
        Ok((raw != cond.negate, saw))
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
