//! `lantern.test.game{ seed = 7, mods = {"core", "rats"} }`: a fresh, isolated game a test drives.
//!
//! The content of a mod set is parsed once per run and shared; each game gets its own state and a
//! new Lua state for the mods' scripts, so no test sees another's handlers, storage or random draws.

use super::test_args::{payload_of, stub_of};
use super::test_creature::{spawn_creature, Creature};
use super::test_game::{
    charge_game, check, driving, known, located, reading, reading_field, Spent, TestGame, SERIAL,
};
use super::test_settings::{choose_settings, data_settings, setting_methods};
use super::Harness;
use crate::content::EventKey;
use crate::game::{CreatureRef, Game};
use crate::lua::bridge::ref_name;
use crate::lua::price::charge;
use atomic_refcell::AtomicRefCell;
use mlua::{AnyUserData, Lua, ObjectLike, Table, UserData, UserDataFields, UserDataMethods, Value};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::sync::Arc;

/// The most test games one test file may keep alive at once: each is a whole game with a Lua
/// state of its own, outside the test's memory limit.
pub(crate) const MOST_LIVE_GAMES: usize = 64;

/// What making a test game costs the test before its scripts run: about what a fresh Lua state
/// and a game take to make, in instructions' worth.
const NEW_GAME: usize = 50_000;

/// `lantern.test.game`.
pub(crate) fn constructor(
    lua: &Lua,
    h: Arc<Harness>,
    output: Arc<AtomicRefCell<Vec<String>>>,
    mod_id: Option<String>,
) -> mlua::Result<mlua::Function> {
    let live = Arc::new(AtomicUsize::new(0));
    crate::lua::price::function(lua, move |lua, opts: Option<Table>| {
        if let Some(mut spent) = lua.app_data_mut::<Spent>() {
            spent.games += 1;
        }
        charge_game(lua, NEW_GAME)?;
        make_room(lua, &live)?;
        let seed: u64 = opts
            .as_ref()
            .and_then(|o| o.get::<Option<u64>>("seed").ok().flatten())
            .unwrap_or(1);
        let (prepared, lang) = prepared(&h, opts.as_ref())?;
        let (mut scripts, sources) = prepared.set.scripts(h.limits).map_err(|p| {
            mlua::Error::runtime(format!(
                "lantern.test.game: the scripts do not load:\n{}",
                p.render()
            ))
        })?;
        let registered = scripts.extensions();
        let content = match &lang {
            Some(lang) => prepared.content_in(lang),
            None => prepared.set.content().clone(),
        };
        let save: Option<String> = opts
            .as_ref()
            .map(|o| o.get::<Option<String>>("save"))
            .transpose()?
            .flatten();
        let mut game = match &save {
            Some(rel) => saved_game(&prepared, mod_id.as_deref(), rel, content)?,
            None => Game::new(content, prepared.set.rules().code().clone(), seed),
        };
        choose_settings(&mut game, &h.settings, opts.as_ref())?;
        if h.costs.is_some() {
            scripts.set_profiling(true);
        }
        // Its storage in place, and for a saved game the mods' update hooks run.
        crate::game::ScriptHost::attach(&mut scripts, &mut game);
        game.set_scripts(Some(Box::new(scripts)));
        // What the mods' scripts ran while they loaded was done for this test.
        charge_game(lua, usize::try_from(game.work()).unwrap_or(usize::MAX))?;
        live.fetch_add(1, Relaxed);
        let world = (game.code().world())
            .and_then(|w| w.fresh.as_ref())
            .map(|fresh| fresh(prepared.set.content().clone()));
        let home = mod_id
            .clone()
            .unwrap_or_else(|| prepared.set.content().declared.home().to_string());
        Ok(TestGame {
            home,
            serial: SERIAL.fetch_add(1, Relaxed),
            game,
            symbols: std::sync::OnceLock::new(),
            registered,
            sources,
            output: output.clone(),
            live: live.clone(),
            said: Vec::new(),
            world,
            costs: h.costs.clone(),
        })
    })
}

