//! The one door: applying actions to the state, each action list as a transaction.

use super::{CreatureRef, Ctx, Event, Game};
use crate::content::{Action, ActionEntry, ActionList, EventKey, Value};
use crate::diag::Code;
use crate::diag::Diagnostic;

/// How a failed list's message ends: the list was undone whole. A caller whose list is one part of
/// something that stands (a card's actions, after its play) says what stands in its place.
pub(super) const NOTHING_APPLIED: &str = "nothing in this action list was applied";

/// Engine event keys, by their fixed position in `vocab::ENGINE_EVENTS` (the roguelike's events;
/// lantern's own code and tests name them; a game names events by their names).
#[doc(hidden)]
pub mod ev {
    use crate::content::EventKey;
    pub const TURN_STARTED: EventKey = EventKey(0);
    pub const ATTACK_HIT: EventKey = EventKey(1);
    pub const DAMAGE_TAKEN: EventKey = EventKey(2);
    pub const CREATURE_DIED: EventKey = EventKey(3);
    pub const ITEM_PICKED_UP: EventKey = EventKey(4);
    pub const ITEM_USED: EventKey = EventKey(5);
    pub const NPC_TALKED: EventKey = EventKey(6);
    pub const QUEST_STARTED: EventKey = EventKey(7);
    pub const QUEST_COMPLETED: EventKey = EventKey(8);
    pub const COMBAT_STARTED: EventKey = EventKey(9);
    pub const COMBAT_ENDED: EventKey = EventKey(10);
    pub const ENCOUNTER_STARTED: EventKey = EventKey(11);
    pub const ENCOUNTER_RESOLVED: EventKey = EventKey(12);
    pub const HAZARD_STARTED: EventKey = EventKey(13);
    pub const CARD_PLAYED: EventKey = EventKey(14);
    pub const HAZARD_ROUND_ENDED: EventKey = EventKey(15);
    pub const HAZARD_ENDED: EventKey = EventKey(16);
}

/// A failed action list: its problem, and the error its failing action gave (boxed: the error
/// path only).
pub(super) type ListFailure = Box<(Diagnostic, crate::Error)>;

/// How a failed action list is undone ([`Game::undo_for`]).
enum Undo {
    Nothing,
    Whole(Box<UndoPoint>),
    Host(HostUndo),
}

/// What the game's own actions can change, beside the copies they make of the game's state and
/// the streams the first time they change them ([`Game::host_undo`]).
struct HostUndo {
    queued: usize,
    said: usize,
    /// Changes to the game's own world deferred before it (`Effects::defer`).
    deferred: usize,
}

/// The game's state and the streams as they were before a list of the game's actions changed
/// them: copied on the first change, so a list that only reads (or raises events) copies nothing.
#[derive(Default)]
pub(super) struct LazyCopy {
    host: Option<crate::content::declare::HostState>,
    rng: Option<crate::rng::Streams>,
}

/// See [`Game::undo_point`].
pub(super) struct UndoPoint {
    state: super::State,
    rng: crate::rng::Streams,
    queued: usize,
    said: usize,
    deferred: usize,
    /// Whether the scripts opened a checkpoint for it (`ScriptHost::checkpoint`), which its end closes.
    scripts: bool,
}

/// The action lists being applied, one inside another, and what they keep to undo themselves.
#[derive(Default)]
pub(super) struct OpenLists {
    /// For each open list of the game's own actions, the copies it keeps to undo them.
    pub(super) host_undo: Vec<LazyCopy>,
    /// The last copy of the game's state a list made and no longer needs: the next copy is made
    /// into it (`HostState::clone_from`), which spares an allocation and its free per list.
    pub(super) spare_host: crate::content::declare::HostState,
    /// Action lists (and encounter options) being applied, one inside another.
    pub(super) depth: u32,
    /// Whether something was given past a stack cap since the outermost list began.
    pub(super) uncapped: bool,
}

impl Game {
    /// Applies an action list as a transaction: every action, or (on the first failure) none of them.
    /// The failure names the mod file and line of the list.
    pub fn apply_list(&mut self, list: &ActionList, ctx: &Ctx) -> Result<(), Diagnostic> {
        self.apply_list_telling(list, ctx).map_err(|f| f.0)
    }

