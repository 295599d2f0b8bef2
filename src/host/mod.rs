//! A game's own world, declared in Rust: what lets a game other than the reference roguelike host
//! mods.
//!
//! A game describes itself once with a [`Vocabulary`]: its state type, its events and their
//! payloads, the data tables its mods write (`[[crops]]`), its actions and checks with typed
//! parameters, the Lua functions it lends to scripts, and the verbs its test harness drives. The
//! vocabulary becomes [`Rules`], which the loader takes: the resolver then accepts `farm:pay` and
//! validates its arguments as it does the built-in actions', the game's events join the engine's,
//! and the content it builds carries the declarations as data. The `World` or `ModSet` that
//! loaded the mods keeps the rules, and every game it starts runs their code.
//!
//! The game's state lives inside lantern's (`State::host`): an action list that fails rolls it
//! back with the rest, saves and the state hash include it, and a game's actions change it only
//! through the one door ([`Effects::state_mut`] inside an action).

mod effects;
mod rules;
mod world;

pub use crate::content::declare::{Args, GameState, HostState, Param, Problem};
pub use effects::{Effects, Query};
pub use rules::Rules;
pub use world::WorldHooks;

use crate::content::declare::{
    keys, Declarations, EventDecl, FieldDecl, FunctionDecl, Signature, StateType, TableDecl,
};

use crate::content::vocab::FieldType;
use crate::content::Value;
use crate::diag::{Diagnostic, FileId};
use crate::game::code::{Answer, Code};
use crate::game::{Ctx, Game};
use crate::id::Id;
use std::any::Any;
use std::collections::BTreeMap;
use std::marker::PhantomData;
use std::sync::Arc;

/// A game's declaration of its world, typed by its state `S` (use `()` for a game that keeps
/// none). Build it with the methods below, in any order, and hand it to the loader as [`Rules`].
///
/// ```
/// use lantern::host::{Param, Vocabulary};
/// use lantern::content::Value;
///
/// #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
/// struct Farm { money: i64 }
///
/// let rules = Vocabulary::new("farm", Farm::default())
///     .event("day_started", &[("day", "int")], "A new day begins.")
///     .action("pay", &[Param::int("amount")], "Pays money.", |fx, args| {
///         let amount = args.int("amount");
///         if fx.state().money < amount {
///             return Err(format!("{amount} is more money than the farm has"));
///         }
///         fx.state_mut().money -= amount;
///         Ok(())
///     })
///     .check("money_at_least", &[Param::int("amount")], "Whether the farm has the money.",
///         |q, args| Ok(q.state().money >= args.int("amount")))
///     .function("money", &[], "The farm's money.", |q, _| Ok(Value::Int(q.state().money)))
///     .rules();
/// assert!(rules.problems().is_empty());
/// ```
pub struct Vocabulary<S> {
    defs: Declarations,
    code: Code,
    _state: PhantomData<fn() -> S>,
}

/// An event as a game's handler sees it: its name and the payload fields it carries.
pub struct EventFields<'a> {
    /// The event's name.
    pub name: &'a str,
    fields: Vec<(&'a str, &'a Value)>,
}

impl<'a> EventFields<'a> {
    /// A payload field's value, if the event carries it.
    pub fn get(&self, field: &str) -> Option<&'a Value> {
        self.fields
            .iter()
            .find(|(n, _)| *n == field)
            .map(|(_, v)| *v)
    }

    /// A whole-number field, 0 when absent.
    pub fn int(&self, field: &str) -> i64 {
        match self.get(field) {
            Some(Value::Int(i)) => *i,
            _ => 0,
        }
    }

    /// A text or ID field, empty when absent.
    pub fn text(&self, field: &str) -> &'a str {
        match self.get(field) {
            Some(Value::Str(s)) => s,
            _ => "",
        }
    }
}

impl<S: GameState> Vocabulary<S> {
    /// A game's vocabulary: `namespace` names its actions and checks (`farm:pay`) and its table of
    /// Lua functions (`lantern.farm`); `initial` is the state a new game starts with.
    pub fn new(namespace: &str, initial: S) -> Vocabulary<S> {
        let mut defs = Declarations {
            namespace: namespace.to_string(),
            state: Some(StateType::of(initial)),
            ..Declarations::default()
        };
        if !crate::id::is_ident(namespace) {
            defs.problems.push(format!(
                "the game's namespace `{namespace}` must use lowercase letters, digits and `_`"
            ));
        }
        Vocabulary {
            defs,
            code: Code::default(),
            _state: PhantomData,
        }
    }