/// Room for one more game: past `MOST_LIVE_GAMES` alive, the games the test no longer holds are
/// collected first (a creature handle, `g.player`, holds its game: one cycle frees the handle,
/// the next its game); still past it, an error.
fn make_room(lua: &Lua, live: &AtomicUsize) -> mlua::Result<()> {
    if live.load(Relaxed) < MOST_LIVE_GAMES {
        return Ok(());
    }
    for _ in 0..3 {
        lua.gc_collect()?;
        if live.load(Relaxed) < MOST_LIVE_GAMES {
            return Ok(());
        }
    }
    Err(mlua::Error::runtime(format!(
        "lantern.test.game: a test file may keep at most {MOST_LIVE_GAMES} games alive at once (each is a whole game with its own scripts)"
    )))
}

/// The mod set a test's game is made of (its `mods`, loaded again with the settings its data
/// reads when the test sets one), and the language the game speaks (the test's `lang`, or the
/// run's), which some mod must have when the test asks for it.
fn prepared(
    h: &Harness,
    opts: Option<&Table>,
) -> mlua::Result<(Arc<super::Prepared>, Option<String>)> {
    let asked: Option<String> = opts.and_then(|o| o.get::<Option<String>>("lang").ok().flatten());
    let lang = asked.clone().or_else(|| h.lang.clone());
    let mods: Vec<String> = opts
        .and_then(|o| o.get::<Option<Vec<String>>>("mods").ok().flatten())
        .unwrap_or_default();
    let mut prepared = h
        .prepare(&mods)
        .map_err(|e| mlua::Error::runtime(format!("lantern.test.game: {e}")))?;
    // A setting the mods' data reads is the data's: the test's own value of one is a load
    // of the data with it.
    let read = data_settings(prepared.set.content(), opts)?;
    if !read.is_empty() {
        prepared = h
            .prepare_with(&mods, &read)
            .map_err(|e| mlua::Error::runtime(format!("lantern.test.game: {e}")))?;
    }
    // A test in a language no mod has would test the mods' own texts and say nothing.
    if let Some(lang) = asked.as_deref() {
        if !prepared.set.content().has_language(lang) {
            return Err(mlua::Error::runtime(format!(
                "lantern.test.game: no mod has texts in `{}` (the mods have {}): the game \
                 would show each mod's own language",
                crate::diag::visible(lang),
                prepared.set.content().languages().join(", ")
            )));
        }
    }
    Ok((prepared, lang))
}

/// A test game read from a save in the test's mod (`save = "tests/saves/v0_1.json"`, a path in
/// the mod's folder): its notes (what was renamed, set aside or dropped) among its problems, for
/// `g:problems()` to read.
fn saved_game(
    prepared: &crate::harness::Prepared,
    mod_id: Option<&str>,
    rel: &str,
    content: std::sync::Arc<crate::content::Content>,
) -> mlua::Result<Game> {
    let refused = |why: String| mlua::Error::runtime(format!("lantern.test.game: {why}"));
    let folder = mod_id
        .and_then(|m| prepared.set.folders().iter().find(|f| f.id() == m))
        .ok_or_else(|| {
            refused("`save` reads a file of the test's own mod; this test is no mod's".into())
        })?;
    let shown = format!("{}/{}", folder.id(), crate::diag::shown(rel));
    let root = crate::mods::ModRoot::of(&folder.dir);
    let bytes = match crate::mods::read_mod_file(&root, rel) {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return Err(refused(format!("there is no save `{shown}`"))),
        Err(e) => return Err(refused(e.diagnostic(&shown).message)),
    };
    let text = String::from_utf8(bytes).map_err(|_| {
        refused(format!(
            "`{shown}` is not a lantern save file: it is not text"
        ))
    })?;
    let code = prepared.set.rules().code().clone();
    let (mut game, notes) =
        Game::from_save_text(content, code, text, &format!("`{shown}`")).map_err(refused)?;
    for note in notes {
        game.report(note);
    }
    Ok(game)
}

