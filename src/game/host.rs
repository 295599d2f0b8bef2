//! The game's own world inside the engine: its state behind the door, its actions and checks
//! dispatched before the scripts', and the calls a game's code makes (`perform`, `verb`, `turn`).

use super::{Ctx, Game};
use crate::content::{ActionEntry, ActionList, Value};
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::host::{GameState, HostState};
use crate::id::Id;
use std::collections::BTreeMap;

impl Game {
    /// The game's own state, if it is of type `S` (the one its vocabulary declared).
    pub fn host_state<S: GameState>(&self) -> Option<&S> {
        self.state.host.get::<S>()
    }

    pub(crate) fn host_slot(&self) -> &HostState {
        &self.state.host
    }

    pub(crate) fn host_slot_mut(&mut self) -> &mut HostState {
        &mut self.state.host
    }

    /// Runs `f` as one turn: the event cap counts from its start, and the events it queued are
    /// handled when it returns. Commands `f` runs that are turns of their own (`choose`,
    /// `start_encounter`) join this one; a `turn` inside another is part of it.
    pub fn turn<R>(&mut self, f: impl FnOnce(&mut Game) -> R) -> R {
        if self.in_turn {
            return f(self);
        }
        self.begin_turn();
        self.in_turn = true;
        let result = f(self);
        self.in_turn = false;
        self.drain();
        result
    }

    /// Runs one of the game's verbs (declared with
    /// [`Vocabulary::verb`](crate::host::Vocabulary::verb)) as one turn. A verb that returns an
    /// error is undone: the game's state, lantern's and the random streams are as they were
    /// before it (its error says why). A verb run inside another joins it.
    pub fn verb(&mut self, name: &str, args: &[Value]) -> Result<(), crate::Error> {
        self.verb_inner(name, args).map_err(crate::Error::Refused)
    }

    fn verb_inner(&mut self, name: &str, args: &[Value]) -> Result<(), String> {
        let rules = self.content.host.clone();
        let Some(verb) = rules.defs().verbs.get(name) else {
            let help = crate::diag::did_you_mean_suffix(name, rules.verbs().map(|(n, _)| n));
            return Err(format!("the game has no verb `{name}`{help}"));
        };
        let run = verb.run.clone();
        let args = self.positional_args(&format!("verb `{name}`"), &verb.params, args)?;
        let args = crate::host::Args(&args);
        if self.in_turn {
            return run(self, args);
        }
        // A verb that fails is undone whole, as an action list is: the state as it was before.
        let undo = self.undo_point();
        self.begin_turn();
        self.in_turn = true;
        let result = run(self, args);
        self.in_turn = false;
        match result {
            Ok(()) => self.drain(),
            Err(_) => {
                self.undo(undo);
                self.locate_room();
                self.index_quests();
            }
        }
        result
    }

    /// Applies one of the game's actions (`"pay"` or `"farm:pay"`) with its arguments by name,
    /// checked against its parameters, through the door as a transaction: on failure nothing of it
    /// is applied and the problem names the action. `cause` names what did it (a verb, a command)
    /// and is the random stream its draws come from.
    pub fn perform(
        &mut self,
        action: &str,
        args: &[(&str, Value)],
        cause: &str,
    ) -> Result<(), crate::Error> {
        self.perform_inner(action, args, cause)
            .map_err(crate::Error::from)
    }

    fn perform_inner(
        &mut self,
        action: &str,
        args: &[(&str, Value)],
        cause: &str,
    ) -> Result<(), Diagnostic> {
        let rules = self.content.host.clone();
        // A bare name is the game's own; a name that is no ID finds nothing (and "did you mean").
        let id = Id::parse(action, rules.namespace());
        let Some((id, decl)) = id.and_then(|id| rules.action(&id).map(|d| (id, d))) else {
            let names: Vec<String> = rules.actions().map(|(id, _, _)| id.to_string()).collect();
            let help = crate::diag::did_you_mean_suffix(action, names.iter().map(String::as_str));
            return Err(Diagnostic::error(
                Code::ActionFailed,
                format!("the game has no action `{action}`{help}"),
            ));
        };
        let map = self
            .checked_args(&format!("action `{id}`"), &decl.params, args)
            .map_err(|m| Diagnostic::error(Code::ActionFailed, m))?;
        let span = Span::new(crate::diag::FileId(0), 0..0);
        let list = ActionList {
            actions: vec![ActionEntry {
                action: crate::content::Action::Custom { id, args: map },
                span,
            }],
            span,
        };
        self.apply_list(&list, &Ctx::command(cause))
    }

