//! A game's declarations as data: what its world is made of (its namespace, state type, events,
//! tables, and the names, parameters and documentation of its actions, checks, functions,
//! `lantern.game` fields, verbs and handlers), without its code.
//!
//! The content resolver reads these to accept `farm:pay` and check its arguments, and resolved
//! content refers to a game's action or check by its position here (`Action::Game { index, .. }`).
//! The code those positions name is the engine's (`game::code::Code`): content never holds it. A
//! game gets it from the rules that loaded its content (`host::Rules`, kept by a `World` and a
//! `ModSet`), so content stays data and no code is ever downcast.

mod args;
pub(crate) mod keys;
mod problem;
#[cfg(feature = "cli")]
pub(crate) mod required;
mod state;

pub use args::{Args, Param};
pub use problem::Problem;
pub use state::{GameState, HostState};

pub(crate) use state::StateType;

use crate::content::vocab::FieldType;
use crate::content::Content;
use crate::diag::{Code, Diagnostic, FileId};
use crate::id::Id;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// A game's rule over one entry of its table, the entry's type erased (`None`: not of its type).
pub(crate) type ValidateFn = dyn Fn(&(dyn Any + Send + Sync)) -> Option<Vec<Problem>> + Send + Sync;
/// Which entries of a table are in play, from the game's state.
pub(crate) type InPlayFn = dyn Fn(&HostState) -> Vec<Id> + Send + Sync;
/// Brings the game's state in line with new content; what changed, in words.
pub(crate) type ReconcileFn = dyn Fn(&mut HostState, &Content) -> Vec<String> + Send + Sync;
/// Reads one entry of a game's data table into the game's type; when it does not read, the entry
/// is asked for again (read anew from its text) to report every mistake in it.
pub(crate) type ReadEntry = for<'a> fn(
    toml::Spanned<toml::de::DeValue<'a>>,
    FileId,
    &str,
    &mut dyn FnMut() -> Option<toml::Spanned<toml::de::DeValue<'a>>>,
) -> (Vec<Diagnostic>, Option<Arc<dyn Any + Send + Sync>>);

/// lantern's own fields of `lantern.game`, which a game's fields may not shadow.
pub(crate) const GAME_FIELDS: &[&str] = &[
    "player",
    "enemies",
    "inventory",
    "quests",
    "turn",
    "seed",
    "in_combat",
    "deck",
    "hazard",
];

/// Everything a game declares, as data. The empty one is lantern's own vocabulary alone.
#[derive(Default)]
pub(crate) struct Declarations {
    pub namespace: String,
    pub state: Option<StateType>,
    pub events: Vec<EventDecl>,
    pub tables: Vec<TableDecl>,
    pub actions: BTreeMap<Id, Signature>,
    pub checks: BTreeMap<Id, Signature>,
    pub functions: Vec<FunctionDecl>,
    /// Fields the game adds to `lantern.game`.
    pub fields: Vec<FieldDecl>,
    pub verbs: BTreeMap<String, Signature>,
    pub reconcile: Option<Arc<ReconcileFn>>,
    /// Whether the game leaves out lantern's creature-and-inventory vocabulary.
    pub without_creatures: bool,
    /// The events the game's Rust handlers listen to, in declaration order (the code's handler
    /// of the same position runs for each).
    pub handlers: Vec<String>,
    /// The creature definition the player is made from (`core:player`), if the game names one.
    pub player: Option<Id>,
    /// The mod whose IDs a bare name means where no mod is at hand (the console, `why`, a test
    /// game's calls); empty for the game's namespace.
    pub home: String,
    /// The game's version (`Vocabulary::version`): what a mod's `game = ">=0.3"` is checked
    /// against.
    pub version: Option<semver::Version>,
    /// The texts the game's code says (`core:you_enter`), with the arguments it gives each:
    /// `lantern check` finds one no language has, and a translation using an argument not given.
    pub texts: Vec<(Id, Vec<&'static str>)>,
    /// Mistakes in the declaration itself (a name that is not an identifier, a name used twice):
    /// errors when a mod set is loaded with these declarations.
    pub problems: Vec<String>,
}

impl std::fmt::Debug for Declarations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Declarations({:?})", self.namespace)
    }
}

/// An action, check or verb as declared: its parameters, what it does, and where its code is.
pub(crate) struct Signature {
    pub params: Vec<Param>,
    pub doc: &'static str,
    /// Its position in the code's list of actions (or checks, or verbs).
    pub index: usize,
    /// An action only the game's own code performs.
    pub internal: bool,
}

pub(crate) struct EventDecl {
    pub name: String,
    pub payload: Vec<(String, FieldType)>,
    pub doc: &'static str,
}