/// `g:choose(n)` and `g:start_encounter(id)`: the encounter's methods.
fn encounter_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method_mut(
        "choose",
        driving(|lua, this, n: usize| {
            let r = this.game.choose(n);
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "start_encounter",
        driving(|lua, this, e: String| {
            let e = known(lua, this, |c| &c.encounters, &e, "encounter")?;
            let r = this.game.start_encounter(&e);
            this.flush();
            check(lua, r)
        }),
    );
}

impl TestGame {
    /// What `g:apply` validates against, made the first time it is asked for.
    fn symbols(&self) -> &crate::content::resolve::Symbols {
        self.symbols.get_or_init(|| {
            crate::content::resolve::symbols_of(self.game.content(), &self.registered)
        })
    }
}

/// The game's verbs as methods of a test game: `g:attack(1)` is `g:verb("attack", 1)`, for the
/// roguelike's verbs and any game's alike. Asked only for names no method or field has; a name
/// that is neither is an error at the test's line, with "did you mean".
fn verbs_as_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_meta_method(
        mlua::MetaMethod::Index,
        reading(|lua, this: &TestGame, key: Value| {
            let Some(name) = key
                .as_string()
                .and_then(|s| s.to_str().ok().map(|s| s.to_string()))
            else {
                return Ok(Value::Nil);
            };
            let verbs = &this.game.content().declared.verbs;
            if !verbs.contains_key(&name) {
                crate::lua::price::charge_suggestions(lua, METHODS.len() + verbs.len())?;
                let known = METHODS
                    .iter()
                    .copied()
                    .chain(verbs.keys().map(String::as_str));
                let help = crate::diag::did_you_mean_suffix(&name, known);
                let name = crate::diag::shown(&name);
                return Err(located(
                    lua,
                    format!("a test game has no method or verb `{name}`{help}"),
                ));
            }
            let verb =
                lua.create_function(move |_, (g, args): (AnyUserData, mlua::Variadic<Value>)| {
                    g.call_method::<()>("verb", (name.clone(), args))
                })?;
            Ok(Value::Function(verb))
        }),
    );
}

/// A test game's own methods and fields, for "did you mean" when a test calls one that does not exist.
pub(super) const METHODS: &[&str] = &[
    "seed",
    "turn",
    "choose",
    "start_encounter",
    "start",
    "give",
    "apply",
    "spawn",
    "emit",
    "quest",
    "encounter",
    "events",
    "why",
    "stub_rng",
    "start_hazard",
    "route",
    "play",
    "end_round",
    "dev_card",
    "hazard",
    "hand",
    "enchanted",
    "meters",
    "marks",
    "hash",
    "verb",
    "state",
    "world",
    "messages",
    "problems",
    "enemies",
    "storage",
    "field",
    "setting",
    "set_setting",
];

/// `g:encounter()`'s table: the open encounter's ID, title and options, each with its text and
/// whether (and why) it is blocked, as the mod wrote them.
fn encounter_table(lua: &Lua, e: &crate::game::EncounterView) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("id", e.id.to_string())?;
    t.raw_set("title", e.title.unescaped())?;
    let options = lua.create_table()?;
    for (i, o) in e.options.iter().enumerate() {
        let ot = lua.create_table()?;
        ot.raw_set("text", o.text.unescaped())?;
        ot.raw_set("blocked", o.blocked.is_some())?;
        ot.raw_set("reason", o.blocked.as_ref().map(|b| b.unescaped()))?;
        options.raw_set(i + 1, ot)?;
    }
    t.raw_set("options", options)?;
    Ok(t)
}