    /// Arguments given in the order of `params` (a verb's, a Lua function's), checked as
    /// [`checked_args`](Self::checked_args) checks them; more than there are parameters is a
    /// mistake too. `what` names the verb or function.
    pub(crate) fn positional_args(
        &self,
        what: &str,
        params: &[crate::host::Param],
        args: &[Value],
    ) -> Result<BTreeMap<String, Value>, String> {
        if args.len() > params.len() {
            let names: Vec<&str> = params.iter().map(|p| p.name()).collect();
            return Err(format!(
                "{what} takes {} ({}), not {}",
                params.len(),
                names.join(", "),
                args.len()
            ));
        }
        let named: Vec<(&str, Value)> = params
            .iter()
            .zip(args)
            .map(|(p, v)| (p.name(), v.clone()))
            .collect();
        self.checked_args(what, params, &named)
    }

    /// Arguments by name checked against parameters, as a mod's are at load: no unknown name,
    /// every required one there, each of its type, and IDs of the game's kinds resolved (a bare
    /// name that one mod defines is enough). `what` names the verb or action for messages.
    fn checked_args(
        &self,
        what: &str,
        params: &[crate::host::Param],
        args: &[(&str, Value)],
    ) -> Result<BTreeMap<String, Value>, String> {
        let mut map = BTreeMap::new();
        for (name, value) in args {
            let Some(param) = params.iter().find(|p| p.name() == *name) else {
                let help = crate::diag::did_you_mean_suffix(name, params.iter().map(|p| p.name()));
                return Err(format!("{what} has no parameter `{name}`{help}"));
            };
            if !value.fits(param.ty) {
                use crate::content::vocab::FieldType;
                let expected = match param.ty {
                    FieldType::Int => "a whole number".to_string(),
                    FieldType::Float => "a number".to_string(),
                    FieldType::String => "text".to_string(),
                    FieldType::Bool => "true or false".to_string(),
                    other => format!("the ID of a {}", other.name()),
                };
                return Err(format!(
                    "`{name}` of {what} must be {expected}, not {value}"
                ));
            }
            let value = match (param.ty, value) {
                (crate::content::vocab::FieldType::Host(kind), Value::Str(text)) => {
                    Value::id(&self.find_entry_inner(kind, text)?)
                }
                _ => value.clone(),
            };
            map.insert(name.to_string(), value);
        }
        if let Some(missing) = params
            .iter()
            .find(|p| p.required && !map.contains_key(p.name()))
        {
            return Err(format!("{what} needs `{}`", missing.name()));
        }
        Ok(map)
    }

    /// The entry of the game's table of `kind` that `text` names: its whole ID, or a bare name
    /// that only one mod defines.
    pub fn find_entry(&self, kind: &str, text: &str) -> Result<Id, crate::Error> {
        self.find_entry_inner(kind, text)
            .map_err(crate::Error::Refused)
    }

    fn find_entry_inner(&self, kind: &str, text: &str) -> Result<Id, String> {
        let tables = &self.content.tables;
        if let Some(id) = Id::qualified(text).filter(|id| tables.contains(kind, id)) {
            return Ok(id);
        }
        let named: Vec<&Id> = tables.ids(kind).filter(|id| id.name() == text).collect();
        match named.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                let help = crate::diag::did_you_mean_suffix(
                    text,
                    tables.ids(kind).flat_map(|id| [id.as_str(), id.name()]),
                );
                Err(format!("there is no {kind} `{text}`{help}"))
            }
            many => {
                let names: Vec<String> = many.iter().map(|id| format!("`{id}`")).collect();
                Err(format!(
                    "`{text}` could be {}; write the whole ID",
                    names.join(" or ")
                ))
            }
        }
    }

    /// The game's Rust handlers of one event, in the order it declared them; a failure is a
    /// problem naming the event.
    pub(super) fn run_host_handlers(
        &mut self,
        content: &crate::content::Content,
        handlers: &[usize],
        event: &crate::game::Event,
    ) {
        let all = &content.host.defs().handlers;
        for &i in handlers {
            let (name, run) = &all[i];
            if let Err(e) = run(self, event) {
                let chain = self.current_chain();
                self.report(Diagnostic::error(
                    Code::ActionFailed,
                    format!("the game's handler of `{name}` failed: {e} (events: {chain})"),
                ));
            }
        }
    }

    /// A game's action, if `id` is one: run through its declaration.
    pub(super) fn host_action(
        &mut self,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Option<Result<(), String>> {
        let run = self.content.host.action(id)?.run.clone();
        Some(run(self, args, ctx))
    }

    /// A game's check, if `id` is one.
    pub(super) fn host_check(
        &self,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Option<Result<bool, String>> {
        let decl = self.content.host.check(id)?;
        Some((decl.run)(self, args, ctx))
    }
}
