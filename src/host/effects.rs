//! What a game's action, check and Lua function are handed: [`Effects`] (the game's state to
//! change, events to raise, lines to say, inside the action list's transaction) and [`Query`] (the
//! same, read-only).

use super::GameState;
use crate::content::{Content, Value};
use crate::game::{CreatureRef, Ctx, Game};
use std::marker::PhantomData;

/// An action of the game at work: everything it does goes into the transaction of the action
/// list it stands in, and is undone with it when a later action of the list fails.
pub struct Effects<'g, S> {
    game: &'g mut Game,
    cause: &'g str,
    stream: &'g str,
    _state: PhantomData<fn() -> S>,
}

impl<'g, S: GameState> Effects<'g, S> {
    pub(crate) fn new(game: &'g mut Game, ctx: &'g Ctx<'g>) -> Result<Effects<'g, S>, String> {
        if game.host_slot().get::<S>().is_none() {
            return Err(no_state::<S>());
        }
        Ok(Effects {
            game,
            cause: ctx.cause,
            stream: ctx.stream,
            _state: PhantomData,
        })
    }

    /// The game's state.
    pub fn state(&self) -> &S {
        // `new` checked the type, and nothing in between can replace the state.
        self.game
            .host_slot()
            .get::<S>()
            .expect("checked in Effects::new")
    }

    /// The game's state, to change.
    pub fn state_mut(&mut self) -> &mut S {
        self.game.host_state_changing();
        self.game
            .host_slot_mut()
            .get_mut::<S>()
            .expect("checked in Effects::new")
    }

    /// The content the mods define, the game's tables included.
    pub fn content(&self) -> &Content {
        self.game.content()
    }

    /// Queues one of the game's events (or any other) with its payload, checked against the
    /// event's declaration. It is handled after the current one, first in, first out.
    pub fn raise(&mut self, event: &str, payload: &[(&str, Value)]) -> Result<(), crate::Error> {
        let cause = self.cause.to_string();
        self.game
            .raise_because(event, payload, Some(cause.into()))
            .map_err(crate::Error::Refused)
    }

    /// A line for the player.
    pub fn say(&mut self, line: impl Into<String>) {
        self.game.say(line);
    }

    /// A number in `0.0..1.0` from the random stream of the trigger or command this action runs
    /// for (seeded from the run's seed and the stream's name).
    pub fn roll(&mut self) -> f64 {
        let stream = self.stream.to_string();
        self.game.streams_drawing().roll(&stream)
    }

    /// A whole number in `lo..=hi` from the same stream as [`roll`](Self::roll).
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        let stream = self.stream.to_string();
        self.game.streams_drawing().between(&stream, lo, hi)
    }

    /// What the action runs for: a trigger's key, a quest's ID, an encounter, a command.
    pub fn cause(&self) -> &str {
        self.cause
    }

    /// The whole game, read-only (creatures, quests, storage).
    pub fn game(&self) -> &Game {
        self.game
    }

    /// The game's own world, lent to this game now ([`Game::with_world`]), as it was when the
    /// turn began: the changes this turn's actions deferred are not in it yet. `Err` when no
    /// world of this type is lent (the action fails with that reason).
    pub fn world<W: std::any::Any>(&self) -> Result<&W, crate::Error> {
        let game: &Game = self.game;
        game.world::<W>()
            .ok_or_else(|| crate::Error::Refused(game.not_lent(std::any::type_name::<W>())))
    }

    /// A change to the game's own world, made when the turn ends (as an engine's command buffer
    /// applies its commands), in the order the turn's actions asked for them; dropped if this
    /// action's list fails, or the verb it runs in, so a failed list leaves the world as it was.
    /// `Err` when no world of this type is lent.
    ///
    /// A change counts one unit against its mod's [`MOST_DEFERRED`](crate::game::MOST_DEFERRED) a
    /// turn; past it, it fails naming the mod.
    pub fn defer<W: std::any::Any>(
        &mut self,
        change: impl FnOnce(&mut W) + Send + 'static,
    ) -> Result<(), crate::Error> {
        self.defer_units(1, change)
    }

    /// [`Effects::defer`] for a change that does `units` things to the world (spawns that many
    /// entities): it counts `units` against its mod's
    /// [`MOST_DEFERRED`](crate::game::MOST_DEFERRED) a turn.
    pub fn defer_units<W: std::any::Any>(
        &mut self,
        units: u32,
        change: impl FnOnce(&mut W) + Send + 'static,
    ) -> Result<(), crate::Error> {
        self.game
            .defer_world(self.cause, units, change)
            .map_err(crate::Error::Refused)
    }
}

/// A check or Lua function of the game at work: the game read-only.
pub struct Query<'g, S> {
    game: &'g Game,
    _state: PhantomData<fn() -> S>,
}

impl<'g, S: GameState> Query<'g, S> {
    pub(crate) fn new(game: &'g Game) -> Result<Query<'g, S>, String> {
        if game.host_slot().get::<S>().is_none() {
            return Err(no_state::<S>());
        }
        Ok(Query {
            game,
            _state: PhantomData,
        })
    }

    /// The game's state.
    pub fn state(&self) -> &'g S {
        self.game
            .host_slot()
            .get::<S>()
            .expect("checked in Query::new")
    }

