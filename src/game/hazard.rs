//! The hazard game inside a run: the engine's state machine behind `Game`'s door, with its events
//! (`hazard_started`, `card_played`, `hazard_round_ended`, `hazard_ended`) and its actions
//! (card actions, failure penalties, the outcome table) applied through `apply_list`.

use super::apply::ev;
use super::{CreatureRef, Ctx, Event, Game, Outcome};
use crate::content::{ActionList, Value};
use crate::hazard::engine::{HazardRun, Rolls, Route, Side};
use crate::id::Id;

/// The game's named streams as the engine's randomness: `hazard:<sequence>:<hazard>:shuffle|dice`.
struct Streams<'a> {
    rng: &'a mut crate::rng::Streams,
    prefix: String,
}

impl Rolls for Streams<'_> {
    fn shuffle(&mut self, n: usize) -> usize {
        self.rng.below(&format!("{}:shuffle", self.prefix), n)
    }
    fn die(&mut self, n: usize) -> usize {
        self.rng.below(&format!("{}:dice", self.prefix), n)
    }
}

impl Game {
    fn hazard_streams(&mut self, id: &Id) -> Streams<'_> {
        let prefix = format!("hazard:{}:{id}", self.state.scene);
        Streams {
            rng: &mut self.rng,
            prefix,
        }
    }

    /// Opens the hazard `id` within the turn under way (a game's verb that enters a place holding
    /// one): reveals it, draws the opening hand and raises `hazard_started`. Its shuffles and
    /// dice draw from streams named after the [scene](Game::begin_scene).
    pub fn open_hazard(&mut self, id: &Id) -> Result<(), crate::Error> {
        let content = self.content.clone();
        let hazard = content
            .hazards
            .get(id)
            .ok_or_else(|| format!("there is no hazard `{id}`"))?;
        let deck = self.state.deck.clone();
        let run = HazardRun::start(hazard, &deck, &mut self.hazard_streams(id));
        self.state.hazard = Some(run);
        let line = self.text("hazard_begins", &[("hazard", (&hazard.name).into())]);
        self.say(line);
        self.push(
            Event::new(
                ev::HAZARD_STARTED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(id))],
            ),
            None,
        );
        Ok(())
    }

    /// Opens a hazard as if its room had been entered (tests, the play session's `--dev`).
    pub fn start_hazard(&mut self, id: &Id) -> Result<Outcome, crate::Error> {
        if self.state.hazard.is_some() {
            return Err("a hazard is already open".into());
        }
        self.begin_turn();
        self.open_hazard(id)?;
        Ok(self.end_turn())
    }

    /// The hazard being played, if any.
    pub fn hazard(&self) -> Option<&HazardRun> {
        self.state.hazard.as_ref()
    }

    fn hazard_mut(&mut self) -> Result<HazardRun, String> {
        self.state
            .hazard
            .clone()
            .ok_or_else(|| "there is no hazard here".into())
    }

    /// The binding route choice; `progress` picks the safe route's type where the hazard allows.
    pub fn choose_route(
        &mut self,
        route: Route,
        progress: Option<&Id>,
    ) -> Result<Outcome, crate::Error> {
        let content = self.content.clone();
        let mut run = self.hazard_mut()?;
        let hazard = content
            .hazards
            .get(&run.hazard)
            .ok_or("the hazard no longer exists")?;
        let id = run.hazard.clone();
        run.choose_route(hazard, route, progress, &mut self.hazard_streams(&id))?;
        self.begin_turn();
        let faces: Vec<String> = run
            .dice
            .iter()
            .map(|d| face_text(&content, d.face))
            .collect();
        let route_word = self.text(&format!("route_{}", route.name()), &[]);
        let line = self.text(
            "route_taken",
            &[
                ("route", route_word.into()),
                ("dice", faces.join(", ").into()),
            ],
        );
        self.say(line);
        self.state.hazard = Some(run);
        Ok(self.end_turn())
    }

    /// Plays the card at `index` (from 0) of the hand, its top or its bottom action.
    pub fn play_card(&mut self, index: usize, side: Side) -> Result<Outcome, crate::Error> {
        let content = self.content.clone();
        let mut run = self.hazard_mut()?;
        let id = run.hazard.clone();
        // `run` is a copy: the state's run stays as it was if the play is refused.
        let before = run.clone();
        let card = run.play(&content, index, side, &mut self.hazard_streams(&id))?;
        let pending = std::mem::take(&mut run.pending);
        let did = content
            .hazards
            .get(&id)
            .map(|h| what_changed(&content, h, &before, &run, &card))
            .unwrap_or_default();
        self.begin_turn();
        self.state.hazard = Some(run);
        let name = content
            .cards
            .get(&card)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        let which = if side == Side::Top { "top" } else { "bottom" };
        // The event's payload keeps the engine's word; the line is in the player's language.
        let half = content.word(which);
        let line = if did.is_empty() {
            self.text(
                "card_changes_nothing",
                &[("card", (&name).into()), ("half", half.as_str().into())],
            )
        } else {
            let changes = ("changes", did.join(", ").into());
            self.text(
                "card_played",
                &[
                    ("card", (&name).into()),
                    ("half", half.as_str().into()),
                    changes,
                ],
            )
        };
        self.say(line);
        self.push(
            Event::new(
                ev::CARD_PLAYED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(&card)), Some(Value::str(which))],
            ),
            None,
        );
        if !pending.is_empty() {
            let cause = format!("card {card}");
            let stream = format!("card:{card}");
            let ctx = Ctx::player(&cause, &stream);
            let list = ActionList {
                span: pending[0].span,
                actions: pending,
            };
            if let Err(mut d) = self.apply_list(&list, &ctx) {
                // The list is undone, the play is not: say which is which.
                let stand = format!(
                    "none of {name}'s actions was applied; the play stands (its progress counted and its cost was paid)"
                );
                d.message = match d.message.strip_suffix(super::apply::NOTHING_APPLIED) {
                    Some(head) => format!("{head}{stand}"),
                    None => format!("{}; {stand}", d.message),
                };
                self.problems.push(d);
            }
        }
        Ok(self.end_turn())
    }

    /// Adds any card straight to the hand without touching the deck (the seed's dev mode, FR-13).
    pub(crate) fn dev_card(&mut self, card: &Id) -> Result<(), crate::Error> {
        if !self.content.cards.contains_key(card) {
            return Err(crate::Error::Refused(format!("there is no card `{card}`")));
        }
        let run = self
            .state
            .hazard
            .as_mut()
            .ok_or("there is no hazard here")?;
        run.hand.push(card.clone());
        Ok(())
    }

    /// Ends the round: O or X (with the hazard's penalty), and after the final round the score and
    /// its outcome.
    pub fn end_hazard_round(&mut self) -> Result<Outcome, crate::Error> {
        let content = self.content.clone();
        let mut run = self.hazard_mut()?;
        let id = run.hazard.clone();
        let hazard = content
            .hazards
            .get(&id)
            .ok_or("the hazard no longer exists")?;
        let end = run.end_round(&content, &mut self.hazard_streams(&id))?;
        self.begin_turn();
        let mark = if end.success { "O" } else { "X" };
        let line = self.text(
            "round_ended",
            &[("round", end.round.into()), ("mark", mark.into())],
        );
        self.say(line);
        self.state.hazard = Some(run.clone());
        self.push(
            Event::new(
                ev::HAZARD_ROUND_ENDED,
                CreatureRef::Player,
                None,
                vec![Some(Value::Int(end.round as i64)), Some(Value::str(mark))],
            ),
            None,
        );
        let cause = format!("hazard {id}");
        let stream = format!("hazard:{}:{id}:actions", self.state.scene);
        let ctx = Ctx::player(&cause, &stream);
        if !end.success {
            for list in [
                Some(&hazard.penalty),
                end.last.then_some(&hazard.final_penalty),
            ]
            .into_iter()
            .flatten()
            {
                if let Err(d) = self.apply_list(list, &ctx) {
                    self.problems.push(d);
                }
            }
        }
        if end.last {
            let score = run.score();
            let line = self.text("hazard_over", &[("score", format!("{score:+}").into())]);
            self.say(line);
            if let Some(outcome) = hazard.outcome(score) {
                if let Err(d) = self.apply_list(outcome, &ctx) {
                    self.problems.push(d);
                }
            }
            self.state.hazard = None;
            let route = run.route.map(|r| r.name()).unwrap_or("none");
            self.push(
                Event::new(
                    ev::HAZARD_ENDED,
                    CreatureRef::Player,
                    None,
                    vec![
                        Some(Value::id(&id)),
                        Some(Value::str(route)),
                        Some(Value::Int(score)),
                    ],
                ),
                None,
            );
        }
        Ok(self.end_turn())
    }
}