    /// [`apply_list`](Self::apply_list), its failure also as the error its action gave: the
    /// game's own calls ([`Game::perform`]) answer with that, a script's error already reported
    /// at its line being [`Error::Reported`](crate::Error::Reported) with the script's message.
    pub(super) fn apply_list_telling(
        &mut self,
        list: &ActionList,
        ctx: &Ctx,
    ) -> Result<(), ListFailure> {
        self.lists.depth += 1;
        let result = self.apply_list_whole(list, ctx);
        self.close_list();
        result
    }

    /// Ends an action list (or another working copy, an encounter's option): when the outermost
    /// one ends, items are cut down to their stack caps, as the seed's "the cap is applied on
    /// commit" says.
    pub(super) fn close_list(&mut self) {
        self.lists.depth -= 1;
        if self.lists.depth == 0 && std::mem::take(&mut self.lists.uncapped) {
            self.cap_stacks();
        }
    }

    /// Cuts every creature's items to their stack caps, and says what the player left behind
    /// (so "You receive 20 Coin." is not the last word on 10 that were kept). Rare, and kept out
    /// of `close_list`, which every action list runs.
    #[cold]
    #[inline(never)]
    fn cap_stacks(&mut self) {
        let content = self.content.clone();
        for (item, over) in self.state.player.cap(&content) {
            let (name, most) = content
                .items
                .get(&item)
                .map_or((item.to_string().into(), 0), |d| (d.name.clone(), d.stack));
            let line = self.text(
                "carry_at_most",
                &[
                    ("most", most.into()),
                    ("item", name.into()),
                    ("over", over.into()),
                ],
            );
            self.say(line);
        }
        for e in &mut self.state.enemies {
            e.cap(&content);
        }
    }

    fn apply_list_whole(&mut self, list: &ActionList, ctx: &Ctx) -> Result<(), ListFailure> {
        let undo = self.undo_for(list);
        // The failure, and whether the action reported it itself (a script's error at its line).
        let mut failed = None;
        for entry in &list.actions {
            if let Err(e) = self.apply_entry(entry, ctx) {
                failed = Some(e);
                break;
            }
        }
        if let Undo::Host(_) = undo {
            let copy = self.lists.host_undo.pop().unwrap_or_default();
            if let Some(mut host) = copy.host {
                if failed.is_some() {
                    std::mem::swap(&mut self.state.host, &mut host);
                    self.host_state_changed();
                }
                // Whichever is left over is the next list's copy, made into it without an
                // allocation when the game's state does not own any.
                self.lists.spare_host = host;
            }
            if failed.is_some() {
                if let Some(rng) = copy.rng {
                    self.rng = rng;
                }
            }
        }
        let Some(error) = failed else {
            if let Undo::Whole(point) = undo {
                self.keep(*point);
            }
            return Ok(());
        };
        match undo {
            Undo::Nothing => {}
            Undo::Whole(point) => self.undo(*point),
            Undo::Host(point) => {
                self.events.queue.truncate(point.queued);
                self.messages.truncate(point.said);
                self.drop_deferred(point.deferred);
            }
        }
        if error.is_reported() {
            // One mistake, one message: the action said what went wrong, at its own line; this
            // only says which list it stopped.
            let d = Diagnostic::error(
                Code::ActionFailed,
                format!(
                    "stopped by the failure above (from {}); {NOTHING_APPLIED}",
                    ctx.cause
                ),
            )
            .at(list.span)
            .following();
            return Err(Box::new((d, error)));
        }
        let d = Diagnostic::error(
            Code::ActionFailed,
            format!("{error} (from {}); {NOTHING_APPLIED}", ctx.cause),
        )
        .at(list.span);
        let error = crate::Error::from(d.clone());
        Err(Box::new((d, error)))
    }

