//! Encounters: the deterministic narrative decision service of seed 000.
//!
//! A game opens an encounter (the roguelike's encounter room takes its fixed one or draws one
//! eligible by weight from the stream `encounter:select:<scene>:<floor>/<room>`). Its options are
//! shown available or blocked with a reason, never with their probability. Choosing one applies the
//! costs, rolls on `encounter:roll:<scene>:<encounter>:<option>`, applies the rewards on success,
//! and commits all of it at once: if anything fails, nothing is committed and the encounter stays open.

use super::apply::ev;
use super::check::describe;
use super::{CreatureRef, Ctx, Event, Game, Outcome};
use crate::content::Name;
use crate::content::{Check, Condition, Content, Value};
use crate::id::Id;

/// What the player sees of an open encounter.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct EncounterView {
    /// The encounter's ID.
    pub id: Id,
    /// Its title.
    pub title: Name,
    /// Its description.
    pub description: String,
    /// Its options, in order.
    pub options: Vec<OptionView>,
}

/// One option of an open encounter as the player sees it.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct OptionView {
    /// What the option says.
    pub text: Name,
    /// Why the option cannot be chosen; `None` when it can.
    pub blocked: Option<Name>,
}

impl Game {
    /// Opens the encounter `id` within the turn under way (a game's verb that enters a place
    /// holding one): says its description and raises `encounter_started`; its options wait for
    /// [`choose`](Game::choose), whose rolls draw from streams named after the
    /// [scene](Game::begin_scene). [`draw_encounter`](Game::draw_encounter) picks one by weight.
    pub fn open_encounter(&mut self, id: &Id) -> Result<(), crate::Error> {
        let Some(e) = self.content.encounters.get(id) else {
            return Err(crate::Error::Refused(format!(
                "there is no encounter `{id}`"
            )));
        };
        let description = e.description.clone();
        self.state.encounter = Some(id.clone());
        if !description.is_empty() {
            self.say(description);
        }
        self.push(
            Event::new(
                ev::ENCOUNTER_STARTED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(id))],
            ),
            None,
        );
        Ok(())
    }

    /// Draws one of the encounters eligible now (their conditions hold for the player), by
    /// weight, from the random stream `stream`; `None` when none is. A game opens the one drawn
    /// with [`start_encounter`](Game::start_encounter).
    pub fn draw_encounter(&mut self, stream: &str) -> Option<Id> {
        let content = self.content.clone();
        let ctx = Ctx::command("encounter");
        let eligible: Vec<(&Id, f64)> = content
            .encounters
            .values()
            .filter(|e| e.weight > 0.0)
            .filter(|e| {
                e.condition
                    .iter()
                    .all(|c| self.holds_at(c, &ctx, 0).unwrap_or(false))
            })
            .map(|e| (&e.id, e.weight))
            .collect();
        let total: f64 = eligible.iter().map(|(_, w)| w).sum();
        let last = eligible.last()?.0;
        let mut point = self.rng.roll(stream) * total;
        let mut pick = last;
        for (id, w) in &eligible {
            if point < *w {
                pick = id;
                break;
            }
            point -= w;
        }
        Some(pick.clone())
    }

    /// Starts an encounter by ID, as if the player had entered a room holding it (tests, `lantern play`).
    pub fn start_encounter(&mut self, id: &Id) -> Result<Outcome, crate::Error> {
        if !self.content.encounters.contains_key(id) {
            return Err(crate::Error::Refused(format!(
                "there is no encounter `{id}`"
            )));
        }
        if self.in_combat() {
            return Err("not during a fight".into());
        }
        self.begin_turn();
        self.open_encounter(id)?;
        self.drain();
        Ok(Outcome::Done)
    }

    /// Leaves the open encounter without a choice, which is allowed only when every option of it
    /// is blocked: an encounter no option of which a player can take must not trap the run.
    pub fn leave_encounter(&mut self) -> Result<(), crate::Error> {
        let view = self.encounter().ok_or("there is no encounter to leave")?;
        if let Some(open) = view.options.iter().position(|o| o.blocked.is_none()) {
            return Err(crate::Error::Refused(format!(
                "option {} is open to you: an encounter is left without a choice only when every option is blocked",
                open + 1
            )));
        }
        self.state.encounter = None;
        let line = self.text("no_choice_open", &[]);
        self.say(line);
        Ok(())
    }

    /// The open encounter with every option's availability.
    pub fn encounter(&self) -> Option<EncounterView> {
        let id = self.state.encounter.as_ref()?;
        let e = self.content.encounters.get(id)?;
        let ctx = Ctx::command("encounter");
        let options = e
            .options
            .iter()
            .map(|o| OptionView {
                text: o.text.clone(),
                blocked: o.requirements.iter().find_map(|r| self.blocked_by(r, &ctx)),
            })
            .collect();
        Some(EncounterView {
            id: id.clone(),
            title: e.title.clone(),
            description: e.description.clone(),
            options,
        })
    }

    /// The reason a requirement blocks, or `None` when it holds.
    fn blocked_by(&self, req: &Condition, ctx: &Ctx) -> Option<Name> {
        let holds = self.holds_at(req, ctx, 0).unwrap_or(false);
        (!holds).then(|| {
            req.reason
                .clone()
                .unwrap_or_else(|| self.generated_reason(req))
        })
    }

    /// A reason in the player's words, from the condition: "needs at least 100 Gold".
    fn generated_reason(&self, req: &Condition) -> Name {
        let c = &self.content;
        let text = match (&req.check, req.negate) {
            (Check::HasItem { filter, count, .. }, false) => needs_items(c, filter, *count),
            (Check::HasItem { filter, .. }, true) => {
                let what = filter
                    .item
                    .as_ref()
                    .map(|i| item_name(c, i))
                    .or(filter.tag.as_ref().map(|t| tag_name(c, t)))
                    .unwrap_or_default();
                c.text("needs_no", &[("what", what.into())])
            }
            (
                Check::Attribute {
                    attribute,
                    value,
                    below,
                    ..
                },
                false,
            ) => {
                let key = if *below {
                    "needs_below"
                } else {
                    "needs_at_least_value"
                };
                c.text(
                    key,
                    &[
                        ("attribute", attribute.as_str().into()),
                        ("value", (*value).into()),
                    ],
                )
            }
            (Check::HealthBelow { fraction, .. }, false) => {
                let percent = (fraction * 100.0).round() as i64;
                c.text("needs_health_below", &[("percent", percent.into())])
            }
            (Check::HasTag { tag, .. }, false) => {
                c.text("needs_to_be", &[("tag", tag_name(c, tag).into())])
            }
            (Check::HasTag { tag, .. }, true) => {
                c.text("cannot_be", &[("tag", tag_name(c, tag).into())])
            }
            (Check::Quest { quest, state }, negate) => needs_quest(c, quest, *state, negate),
            _ => c.text("needs_other", &[("what", describe(req).into())]),
        };
        text.into()
    }

    /// Chooses option `n` (from 1) of the open encounter.
    /// Out of range or blocked: refused, the encounter stays open (EC11). A failing cost or reward:
    /// nothing is committed, the encounter stays open, and a problem names the file and line.
    pub fn choose(&mut self, n: usize) -> Result<Outcome, crate::Error> {
        let content = self.content.clone();
        let id = self
            .state
            .encounter
            .clone()
            .ok_or("there is no encounter to choose in")?;
        let e = content
            .encounters
            .get(&id)
            .ok_or("the encounter no longer exists")?;
        let option = n
            .checked_sub(1)
            .and_then(|i| e.options.get(i))
            .ok_or_else(|| format!("there is no option {n}; choose 1 to {}", e.options.len()))?;
        let view = self
            .encounter()
            .ok_or("there is no encounter to choose in")?;
        if let Some(reason) = &view.options[n - 1].blocked {
            return Err(crate::Error::Refused(format!(
                "option {n} is blocked: {reason}"
            )));
        }
        let (cause, stream) = (
            format!("encounter {id} option {n}"),
            format!("encounter:{}:{id}:{n}", self.state.scene),
        );
        let ctx = Ctx::player(&cause, &stream);
        if let Err(f) = self.conditions_hold(&option.requirements, &ctx) {
            let req = &option.requirements[f.index - 1];
            return Err(crate::Error::Refused(format!(
                "option {n} is blocked: {}",
                req.reason
                    .clone()
                    .unwrap_or_else(|| self.generated_reason(req))
            )));
        }
        // The working copy: everything below, the turn count included, is committed whole or not at all.
        let undo = self.undo_point(true);
        self.begin_turn();
        // The option is one working copy: stack caps apply when it is committed, after its
        // rewards (seed 000, F4).
        self.lists.depth += 1;
        let result = self.apply_list(&option.costs, &ctx).and_then(|()| {
            let success = if option.probability <= 0.0 {
                false
            } else if option.probability >= 1.0 {
                true
            } else {
                let roll_stream = format!("encounter:roll:{}:{id}:{n}", self.state.scene);
                // F1: a roll equal to the probability succeeds.
                self.rng.roll(&roll_stream) <= option.probability
            };
            if success {
                self.apply_list(&option.rewards, &ctx)?;
            }
            Ok(success)
        });
        self.close_list();
        match result {
            Ok(success) => {
                self.keep(undo);
                self.state.encounter = None;
                // Only a roll can go one way or the other; a certain success just happens, and a
                // certain failure (probability 0) says so as a lost roll does.
                if option.probability < 1.0 {
                    self.say(if success {
                        "The roll goes your way."
                    } else {
                        "The roll does not go your way."
                    });
                }
                self.push(
                    Event::new(
                        ev::ENCOUNTER_RESOLVED,
                        CreatureRef::Player,
                        None,
                        vec![
                            Some(Value::id(&id)),
                            Some(Value::Int(n as i64)),
                            Some(Value::Bool(success)),
                        ],
                    ),
                    Some(cause.as_str().into()),
                );
                Ok(self.end_turn())
            }
            Err(d) => {
                self.undo(undo);
                let message = d.message.clone();
                self.problems.push(d);
                Err(crate::Error::Refused(format!(
                    "option {n} cannot be carried out: {message}"
                )))
            }
        }
    }
}

