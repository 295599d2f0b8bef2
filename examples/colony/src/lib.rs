//! A headless real-time colony whose world lives in Bevy's ECS and whose content comes from
//! lantern's mods: the third game that hosts them (after the roguelike and Harvest), and the one
//! whose world lantern does not hold.
//!
//! The colony is a thousand colonist entities with a job each, the food stores and the clock as
//! resources, and the game's systems (work, eat, the calendar) run every tick. Its jobs are a data
//! table the mods write (`[[jobs]]`). lantern holds nothing of the world: each tick,
//! `lantern_bevy::run_turn` lends it the `World` for one turn, the game's actions (`recruit`,
//! `add_food`) defer their changes to it, its checks (`population_at_least`, `food_at_least`)
//! and Lua functions read it, and the world's hooks put it into lantern's hash and saves and
//! reassign the workers of a job a reload removed.

use bevy_app::{App, Update};
use bevy_ecs::prelude::*;
use bevy_ecs::system::RunSystemOnce;
use lantern::content::{Content, Value};
use lantern::host::{Param, Rules, Vocabulary, WorldHooks};
use lantern_bevy::{
    with_live, Lantern, LanternOutput, LanternPlugin, LanternSet, ModContent, ModEvent, ModEvents,
    StableId, StableIds,
};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A colonist: the job's ID. Each colonist also has a [`StableId`], given in order of arrival:
/// saves, the hash, the mods and the tests name a colonist by it, not by the engine's handles.
#[derive(Component, Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Colonist {
    /// A job of the mods' `[[jobs]]` table (`settlement:farmer`).
    pub job: String,
}

/// The colony's food.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stores {
    /// Food in store; below zero is a famine.
    pub food: i64,
}

/// The clock.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    /// Ticks since the colony was founded.
    pub tick: u64,
}

/// How many ticks make a day.
pub const TICKS_PER_DAY: u64 = 10;

/// A job, as the mods write it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// Shown to players.
    pub name: String,
    /// Food a worker brings in each tick.
    #[serde(default)]
    pub food: i64,
    /// Food a worker eats each tick.
    #[serde(default)]
    pub eats: i64,
}

/// What lantern keeps of the colony: nothing. The world is the engine's.
#[derive(Debug, Default, Clone, PartialEq, Serialize, Deserialize)]
pub struct Nothing;