    /// What undoes `list` if one of its actions fails. A single built-in action checks before it
    /// changes anything, so it needs nothing. A list of the game's own actions only can change
    /// only what `Effects` reaches (the game's state, the streams, the queue and the lines): it
    /// keeps the queue and line counts, and a copy of the game's state and of the streams made the
    /// first time an action changes them (`host_state_changing`, `streams_drawing`), so a list
    /// that only reads copies nothing. Anything else (several built-in actions, a script's action,
    /// which may do anything) copies lantern's whole state.
    fn undo_for(&mut self, list: &ActionList) -> Undo {
        let host = &self.content.declared;
        // A game's action, resolved (`Game`) or written by hand with its ID (`Custom`).
        let is_host = |a: &ActionEntry| match &a.action {
            Action::Game { .. } => true,
            Action::Custom { id, .. } => host.actions.contains_key(id),
            _ => false,
        };
        let custom =
            |a: &ActionEntry| matches!(a.action, Action::Custom { .. } | Action::Game { .. });
        if list.actions.len() == 1 && !custom(&list.actions[0]) {
            Undo::Nothing
        } else if !list.actions.is_empty() && list.actions.iter().all(is_host) {
            self.lists.host_undo.push(LazyCopy::default());
            Undo::Host(HostUndo {
                queued: self.events.queue.len(),
                said: self.messages.len(),
                deferred: self.deferred_len(),
            })
        } else {
            let script = |a: &ActionEntry| matches!(&a.action, Action::Custom { id, .. } if !host.actions.contains_key(id));
            let scripts = list.actions.iter().any(script);
            Undo::Whole(Box::new(self.undo_point(scripts)))
        }
    }

    /// Before the game's own action changes the game's state: the list it runs in keeps a copy
    /// first, once.
    pub(crate) fn host_state_changing(&mut self) {
        if let Some(copy) = self.lists.host_undo.last_mut() {
            if copy.host.is_none() {
                let mut spare = std::mem::take(&mut self.lists.spare_host);
                spare.clone_from(&self.state.host);
                copy.host = Some(spare);
            }
        }
    }

    /// Before the game's own action draws from a stream: the list keeps a copy first, once.
    pub(crate) fn streams_drawing(&mut self) -> &mut crate::rng::Streams {
        if let Some(copy) = self.lists.host_undo.last_mut() {
            if copy.rng.is_none() {
                copy.rng = Some(self.rng.clone());
            }
        }
        &mut self.rng
    }

    /// What a transaction (an action list, an encounter's option, a game's verb) keeps to undo
    /// itself: the state (the game's own inside it), the random streams, and how many events and
    /// lines were queued before it. When it may run script code (`scripts`), the scripts open a
    /// checkpoint, so that what they store during it is undone with the rest; one a script starts
    /// (`lantern.apply`, while the scripts are busy) is inside theirs. Every point ends in
    /// [`keep`](Self::keep) or [`undo`](Self::undo).
    pub(super) fn undo_point(&mut self, scripts: bool) -> UndoPoint {
        let scripts = scripts
            && self
                .with_scripts(|host, game| host.checkpoint(game))
                .is_some();
        UndoPoint {
            state: self.state.clone(),
            rng: self.rng.clone(),
            queued: self.events.queue.len(),
            said: self.messages.len(),
            deferred: self.deferred_len(),
            scripts,
        }
    }

    /// The transaction of `point` succeeded: the scripts' checkpoint closes, its record kept for a
    /// transaction around it.
    pub(super) fn keep(&mut self, point: UndoPoint) {
        if point.scripts {
            self.with_scripts(|host, game| host.commit(game));
        }
    }

    /// Puts the game back as it was at `point`: what the transaction queued and said goes too, and
    /// what scripts stored since.
    pub(super) fn undo(&mut self, point: UndoPoint) {
        if point.scripts {
            self.with_scripts(|host, game| host.roll_back(game));
        }
        self.state = point.state;
        self.scene_changed();
        self.rng = point.rng;
        self.events.queue.truncate(point.queued);
        self.messages.truncate(point.said);
        self.drop_deferred(point.deferred);
    }

    /// Applies one action outside any list (Lua's `lantern.apply`, the `give` command).
    pub(crate) fn apply(&mut self, entry: &ActionEntry, ctx: &Ctx) -> Result<(), crate::Error> {
        self.lists.depth += 1;
        let result = self.apply_entry(entry, ctx);
        self.close_list();
        result
    }

    /// Queues an event of any kind after checking its payload against the declaration.
    /// (`#[inline]`: a game calls it for every event it raises, and whether the compiler inlined
    /// it into the game's crate by itself moved with unrelated changes: 64 instructions an event
    /// on the events bench.)
    #[inline]
    pub fn emit(
        &mut self,
        kind: EventKey,
        source: CreatureRef,
        target: Option<CreatureRef>,
        payload: &[(usize, Value)],
        cause: Option<std::sync::Arc<str>>,
    ) -> Result<(), crate::Error> {
        let def = self.content.events.get(kind);
        for (i, v) in payload {
            match def.payload.get(*i) {
                Some((_, ty)) if v.fits(*ty) => {}
                _ => return Err(bad_field(def, *i, v)),
            }
        }
        // Into a payload allocation an earlier event gave back, or a new one.
        let values = self.events.spare.fill(def.payload.len(), |i| {
            payload
                .iter()
                .find(|(j, _)| *j == i)
                .map(|(_, v)| v.clone())
        });
        self.push(
            Event {
                kind,
                source,
                target,
                payload: values,
            },
            cause,
        );
        Ok(())
    }