pub(crate) struct TableDecl {
    /// The array's name in data files: `crops`.
    pub key: &'static str,
    /// The kind of ID its entries have: `crop`.
    pub kind: &'static str,
    pub read: ReadEntry,
    /// Keys of its entries that name IDs, with their kind.
    pub refs: Vec<(&'static str, FieldType)>,
    /// When its entries carry triggers: which entries are in play.
    pub in_play: Option<Arc<InPlayFn>>,
    /// The game's rules over each entry, in declaration order.
    pub validate: Vec<Arc<ValidateFn>>,
    /// The type its entries are read into, so a rule over another type is a mistake at once.
    pub entry_type: (std::any::TypeId, &'static str),
    /// The keys that type reads (beside `id`), when serde says (a struct): for editors, and to
    /// check what `describe` names.
    pub keys: Option<&'static [&'static str]>,
    /// What the type reads at each key, where it says (an integer; one of an enum's names: a
    /// room's `kind`), for the editor schema.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub shapes: Vec<(&'static str, keys::Shape)>,
    /// What some of its keys mean, for editors.
    pub help: Vec<(&'static str, &'static str)>,
    /// Its keys players read (`name`, `description`): texts with keys of their own
    /// (`rooms.cellar.name`), translated, exported and counted as the built-in tables' are.
    pub texts: Vec<&'static str>,
}

/// A function scripts call as `lantern.<namespace>.<name>(...)`; the code's function of the same
/// position answers it.
pub(crate) struct FunctionDecl {
    pub name: &'static str,
    pub params: Vec<Param>,
    /// Its answer's type as the Lua definitions write it (`any` for a plain value).
    pub returns: &'static str,
    pub doc: &'static str,
}

/// A field of `lantern.game`; the code's field of the same position reads it.
pub(crate) struct FieldDecl {
    pub name: &'static str,
    /// Its type as the Lua definitions write it.
    pub lua_type: &'static str,
    pub doc: &'static str,
}

impl Declarations {
    /// The namespace a bare ID typed at run time belongs to: the game's home mod, or its own
    /// namespace when it names none.
    pub(crate) fn home(&self) -> &str {
        if self.home.is_empty() {
            &self.namespace
        } else {
            &self.home
        }
    }

    /// The kind of ID of the game's table written as `[[key]]`.
    pub(crate) fn kind_of_table(&self, key: &str) -> Option<&'static str> {
        self.tables.iter().find(|t| t.key == key).map(|t| t.kind)
    }

    /// The game's actions mods may write (its internal ones left out), in ID order.
    pub(crate) fn public_actions(&self) -> impl Iterator<Item = (&Id, &Signature)> {
        self.actions.iter().filter(|(_, d)| !d.internal)
    }

    /// The declaration's own ID for `id`, with its signature: content holds the declaration's
    /// `Id`, whose order compares pointers first, so later lookups compare no text.
    pub(crate) fn declared(&self, id: &Id, action: bool) -> Option<(Id, &Signature)> {
        let map = if action { &self.actions } else { &self.checks };
        map.get_key_value(id).map(|(k, s)| (k.clone(), s))
    }

    /// A fresh state for a new game (none when the game keeps none).
    pub(crate) fn fresh_state(&self) -> HostState {
        self.state.as_ref().map(|s| (s.fresh)()).unwrap_or_default()
    }

    /// Turns a state read from a save into the game's type.
    pub(crate) fn read_state(&self, json: serde_json::Value) -> Result<HostState, String> {
        match &self.state {
            Some(s) => (s.read)(json)
                .map_err(|e| format!("the game's state in the save is not a `{}`: {e}", s.name)),
            None => Err("the save holds a game's state, and this game keeps none".into()),
        }
    }

    /// The entries whose triggers listen now, by kind, as the game's state says.
    pub(crate) fn in_play(&self, state: &HostState) -> Vec<(&'static str, Id)> {
        let mut out = Vec::new();
        for t in &self.tables {
            if let Some(f) = &t.in_play {
                out.extend(f(state).into_iter().map(|id| (t.kind, id)));
            }
        }
        out
    }

    /// Brings the game's state in line with `content`; what changed, in words.
    pub(crate) fn reconcile(&self, state: &mut HostState, content: &Content) -> Vec<String> {
        self.reconcile
            .as_ref()
            .map(|f| f(state, content))
            .unwrap_or_default()
    }

    /// The declaration's own mistakes as diagnostics.
    pub(crate) fn diagnostics(&self) -> impl Iterator<Item = Diagnostic> + '_ {
        self.problems
            .iter()
            .map(|p| Diagnostic::error(Code::Vocabulary, format!("in the game's vocabulary: {p}")))
    }
}