    fn name_ok(&mut self, what: &str, name: &str) -> bool {
        let ok = crate::id::is_ident(name);
        if !ok {
            self.defs.problems.push(format!(
                "the game's {what} `{name}` must be named with lowercase letters, digits and `_`"
            ));
        }
        ok
    }

    /// An event the game raises (with [`Game::raise`]), named bare like the engine's
    /// (`day_started`), with its payload fields and their types: `int`, `float`, `string`,
    /// `bool`, a built-in kind of ID (`item`, ...) or one of the game's table kinds (`crop`).
    /// Its source is the player; every world trigger, quest and handler sees it.
    pub fn event(
        mut self,
        name: &str,
        payload: &[(&str, &'static str)],
        doc: &'static str,
    ) -> Self {
        if self.name_ok("event", name) {
            if self.defs.events.iter().any(|e| e.name == name) {
                self.defs
                    .problems
                    .push(format!("the game declares the event `{name}` twice"));
            }
            let mut fields = Vec::new();
            for (field, ty) in payload {
                let ty = FieldType::from_name(ty).unwrap_or(FieldType::Host(ty));
                fields.push((field.to_string(), ty));
            }
            self.defs.events.push(EventDecl {
                name: name.to_string(),
                payload: fields,
                doc,
            });
        }
        self
    }

    /// A data table mods write as `[[key]]` in their data files. Each entry has an `id` (bare for
    /// the writing mod's own, as every ID) and its other keys are read into `T` with serde, every
    /// mistake located at its key; unknown keys are mistakes when `T` says
    /// `#[serde(deny_unknown_fields)]`. Entries are IDs of `kind`: parameters and payload fields of
    /// that kind are checked against them, and [`Content::table`](crate::content::Content::table)
    /// reads them.
    pub fn table<T>(mut self, key: &'static str, kind: &'static str) -> Self
    where
        T: serde::de::DeserializeOwned + Send + Sync + 'static,
    {
        if self.name_ok("table", key) && self.name_ok("kind of ID", kind) {
            if crate::content::raw_defs::TABLES.contains(&key) {
                self.defs
                    .problems
                    .push(format!("the table `{key}` is one of lantern's own"));
            } else if self.defs.tables.iter().any(|t| t.key == key) {
                self.defs
                    .problems
                    .push(format!("the table `{key}` is declared twice"));
            }
            self.defs.tables.push(TableDecl {
                key,
                kind,
                read: read_entry::<T>,
                refs: Vec::new(),
                in_play: None,
                validate: Vec::new(),
                entry_type: (std::any::TypeId::of::<T>(), std::any::type_name::<T>()),
                keys: keys::of::<T>(),
                shapes: keys::of::<T>()
                    .map(keys::shapes_of::<T>)
                    .unwrap_or_default(),
                texts: Vec::new(),
                help: Vec::new(),
            });
        }
        self
    }

    /// Says that the key `field` of the entries of the game's table `table` names IDs of `kind`:
    /// a built-in kind (`item`, `creature`, `quest`, `encounter`, `hazard`, `card`, `room`,
    /// `floor`) or one of the game's table kinds (`crop`). Its value is one ID or an array of
    /// them; a dotted `field` reaches into tables (`"needs.crop"`: the `crop` of each table in
    /// `needs = [{ crop = "wheat", amount = 2 }]`). lantern checks every one when mods load (an unknown ID is an error at its place,
    /// with "did you mean") and hands the game's type the full ID (`valley:wheat` for a bare
    /// `wheat` written in the mod `valley`), which [`Content::entry`](crate::content::Content::entry)
    /// finds. Declare the table first.
    ///
    /// ```
    /// # use lantern::host::Vocabulary;
    /// #[derive(serde::Deserialize)]
    /// struct Recipe { makes: String, needs: Vec<Need> }
    /// #[derive(serde::Deserialize)]
    /// struct Need { item: String, count: u32 }
    /// let rules = Vocabulary::new("kitchen", ())
    ///     .table::<Recipe>("recipes", "recipe")
    ///     .refers("recipes", "makes", "item")       // makes = "bread"
    ///     .refers("recipes", "needs.item", "item")  // needs = [{ item = "flour", count = 2 }]
    ///     .rules();
    /// assert!(rules.problems().is_empty());
    /// ```
    pub fn refers(mut self, table: &str, field: &'static str, kind: &'static str) -> Self {
        let ty = FieldType::from_name(kind).unwrap_or(FieldType::Host(kind));
        if ty.is_plain() || ty == FieldType::DamageType {
            self.defs.problems.push(format!(
                "`{table}.{field}` refers to `{kind}`, which is not a kind of ID"
            ));
            return self;
        }
        let Some(decl) = self.defs.tables.iter_mut().find(|t| t.key == table) else {
            self.defs.problems.push(format!(
                "`refers` names the table `{table}`, which the game does not declare (declare it with `table` first)"
            ));
            return self;
        };
        if decl.refs.iter().any(|(f, _)| *f == field) {
            self.defs
                .problems
                .push(format!("`{table}.{field}` is declared to refer twice"));
        } else {
            decl.refs.push((field, ty));
        }
        self
    }

    /// A rule of the game's over each entry of its table `table`, read into `T` (the table's
    /// type), beyond what serde checks: a value out of the game's range, two keys that do not go
    /// together. Each [`Problem`] it returns is reported when mods load, at the entry's key it
    /// names (or at the entry), an error failing the load as lantern's own do. Declare the table
    /// first.
    ///
    /// ```
    /// # use lantern::host::{Problem, Vocabulary};
    /// #[derive(serde::Deserialize)]
    /// struct Crop { days: i64 }
    /// let rules = Vocabulary::new("farm", ())
    ///     .table::<Crop>("crops", "crop")
    ///     .validate("crops", |crop: &Crop| {
    ///         (crop.days < 1)
    ///             .then(|| Problem::error("a crop grows at least a day").at("days"))
    ///             .into_iter()
    ///             .collect()
    ///     })
    ///     .rules();
    /// assert!(rules.problems().is_empty());
    /// ```
    pub fn validate<T, F>(mut self, table: &str, rule: F) -> Self
    where
        T: 'static,
        F: Fn(&T) -> Vec<Problem> + Send + Sync + 'static,
    {
        let Some(decl) = self.defs.tables.iter_mut().find(|t| t.key == table) else {
            self.defs.problems.push(format!(
                "`validate` names the table `{table}`, which the game does not declare (declare it with `table` first)"
            ));
            return self;
        };
        if decl.entry_type.0 != std::any::TypeId::of::<T>() {
            let (table_type, rule_type) = (decl.entry_type.1, std::any::type_name::<T>());
            self.defs.problems.push(format!(
                "the rule `validate` gives `{table}` reads `{rule_type}`, but the table's entries are `{table_type}`"
            ));
            return self;
        }
        decl.validate
            .push(Arc::new(move |entry: &(dyn Any + Send + Sync)| {
                entry.downcast_ref::<T>().map(&rule)
            }));
        self
    }

    /// Says what keys of the game's table `table` mean (`("days", "days from planting to
    /// harvest")`), for the editor files `docs --schema` writes; a key the table's type does not
    /// read is a mistake. Declare the table first.
    pub fn describe(mut self, table: &str, keys: &[(&'static str, &'static str)]) -> Self {
        let Some(decl) = self.defs.tables.iter_mut().find(|t| t.key == table) else {
            self.defs.problems.push(format!(
                "`describe` names the table `{table}`, which the game does not declare (declare it with `table` first)"
            ));
            return self;
        };
        if let Some(known) = decl.keys {
            for (key, _) in keys {
                if !known.contains(key) && *key != "id" && *key != "triggers" {
                    let help = crate::diag::did_you_mean_suffix(key, known.iter().copied());
                    self.defs.problems.push(format!(
                        "`describe` gives `{table}.{key}` a meaning, but `{table}` has no key `{key}`{help}"
                    ));
                }
            }
        }
        decl.help.extend_from_slice(keys);
        self
    }

    /// Says which keys of the game's table `table` players read (`&["name", "description"]`):
    /// each is a text with a key of its own (`rooms.cellar.name`) that a locale file translates,
    /// `texts export` writes for translators and `check` counts in a translation; the game shows
    /// it with [`Content::text_of`](crate::content::Content::text_of). Declare the table first.
    pub fn texts(mut self, table: &str, keys: &[&'static str]) -> Self {
        let Some(decl) = self.defs.tables.iter_mut().find(|t| t.key == table) else {
            self.defs.problems.push(format!(
                "`texts` names the table `{table}`, which the game does not declare (declare it with `table` first)"
            ));
            return self;
        };
        for key in keys {
            if decl.keys.is_some_and(|known| !known.contains(key)) {
                let help = crate::diag::did_you_mean_suffix(
                    key,
                    decl.keys.unwrap_or_default().iter().copied(),
                );
                self.defs.problems.push(format!(
                    "`texts` names `{table}.{key}`, but `{table}` has no key `{key}`{help}"
                ));
            } else if !decl.texts.contains(key) {
                decl.texts.push(key);
            }
        }
        self
    }

    /// Lets the entries of the game's table `table` carry triggers, written as a room's are
    /// (`[[crops.triggers]]` under a `[[crops]]` entry, with `on`, `when`, `condition`, `chance`
    /// and `actions`), which listen while the entry is in play: `in_play` says which entries are,
    /// from the game's state (the crops growing on the farm's plots). Their bearer is the player,
    /// as a world trigger's. lantern asks again whenever the game's state changed, so an entry
    /// put in play by an action listens from the next event on, and a rollback, a load or a
    /// reload leaves exactly the entries the state says. Declare the table first.
    ///
    /// ```
    /// # use lantern::host::Vocabulary;
    /// # use lantern::id::Id;
    /// #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
    /// struct Farm { growing: Vec<String> }
    /// #[derive(serde::Deserialize)]
    /// struct Crop { name: String }
    /// let rules = Vocabulary::new("farm", Farm::default())
    ///     .table::<Crop>("crops", "crop")
    ///     // `[[crops.triggers]]` listen while the crop grows.
    ///     .triggers("crops", |farm: &Farm| {
    ///         farm.growing.iter().filter_map(|c| Id::qualified(c)).collect()
    ///     })
    ///     .rules();
    /// assert!(rules.problems().is_empty());
    /// ```
    pub fn triggers<F>(mut self, table: &str, in_play: F) -> Self
    where
        F: Fn(&S) -> Vec<Id> + Send + Sync + 'static,
    {
        let Some(decl) = self.defs.tables.iter_mut().find(|t| t.key == table) else {
            self.defs.problems.push(format!(
                "`triggers` names the table `{table}`, which the game does not declare (declare it with `table` first)"
            ));
            return self;
        };
        if decl.in_play.is_some() {
            self.defs
                .problems
                .push(format!("the triggers of `{table}` are declared twice"));
        }
        decl.in_play = Some(Arc::new(move |state: &HostState| {
            state.get::<S>().map(&in_play).unwrap_or_default()
        }));
        self
    }

    /// An action mods write as `{ action = "<namespace>:<name>", ... }` in any action list (or
    /// `lantern.apply` from Lua), with typed parameters. It changes the game's state through
    /// `fx`; an `Err` makes its whole action list fail and roll back, the game's state included.
    pub fn action<F>(self, name: &str, params: &[Param], doc: &'static str, f: F) -> Self
    where
        F: Fn(&mut Effects<'_, S>, Args<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        self.declare_action(name, params, doc, f, false)
    }

    /// An action of the game's that only its own code performs ([`Game::perform`] in a verb, a
    /// handler's `Effects`...), as [`action`](Self::action) declares one otherwise: it changes the
    /// game's state inside the door and is undone with a failed transaction, but mods cannot write
    /// it (a data file or `lantern.apply` that names it is told it is the game's own), and the
    /// tools do not offer it to them. For the game's own moves that mods must not make for it:
    /// ending the day, entering a room.
    pub fn internal_action<F>(self, name: &str, params: &[Param], doc: &'static str, f: F) -> Self
    where
        F: Fn(&mut Effects<'_, S>, Args<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        self.declare_action(name, params, doc, f, true)
    }

    fn declare_action<F>(
        mut self,
        name: &str,
        params: &[Param],
        doc: &'static str,
        f: F,
        internal: bool,
    ) -> Self
    where
        F: Fn(&mut Effects<'_, S>, Args<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        let Some(id) = self.declared_id("action", name) else {
            return self;
        };
        let run = move |game: &mut Game, args: &BTreeMap<String, Value>, ctx: &Ctx| {
            let mut fx = Effects::<S>::new(game, ctx)?;
            f(&mut fx, Args(args))
        };
        let decl = Signature {
            params: params.to_vec(),
            doc,
            internal,
            index: self.code.actions.len(),
        };
        self.code.actions.push(Arc::new(run));
        if self.defs.actions.insert(id.clone(), decl).is_some() {
            self.defs
                .problems
                .push(format!("the game declares the action `{id}` twice"));
        }
        self
    }

    /// A check mods write as `{ check = "<namespace>:<name>", ... }` in any condition (a trigger,
    /// a quest, an encounter's requirement, a modifier), with typed parameters; `not = true`
    /// works as for every check. It sees the game read-only.
    pub fn check<F>(mut self, name: &str, params: &[Param], doc: &'static str, f: F) -> Self
    where
        F: Fn(&Query<'_, S>, Args<'_>) -> Result<bool, String> + Send + Sync + 'static,
    {
        let Some(id) = self.declared_id("check", name) else {
            return self;
        };
        let run = move |game: &Game, args: &BTreeMap<String, Value>, _: &Ctx| {
            let q = Query::<S>::new(game)?;
            f(&q, Args(args))
        };
        let decl = Signature {
            params: params.to_vec(),
            doc,
            internal: false,
            index: self.code.checks.len(),
        };
        self.code.checks.push(Arc::new(run));
        if self.defs.checks.insert(id.clone(), decl).is_some() {
            self.defs
                .problems
                .push(format!("the game declares the check `{id}` twice"));
        }
        self
    }

    /// A function scripts call as `lantern.<namespace>.<name>(...)`, with the game read-only:
    /// a query, never a change (a script changes the game with `lantern.apply`, through the
    /// door). Its arguments are given in the order of `params` and checked against them as a
    /// verb's are (a bare ID of the game's kinds is resolved); a mistake, and an `Err` it
    /// returns, is a Lua error at the script's line. `lantern docs --lua-defs` lists it with its
    /// parameters and `doc`.
    pub fn function<F>(self, name: &'static str, params: &[Param], doc: &'static str, f: F) -> Self
    where
        F: Fn(&Query<'_, S>, Args<'_>) -> Result<Value, String> + Send + Sync + 'static,
    {
        self.declare_function(name, params, "any", doc, move |q, args| {
            f(q, args).map(Answer::Value)
        })
    }

    /// A function scripts call as `lantern.<namespace>.<name>(...)` that answers with rows and
    /// tables (`enemies_near(12, 5)` giving `{ { id = 41, health = 3 }, ... }`), written as JSON
    /// and given to the script as Lua tables, the copy charged to the script by its size. As
    /// [`Vocabulary::function`] otherwise; `lua_type` is its answer's type in the definitions
    /// `lantern docs --lua-defs` writes (`{ id: integer, health: integer }[]`).
    ///
    /// ```
    /// # use lantern::host::{Param, Vocabulary};
    /// #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
    /// struct Field { plots: Vec<(String, i64)> }
    /// let rules = Vocabulary::new("farm", Field::default())
    ///     .query("ripe", &[Param::int("days")], "{ crop: string, day: integer }[]",
    ///         "The plots ripe within `days`.", |q, args| {
    ///         let days = args.int("days");
    ///         let rows: Vec<_> = q.state().plots.iter()
    ///             .filter(|(_, day)| *day <= days)
    ///             .map(|(crop, day)| serde_json::json!({ "crop": crop, "day": day }))
    ///             .collect();
    ///         Ok(rows.into())
    ///     })
    ///     .rules();
    /// assert!(rules.problems().is_empty());
    /// ```
    pub fn query<F>(
        self,
        name: &'static str,
        params: &[Param],
        lua_type: &'static str,
        doc: &'static str,
        f: F,
    ) -> Self
    where
        F: Fn(&Query<'_, S>, Args<'_>) -> Result<serde_json::Value, String> + Send + Sync + 'static,
    {
        self.declare_function(name, params, lua_type, doc, move |q, args| {
            f(q, args).map(Answer::Json)
        })
    }

    /// [`Vocabulary::function`] and [`Vocabulary::query`]: the function's arguments checked
    /// against `params` before `f` sees them.
    fn declare_function(
        mut self,
        name: &'static str,
        params: &[Param],
        returns: &'static str,
        doc: &'static str,
        f: impl Fn(&Query<'_, S>, Args<'_>) -> Result<Answer, String> + Send + Sync + 'static,
    ) -> Self {
        if !self.name_ok("function", name) {
            return self;
        }
        let what = format!("`{name}`");
        let declared = params.to_vec();
        let call = move |game: &Game, args: &[Value]| {
            let args = game.positional_args(&what, &declared, args)?;
            let q = Query::<S>::new(game)?;
            f(&q, Args(&args))
        };
        if self.defs.functions.iter().any(|d| d.name == name) {
            self.defs
                .problems
                .push(format!("the game declares the function `{name}` twice"));
        }
        self.defs.functions.push(FunctionDecl {
            name,
            params: params.to_vec(),
            returns,
            doc,
        });
        self.code.functions.push(Arc::new(call));
        self
    }

    /// A field of `lantern.game` that scripts read (`lantern.game.position`), worked out from the
    /// game read-only on every access, as lantern's own fields are. Its JSON becomes a Lua value
    /// (an object a table, an array a sequence, `null` nil); an `Err` is a Lua error at the
    /// script's line. `lua_type` is its type in the definitions `docs --lua-defs` writes
    /// (`{floor: integer, room: integer?}`). A name `lantern.game` already has is a mistake.
    ///
    /// ```
    /// # use lantern::host::Vocabulary;
    /// #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
    /// struct Farm { day: i64 }
    /// let rules = Vocabulary::new("farm", Farm::default())
    ///     .game_field("day", "integer", "The day on the farm.", |q| Ok(q.state().day.into()))
    ///     .rules();
    /// assert!(rules.problems().is_empty());
    /// ```
    pub fn game_field<F>(
        mut self,
        name: &'static str,
        lua_type: &'static str,
        doc: &'static str,
        f: F,
    ) -> Self
    where
        F: Fn(&Query<'_, S>) -> Result<serde_json::Value, String> + Send + Sync + 'static,
    {
        if self.name_ok("field", name) {
            if crate::content::declare::GAME_FIELDS.contains(&name) {
                self.defs.problems.push(format!(
                    "`lantern.game.{name}` is one of lantern's own fields"
                ));
            } else if self.defs.fields.iter().any(|d| d.name == name) {
                self.defs
                    .problems
                    .push(format!("the game declares the field `{name}` twice"));
            }
            let get = move |game: &Game| {
                let q = Query::<S>::new(game)?;
                f(&q)
            };
            self.defs.fields.push(FieldDecl {
                name,
                lua_type,
                doc,
            });
            self.code.fields.push(Arc::new(get));
        }
        self
    }

    /// A verb of the game: what a player (or a test, as `g:verb("name", ...)`) does in one turn.
    /// Its arguments are given in the order of `params` and checked against them as an action's
    /// are (types, required ones, IDs of the game's kinds resolved, so `plant wheat` finds
    /// `valley:wheat`). It runs with the whole game; it changes state through [`Game::perform`]
    /// and raises events with [`Game::raise`], and [`Game::verb`] runs it as one turn.
    pub fn verb<F>(mut self, name: &str, params: &[Param], doc: &'static str, f: F) -> Self
    where
        F: Fn(&mut Game, Args<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        if self.name_ok("verb", name) {
            let decl = Signature {
                params: params.to_vec(),
                doc,
                internal: false,
                index: self.code.verbs.len(),
            };
            self.code.verbs.push(Arc::new(f));
            if self.defs.verbs.insert(name.to_string(), decl).is_some() {
                self.defs
                    .problems
                    .push(format!("the game declares the verb `{name}` twice"));
            }
        }
        self
    }

    /// A handler in Rust for an event (the engine's, the game's or a mod's custom one): it runs
    /// for every such event after the mods' triggers and quests and before their Lua handlers,
    /// with the event's payload by field name. What it changes goes through `fx` as an action's
    /// does; when it returns an error, its changes to the game's state are undone and the error
    /// is reported as a problem naming the event, and the other handlers still run.
    pub fn on<F>(mut self, event: &str, f: F) -> Self
    where
        F: Fn(&mut Effects<'_, S>, &EventFields<'_>) -> Result<(), String> + Send + Sync + 'static,
    {
        let name = event.to_string();
        let run = move |game: &mut Game, ev: &crate::game::Event| {
            let content = game.content().clone();
            let def = content.events.get(ev.kind);
            let fields = EventFields {
                name: &def.name,
                fields: def
                    .payload
                    .iter()
                    .enumerate()
                    .filter_map(|(i, (n, _))| ev.field(i).map(|v| (n.as_str(), v)))
                    .collect(),
            };
            let cause = format!("{}:on:{}", content.declared.namespace, def.name);
            let ctx = Ctx::command(&cause);
            let before = game.host_slot().clone();
            let result = Effects::<S>::new(game, &ctx).and_then(|mut fx| f(&mut fx, &fields));
            if result.is_err() {
                *game.host_slot_mut() = before;
            }
            result
        };
        self.defs.handlers.push(name);
        self.code.handlers.push(Arc::new(run));
        self
    }

    /// The creature definition the player is made from when a game starts (`core:player`): its
    /// name, health, attributes, tags and starting items come from the mods. A game that names
    /// none, or whose mods do not define it, starts with a plain adventurer of 30 health.
    pub fn player(mut self, def: &str) -> Self {
        match Id::qualified(def) {
            Some(id) => self.defs.player = Some(id),
            None => self.defs.problems.push(format!(
                "the player's definition `{def}` must be a whole ID (`mod:name`)"
            )),
        }
        self
    }

    /// A text of the mods' locale files the game's code says (`"core:you_enter"`, with the
    /// arguments it fills: `&["room"]`), through [`Game::text`](crate::game::Game::text). `lantern
    /// check` then reports the text missing from every language, and a translation that uses an
    /// argument the game does not give; it is not reported as unused.
    pub fn text(mut self, key: &str, args: &[&'static str]) -> Self {
        match Id::qualified(key) {
            Some(id) => self.defs.texts.push((id, args.to_vec())),
            None => self
                .defs
                .problems
                .push(format!("the text `{key}` must be a whole key (`mod:key`)")),
        }
        self
    }

    /// The game's version (`"0.4.0"`): a mod whose manifest says which versions of the game it
    /// works with (`game = ">=0.3, <0.5"`) is an error at that line under any other.
    pub fn version(mut self, version: &str) -> Self {
        match semver::Version::parse(version) {
            Ok(v) => self.defs.version = Some(v),
            Err(e) => self.defs.problems.push(format!(
                "the game's version `{version}` is not a semantic version: {e}"
            )),
        }
        self
    }

    /// The mod whose IDs a bare name means where no mod is at hand: a console command
    /// (`give gold`), `why`, and the calls of a test game (`g:count("gold")`). Without it a bare
    /// name is the game's namespace's.
    pub fn home(mut self, mod_id: &str) -> Self {
        if self.name_ok("home mod", mod_id) {
            self.defs.home = mod_id.to_string();
        }
        self
    }

    /// Leaves out lantern's creature-and-inventory vocabulary, the reference roguelike's: the
    /// checks `has_tag`, `attribute`, `has_item`, `health_below` and `is_player`, the actions
    /// `damage`, `heal` and the item actions, the tables `tags`, `rarities`, `items` and
    /// `creatures`, and `lantern.game`'s `player`, `enemies` and `inventory`. A mod that writes one is told that this game does not
    /// use it (with the game's own names to choose from) instead of acting on a player the game
    /// never shows. Quests, triggers, encounters, custom events, hazards and Lua stay.
    pub fn without_creatures(mut self) -> Self {
        self.defs.without_creatures = true;
        self
    }

    /// How the game's state is brought in line with content that changed under it: after a
    /// reload and after a save is loaded, `f` gets the state and the new content and returns a
    /// line for everything it dropped or changed (a plot of a crop that no longer exists); each
    /// becomes a warning, as lantern's own reconciling (quests, items) does.
    pub fn reconcile<F>(mut self, f: F) -> Self
    where
        F: Fn(&mut S, &crate::content::Content) -> Vec<String> + Send + Sync + 'static,
    {
        self.defs.reconcile = Some(Arc::new(
            move |state: &mut HostState, content: &crate::content::Content| {
                state
                    .get_mut::<S>()
                    .map(|s| f(s, content))
                    .unwrap_or_default()
            },
        ));
        self
    }

    /// `<namespace>:<name>`, when both are identifiers (a bad namespace is reported once, by
    /// `new`; nothing is declared under it).
    fn declared_id(&mut self, what: &str, name: &str) -> Option<Id> {
        let named = self.name_ok(what, name);
        (named && crate::id::is_ident(&self.defs.namespace))
            .then(|| Id::new(&self.defs.namespace, name))
    }

    /// The vocabulary, its state type erased, for the loader.
    pub fn rules(mut self) -> Rules {
        // Tables may be declared in any order, so the kinds of ID used are checked at the end.
        let d = &self.defs;
        let kinds: Vec<&str> = d.tables.iter().map(|t| t.kind).collect();
        let unknown = |ty: FieldType| match ty {
            FieldType::Host(kind) if !kinds.contains(&kind) => Some(kind),
            _ => None,
        };
        let id_kinds = || {
            let built_in = FieldType::DECLARABLE
                .iter()
                .filter(|(_, t)| !t.is_plain() && *t != FieldType::DamageType);
            built_in.map(|(n, _)| *n).chain(kinds.iter().copied())
        };
        let mut problems = Vec::new();
        // `Content::table` finds a table by its key or its kind: one table's key may not be
        // another's kind.
        for t in &d.tables {
            if let Some(other) = d.tables.iter().find(|o| o.kind == t.key && o.key != t.key) {
                problems.push(format!(
                    "the table `{}` is named as the kind of ID of the table `{}`; give one of them another name",
                    t.key, other.key
                ));
            }
        }
        for t in &d.tables {
            for (field, kind) in t.refs.iter().filter_map(|(f, ty)| Some((f, unknown(*ty)?))) {
                problems.push(format!(
                    "`{}.{field}` refers to `{kind}`, which is neither a kind of ID lantern knows nor one of the game's tables{}",
                    t.key,
                    crate::diag::did_you_mean_suffix(kind, id_kinds())
                ));
            }
        }
        for e in &d.events {
            for (field, kind) in e
                .payload
                .iter()
                .filter_map(|(f, ty)| Some((f, unknown(*ty)?)))
            {
                let names = FieldType::DECLARABLE.iter().map(|(n, _)| *n);
                problems.push(format!(
                    "field `{field}` of event `{}` has the type `{kind}`, which is neither a type nor one of the game's tables{}",
                    e.name,
                    crate::diag::did_you_mean_suffix(kind, names.chain(kinds.iter().copied()))
                ));
            }
        }
        let mut params = |what: String, ps: &[Param]| {
            for (p, kind) in ps.iter().filter_map(|p| Some((p, unknown(p.ty)?))) {
                problems.push(format!(
                    "`{}` of {what} is the ID of a `{kind}`, which is none of the game's tables{}",
                    p.name,
                    crate::diag::did_you_mean_suffix(kind, kinds.iter().copied())
                ));
            }
        };
        for (id, a) in &d.actions {
            params(format!("action `{id}`"), &a.params);
        }
        for (id, c) in &d.checks {
            params(format!("check `{id}`"), &c.params);
        }
        for (name, v) in &d.verbs {
            params(format!("verb `{name}`"), &v.params);
        }
        for f in &d.functions {
            params(format!("function `{}`", f.name), &f.params);
        }
        self.defs.problems.extend(problems);
        Rules::from_parts(self.defs, self.code)
    }
}

impl<S: GameState> From<Vocabulary<S>> for Rules {
    fn from(v: Vocabulary<S>) -> Rules {
        v.rules()
    }
}

fn read_entry<'a, T>(
    value: toml::Spanned<toml::de::DeValue<'a>>,
    file: FileId,
    what: &str,
    again: &mut dyn FnMut() -> Option<toml::Spanned<toml::de::DeValue<'a>>>,
) -> (Vec<Diagnostic>, Option<Arc<dyn Any + Send + Sync>>)
where
    T: serde::de::DeserializeOwned + Send + Sync + 'static,
{
    match crate::toml_file::from_value::<T>(value, file, what) {
        Ok(t) => (Vec::new(), Some(Arc::new(t))),
        Err(first) => match again() {
            Some(copy) => {
                let (diags, partial) = crate::toml_file::all_errors::<T>(copy, file, what);
                (
                    diags,
                    partial.map(|t| Arc::new(t) as Arc<dyn Any + Send + Sync>),
                )
            }
            None => (vec![first], None),
        },
    }
}
