//! lantern in a Bevy app: what any Bevy game hosting lantern's mods would otherwise write again.
//!
//! - [`Lantern`] is the running game over its mods ([`lantern::reload::Live`]) as an ordinary
//!   resource that stays in the `World`: a `Game` is `Send`, and the resource shares it behind a
//!   `Mutex` to be `Sync`. [`with_live`] locks it and lends it the `World` at once, which is how
//!   the tick and the game's own exclusive systems reach both.
//! - [`ModEvents`] is where the game's systems raise events for the mods during a frame, by name
//!   or as a type of the game's that is a [`ModEvent`] (its name and fields declared once).
//! - [`run_turn`], an exclusive system in [`LanternSet`] (in `Update`, or the schedule
//!   [`LanternPlugin::in_schedule`] names: `FixedUpdate` for a fixed-step game, which may run
//!   several turns a frame), reloads the mods if they changed, then
//!   runs one lantern turn with the `World` lent ([`lantern::game::Game::with_world`]): the
//!   frame's events are raised and handled, the mods' triggers, quests and scripts run, and the
//!   changes the game's actions deferred are applied to the `World` when the turn ends.
//! - [`ModContent`] is the content the mods define (their data tables), shared with the game's
//!   systems for reading and replaced by the tick after a reload: nothing is copied.
//! - [`LanternOutput`] gathers what the turns said until a reader takes it
//!   ([`LanternOutput::take`]): lines for the player, problems rendered at their files and
//!   lines, each reload's summary, and the error of each turn that failed (a turn past the event
//!   cap is `Error::EventCap`). Several turns in one frame add to it; none overwrites another's,
//!   and a game that never reads it holds at most [`MOST_KEPT`] of each kind.
//! - [`StableId`] and [`StableIds`] number the game's entities for its saves, its hash, its Lua
//!   functions and its tests, which cannot use Bevy's reused `Entity` handles.