/// `g:quest(id)`: `{ count, done, state }`. A quest not started reads as one, not as nil:
/// `g:quest(id).count` is 0 then, never "attempt to index a nil value".
fn quest_table(lua: &Lua, p: Option<&crate::game::QuestProgress>) -> mlua::Result<Table> {
    let state = match p {
        None => "not_started",
        Some(p) if p.done => "done",
        Some(_) => "active",
    };
    let t = lua.create_table()?;
    t.raw_set("count", p.map_or(0, |p| p.count))?;
    t.raw_set("done", p.is_some_and(|p| p.done))?;
    t.raw_set("state", state)?;
    Ok(t)
}

impl TestGame {
    fn entry(&self, action: crate::content::Action) -> crate::content::ActionEntry {
        crate::content::ActionEntry {
            action,
            span: crate::diag::Span::file_start(crate::diag::FileId(0)),
        }
    }

    /// `g:why(key)`: why a trigger or quest did or did not fire. A bare ID is the test's mod's, as
    /// everywhere in its tests (a `file:line` key stays as it is).
    fn why(&self, key: String) -> Result<String, String> {
        match key.contains(':') || key.contains('/') {
            true => self.game.explain(&key),
            false => self.game.explain(&format!("{}:{key}", self.home)),
        }
    }

    /// An event by name: an engine event's, or a custom one's (a bare name is the test's mod's).
    fn event_key(&self, name: &str) -> mlua::Result<EventKey> {
        let events = &self.game.content().events;
        events
            .lookup_for(self.home.as_bytes(), name.as_bytes())
            .ok_or_else(|| {
                let help = crate::diag::did_you_mean_suffix(name, events.names());
                mlua::Error::runtime(format!("unknown event `{name}`{help}"))
            })
    }
}

/// The methods over the hosting game's own vocabulary: its verbs, its state, its world.
fn hosting_game_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method_mut(
        "verb",
        driving(|lua, this, (name, args): (String, mlua::Variadic<Value>)| {
            let mut values = Vec::with_capacity(args.len());
            for (i, a) in args.iter().enumerate() {
                let v = crate::lua::bridge::from_lua(lua, a)?.ok_or_else(|| {
                    located(
                        lua,
                        format!(
                            "g:verb: argument {} cannot be a {} (a number, text or boolean)",
                            i + 1,
                            a.type_name()
                        ),
                    )
                })?;
                values.push(v);
            }
            let done = this.game.verb(&name, &values);
            this.flush();
            done.map_err(|e| located(lua, e.into()))
        }),
    );
    methods.add_method_mut(
        "world",
        driving(|lua, this, ()| match this.game.world_json() {
            Some(json) => {
                charge(lua, crate::lua::storage::copy_cost(&json))?;
                crate::lua::storage::from_json(lua, &json)
            }
            None => Err(located(
                lua,
                "this game keeps no world of its own for tests (`WorldHooks::fresh`)".to_string(),
            )),
        }),
    );
    methods.add_method(
        "state",
        reading(
            |lua, this: &TestGame, ()| match this.game.state().host.to_json() {
                Some(json) => {
                    charge(lua, crate::lua::storage::copy_cost(&json))?;
                    crate::lua::storage::from_json(lua, &json)
                }
                None => Ok(Value::Nil),
            },
        ),
    );
}