/// The colony's vocabulary for its mods.
pub fn rules() -> Rules {
    Vocabulary::new("colony", Nothing)
        .table::<Job>("jobs", "job")
        .describe(
            "jobs",
            &[
                ("name", "shown to players"),
                ("food", "food a worker brings in each tick"),
                ("eats", "food a worker eats each tick"),
            ],
        )
        .event(DayStarted::NAME, DayStarted::FIELDS, "A new day begins.")
        .event(Ticked::NAME, Ticked::FIELDS, "A tick of the colony's clock.")
        .event("famine", &[("food", "int")], "The stores ran out.")
        .event(
            "recruited",
            &[("job", "job"), ("count", "int")],
            "Colonists arrived for a job.",
        )
        .action(
            "recruit",
            &[Param::id("job", "job"), Param::int("count").within(1, 1000)],
            "Colonists arrive for a job.",
            |fx, args| {
                let job = args.id("job").ok_or("no job")?;
                let count = args.int("count");
                let name = job.to_string();
                // Each colonist is an entity: the change weighs what it spawns.
                fx.defer_units(u32::try_from(count).unwrap_or(u32::MAX), move |world: &mut World| {
                    for _ in 0..count {
                        spawn(world, &name);
                    }
                })?;
                fx.raise(
                    "recruited",
                    &[("job", Value::id(&job)), ("count", Value::Int(count))],
                )?;
                Ok(())
            },
        )
        .action(
            "add_food",
            &[Param::int("amount").within(-1_000_000, 1_000_000)],
            "Food comes into the stores (or leaves them, below zero).",
            |fx, args| {
                let amount = args.int("amount");
                if fx.world::<World>()?.resource::<Stores>().food + amount < 0 {
                    return Err(format!("the stores hold less than {}", -amount));
                }
                fx.defer(move |world: &mut World| {
                    world.resource_mut::<Stores>().food += amount;
                })?;
                Ok(())
            },
        )
        .check(
            "population_at_least",
            &[Param::int("n")],
            "Whether the colony has at least `n` colonists.",
            |q, args| Ok(population(q.world::<World>()?) as i64 >= args.int("n")),
        )
        .check(
            "food_at_least",
            &[Param::int("amount")],
            "Whether the stores hold at least `amount` food.",
            |q, args| Ok(q.world::<World>()?.resource::<Stores>().food >= args.int("amount")),
        )
        .function(
            "population",
            &[],
            "How many colonists there are.",
            |q, _| Ok(Value::Int(population(q.world::<World>()?) as i64)),
        )
        .function("food", &[], "The food in store.", |q, _| {
            Ok(Value::Int(q.world::<World>()?.resource::<Stores>().food))
        })
        .query(
            "workers",
            &[Param::id("job", "job")],
            "{ id: integer, job: string }[]",
            "The colonists of a job, one row each, in the order they came.",
            |q, args| {
                let job = args.id("job").ok_or("no job")?.to_string();
                let rows = StableIds::rows::<Colonist>(q.world::<World>()?)
                    .into_iter()
                    .filter(|(_, c)| c.job == job)
                    .map(|(id, c)| serde_json::json!({ "id": id, "job": c.job }));
                Ok(serde_json::Value::Array(rows.collect()))
            },
        )
        .action(
            "assign",
            &[Param::int("colonist"), Param::id("job", "job")],
            "A colonist, by the number the `workers` rows give, takes another job.",
            |fx, args| {
                let colonist = StableIds::find(fx.world::<World>()?, args.int("colonist"))?;
                let job = args.id("job").ok_or("no job")?.to_string();
                fx.defer(move |world: &mut World| {
                    // Gone since (a change deferred before this one despawned it): nothing to do.
                    if let Some(mut c) = world.get_mut::<Colonist>(colonist) {
                        c.job = job;
                    }
                })?;
                Ok(())
            },
        )
        .verb(
            "tick",
            &[Param::int("ticks").optional().within(1, 1000)],
            "Runs the colony's own systems (the calendar, the work) for some ticks: what a test drives.",
            |g, args| {
                for _ in 0..args.opt_int("ticks").unwrap_or(1) {
                    let world = g
                        .world_mut::<World>()
                        .ok_or("the colony's world is not lent")?;
                    world
                        .run_system_once(calendar)
                        .and_then(|()| world.run_system_once(work))
                        .map_err(|e| e.to_string())?;
                    let mut events = std::mem::take(&mut *world.resource_mut::<ModEvents>());
                    events.raise_into(g)?;
                }
                Ok(())
            },
        )
        .verb(
            "set_food",
            &[Param::int("food")],
            "Sets the stores (a test's starting point).",
            |g, args| {
                let food = args.int("food");
                g.world_mut::<World>()
                    .ok_or("the colony's world is not lent")?
                    .resource_mut::<Stores>()
                    .food = food;
                Ok(())
            },
        )
        .world(
            WorldHooks::new(save, load)
                .reconcile(|world: &mut World, content| reassign(world, content))
                .fresh(test_world),
        )
        .rules()
}

/// A small colony for a test game: 30 founders, 500 food, the content's jobs.
fn test_world(content: Arc<Content>) -> World {
    let mut world = World::new();
    world.insert_resource(Stores { food: 500 });
    world.insert_resource(Clock::default());
    world.insert_resource(ModContent(content));
    world.init_resource::<ModEvents>();
    for i in 0..30 {
        let job = ["settlement:farmer", "settlement:miner", "settlement:cook"][i % 3];
        spawn(&mut world, job);
    }
    world
}

/// How many colonists there are.
pub fn population(world: &World) -> usize {
    world
        .try_query::<&Colonist>()
        .map_or(0, |q| q.iter_manual(world).count())
}

/// A new colonist for a job, numbered in order of arrival.
fn spawn(world: &mut World, job: &str) {
    StableIds::spawn(
        world,
        Colonist {
            job: job.to_string(),
        },
    );
}

/// The colony as a save keeps it: colonists by number, in order, and the next number.
#[derive(Serialize, Deserialize)]
struct Saved {
    colonists: Vec<(u64, Colonist)>,
    next_id: u64,
    stores: Stores,
    clock: Clock,
}

fn save(world: &World) -> serde_json::Value {
    let saved = Saved {
        colonists: StableIds::rows::<Colonist>(world),
        next_id: world.get_resource::<StableIds>().map_or(0, StableIds::next),
        stores: *world.resource::<Stores>(),
        clock: *world.resource::<Clock>(),
    };
    serde_json::to_value(saved).unwrap_or_default()
}

