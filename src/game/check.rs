//! Evaluating conditions and attributes against the state.

use super::{CreatureRef, Ctx, Game};
use crate::content::{Check, Condition, ItemFilter, QuestState, Who};

/// How deep modifiers' conditions may read attributes that have modifiers of their own.
const MODIFIER_DEPTH: u8 = 8;

/// What a failing condition saw: cheap to record on every evaluation, put into words only when asked.
/// `repr(u8)` gives it a plain tag byte: with the layout Rust picks, reading which variant the old
/// value was (to drop it before writing the new one) is a decode on every evaluation.
#[derive(Debug, Clone, PartialEq)]
#[repr(u8)]
#[doc(hidden)]
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
    /// Whether the creature was the player.
    Player(bool),
    /// The setting's value (none when no mod declares it any more).
    Setting(Option<crate::content::SettingValue>),
    /// A Lua check said no.
    No,
    Error(String),
}

/// A failed condition: its position in the list (from 1).
pub(crate) struct Failed {
    pub(crate) index: usize,
}

impl Game {
    /// Resolves `self`, `target` or `player` in a context.
    pub(crate) fn resolve_who(&self, who: Who, ctx: &Ctx) -> Option<CreatureRef> {
        match who {
            Who::Bearer => Some(ctx.bearer),
            Who::Target => ctx.target,
            Who::Player => Some(CreatureRef::Player),
            Who::Source => ctx.source,
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
        // A modifier's condition sees the attribute as everything else does, modifiers included:
        // the loader refuses modifiers that depend on what they change, so this ends; the depth
        // only guards against what it could not see.
        if depth > MODIFIER_DEPTH {
            return value;
        }
        let ctx = Ctx {
            bearer: who,
            target: against,
            source: None,
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
                    .all(|cond| self.holds_at(cond, &ctx, depth + 1).unwrap_or(false))
                {
                    value = value.saturating_add(m.add);
                }
            }
        }
        value
    }

    /// How many items matching `filter` a creature holds.
    pub(crate) fn count_matching(&self, who: CreatureRef, filter: &ItemFilter) -> u32 {
        let Some(c) = self.creature(who) else {
            return 0;
        };
        c.inventory
            .iter()
            .filter(|s| item_matches(&self.content, filter, &s.item))
            .map(|s| s.count)
            .sum()
    }

    /// Whether a quest is not started, active or done.
    pub(crate) fn quest_state(&self, quest: &crate::id::Id) -> QuestState {
        match self.state.quests.get(quest) {
            None => QuestState::NotStarted,
            Some(p) if p.done => QuestState::Done,
            Some(_) => QuestState::Active,
        }
    }

    /// Evaluates a condition list (AND); the first failure is returned for the trace. The one
    /// evaluator of conditions: triggers, quests, modifiers, AI rules, encounters' eligibility and
    /// requirements all come here, and a Lua check is asked wherever it stands.
    pub(crate) fn conditions_hold(&self, list: &[Condition], ctx: &Ctx) -> Result<(), Failed> {
        let mut saw = Saw::No;
        match self.first_failing(list, ctx, &mut saw) {
            None => Ok(()),
            Some(index) => Err(Failed { index }),
        }
    }

    /// Evaluates a condition list (AND) and returns the position (from 1) of the first condition that
    /// fails, having written what it saw into `saw`. Dispatch passes the trace's own slot, so what
    /// a condition saw is written once, where it is kept.
    #[inline(always)]
    pub(super) fn first_failing(
        &self,
        list: &[Condition],
        ctx: &Ctx,
        saw: &mut Saw,
    ) -> Option<usize> {
        for (i, cond) in list.iter().enumerate() {
            if !self.test(cond, ctx, 0, saw) {
                return Some(i + 1);
            }
        }
        None
    }

    /// A check registered by a script: the host answers it, seeing the game read-only.
    fn custom_check(
        &self,
        id: &crate::id::Id,
        args: &std::collections::BTreeMap<String, crate::content::Value>,
        ctx: &Ctx,
    ) -> Result<bool, String> {
        if let Some(answer) = self.host_check(id, args, ctx) {
            return answer;
        }
        let Ok(mut slot) = self.scripts.try_borrow_mut() else {
            return Err(format!(
                "the check `{id}` cannot run inside another script's call (a check asked while a script runs)"
            ));
        };
        let Some(host) = slot.as_mut() else {
            return Err(if self.scripts_busy {
                format!("the check `{id}` cannot run inside another script's call")
            } else {
                format!("no script registers the check `{id}`")
            });
        };
        host.check(self, id, args, ctx).map_err(String::from)
    }

    /// Whether one condition holds (with `not` applied); an error (a Lua check that failed) is `Err`.
    pub(crate) fn holds_at(&self, cond: &Condition, ctx: &Ctx, depth: u8) -> Result<bool, String> {
        let mut saw = Saw::No;
        match (self.test(cond, ctx, depth, &mut saw), saw) {
            (false, Saw::Error(message)) => Err(message),
            (holds, _) => Ok(holds),
        }
    }