impl UserData for TestGame {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_function_get("player", |_, this: AnyUserData| {
            Ok(Creature {
                owner: this,
                r: CreatureRef::Player,
            })
        });
        fields.add_field_method_get(
            "seed",
            reading_field(|_, this: &TestGame| Ok(this.game.seed())),
        );
        fields.add_field_method_get(
            "turn",
            reading_field(|_, this: &TestGame| Ok(this.game.state().turn)),
        );
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        verbs_as_methods(methods);
        setting_methods(methods);
        encounter_methods(methods);
        action_methods(methods);
        methods.add_method(
            "quest",
            reading(|lua, this: &TestGame, quest: String| {
                let q = known(lua, this, |c| &c.quests, &quest, "quest")?;
                quest_table(lua, this.game.state().quests.get(&q)).map(Value::Table)
            }),
        );
        methods.add_method(
            "encounter",
            reading(|lua, this: &TestGame, ()| match this.game.encounter() {
                Some(e) => encounter_table(lua, &e).map(Value::Table),
                None => Ok(Value::Nil),
            }),
        );
        methods.add_method(
            "events",
            reading(|lua, this: &TestGame, ()| {
                let list = lua.create_table()?;
                for (i, h) in this.game.log().enumerate() {
                    let def = this.game.content().events.get(h.event.kind);
                    let t = lua.create_table()?;
                    t.raw_set("name", def.name.as_str())?;
                    t.raw_set("source", ref_name(h.event.source))?;
                    if let Some(target) = h.event.target {
                        t.raw_set("target", ref_name(target))?;
                    }
                    for (j, (field, _)) in def.payload.iter().enumerate() {
                        if let Some(v) = h.event.field(j) {
                            t.raw_set(field.as_str(), crate::lua::bridge::to_lua(lua, v)?)?;
                        }
                    }
                    list.raw_set(i + 1, t)?;
                }
                Ok(list)
            }),
        );
        methods.add_method(
            "why",
            reading(|lua, this: &TestGame, key: String| this.why(key).map_err(|e| located(lua, e))),
        );
        methods.add_method_mut(
            "stub_rng",
            driving(|lua, this, (value, stream): (Value, Option<String>)| {
                if let Some(name) = &stream {
                    crate::game::streams::check_stream(this.game.content(), name)
                        .map_err(|e| located(lua, e))?;
                }
                let stub = stub_of(lua, value)?;
                super::stubs::stub_set(lua, this.game.rng_mut().set_stub(stream.as_deref(), stub));
                Ok(())
            }),
        );
        super::hazard_game::hazard_methods(methods);
        methods.add_method(
            "hash",
            reading(|_, this: &TestGame, ()| Ok(this.game.state_hash())),
        );
        hosting_game_methods(methods);
        reading_methods(methods);
    }
}