#[doc(hidden)]
pub fn describe_face(face: crate::hazard::Face) -> String {
    match face {
        crate::hazard::Face::Color(c) => c.name().to_string(),
        crate::hazard::Face::X => "X".into(),
    }
}

/// A die's face in the content's language (`X` in every language).
pub(crate) fn face_text(content: &crate::content::Content, face: crate::hazard::Face) -> String {
    match face {
        crate::hazard::Face::Color(c) => content.text(c.name(), &[]),
        crate::hazard::Face::X => "X".into(),
    }
}

/// What a play changed, in the player's words: progress, focus, cards drawn, dice turned, spent
/// and refreshed, an enchantment placed.
fn what_changed(
    content: &crate::content::Content,
    h: &crate::content::Hazard,
    before: &crate::hazard::engine::HazardRun,
    after: &crate::hazard::engine::HazardRun,
    card: &Id,
) -> Vec<String> {
    let mut out = Vec::new();
    let types = after.meter_types(h);
    let needs = after.thresholds(h);
    for (i, (now, was)) in after.meters.iter().zip(&before.meters).enumerate() {
        if now != was {
            let kind = types
                .get(i)
                .and_then(|t| content.progress_types.get(*t))
                .map_or_else(|| "progress".into(), |p| p.name.to_string());
            out.push(format!(
                "{:+} {kind} ({now}/{})",
                now - was,
                needs.get(i).copied().unwrap_or(0)
            ));
        }
    }
    if after.focus > before.focus {
        out.push(content.text("focus_for_next", &[("focus", after.focus.into())]));
    }
    // The played card left the hand; anything else new in it was drawn.
    let mut left = before.hand.clone();
    if let Some(i) = left.iter().position(|c| c == card) {
        left.remove(i);
    }
    let mut drawn = Vec::new();
    for c in &after.hand {
        match left.iter().position(|l| l == c) {
            Some(i) => {
                left.remove(i);
            }
            None => drawn.push(
                content
                    .cards
                    .get(c)
                    .map_or_else(|| c.to_string(), |d| d.name.to_string()),
            ),
        }
    }
    if !drawn.is_empty() {
        out.push(content.text("you_draw", &[("cards", drawn.join(", ").into())]));
    }
    for (i, (now, was)) in after.dice.iter().zip(&before.dice).enumerate() {
        if now.face != was.face || now.state != was.state {
            let face = face_text(content, now.face);
            let state = content.text(now.state.name(), &[]);
            let (die, state) = (("die", (i + 1).into()), ("state", state.into()));
            out.push(if now.face != was.face {
                content.text("die_now", &[die, ("face", face.into()), state])
            } else {
                content.text("die_state", &[die, state])
            });
        }
    }
    if after.enchanted.len() > before.enchanted.len() {
        out.push(content.text("stays_enchantment", &[]));
    }
    out
}