use bevy_app::{App, Plugin, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{InternedScheduleLabel, ScheduleLabel};
use lantern::content::{Content, Value};
use lantern::diag::Problems;
use lantern::reload::{Live, Pending, Watch};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

mod stable;
pub use stable::{StableId, StableIds};

/// The running game over its mods, with what reloads it.
#[derive(Resource)]
pub struct Lantern {
    live: Arc<Mutex<Live>>,
    /// Raised by the watcher when a mod's files change; taken by the next tick.
    pending: Pending,
    _watch: Option<Watch>,
}

impl Lantern {
    /// Loads the mods of `roots` with the game's rules and starts a game whose scripts run within
    /// `limits` (instructions a call and a turn, memory; a real-time game sizes them for its
    /// ticks); the warnings the mods gave, or [`lantern::Error::Mods`] with every problem.
    pub fn start(
        roots: &[PathBuf],
        rules: &lantern::host::Rules,
        seed: u64,
        limits: lantern::lua::Limits,
    ) -> Result<(Lantern, Problems), lantern::Error> {
        let (live, notes) = Live::start_game(roots, rules, seed, limits)?;
        Ok((Lantern::of(live), notes))
    }

    /// A game already started (a loaded save, other limits).
    pub fn of(live: Live) -> Lantern {
        Lantern {
            live: Arc::new(Mutex::new(live)),
            pending: Pending::default(),
            _watch: None,
        }
    }

    /// Watches the mods' folders: a change reloads the mods before the next tick.
    pub fn watching(mut self) -> Result<Lantern, String> {
        let pending = self.pending.clone();
        let roots = self.live().roots().to_vec();
        let watch = lantern::reload::watch_all(&roots, move || {
            pending.raise();
        })
        .map_err(|e| format!("cannot watch the mods: {e}"))?;
        self._watch = Some(watch);
        Ok(self)
    }

    /// The running game and its mods, to play, save or reload by hand (without the `World`:
    /// [`with_live`] lends both).
    pub fn live(&self) -> MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The content the mods define, for the game's systems to read (its data tables).
    pub fn content(&self) -> Arc<Content> {
        let live = self.live.lock().unwrap_or_else(PoisonError::into_inner);
        live.game().content().clone()
    }

    /// Asks for a reload before the next tick (what the watcher does).
    pub fn reload_soon(&self) {
        self.pending.raise();
    }
}

/// The content the mods define, for the game's systems to read (`content.table::<Job>("jobs")`):
/// the running game's own `Arc`, replaced by [`run_turn`] after a reload that took.
#[derive(Resource, Clone)]
pub struct ModContent(pub Arc<Content>);

impl std::ops::Deref for ModContent {
    type Target = Content;
    fn deref(&self) -> &Content {
        &self.0
    }
}

impl Lantern {
    /// The content now, as the resource the game's systems read; [`LanternPlugin`] users insert
    /// it with the [`Lantern`] resource.
    pub fn mod_content(&self) -> ModContent {
        ModContent(self.content())
    }
}

/// An event of the game's as a type of its own (a Bevy message's struct): its name and fields
/// declared once, so that raising one copies its values and no name. Declare it to lantern with
/// the same words: `Vocabulary::event(DayStarted::NAME, DayStarted::FIELDS, "A new day.")`.
///
/// ```
/// use lantern::content::Value;
/// struct DayStarted { day: i64 }
/// impl lantern_bevy::ModEvent for DayStarted {
///     const NAME: &'static str = "day_started";
///     const FIELDS: &'static [(&'static str, &'static str)] = &[("day", "int")];
///     fn values(&self) -> Vec<Value> {
///         vec![Value::Int(self.day)]
///     }
/// }
/// let mut events = lantern_bevy::ModEvents::default();
/// events.send(&DayStarted { day: 3 });
/// events.raise("famine", &[("food", Value::Int(-2))]);
/// events.raise_many((4..6).map(|day| DayStarted { day }));
/// let raised: Vec<(&str, Vec<(&str, Value)>)> = events.iter().collect();
/// assert_eq!(raised[0], ("day_started", vec![("day", Value::Int(3))]));
/// assert_eq!(raised[1].0, "famine");
/// assert_eq!(raised[3], ("day_started", vec![("day", Value::Int(5))]));
/// ```
pub trait ModEvent {
    /// The event's name (`day_started`).
    const NAME: &'static str;
    /// Its payload fields and their types, as [`lantern::host::Vocabulary::event`] takes them.
    const FIELDS: &'static [(&'static str, &'static str)];
    /// Its values, in the order of [`FIELDS`](Self::FIELDS).
    fn values(&self) -> Vec<Value>;
}

/// One event raised during a frame.
#[derive(Clone)]
enum Raised {
    /// By name, its payload by field.
    Named(String, Vec<(String, Value)>),
    /// A [`ModEvent`]: its name and fields are the type's, its values in their order.
    Typed(
        &'static str,
        &'static [(&'static str, &'static str)],
        Vec<Value>,
    ),
}

/// Events the game's systems raise for the mods during a frame, handed to lantern by the tick in
/// the order they were raised.
#[derive(Resource, Default, Clone)]
pub struct ModEvents(Vec<Raised>);

impl ModEvents {
    /// Forgets the events raised so far (for an app that runs without lantern).
    pub fn clear(&mut self) {
        self.0.clear();
    }

    /// The events raised so far, in order, each with its payload by field.
    pub fn iter(&self) -> impl Iterator<Item = (&str, Vec<(&str, Value)>)> {
        self.0.iter().map(|raised| match raised {
            Raised::Named(event, payload) => (
                event.as_str(),
                payload
                    .iter()
                    .map(|(k, v)| (k.as_str(), v.clone()))
                    .collect(),
            ),
            Raised::Typed(event, fields, values) => (
                *event,
                fields
                    .iter()
                    .map(|(k, _)| *k)
                    .zip(values.iter().cloned())
                    .collect(),
            ),
        })
    }

    /// Raises `event` (the game's, the engine's or a mod's custom one) with its payload by field.
    pub fn raise(&mut self, event: &str, payload: &[(&str, Value)]) {
        self.0.push(Raised::Named(
            event.to_string(),
            payload
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        ));
    }

    /// Raises one of the game's typed events: its values are copied, its names are not.
    pub fn send<E: ModEvent>(&mut self, event: &E) {
        self.0
            .push(Raised::Typed(E::NAME, E::FIELDS, event.values()));
    }

    /// Raises many of one typed event (a thousand colonists' ticks); lantern takes each run of
    /// them with the field names looked up once.
    pub fn raise_many<E: ModEvent>(&mut self, events: impl IntoIterator<Item = E>) {
        let raised = events
            .into_iter()
            .map(|e| Raised::Typed(E::NAME, E::FIELDS, e.values()));
        self.0.extend(raised);
    }

    /// Raises the events gathered into `game`, in order, and forgets them: each run of one
    /// typed event at once ([`lantern::game::Game::raise_many`]), the others one by one. What a
    /// game's own tick does when it drives the mods without [`run_turn`] (a test's verb).
    pub fn raise_into(&mut self, game: &mut lantern::game::Game) -> Result<(), lantern::Error> {
        let raised = std::mem::take(&mut self.0);
        let mut raised = raised.into_iter().peekable();
        while let Some(next) = raised.next() {
            match next {
                Raised::Named(event, payload) => {
                    let payload: Vec<(&str, Value)> = payload
                        .iter()
                        .map(|(k, v)| (k.as_str(), v.clone()))
                        .collect();
                    game.raise(&event, &payload)?;
                }
                Raised::Typed(event, fields, values) => {
                    let mut rows = vec![values];
                    while let Some(Raised::Typed(e, _, _)) = raised.peek() {
                        if *e != event {
                            break;
                        }
                        if let Some(Raised::Typed(_, _, values)) = raised.next() {
                            rows.push(values);
                        }
                    }
                    let names: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
                    game.raise_many(event, &names, rows)?;
                }
            }
        }
        Ok(())
    }
}

/// What the turns said since a reader last took it: each turn adds to it, so a reader that runs
/// once a frame sees every turn of a fixed-step frame. Each kind keeps at most [`MOST_KEPT`].
#[derive(Resource, Default)]
pub struct LanternOutput {
    /// Lines for the player, as the mods wrote them, oldest first: make them visible
    /// (`lantern::diag::visible`) before a terminal shows them.
    pub messages: Vec<String>,
    /// The mods' problems, rendered at their files and lines.
    pub problems: Vec<String>,
    /// Each reload's summary, in order.
    pub reloaded: Vec<String>,
    /// Why each turn that failed did (an event refused, the event cap passed); a message may
    /// quote a mod's names, so show it as the messages are.
    pub errors: Vec<lantern::Error>,
    /// How many turns ran.
    pub turns: u32,
    /// How many of the oldest messages, problems, summaries and errors were let go because no
    /// reader took them before [`MOST_KEPT`] gathered.
    pub dropped: usize,
}

/// The most lines of each kind [`LanternOutput`] keeps for a reader: a game that never takes
/// them (or a mod that says a lot every tick) holds at most this many, the oldest let go first.
pub const MOST_KEPT: usize = 10_000;

/// Adds `more` to `kept`, letting the oldest go past [`MOST_KEPT`]; how many went.
fn keep<T>(kept: &mut Vec<T>, more: &mut Vec<T>) -> usize {
    kept.append(more);
    let over = kept.len().saturating_sub(MOST_KEPT);
    kept.drain(..over);
    over
}

impl LanternOutput {
    /// Everything gathered, leaving it empty for the turns to come: what a system that shows the
    /// output calls (`output.take()` through `ResMut<LanternOutput>`).
    pub fn take(&mut self) -> LanternOutput {
        std::mem::take(self)
    }
}

/// The system set lantern's tick runs in: order the game's systems that raise events before it.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub struct LanternSet;

/// Adds [`ModEvents`], [`LanternOutput`], [`StableIds`] and [`run_turn`] (in [`LanternSet`], in `Update` unless
/// [`in_schedule`](Self::in_schedule) says otherwise); the app inserts the [`Lantern`] resource
/// itself.
pub struct LanternPlugin {
    schedule: InternedScheduleLabel,
}

impl LanternPlugin {
    /// lantern's turn in `schedule`: `LanternPlugin::in_schedule(FixedUpdate)` for a game that
    /// steps at a fixed rate (a turn per fixed step, several in a frame that needs them).
    pub fn in_schedule(schedule: impl ScheduleLabel) -> LanternPlugin {
        LanternPlugin {
            schedule: schedule.intern(),
        }
    }
}

impl Default for LanternPlugin {
    /// A turn a frame, in `Update`.
    fn default() -> LanternPlugin {
        LanternPlugin::in_schedule(Update)
    }
}

impl Plugin for LanternPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<ModEvents>()
            .init_resource::<LanternOutput>()
            .init_resource::<StableIds>()
            .add_systems(self.schedule, run_turn.in_set(LanternSet));
    }
}