/// What a test does to its game as the console's commands would: `start`, `give`, `apply`,
/// `spawn` and `emit`, each followed by the events it raised.
fn action_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method_mut(
        "start",
        driving(|lua, this, quest: String| {
            let quest = known(lua, this, |c| &c.quests, &quest, "quest")?;
            let entry = this.entry(crate::content::Action::StartQuest { quest });
            let r = this.game.command_action(entry, "start");
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "give",
        driving(|lua, this, (item, count): (String, Option<u32>)| {
            let entry = this.entry(crate::content::Action::GiveItem {
                item: known(lua, this, |c| &c.items, &item, "item")?,
                count: count.unwrap_or(1),
                target: crate::content::Who::Player,
            });
            let r = this.game.command_action(entry, "give");
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "apply",
        driving(|lua, this, action: Table| {
            let map = crate::lua::api::to_toml_map(lua, &action)
                .map_err(|e| located(lua, e.to_string()))?;
            let content = this.game.content().clone();
            let entry = crate::content::resolve::runtime_action(
                this.symbols(),
                &content.events,
                &this.home,
                &map,
            )
            .map_err(|e| located(lua, e))?;
            let r = this.game.command_action(entry, "apply");
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_function("spawn", spawn_creature);
    methods.add_method_mut(
        "emit",
        driving(|lua, this, (name, payload): (String, Option<Table>)| {
            let kind = this.event_key(&name)?;
            let (target, values) = match payload {
                Some(p) => payload_of(lua, this, kind, &p)?,
                None => (None, Vec::new()),
            };
            let r = this.game.emit_command(kind, target, &values);
            this.flush();
            check(lua, r)
        }),
    );
}

/// What a test reads of its game beside its state: what it said, its unread problems, its
/// enemies, a mod's storage, a field the game adds to `lantern.game`.
fn reading_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method_mut(
        "messages",
        driving(|lua, this, ()| {
            this.flush();
            lua.create_sequence_from(this.said.iter().map(String::as_str))
        }),
    );
    methods.add_method_mut(
        "problems",
        driving(|lua, this, ()| {
            let problems = this.game.take_problems();
            let lines: Vec<String> = problems
                .iter()
                .map(|d| crate::diag::render(d, &this.sources))
                .collect();
            lua.create_sequence_from(lines)
        }),
    );
    methods.add_method(
        "enemies",
        reading(|lua, this: &TestGame, ()| {
            let refs: Vec<String> = this.game.enemies().map(|(r, _)| ref_name(r)).collect();
            lua.create_sequence_from(refs)
        }),
    );
    methods.add_method(
        "storage",
        reading(|lua, this: &TestGame, mod_id: String| storage_of(lua, this, &mod_id)),
    );
    // A field the game adds to `lantern.game` (the roguelike's `position`), as a script reads it.
    methods.add_method(
        "field",
        reading(|lua, this: &TestGame, name: String| {
            let content = this.game.content().clone();
            let fields = &content.declared.fields;
            let Some(at) = fields.iter().position(|f| f.name == name) else {
                let help = crate::diag::did_you_mean_suffix(&name, fields.iter().map(|f| f.name));
                return Err(located(
                    lua,
                    format!("the game adds no field `{name}` to `lantern.game`{help}"),
                ));
            };
            match (this.game.code().fields[at])(&this.game) {
                Ok(json) => crate::lua::storage::from_json(lua, &json),
                Err(e) => Err(located(lua, format!("lantern.game.{name}: {e}"))),
            }
        }),
    );
}

/// Wraps what `g:storage(mod)` read so that a write fails at the test's line instead of vanishing:
/// the table is a copy of the mod's storage, which lives in the game's own Lua state.
/// `g:storage(mod)`: a read-only copy of what the mod stored, charged by its size before it is
/// made; `nil` when it stored nothing.
fn storage_of(lua: &Lua, this: &TestGame, mod_id: &str) -> mlua::Result<Value> {
    let content = this.game.content();
    if !content.mods.iter().any(|m| m.id == mod_id) {
        let help =
            crate::diag::did_you_mean_suffix(mod_id, content.mods.iter().map(|m| m.id.as_str()));
        return Err(located(
            lua,
            format!("there is no mod `{mod_id}` in this game{help}"),
        ));
    }
    match this.game.storage().get(mod_id) {
        Some(v) => {
            charge(lua, crate::lua::storage::copy_cost(v))?;
            let copy = crate::lua::storage::from_json(lua, v)?;
            read_only(lua, mod_id)?.call::<Value>(copy)
        }
        None => Ok(Value::Nil),
    }
}

fn read_only(lua: &Lua, mod_id: &str) -> mlua::Result<mlua::Function> {
    let freeze: mlua::Function = lua
        .load(
            r#"
        local message = ...
        local setmetatable, next, type, error, rawlen = setmetatable, next, type, error, rawlen
        local function freeze(t)
          if type(t) ~= "table" then return t end
          local proxy = {}
          return setmetatable(proxy, {
            __index = function(_, k) return freeze(t[k]) end,
            __newindex = function() error(message, 2) end,
            __pairs = function()
              return function(_, k)
                local nk, nv = next(t, k)
                return nk, freeze(nv)
              end, proxy, nil
            end,
            __len = function() return rawlen(t) end,
            __metatable = false,
            __copy = t,
          })
        end
        return freeze
        "#,
        )
        .set_name("=lantern")
        .call(format!(
            "g:storage(\"{mod_id}\") is a copy of what the mod stored, and a test cannot change it; change it through the game (an action, an event) and read it again"
        ))?;
    Ok(freeze)
}