    /// Evaluates a built-in condition once: whether it holds and, when it does not, what it saw
    /// (written into `saw`, for the trace; left alone when it holds).
    ///
    /// `has_item` and `has_tag`, the checks most triggers carry, are answered here, inlined into
    /// dispatch; the rest go through [`Game::test_other`], so the common case pays no call and no
    /// jump table (`git log` of this file has what it saved).
    #[inline(always)]
    fn test(&self, cond: &Condition, ctx: &Ctx, depth: u8, saw: &mut Saw) -> bool {
        match &cond.check {
            Check::HasItem { who, filter, count } => {
                let Some(c) = self.subject(*who, ctx) else {
                    return nobody(cond, saw);
                };
                let held: u32 = c
                    .inventory
                    .iter()
                    .filter(|s| item_matches(&self.content, filter, &s.item))
                    .map(|s| s.count)
                    .sum();
                let holds = (held >= *count) != cond.negate;
                if !holds {
                    *saw = Saw::Number(held as i64);
                }
                holds
            }
            Check::HasTag { who, tag } => {
                let Some(c) = self.subject(*who, ctx) else {
                    return nobody(cond, saw);
                };
                let holds = c.tags.contains(tag) != cond.negate;
                if !holds {
                    *saw = Saw::Tags(c.def.clone());
                }
                holds
            }
            _ => self.test_other(cond, ctx, depth, saw),
        }
    }

    /// The creature a check asks about, if it is here.
    #[inline(always)]
    fn subject(&self, who: Who, ctx: &Ctx) -> Option<&crate::game::Creature> {
        let r = match who {
            Who::Bearer => ctx.bearer,
            Who::Target => ctx.target?,
            Who::Player => CreatureRef::Player,
            Who::Source => ctx.source?,
        };
        self.creature(r)
    }

    /// [`Game::test`] for the checks it does not answer inline.
    fn test_other(&self, cond: &Condition, ctx: &Ctx, depth: u8, saw: &mut Saw) -> bool {
        let who = match &cond.check {
            Check::Attribute { who, .. } | Check::HealthBelow { who, .. } => *who,
            Check::IsPlayer { who } => {
                let is = self.resolve_who(*who, ctx) == Some(CreatureRef::Player);
                let holds = is != cond.negate;
                if !holds {
                    *saw = Saw::Player(is);
                }
                return holds;
            }
            Check::Quest { quest, state } => {
                let now = self.quest_state(quest);
                let holds = (now == *state) != cond.negate;
                if !holds {
                    *saw = Saw::Quest(now);
                }
                return holds;
            }
            Check::Setting { id, test } => {
                let value = self.setting(id.as_str());
                let holds = value.is_some_and(|v| test.passes(v)) != cond.negate;
                if !holds {
                    *saw = Saw::Setting(value.cloned());
                }
                return holds;
            }
            Check::Game { args, index, .. } => {
                return answered(
                    (self.code.checks[*index])(self, args, ctx),
                    cond.negate,
                    saw,
                );
            }
            Check::Custom { id, args } => {
                return answered(self.custom_check(id, args, ctx), cond.negate, saw);
            }
            // Answered by `test` itself.
            Check::HasItem { .. } | Check::HasTag { .. } => {
                return self.test(cond, ctx, depth, saw)
            }
        };
        let Some((r, c)) = self
            .resolve_who(who, ctx)
            .and_then(|r| self.creature(r).map(|c| (r, c)))
        else {
            return nobody(cond, saw);
        };
        match &cond.check {
            Check::Attribute {
                attribute,
                value,
                below,
                ..
            } => {
                let v = self.attribute_at(r, attribute, ctx.target.filter(|t| *t != r), depth);
                let holds = (if *below { v < *value } else { v >= *value }) != cond.negate;
                if !holds {
                    *saw = Saw::Number(v);
                }
                holds
            }
            Check::HealthBelow { fraction, .. } => {
                let max = self.attribute_at(r, "max_health", None, depth).max(1);
                let holds = ((c.health as f64) < max as f64 * fraction) != cond.negate;
                if !holds {
                    *saw = Saw::Health {
                        current: c.health,
                        max,
                    };
                }
                holds
            }
            // Answered before the creature was looked up.
            Check::Quest { .. }
            | Check::Setting { .. }
            | Check::IsPlayer { .. }
            | Check::Custom { .. }
            | Check::Game { .. }
            | Check::HasItem { .. }
            | Check::HasTag { .. } => false,
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
            Saw::Player(true) => "the player".into(),
            Saw::Player(false) => "not the player".into(),
            Saw::No => "the script said no".into(),
            Saw::Setting(Some(v)) => format!("the setting at {v}"),
            Saw::Setting(None) => "no such setting".into(),
            Saw::Error(message) => format!("an error: {message}"),
        }
    }
}

/// Whether an item definition passes a filter of item, tag and rarity.
pub(super) fn item_matches(
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
pub(super) fn describe(cond: &Condition) -> String {
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
        Check::IsPlayer { who } => format!("{} is the player", who.as_str()),
        Check::Setting { id, test } => match test {
            crate::content::SettingTest::AtLeast(x) => format!("setting {id} >= {x}"),
            crate::content::SettingTest::Below(x) => format!("setting {id} < {x}"),
            crate::content::SettingTest::Is(v) => format!("setting {id} is {v}"),
        },
        Check::Custom { id, .. } | Check::Game { id, .. } => format!("{id}"),
    };
    format!("{not}{text}")
}

/// A check about a creature that is not here: the check itself is false, so only its `not` holds.
fn nobody(cond: &Condition, saw: &mut Saw) -> bool {
    if !cond.negate {
        *saw = Saw::Nobody;
    }
    cond.negate
}

/// What a script check's error says once it is switched off after failing again and again: it
/// is not reported each time it is asked.
pub(crate) const SWITCHED_OFF: &str = "is switched off after";

/// Whether a game's or a script's check holds, `not` applied; a check that failed holds not, and
/// its error is what it saw.
fn answered(answer: Result<bool, String>, negate: bool, saw: &mut Saw) -> bool {
    match answer {
        Ok(answer) => {
            let holds = answer != negate;
            if !holds {
                *saw = Saw::No;
            }
            holds
        }
        Err(message) => {
            *saw = Saw::Error(message);
            false
        }
    }
}