/// Runs `f` with the running game and the `World` lent to it (`Live::with_world`): what an
/// exclusive system of the game calls to reach both. The [`Lantern`] resource stays in the
/// `World` throughout; a change the game deferred is applied to the `World` when `f` returns, if
/// no turn applied it before.
///
/// `f` must not lock the [`Lantern`] resource again (through the `World` it is lent): the game is
/// the one `f` already holds.
pub fn with_live<R>(world: &mut World, f: impl FnOnce(&mut Live) -> R) -> R {
    let live = Arc::clone(&world.resource::<Lantern>().live);
    let mut live = live.lock().unwrap_or_else(PoisonError::into_inner);
    live.with_world(world, f)
}

/// One lantern turn with the `World` lent: a reload first if the mods changed, then the frame's
/// events raised and handled, and the game's deferred changes applied to the `World`.
pub fn run_turn(world: &mut World) {
    let mut events = std::mem::take(&mut *world.resource_mut::<ModEvents>());
    let reload = world.resource::<Lantern>().pending.take();
    // What this turn says, added to what the turns before it said and no reader took yet.
    let mut output = LanternOutput::default();
    let reloaded = with_live(world, |live| {
        let mut reloaded = None;
        if reload {
            let report = live.reload();
            if report.ok {
                reloaded = Some(live.game().content().clone());
            }
            if !report.problems.is_empty() {
                output.problems.push(report.problems.to_string());
            }
            output.reloaded.push(report.summary);
        }
        let turn = live.game_mut().turn(|g| events.raise_into(g));
        output.errors.extend(turn.err());
        let game = live.game_mut();
        output.messages = game.take_messages();
        let problems = game.take_problems();
        if !problems.is_empty() {
            output
                .problems
                .push(lantern::diag::render_all(&problems, live.sources()));
        }
        reloaded
    });
    if let Some(content) = reloaded {
        world.insert_resource(ModContent(content));
    }
    let mut gathered = world.get_resource_or_insert_with(LanternOutput::default);
    let gathered = &mut *gathered;
    let dropped = keep(&mut gathered.messages, &mut output.messages)
        + keep(&mut gathered.problems, &mut output.problems)
        + keep(&mut gathered.reloaded, &mut output.reloaded)
        + keep(&mut gathered.errors, &mut output.errors);
    gathered.dropped += dropped;
    gathered.turns += 1;
}