    /// The content the mods define, the game's tables included.
    pub fn content(&self) -> &'g Content {
        self.game.content()
    }

    /// The whole game, read-only.
    pub fn game(&self) -> &'g Game {
        self.game
    }

    /// The game's own world, lent to this game now ([`Game::with_world`]), read-only. `Err` when
    /// no world of this type is lent (the check fails with that reason).
    pub fn world<W: std::any::Any>(&self) -> Result<&'g W, crate::Error> {
        self.game
            .world::<W>()
            .ok_or_else(|| crate::Error::Refused(self.game.not_lent(std::any::type_name::<W>())))
    }
}

fn no_state<S>() -> String {
    format!(
        "the game holds no state of type `{}` (was it made from other rules, or its save unreadable?)",
        std::any::type_name::<S>()
    )
}

impl Game {
    /// Queues an event by name (the engine's, the game's or a mod's custom one) with a payload
    /// given by field name, checked against the event's declaration; its source is the player.
    /// It is handled by the next [`drain`](Game::drain) (a verb's turn ends with one).
    pub fn raise(&mut self, event: &str, payload: &[(&str, Value)]) -> Result<(), crate::Error> {
        self.raise_because(event, payload, None)
            .map_err(crate::Error::Refused)
    }

    /// Queues many events of one kind at once (a thousand colonists' ticks): the payload fields
    /// are named once, in `fields`, and each row gives their values in that order. The names are
    /// looked up once; each row is checked as [`raise`](Self::raise) checks a payload, and a row
    /// that does not fit refuses the whole call, queueing none of them. Returns how many were
    /// queued.
    pub fn raise_many<R: AsRef<[Value]>>(
        &mut self,
        event: &str,
        fields: &[&str],
        rows: impl IntoIterator<Item = R>,
    ) -> Result<usize, crate::Error> {
        let content = self.content().clone();
        let Some(kind) = content.events.lookup(event) else {
            let help = crate::diag::did_you_mean_suffix(event, content.events.names());
            return Err(crate::Error::Refused(format!(
                "there is no event `{event}`{help}"
            )));
        };
        let def = content.events.get(kind);
        let mut at = Vec::with_capacity(fields.len());
        for name in fields {
            let Some((i, _)) = def.field(name) else {
                let names = def.payload.iter().map(|(n, _)| n.as_str());
                let help = crate::diag::did_you_mean_suffix(name, names);
                return Err(crate::Error::Refused(format!(
                    "event `{event}` has no payload field `{name}`{help}"
                )));
            };
            at.push(i);
        }
        let mark = self.queue_mark();
        let mut payload: Vec<(usize, Value)> = Vec::with_capacity(at.len());
        let mut queued = 0;
        for (n, row) in rows.into_iter().enumerate() {
            let row = row.as_ref();
            let result = if row.len() == at.len() {
                payload.clear();
                payload.extend(at.iter().copied().zip(row.iter().cloned()));
                self.emit(kind, CreatureRef::Player, None, &payload, None)
            } else {
                Err(crate::Error::Refused(format!(
                    "it has {} values for {} fields",
                    row.len(),
                    at.len()
                )))
            };
            if let Err(e) = result {
                self.back_to_mark(mark);
                return Err(crate::Error::Refused(format!(
                    "row {} of `{event}`: {}; none of the events was raised",
                    n + 1,
                    e.message()
                )));
            }
            queued += 1;
        }
        Ok(queued)
    }

    pub(crate) fn raise_because(
        &mut self,
        event: &str,
        payload: &[(&str, Value)],
        cause: Option<std::sync::Arc<str>>,
    ) -> Result<(), String> {
        self.raise_at(CreatureRef::Player, None, event, payload, cause)
    }

    /// An event by name, its payload by field name, checked, from `source` at `target`.
    pub(crate) fn raise_at(
        &mut self,
        source: CreatureRef,
        target: Option<CreatureRef>,
        event: &str,
        payload: &[(&str, Value)],
        cause: Option<std::sync::Arc<str>>,
    ) -> Result<(), String> {
        let content = self.content().clone();
        let Some(kind) = content.events.lookup(event) else {
            let help = crate::diag::did_you_mean_suffix(event, content.events.names());
            return Err(format!("there is no event `{event}`{help}"));
        };
        let def = content.events.get(kind);
        let mut fields = Vec::with_capacity(payload.len());
        for (name, value) in payload {
            let Some((i, _)) = def.field(name) else {
                let names = def.payload.iter().map(|(n, _)| n.as_str());
                let help = crate::diag::did_you_mean_suffix(name, names);
                return Err(format!(
                    "event `{event}` has no payload field `{name}`{help}"
                ));
            };
            fields.push((i, value.clone()));
        }
        fields.sort_by_key(|(i, _)| *i);
        self.emit(kind, source, target, &fields, cause)
            .map_err(String::from)
    }
}