/// An item's name, or its ID when the content has no such item.
fn item_name(c: &Content, id: &Id) -> Name {
    (c.items.get(id))
        .map(|i| i.name.clone())
        .unwrap_or_else(|| id.to_string().into())
}

/// A tag's name, or its ID when the content has no such tag.
fn tag_name(c: &Content, id: &Id) -> Name {
    (c.tags.get(id))
        .map(|t| t.name.clone())
        .unwrap_or_else(|| id.to_string().into())
}

/// "Needs at least 2 Gold (rare)": a `has_item` requirement in the player's words.
fn needs_items(c: &Content, filter: &crate::content::ItemFilter, count: u32) -> String {
    let what = match (&filter.item, &filter.tag) {
        (Some(i), _) => item_name(c, i),
        (None, Some(t)) => tag_name(c, t),
        _ => "items".into(),
    };
    let rarity = filter
        .rarity
        .as_ref()
        .map(|r| {
            let name = (c.rarities.iter().find(|x| x.id == *r))
                .map(|x| x.name.to_string())
                .unwrap_or_else(|| r.to_string());
            format!(" ({name})")
        })
        .unwrap_or_default();
    c.text(
        "needs_at_least",
        &[
            ("count", count.into()),
            ("what", what.into()),
            ("rarity", rarity.into()),
        ],
    )
}

/// "Needs the quest Rats to be under way" (or not to be): a `quest` requirement.
fn needs_quest(c: &Content, quest: &Id, state: crate::content::QuestState, negate: bool) -> String {
    let name = (c.quests.get(quest))
        .map(|q| q.name.clone())
        .unwrap_or_else(|| quest.to_string().into());
    let state = c.text(
        match state {
            crate::content::QuestState::NotStarted => "quest_not_started",
            crate::content::QuestState::Active => "quest_under_way",
            crate::content::QuestState::Done => "quest_done",
        },
        &[],
    );
    let key = if negate {
        "needs_quest_not"
    } else {
        "needs_quest"
    };
    c.text(key, &[("quest", name.into()), ("state", state.into())])
}