fn load(
    world: &mut World,
    saved: serde_json::Value,
    _content: &Content,
) -> Result<Vec<String>, String> {
    let saved: Saved = serde_json::from_value(saved).map_err(|e| e.to_string())?;
    let old: Vec<Entity> = world
        .query_filtered::<Entity, With<Colonist>>()
        .iter(world)
        .collect();
    for e in old {
        world.despawn(e);
    }
    for (id, c) in saved.colonists {
        world.spawn((StableId(id), c));
    }
    StableIds::resume(world, saved.next_id);
    world.insert_resource(saved.stores);
    world.insert_resource(saved.clock);
    Ok(Vec::new())
}

/// The workers of a job the content no longer has go to its first job.
fn reassign(world: &mut World, content: &Content) -> Vec<String> {
    let jobs: Vec<String> = content
        .table::<Job>("jobs")
        .map(|(id, _)| id.to_string())
        .collect();
    let Some(first) = jobs.first() else {
        return Vec::new();
    };
    let mut moved: std::collections::BTreeMap<String, usize> = Default::default();
    let mut q = world.query::<&mut Colonist>();
    for mut c in q.iter_mut(world) {
        if !jobs.contains(&c.job) {
            *moved.entry(c.job.clone()).or_default() += 1;
            c.job = first.clone();
        }
    }
    moved
        .into_iter()
        .map(|(job, n)| format!("job `{job}` is gone: its {n} workers are now `{first}`"))
        .collect()
}

/// Each tick: the workers bring in and eat food, by the jobs the mods define now; the game raises
/// `famine` when the stores run out.
fn work(
    content: Res<ModContent>,
    colonists: Query<&Colonist>,
    mut stores: ResMut<Stores>,
    mut events: ResMut<ModEvents>,
) {
    // A handful of jobs: looked up once a tick, by name, from the content the mods define now.
    let jobs: Vec<(&str, i64)> = content
        .table::<Job>("jobs")
        .map(|(id, job)| (id.as_str(), job.food - job.eats))
        .collect();
    let net: i64 = colonists
        .iter()
        .map(|c| {
            jobs.iter()
                .find(|(id, _)| *id == c.job)
                .map_or(0, |(_, n)| *n)
        })
        .sum();
    let before = stores.food;
    stores.food += net;
    if stores.food < 0 && before >= 0 {
        events.raise("famine", &[("food", Value::Int(stores.food))]);
    }
}

/// Each tick: the clock, and a new day every [`TICKS_PER_DAY`].
fn calendar(mut clock: ResMut<Clock>, mut events: ResMut<ModEvents>) {
    clock.tick += 1;
    events.send(&Ticked {
        tick: clock.tick as i64,
        night: clock.tick % TICKS_PER_DAY >= TICKS_PER_DAY / 2,
    });
    if clock.tick.is_multiple_of(TICKS_PER_DAY) {
        let day = (clock.tick / TICKS_PER_DAY) as i64;
        events.send(&DayStarted { day });
    }
}

/// A new day, as the colony's systems raise it for the mods: a type of the game's, its name and
/// field declared once for both the vocabulary and the raising.
pub struct DayStarted {
    /// The day, from 1.
    pub day: i64,
}

impl ModEvent for DayStarted {
    const NAME: &'static str = "day_started";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("day", "int")];
    fn values(&self) -> Vec<Value> {
        vec![Value::Int(self.day)]
    }
}

/// A tick of the clock, raised every tick: what a mod that acts in real time listens to.
pub struct Ticked {
    /// Ticks since the colony was founded.
    pub tick: i64,
    /// Whether it falls in the second half of the day.
    pub night: bool,
}

impl ModEvent for Ticked {
    const NAME: &'static str = "ticked";
    const FIELDS: &'static [(&'static str, &'static str)] = &[("tick", "int"), ("night", "bool")];
    fn values(&self) -> Vec<Value> {
        vec![Value::Int(self.tick), Value::Bool(self.night)]
    }
}

/// On every fifth day the council meets: an encounter drawn as a random event, answered with the
/// first option it can take.
fn council(world: &mut World) {
    let clock = *world.resource::<Clock>();
    if !clock.tick.is_multiple_of(5 * TICKS_PER_DAY) {
        return;
    }
    with_live(world, |live| {
        let game = live.game_mut();
        let Some(id) = game.draw_encounter("council") else {
            return;
        };
        if game.start_encounter(&id).is_err() {
            return;
        }
        let open = game
            .encounter()
            .map(|e| e.options.iter().position(|o| o.blocked.is_none()))
            .unwrap_or(None);
        if let Some(n) = open {
            let _ = game.choose(n + 1);
        }
    });
}