    /// Where the queue ends now, to go back to if what is queued next is refused whole.
    pub(crate) fn queue_mark(&self) -> (usize, usize) {
        (self.events.queue.len(), self.events.unqueued)
    }

    /// Takes back what was queued since `queue_mark`.
    pub(crate) fn back_to_mark(&mut self, (queued, unqueued): (usize, usize)) {
        self.events.queue.truncate(queued);
        self.events.unqueued = unqueued;
    }

    /// Puts an event at the back of the queue, unless the queue holds a turn's cap of events
    /// already: no turn handles more, so it would be dropped with them, and a handler emitting in
    /// a loop would fill memory first. It is counted instead, and the turn's report says so.
    #[inline(always)]
    pub(super) fn push(&mut self, event: Event, cause: Option<std::sync::Arc<str>>) {
        if self.queue_full() {
            self.events.unqueued += 1;
            self.events.spare.give_back(event.payload);
            return;
        }
        let parent = self.events.current;
        self.events.queue.push_back((event, cause, parent));
    }

    /// Whether the queue holds a turn's cap of events: an event queued now would never be
    /// handled. A script's `emit_event` fails then, so that a loop of them is stopped.
    pub(crate) fn queue_full(&self) -> bool {
        self.events.queue.len() >= self.events.queue_most
    }

    /// Damage after armour (physical) and resistance, then `damage_taken` and, at zero health, `creature_died`.
    pub(super) fn deal_damage(
        &mut self,
        victim: CreatureRef,
        dealer: Option<CreatureRef>,
        amount: i64,
        damage_type: &str,
    ) -> i64 {
        let against = dealer;
        let dealt = if amount <= 0 {
            0
        } else if damage_type == "physical" {
            amount
                .saturating_sub(self.attribute(victim, "armor", against))
                .max(1)
        } else {
            let resist = self
                .attribute(victim, &format!("resist_{damage_type}"), against)
                .clamp(0, 100);
            // `resist` is within 0..=100, so the product fits in an i128.
            (i128::from(amount) * i128::from(100 - resist) / 100) as i64
        };
        let Some(c) = self.creature_mut(victim) else {
            return 0;
        };
        if !c.alive() {
            return 0;
        }
        c.health = c.health.saturating_sub(dealt).max(0);
        let died = !c.alive();
        let name = c.name.clone();
        let line = self.text(
            "takes_damage",
            &[
                ("who", (&name).into()),
                ("amount", dealt.into()),
                ("damage_type", self.content.word(damage_type).into()),
            ],
        );
        self.say(line);
        self.push(
            Event::new(
                ev::DAMAGE_TAKEN,
                victim,
                dealer,
                vec![Some(Value::Int(dealt)), Some(Value::str(damage_type))],
            ),
            None,
        );
        if died {
            let line = self.text("dies", &[("who", name.into())]);
            self.say(line);
            self.push(
                Event::new(ev::CREATURE_DIED, victim, None, Vec::new()),
                None,
            );
            if victim == CreatureRef::Player {
                self.state.over = true;
            }
        }
        dealt
    }
}

impl Event {
    /// An event of `kind` with its source, target and payload by field position.
    pub fn new(
        kind: EventKey,
        source: CreatureRef,
        target: Option<CreatureRef>,
        payload: Vec<Option<Value>>,
    ) -> Event {
        Event {
            kind,
            source,
            target,
            payload: payload.into(),
        }
    }
}

/// Why the payload field `i` (`v`) does not fit the event `def`: out of the hot path of
/// [`Game::emit`], which every event takes.
#[cold]
#[inline(never)]
fn bad_field(def: &crate::content::EventDef, i: usize, v: &Value) -> crate::Error {
    match def.payload.get(i) {
        None => format!("event `{}` has no field {i}", def.name).into(),
        Some((name, ty)) => format!(
            "field `{name}` of event `{}` must be of type `{}`, not `{}` ({v})",
            def.name,
            ty.name(),
            v.type_name()
        )
        .into(),
    }
}
