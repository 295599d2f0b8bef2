//! The game's own world inside the engine: its state behind the door, its actions and checks
//! dispatched before the scripts', and the calls a game's code makes (`perform`, `verb`, `turn`).

use super::{Ctx, Game};
use crate::content::declare::{GameState, HostState};
use crate::content::{ActionEntry, ActionList, Value};
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
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
        self.host_state_changed();
        &mut self.state.host
    }

    /// Runs `f` as one turn: the event cap counts from its start, and the events it queued are
    /// handled when it returns (whether it succeeded or not). Commands `f` runs that are turns of
    /// their own (`choose`, `start_encounter`) join this one; a `turn` inside another is part of
    /// it. `f` answers with lantern's error, so `?` works inside it without annotations:
    /// `game.turn(|g| { g.perform("earn", &args, "tip")?; g.raise("tipped", &[]) })`. A turn
    /// that ran into the event cap answers [`Error::EventCap`](crate::Error::EventCap), unless
    /// `f` failed first.
    pub fn turn<R>(
        &mut self,
        f: impl FnOnce(&mut Game) -> Result<R, crate::Error>,
    ) -> Result<R, crate::Error> {
        if self.events.in_turn {
            return f(self);
        }
        self.begin_turn();
        self.events.in_turn = true;
        let result = f(self);
        self.events.in_turn = false;
        self.drain();
        self.events.open = false;
        self.flush_world();
        match (result, self.take_capped()) {
            (Ok(_), Some(capped)) => Err(capped),
            (result, _) => result,
        }
    }

    /// Runs one of the game's verbs (declared with
    /// [`Vocabulary::verb`](crate::host::Vocabulary::verb)) as one turn. A verb that returns an
    /// error is undone: the game's state, lantern's and the random streams are as they were
    /// before it (its error says why). A verb run inside another joins it. A verb whose turn ran
    /// into the event cap answers [`Error::EventCap`](crate::Error::EventCap): what it did up to
    /// the cap stands.
    pub fn verb(&mut self, name: &str, args: &[Value]) -> Result<(), crate::Error> {
        let joined = self.events.in_turn;
        self.verb_inner(name, args).map_err(crate::Error::Refused)?;
        match self.take_capped() {
            Some(capped) if !joined => Err(capped),
            _ => Ok(()),
        }
    }

    fn verb_inner(&mut self, name: &str, args: &[Value]) -> Result<(), String> {
        let content = self.content.clone();
        let Some(verb) = content.declared.verbs.get(name) else {
            let names = content.declared.verbs.keys().map(String::as_str);
            let help = crate::diag::did_you_mean_suffix(name, names);
            return Err(format!("the game has no verb `{name}`{help}"));
        };
        let run = self.code.verbs[verb.index].clone();
        let args = self.positional_args(&format!("verb `{name}`"), &verb.params, args)?;
        let args = crate::content::declare::Args(&args);
        if self.events.in_turn {
            return run(self, args);
        }
        // A verb that fails is undone whole, as an action list is: the state as it was before.
        let undo = self.undo_point(true);
        self.begin_turn();
        self.events.in_turn = true;
        let result = run(self, args);
        self.events.in_turn = false;
        self.events.open = false;
        match result {
            Ok(()) => {
                self.keep(undo);
                self.drain();
                self.flush_world();
            }
            Err(_) => {
                self.undo(undo);
                self.scene_changed();
                self.index_quests();
            }
        }
        result
    }

    /// Applies one of the game's actions (`"pay"` or `"farm:pay"`), or a built-in one (`"heal"`,
    /// `"give_item"`, ...), with its arguments by name, through the door as a transaction: on
    /// failure nothing of it is applied and the problem names the action. `cause` names what did
    /// it (a verb, a command) and is the random stream its draws come from; the player acts.
    /// Inside a turn (a verb's, one [`turn`](Self::turn) opened, one begun with
    /// [`begin_turn`](Self::begin_turn)) it joins it, and the events it raises are handled when
    /// that turn ends; outside any it is a turn of its own, its events handled before it returns.
    pub fn perform(
        &mut self,
        action: &str,
        args: &[(&str, Value)],
        cause: &str,
    ) -> Result<(), crate::Error> {
        self.perform_in(&Ctx::command(cause), action, args)
    }

    /// [`perform`](Self::perform) with who acts and at whom: a built-in action's `self` is
    /// `ctx.bearer` and its `target = "target"` is `ctx.target`, so
    /// `game.perform_in(&Ctx::command("bite").by(wolf).at(CreatureRef::Player), "damage",
    /// &[("amount", Value::Int(2)), ("target", Value::str("target"))])` is a wolf's bite. The
    /// arguments are checked as a mod's are at load (a built-in action's as its TOML table is,
    /// an ID without a namespace being the game's own).
    pub fn perform_in(
        &mut self,
        ctx: &Ctx,
        action: &str,
        args: &[(&str, Value)],
    ) -> Result<(), crate::Error> {
        let entry = self.action_entry(action, args)?;
        let list = ActionList {
            span: entry.span,
            actions: vec![entry],
        };
        if self.turn_under_way() {
            return self.apply_list_telling(&list, ctx).map_err(|f| f.1);
        }
        self.turn(|g| g.apply_list_telling(&list, ctx).map_err(|f| f.1))
    }

    /// The action `action` with `args`, checked: one of the game's, or a built-in one read as its
    /// TOML table would be.
    fn action_entry(
        &self,
        action: &str,
        args: &[(&str, Value)],
    ) -> Result<ActionEntry, Diagnostic> {
        let span = Span::new(crate::diag::FileId(0), 0..0);
        let failed = |m: String| Diagnostic::error(Code::ActionFailed, m);
        let rules = self.content.declared.clone();
        let (_, built_in) = crate::content::resolve::vocabulary_names();
        if built_in.contains(&action) {
            let mut map = BTreeMap::new();
            let at = |v: toml::Value| crate::content::spanned::Spanned::new(0..0, v);
            map.insert("action".to_string(), at(toml::Value::String(action.into())));
            for (name, value) in args {
                let v = match value {
                    Value::Bool(b) => toml::Value::Boolean(*b),
                    Value::Int(i) => toml::Value::Integer(*i),
                    Value::Float(f) => toml::Value::Float(*f),
                    Value::Str(s) => toml::Value::String(s.to_string()),
                };
                map.insert(name.to_string(), at(v));
            }
            let symbols = self.symbols();
            return crate::content::resolve::runtime_action(
                &symbols,
                &self.content.events,
                &rules.namespace,
                &map.into(),
            )
            .map(|mut entry| {
                entry.span = span;
                entry
            })
            .map_err(|m| failed(format!("action `{action}`: {m}")));
        }
        // A bare name is the game's own; a name that is no ID finds nothing (and "did you mean").
        let id = Id::parse(action, &rules.namespace);
        // Another namespace's action that is not the game's is a mod's script's: its arguments
        // go to the script as they are, and a name no script registers is refused when it runs.
        if let Some(id) = id
            .as_ref()
            .filter(|id| id.namespace() != rules.namespace && !rules.actions.contains_key(*id))
        {
            let args = args
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect();
            return Ok(ActionEntry {
                action: crate::content::Action::Custom {
                    id: id.clone(),
                    args,
                },
                span,
            });
        }
        let Some((id, decl)) = id.and_then(|id| rules.declared(&id, true)) else {
            let names: Vec<String> = rules
                .actions
                .keys()
                .map(Id::to_string)
                .chain(built_in.iter().map(|n| n.to_string()))
                .collect();
            let help = crate::diag::did_you_mean_suffix(action, names.iter().map(String::as_str));
            return Err(failed(format!("the game has no action `{action}`{help}")));
        };
        let map = self
            .checked_args(&format!("action `{id}`"), &decl.params, args)
            .map_err(failed)?;
        Ok(ActionEntry {
            action: crate::content::Action::Game {
                index: decl.index,
                id,
                args: map,
            },
            span,
        })
    }

    /// The symbols of the content, for actions written at run time; made once per content.
    fn symbols(&self) -> std::sync::Arc<crate::content::resolve::Symbols> {
        self.symbols
            .get_or_init(|| {
                let ext = crate::content::Extensions {
                    declared: self.content.declared.clone(),
                    ..Default::default()
                };
                std::sync::Arc::new(crate::content::resolve::symbols_of(&self.content, &ext))
            })
            .clone()
    }

    /// Arguments given in the order of `params` (a verb's, a Lua function's), checked as
    /// [`checked_args`](Self::checked_args) checks them; more than there are parameters is a
    /// mistake too. `what` names the verb or function.
    pub(crate) fn positional_args(
        &self,
        what: &str,
        params: &[crate::content::declare::Param],
        args: &[Value],
    ) -> Result<BTreeMap<String, Value>, String> {
        if args.len() > params.len() {
            let names: Vec<&str> = params.iter().map(|p| p.name()).collect();
            let takes = match names.len() {
                0 => "no arguments".to_string(),
                n => format!("{n} ({})", names.join(", ")),
            };
            return Err(format!("{what} takes {takes}, not {}", args.len()));
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
        params: &[crate::content::declare::Param],
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
            if let Some(why) = param.out_of_range(value) {
                return Err(format!("`{name}` in {what} {why}"));
            }
            // An ID of any kind, the game's or a built-in one, found by its whole ID or a bare
            // name that one mod defines.
            let value = match value {
                Value::Str(text)
                    if !param.ty.is_plain()
                        && param.ty != crate::content::vocab::FieldType::DamageType =>
                {
                    Value::id(&self.find_entry_inner(param.ty.name(), text)?)
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

    /// The definition of `kind` (one of the game's table kinds, or a built-in one: `creature`,
    /// `item`, `quest`, ...) that `text` names: its whole ID, or a bare name that only one mod
    /// defines.
    pub fn find_entry(&self, kind: &str, text: &str) -> Result<Id, crate::Error> {
        self.find_entry_inner(kind, text)
            .map_err(crate::Error::Refused)
    }

    fn find_entry_inner(&self, kind: &str, text: &str) -> Result<Id, String> {
        let ids = || self.ids_of(kind);
        if let Some(id) = Id::qualified(text).filter(|id| ids().any(|known| known == id)) {
            return Ok(id);
        }
        let named: Vec<&Id> = ids().filter(|id| id.name() == text).collect();
        match named.as_slice() {
            [one] => Ok((*one).clone()),
            [] => {
                let help = crate::diag::did_you_mean_suffix(
                    text,
                    ids().flat_map(|id| [id.as_str(), id.name()]),
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

    /// The IDs of a kind: a built-in one (`creature`, `item`, ...) or one of the game's tables.
    fn ids_of<'a>(&'a self, kind: &str) -> Box<dyn Iterator<Item = &'a Id> + 'a> {
        let c = &*self.content;
        match kind {
            "item" => Box::new(c.items.keys()),
            "creature" => Box::new(c.creatures.keys()),
            "quest" => Box::new(c.quests.keys()),
            "encounter" => Box::new(c.encounters.keys()),
            "hazard" => Box::new(c.hazards.keys()),
            "card" => Box::new(c.cards.keys()),
            _ => Box::new(c.tables.ids(kind)),
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
        let names = &content.declared.handlers;
        let code = self.code.clone();
        for &i in handlers {
            let name = &names[i];
            if let Err(e) = (code.handlers[i])(self, event) {
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
        let index = self.content.declared.actions.get(id)?.index;
        let run = self.code.actions[index].clone();
        Some(run(self, args, ctx))
    }

    /// A game's check, if `id` is one.
    pub(super) fn host_check(
        &self,
        id: &Id,
        args: &BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Option<Result<bool, String>> {
        let index = self.content.declared.checks.get(id)?.index;
        Some((self.code.checks[index])(self, args, ctx))
    }
}
