//! A game's code, as the engine runs it: the functions behind the actions, checks, Lua
//! functions, `lantern.game` fields, verbs and handlers a game declares, and the hooks of its own
//! world, each list in the order of its declarations. `host::Vocabulary` fills it from the
//! game's typed closures; a `Game` keeps it beside its content (which holds the declarations as
//! data only), given by the rules that loaded the content.

use super::{Ctx, Event, Game};
use crate::content::declare::Args;
use crate::content::{Content, Value};
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

pub(crate) type ActionFn =
    dyn Fn(&mut Game, &BTreeMap<String, Value>, &Ctx) -> Result<(), String> + Send + Sync;
pub(crate) type CheckFn =
    dyn Fn(&Game, &BTreeMap<String, Value>, &Ctx) -> Result<bool, String> + Send + Sync;
pub(crate) type FunctionFn = dyn Fn(&Game, &[Value]) -> Result<Answer, String> + Send + Sync;
pub(crate) type VerbFn = dyn Fn(&mut Game, Args<'_>) -> Result<(), String> + Send + Sync;
pub(crate) type HandlerFn = dyn Fn(&mut Game, &Event) -> Result<(), String> + Send + Sync;
pub(crate) type FieldFn = dyn Fn(&Game) -> Result<serde_json::Value, String> + Send + Sync;

/// What one of the game's Lua functions answers: a plain value
/// ([`Vocabulary::function`](crate::host::Vocabulary::function)), or rows and tables
/// ([`Vocabulary::query`](crate::host::Vocabulary::query)).
pub(crate) enum Answer {
    Value(Value),
    Json(serde_json::Value),
}

/// A game's code over its declarations: each list in the order of the declarations' positions
/// (`Signature::index`, and the order of functions, fields and handlers).
#[derive(Default)]
pub(crate) struct Code {
    pub actions: Vec<Arc<ActionFn>>,
    pub checks: Vec<Arc<CheckFn>>,
    pub functions: Vec<Arc<FunctionFn>>,
    pub fields: Vec<Arc<FieldFn>>,
    pub verbs: Vec<Arc<VerbFn>>,
    pub handlers: Vec<Arc<HandlerFn>>,
    /// How the game's own world is saved, read back and reconciled, if it declared one.
    pub world: Option<WorldCode>,
}

/// The world hooks with the world's type erased: each answers `None` when the lent world is of
/// another type.
pub(crate) type ErasedSave = dyn Fn(&dyn Any) -> Option<serde_json::Value> + Send + Sync;
pub(crate) type ErasedLoad = dyn Fn(&mut dyn Any, serde_json::Value, &Content) -> Option<Result<Vec<String>, String>>
    + Send
    + Sync;
pub(crate) type ErasedReconcile =
    dyn Fn(&mut dyn Any, &Content) -> Option<Vec<String>> + Send + Sync;
pub(crate) type ErasedFresh = dyn Fn(Arc<Content>) -> Box<dyn Any + Send> + Send + Sync;

/// How the game's own world is saved, read back, reconciled and made for a test game
/// ([`Vocabulary::world`](crate::host::Vocabulary::world)), its type erased.
pub(crate) struct WorldCode {
    /// The world's type, for a message when another type is lent.
    pub(crate) type_name: &'static str,
    pub(crate) save: Arc<ErasedSave>,
    pub(crate) load: Arc<ErasedLoad>,
    pub(crate) reconcile: Option<Arc<ErasedReconcile>>,
    /// A new world for a test game, if the game says how to make one.
    pub(crate) fresh: Option<Arc<ErasedFresh>>,
}