/// A colony app over the mods of `roots`: `founders` colonists (farmers, then miners, then
/// cooks), the game's systems, and lantern's tick after them.
pub fn app(roots: &[PathBuf], seed: u64, founders: u32) -> Result<App, lantern::Error> {
    let (lantern, _notes) = Lantern::start(roots, &rules(), seed, lantern::lua::Limits::default())?;
    let content = lantern.mod_content();
    let mut app = App::new();
    app.add_plugins(LanternPlugin::default())
        .insert_resource(lantern)
        .insert_resource(content)
        .insert_resource(Stores { food: 500 })
        .insert_resource(Clock::default())
        .add_systems(Update, (calendar, work).chain().before(LanternSet))
        .add_systems(Update, council.after(LanternSet));
    let world = app.world_mut();
    for i in 0..founders {
        let job = ["settlement:farmer", "settlement:miner", "settlement:cook"][(i % 3) as usize];
        spawn(world, job);
    }
    // A real-time colony raises more than a roguelike's hundred events in a tick.
    world
        .resource::<Lantern>()
        .live()
        .game_mut()
        .set_event_cap(10_000);
    Ok(app)
}

/// The colony with its own systems only, no lantern: the jobs given, the events its systems
/// raise heard by nobody. What a tick costs the game itself, beside which lantern's share is
/// measured (`benches/tick.rs`).
pub fn app_without_lantern(content: Arc<Content>, founders: u32) -> App {
    fn nobody_listens(mut events: ResMut<ModEvents>) {
        events.clear();
    }
    let mut app = App::new();
    app.init_resource::<ModEvents>()
        .insert_resource(ModContent(content))
        .insert_resource(Stores { food: 500 })
        .insert_resource(Clock::default())
        .add_systems(Update, (calendar, work, nobody_listens).chain());
    let world = app.world_mut();
    for i in 0..founders {
        let job = ["settlement:farmer", "settlement:miner", "settlement:cook"][(i % 3) as usize];
        spawn(world, job);
    }
    app
}

/// The colony's bundled mods.
pub fn mods_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("mods")
}

/// Writes `n` small mods into `dir` (`small0`, `small1`, ...), each what a modder writes first:
/// a trigger on the every-tick event with a `when` and a `chance` that adds food, and a Lua
/// handler on it that adds 1 to a counter in its storage. What the tick bench and the memory
/// test load beside the settlement, so that every mod's trigger, handler and storage write run
/// every tick.
pub fn write_small_mods(dir: &Path, n: usize) -> std::io::Result<()> {
    for i in 0..n {
        let m = dir.join(format!("small{i}"));
        std::fs::create_dir_all(m.join("data"))?;
        std::fs::create_dir_all(m.join("scripts"))?;
        std::fs::write(
            m.join("mod.toml"),
            format!("id = \"small{i}\"\nversion = \"0.1.0\"\n"),
        )?;
        std::fs::write(
            m.join("data/rules.toml"),
            "[[triggers]]\non = \"ticked\"\nwhen = { night = false }\nchance = 0.5\n\
             actions = [ { action = \"colony:add_food\", amount = 1 } ]\n",
        )?;
        std::fs::write(
            m.join("scripts/main.lua"),
            "lantern.on(\"ticked\", function(ev)\n  \
             lantern.storage.ticks = (lantern.storage.ticks or 0) + 1\nend)\n",
        )?;
    }
    Ok(())
}

/// The whole game's state hash: lantern's state and the colony's world, lent for the asking.
pub fn state_hash(app: &mut App) -> String {
    with_live(app.world_mut(), |live| live.game().state_hash())
}

/// Saves the whole game (lantern's state and the world) to `path`.
pub fn save_game(app: &mut App, path: &Path) -> Result<(), lantern::Error> {
    with_live(app.world_mut(), |live| live.game().save(path))
}

/// Loads a save into the running app: lantern's state, and the world put back at once.
pub fn load_game(app: &mut App, path: &Path) -> Result<lantern::diag::Problems, lantern::Error> {
    with_live(app.world_mut(), |live| live.load_save(path))
}

/// What the turns said since it was last taken, taken.
pub fn take_output(app: &mut App) -> LanternOutput {
    app.world_mut().resource_mut::<LanternOutput>().take()
}
