//! The game: state behind one door, the FIFO event queue, and dispatch to triggers and quests.
//!
//! [`Game::apply_list`] is the only way an action changes state (invariant 1); the player's verbs,
//! triggers, quests and the Lua adapter all go through it. Events queue in a `VecDeque` and are
//! handled first in, first out after each command, at most [`EVENT_CAP`] per turn (invariant 7).
//! Dispatch looks triggers up by event kind, so its cost grows with the triggers that listen, not
//! with all that exist. The engine knows nothing about Lua: scripts plug in through [`ScriptHost`].

mod actions;
mod apply;
mod check;
pub(crate) mod code;
pub(crate) use check::SWITCHED_OFF;
mod dispatch;
mod encounter;
mod event;
mod hazard;
mod host;
mod quick;
pub mod save;
mod scene;
mod scripts;
mod settings;
mod state;
pub(crate) mod streams;
mod trace;
mod update;
mod verbs;
mod world;

#[doc(hidden)]
pub use apply::ev;
#[doc(hidden)]
pub use check::Saw;
pub use dispatch::{EventCapPolicy, MOST_CARRIED};
pub use encounter::{EncounterView, OptionView};
pub use event::{Event, Handled};
#[doc(hidden)]
pub use hazard::describe_face;
#[cfg(feature = "cli")]
pub(crate) use hazard::face_text;
pub use scripts::{HandlerCost, Interrupter, ModCost, ScriptHost};
pub(crate) use settings::{find as find_setting, find_in as find_setting_in};
pub use state::{CarriedEvent, Creature, CreatureRef, ItemStack, QuestProgress, SetAside, State};
#[doc(hidden)]
pub use trace::{Trace, TraceStep};
pub use verbs::Outcome;
pub(crate) use world::{lend, lend_dyn};
pub use world::{MOST_DEFERRED, MOST_DEFERRED_IN_TURN};

use crate::content::Content;
use crate::diag::Code;
use crate::diag::Diagnostic;
use crate::id::Id;
use crate::rng::Streams;
use std::collections::BTreeMap;
use std::sync::Arc;

/// At most this many events are handled per turn unless the game sets another cap
/// ([`Game::set_event_cap`]); past it the turn stops with the chain named.
pub const EVENT_CAP: usize = 100;

/// Who is acting: the bearer of the trigger (or the actor of a command) and the other side.
/// Borrowed, so evaluating a trigger allocates nothing.
#[derive(Debug, Clone, Copy)]
pub struct Ctx<'a> {
    /// The bearer of the trigger, or the actor of a command.
    pub(crate) bearer: CreatureRef,
    /// The other side of the event, if any.
    pub(crate) target: Option<CreatureRef>,
    /// The source of the event being handled (`who = "source"`), if the context is an event's.
    pub source: Option<CreatureRef>,
    /// The trigger key, quest ID, encounter or command this comes from: for messages and chains.
    pub cause: &'a str,
    /// The random stream for actions that draw (`give_random_items`, ...).
    pub(crate) stream: &'a str,
}

impl Ctx<'_> {
    /// The context of a player's command: the command's name is its cause and its stream.
    pub fn command(name: &str) -> Ctx<'_> {
        Ctx::player(name, name)
    }

    /// The player acting for `cause`, drawing from `stream`, at nobody.
    pub fn player<'a>(cause: &'a str, stream: &'a str) -> Ctx<'a> {
        Ctx {
            bearer: CreatureRef::Player,
            target: None,
            source: None,
            cause,
            stream,
        }
    }

    /// The same, with `bearer` acting (`self` in a built-in action).
    pub fn by(self, bearer: CreatureRef) -> Self {
        Ctx { bearer, ..self }
    }

    /// The same, at `target` (`target = "target"` in a built-in action).
    pub fn at(self, target: CreatureRef) -> Self {
        Ctx {
            target: Some(target),
            ..self
        }
    }
}

/// A game over a content snapshot: its state behind one door, the event queue, the scripts.
pub struct Game {
    content: Arc<Content>,
    /// The game's code over the declarations the content holds (its actions, checks, verbs...).
    code: Arc<self::code::Code>,
    state: State,
    rng: Streams,
    /// The event queue and the turn's bookkeeping (`dispatch`).
    events: dispatch::EventQueue,
    /// The last evaluation of every trigger and quest. Boxed and optional so dispatch can lend it
    /// out while it evaluates (moving a pointer, not the table); `None` only during that time.
    traces: Option<Box<trace::Traces>>,
    /// The scripts. In a cell so that a condition read from a shared borrow (an attribute's
    /// modifiers, an encounter's eligibility) can still ask a Lua check, which sees the game
    /// read-only; while the host is busy (a handler, an action, another check), asking it is an
    /// error that the condition reports.
    scripts: std::cell::RefCell<Option<Box<dyn ScriptHost>>>,
    /// Whether the scripts are out of their cell, serving a call (`Game::with_scripts`).
    scripts_busy: bool,
    /// The action lists being applied and what they keep to undo themselves (`apply`).
    lists: apply::OpenLists,
    /// Lines for the player: what happened during the last command.
    messages: Vec<String>,
    /// Problems raised while running content (a failed action list, a loop): reported, never fatal.
    problems: Vec<Diagnostic>,
    /// How many of them were about each mod, by mod ID: what [`Game::script_costs`] tells a host.
    problems_by_mod: Vec<(Box<str>, u64)>,
    /// The triggers of the scene: those of the game's entries in play (the roguelike's room),
    /// looked up again (when `scene_stale`) after the content or the game's state changed, rather
    /// than for every event.
    scene_triggers: Vec<crate::content::TriggerRef>,
    scene_stale: bool,
    /// The content's symbols, for actions a game's code writes at run time (`perform`): made on
    /// the first such call, dropped when the content changes.
    symbols: std::cell::OnceCell<std::sync::Arc<crate::content::resolve::Symbols>>,
    /// What the game keeps about its own world's loans: deferred changes, a save's world to put
    /// back, a reconcile to do (`world`).
    loan: world::Loan,
    /// The mods' versions the save it was read from was made with, until the scripts take them
    /// ([`Game::take_saved_versions`]) to run their update hooks.
    saved_versions: Option<BTreeMap<String, String>>,
}

const LOG_KEEP: usize = 1000;

impl Game {
    /// A new run over `content` running `code`, the code of the rules that loaded it: the player
    /// is made from the game's player definition
    /// ([`Vocabulary::player`](crate::host::Vocabulary::player)), or is a plain adventurer. Games
    /// come from a [`World`](crate::load::World) or a [`ModSet`](crate::mod_set::ModSet), which hold both.
    pub(crate) fn new(content: Arc<Content>, code: Arc<self::code::Code>, seed: u64) -> Game {
        let state = Game::fresh_state(&content, seed);
        Game::from_state(content, code, state)
    }

    fn fresh_state(content: &Content, seed: u64) -> State {
        let player_id =
            (content.declared.player.clone()).unwrap_or_else(|| Id::new("lantern", "player"));
        let player = Creature::spawn(content, &player_id).unwrap_or_else(|| Creature {
            def: player_id,
            name: "Adventurer".into(),
            health: 30,
            tags: Vec::new(),
            attributes: BTreeMap::from([("max_health".to_string(), 30), ("attack".to_string(), 1)]),
            inventory: Vec::new(),
        });
        State {
            seed,
            player,
            enemies: Vec::new(),
            scene: 0,
            quests: BTreeMap::new(),
            quest_slots: Default::default(),
            storage: BTreeMap::new(),
            carried: Vec::new(),
            settings: (content.settings())
                .map(|s| {
                    let chosen = content.start_settings.get(&s.id);
                    (s.id.clone(), chosen.unwrap_or(&s.default).clone())
                })
                .collect(),
            orphans: Vec::new(),
            set_aside: Default::default(),
            rng: BTreeMap::new(),
            turn: 0,
            combat: false,
            encounter: None,
            hazard: None,
            deck: crate::hazard::engine::starter_deck(content),
            over: false,
            host: content.declared.fresh_state(),
        }
    }

    fn from_state(content: Arc<Content>, code: Arc<self::code::Code>, state: State) -> Game {
        Game::assemble(content, code, state)
    }

    fn assemble(content: Arc<Content>, code: Arc<self::code::Code>, state: State) -> Game {
        let rng = Streams::restore(state.seed, &state.rng);
        let traces = Some(Box::new(trace::Traces::new(
            content.triggers.len(),
            content.quest_defs.len(),
        )));
        let mut game = Game {
            code,
            content,
            state,
            rng,
            events: dispatch::EventQueue::new(),
            traces,
            scripts: Default::default(),
            scripts_busy: false,
            lists: apply::OpenLists::default(),
            messages: Vec::new(),
            problems: Vec::new(),
            problems_by_mod: Vec::new(),
            scene_triggers: Vec::new(),
            scene_stale: true,
            symbols: std::cell::OnceCell::new(),
            loan: world::Loan::default(),
            saved_versions: None,
        };
        game.scene_changed();
        game.index_quests();
        game
    }

    /// Rebuilds the dense copy of quest progress from the saved map (after a load or a reload).
    fn index_quests(&mut self) {
        let mut slots = vec![None; self.content.quest_defs.len()];
        for (id, progress) in &self.state.quests {
            if let Some(q) = self.content.quests.get(id) {
                slots[q.ordinal as usize] = Some(*progress);
            }
        }
        self.state.quest_slots.0 = slots;
    }

    /// Sets a quest's progress in the saved map and its dense copy.
    pub(super) fn set_quest(&mut self, id: &Id, progress: QuestProgress) {
        if let Some(q) = self.content.quests.get(id) {
            if let Some(slot) = self.state.quest_slots.0.get_mut(q.ordinal as usize) {
                *slot = Some(progress);
            }
        }
        self.state.quests.insert(id.clone(), progress);
    }

    /// Whether the dense copy of quest progress agrees with the saved map (checked in debug builds).
    fn quests_indexed(&self) -> bool {
        let dense = self.state.quest_slots.0.iter().flatten().count();
        dense == self.state.quests.len()
            && self.state.quests.iter().all(|(id, p)| {
                self.content
                    .quests
                    .get(id)
                    .and_then(|q| self.state.quest_slots.0.get(q.ordinal as usize))
                    == Some(&Some(*p))
            })
    }

    /// The state or the content changed: the scene's triggers are looked up again before the next
    /// event.
    pub(super) fn scene_changed(&mut self) {
        self.scene_stale = true;
    }

    /// The game's state changed: when its entries carry triggers, which are in play is asked again
    /// before the next event.
    pub(super) fn host_state_changed(&mut self) {
        if !self.content.entry_triggers.is_empty() {
            self.scene_stale = true;
        }
    }

    /// The triggers of the game's entries in play.
    pub(super) fn refresh_scene(&mut self) {
        self.scene_stale = false;
        let content = self.content.clone();
        let mut triggers = Vec::new();
        if !content.entry_triggers.is_empty() {
            for (kind, id) in content.declared.in_play(&self.state.host) {
                if let Some(refs) = content.entry_triggers.get(&(kind, id)) {
                    triggers.extend(refs.iter().copied());
                }
            }
        }
        self.scene_triggers = triggers;
    }

    /// The content the game runs over.
    pub fn content(&self) -> &Arc<Content> {
        &self.content
    }

    /// lantern's state (the game's own is [`Game::host_state`]).
    pub fn state(&self) -> &State {
        &self.state
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        self.state.seed
    }

    /// The named random streams, for the Lua layer's draws and the harness's stubs.
    pub(crate) fn rng_mut(&mut self) -> &mut Streams {
        &mut self.rng
    }

    /// Stubs one stream (or every stream, with `None`) for a test: its rolls are `stub`'s.
    pub fn stub_rng(&mut self, stream: Option<&str>, stub: crate::rng::Stub) {
        self.rng.set_stub(stream, stub);
    }

    /// A uniform draw in `0..n` from the stream `stream` (0 when `n` is 0), for a game's verbs:
    /// the stream advances, and its position is saved and hashed with the rest of the state.
    pub fn draw_below(&mut self, stream: &str, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        self.rng.below(stream, n)
    }

    /// Runs `f` with the scripts taken out of the game, so that they can be handed the game
    /// mutably; `None` when there are none, or they are out already (serving a call further up).
    pub(super) fn with_scripts<R>(
        &mut self,
        f: impl FnOnce(&mut dyn ScriptHost, &mut Game) -> R,
    ) -> Option<R> {
        let mut host = self.scripts.get_mut().take()?;
        self.scripts_busy = true;
        let result = f(host.as_mut(), self);
        self.scripts_busy = false;
        *self.scripts.get_mut() = Some(host);
        Some(result)
    }

    /// The mods' versions (by mod ID) the save this game was read from was made with, once: what
    /// scripts compare with their own to run their update hooks (`lantern.on_update`). `None`
    /// for a new game, and after the first call.
    pub(crate) fn take_saved_versions(&mut self) -> Option<BTreeMap<String, String>> {
        self.saved_versions.take()
    }

    /// Plugs the scripts in (or takes them out); returns the previous ones.
    pub fn set_scripts(
        &mut self,
        host: Option<Box<dyn ScriptHost>>,
    ) -> Option<Box<dyn ScriptHost>> {
        std::mem::replace(self.scripts.get_mut(), host)
    }

    /// A creature of the roguelike by its reference.
    pub fn creature(&self, who: CreatureRef) -> Option<&Creature> {
        match who {
            CreatureRef::Player => Some(&self.state.player),
            CreatureRef::Enemy(i) => self.state.enemies.get(i),
        }
    }

    fn creature_mut(&mut self, who: CreatureRef) -> Option<&mut Creature> {
        match who {
            CreatureRef::Player => Some(&mut self.state.player),
            CreatureRef::Enemy(i) => self.state.enemies.get_mut(i),
        }
    }

    /// Living enemies with their references.
    pub fn enemies(&self) -> impl Iterator<Item = (CreatureRef, &Creature)> {
        self.state
            .enemies
            .iter()
            .enumerate()
            .filter(|(_, c)| c.alive())
            .map(|(i, c)| (CreatureRef::Enemy(i), c))
    }

    /// Whether a fight is on (the roguelike's).
    pub fn in_combat(&self) -> bool {
        self.enemies().next().is_some()
    }

    /// Takes the lines for the player produced since the last call.
    pub fn take_messages(&mut self) -> Vec<String> {
        std::mem::take(&mut self.messages)
    }

    /// Takes the problems raised while running content since the last call.
    pub fn take_problems(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.problems)
    }

    /// The problems reported and not taken yet, oldest first.
    pub(crate) fn pending_problems(&self) -> &[Diagnostic] {
        &self.problems
    }

    /// Reports a problem raised while running content (a script's error, a failed action list).
    // Not inlined: problems are rare, and inlined into the event loop its counting by mod cost
    // every event 16 instructions (the events bench).
    #[inline(never)]
    pub fn report(&mut self, problem: Diagnostic) {
        if let Some(id) = problem.mod_id() {
            match self.problems_by_mod.iter_mut().find(|(m, _)| &**m == id) {
                Some((_, n)) => *n += 1,
                None => self.problems_by_mod.push((id.into(), 1)),
            }
        }
        self.problems.push(problem);
    }

    /// The chain of events that led to the event being handled now: `creature_died <- damage_taken <- attack_hit`.
    pub(crate) fn current_chain(&self) -> String {
        let mut names = Vec::new();
        let Some((kind, mut at, cause)) = self.events.dispatching.clone() else {
            return String::new();
        };
        // An event a mod's script emitted names that mod: a handler that fails on it may be
        // another mod's, and the one to tell is the one that emitted it.
        let named = |kind: crate::content::EventKey, cause: &Option<std::sync::Arc<str>>| {
            let name = self.content.events.get(kind).name.clone();
            match cause.as_deref().and_then(|c| c.strip_prefix("lua:")) {
                Some(m) => format!("{name} (emitted by mod `{m}`)"),
                None => name,
            }
        };
        names.push(named(kind, &cause));
        while let Some(h) = at.and_then(|n| self.handled_at(n)) {
            names.push(named(h.event.kind, &h.cause));
            at = h.parent;
            if names.len() > 10 {
                names.push("...".into());
                break;
            }
        }
        names.join(" <- ")
    }

    /// Adds a line for the player.
    pub fn say(&mut self, line: impl Into<String>) {
        self.messages.push(line.into());
    }

    /// The language the game's texts are in; `None` while each mod's are in its own default.
    pub fn language(&self) -> Option<&str> {
        self.content.language()
    }

    /// Shows the game in `lang` (`de`, `zh-Hans`) from now on: the definitions' texts, lantern's
    /// own messages and [`Game::text`]. A text `lang` lacks falls back to its base language (`de`
    /// for `de-AT`), then to the mod's own. Only what players read changes: the same commands give
    /// the same state hash in every language, and a reload keeps the language.
    pub fn set_language(&mut self, lang: &str) {
        if self.content.language() != Some(lang) {
            self.content = Arc::new(self.content.in_language(lang));
            self.rename_creatures();
        }
    }

    /// Gives every creature its definition's name in the content's language.
    pub(super) fn rename_creatures(&mut self) {
        let content = &self.content;
        let state = &mut self.state;
        for c in std::iter::once(&mut state.player).chain(state.enemies.iter_mut()) {
            if let Some(def) = content.creatures.get(&c.def) {
                c.name.clone_from(&def.name);
            }
        }
    }

    /// How players read a creature's reference (`enemy 2`, what `attack 2` names), in the game's
    /// language.
    pub(crate) fn creature_ref_text(&self, r: CreatureRef) -> String {
        match r {
            CreatureRef::Player => self.text("player_ref", &[]),
            CreatureRef::Enemy(i) => self.text("enemy_ref", &[("n", (i + 1).into())]),
        }
    }

    /// The text `key` (`core:enter`; a bare key is lantern's own) in the game's language, with
    /// its `{arguments}` from `args`: what a game's code says to players ([`Content::text`]).
    pub fn text(&self, key: &str, args: &[(&str, crate::content::TextArg)]) -> String {
        self.content.text(key, args)
    }

    /// As [`Game::text`], refused with a message when it would be too long to render.
    pub(crate) fn text_within(
        &self,
        key: &str,
        args: &[(&str, crate::content::TextArg)],
    ) -> Result<String, String> {
        self.content.text_within(key, args)
    }

    /// Recent handled events, oldest first.
    pub fn log(&self) -> impl Iterator<Item = &Handled> {
        self.events.log.iter()
    }

    /// A handled event by its absolute number, if the log still keeps it.
    fn handled_at(&self, n: usize) -> Option<&Handled> {
        let first = self.events.handled - self.events.log.len();
        n.checked_sub(first).and_then(|i| self.events.log.get(i))
    }

    /// The last evaluation of a trigger (by `id` or `file:line`) or a quest, in words.
    pub fn why_text(&self, key: &str) -> Option<String> {
        if let Some(r) = self.content.find_trigger(key) {
            let t = self.content.trigger(r);
            let traced = trace::Traced {
                when: &t.when,
                condition: &t.condition,
                stream: &t.stream,
                goal: None,
            };
            return self
                .traces
                .as_ref()?
                .trigger(r)
                .map(|trace| trace.render(&self.content, &traced));
        }
        let id = Id::qualified(key)?;
        let q = self.content.quests.get(&id)?;
        let traced = trace::Traced {
            when: &q.when,
            condition: &q.condition,
            stream: &q.stream,
            goal: Some(q.count),
        };
        self.traces
            .as_ref()?
            .quest(q.ordinal)
            .map(|trace| trace.render(&self.content, &traced))
    }

    /// `why KEY` as the console and the test harness answer it: the last evaluation in words, a
    /// note that there has been none yet, or an error naming the closest trigger or quest there is.
    /// A bare name is the game's home mod's.
    pub(crate) fn explain(&self, key: &str) -> Result<String, String> {
        let key = if key.contains(':') || key.contains('/') {
            key.to_string()
        } else {
            format!("{}:{key}", self.content.declared.home())
        };
        if let Some(text) = self.why_text(&key) {
            return Ok(text.trim_end().to_string());
        }
        let quest = Id::qualified(&key).is_some_and(|q| self.content.quests.contains_key(&q));
        if quest || self.content.find_trigger(&key).is_some() {
            return Ok(format!("`{key}` has not been evaluated yet"));
        }
        let known = self
            .content
            .trigger_ids
            .keys()
            .chain(self.content.quests.keys())
            .map(Id::as_str);
        let help = crate::diag::did_you_mean_suffix(&key, known);
        Err(format!("there is no trigger or quest `{key}`{help}"))
    }

    /// The trace of the last evaluation of a trigger (by `id` or `file:line`) or a quest.
    pub fn why(&self, key: &str) -> Option<&Trace> {
        if let Some(r) = self.content.find_trigger(key) {
            return self.traces.as_ref()?.trigger(r);
        }
        let id = Id::qualified(key)?;
        self.traces
            .as_ref()?
            .quest(self.content.quests.get(&id)?.ordinal)
    }

    /// A hash of the whole state, stable across processes: the same mods, seed and commands give the same hash.
    pub fn state_hash(&self) -> String {
        let mut state = self.state.clone();
        state.rng = self.rng.positions();
        // A creature's name is what players read, in their language: not the game's state.
        for c in std::iter::once(&mut state.player).chain(state.enemies.iter_mut()) {
            c.name = crate::content::Name::default();
        }
        let mut json = serde_json::to_vec(&state).unwrap_or_default();
        // The game's own world, as its hooks save it, when it declared one and lent it.
        if let Some(world) = self.world_json() {
            json.extend(serde_json::to_vec(&world).unwrap_or_default());
        }
        format!("{:016x}", crate::rng::stable_hash(&json))
    }

    /// The state as a save file keeps it.
    pub fn snapshot(&self) -> State {
        let mut state = self.state.clone();
        state.rng = self.rng.positions();
        state
    }

    /// Per-mod storage, as the mods' scripts last settled it, by mod ID.
    pub fn storage(&self) -> &BTreeMap<String, Arc<serde_json::Value>> {
        &self.state.storage
    }

    /// Per-mod storage, for the Lua layer.
    pub(crate) fn storage_mut(&mut self) -> &mut BTreeMap<String, Arc<serde_json::Value>> {
        &mut self.state.storage
    }

    /// Replaces the content (a reload). State keeps its IDs; what no longer exists is dropped or set
    /// aside with a warning that names it.
    pub fn swap_content(&mut self, content: Arc<Content>) -> Vec<Diagnostic> {
        let content = match self.content.language() {
            Some(lang) if content.language() != Some(lang) => Arc::new(content.in_language(lang)),
            _ => content,
        };
        self.content = content;
        self.symbols = std::cell::OnceCell::new();
        self.scene_changed();
        self.traces = Some(Box::new(trace::Traces::new(
            self.content.triggers.len(),
            self.content.quest_defs.len(),
        )));
        let mut notes = self.reconcile();
        notes.extend(self.reconcile_settings());
        self.rename_creatures();
        // Quest ordinals are positions in the new content.
        self.index_quests();
        notes.extend(self.world_content_changed());
        notes
    }

    /// Sets aside quest progress, the open encounter and hazard, and items whose definition is
    /// gone, and gives back what was set aside and exists again: one message each way.
    fn reconcile(&mut self) -> Vec<Diagnostic> {
        let content = self.content.clone();
        let mut notes: Vec<String> = Vec::new();
        self.reconcile_quests(&content, &mut notes);
        self.reconcile_encounter(&content, &mut notes);
        self.reconcile_hazard(&content, &mut notes);
        self.reconcile_items(&content, &mut notes);
        notes.extend(content.declared.reconcile(&mut self.state.host, &content));
        let warning = |m| Diagnostic::warning(Code::Reconciled, m);
        notes.into_iter().map(warning).collect()
    }

    /// Quests gone from the content set aside with their progress; those back, returned.
    fn reconcile_quests(&mut self, content: &Content, notes: &mut Vec<String>) {
        let gone: Vec<Id> = (self.state.quests.keys())
            .filter(|q| !content.quests.contains_key(*q))
            .cloned()
            .collect();
        for q in gone {
            if let Some(p) = self.state.quests.remove(&q) {
                self.state.set_aside.quests.insert(q.clone(), p);
            }
            notes.push(format!(
                "quest `{q}` no longer exists; its progress is set aside until it returns"
            ));
        }
        let back: Vec<Id> = (self.state.set_aside.quests.keys())
            .filter(|q| content.quests.contains_key(*q))
            .cloned()
            .collect();
        for q in back {
            if let Some(p) = self.state.set_aside.quests.remove(&q) {
                self.state.quests.entry(q.clone()).or_insert(p);
            }
            notes.push(format!("quest `{q}` exists again; its progress returned"));
        }
    }

    /// The open encounter set aside when it is gone; one set aside reopened when it is back and
    /// the scene it was open in is free.
    fn reconcile_encounter(&mut self, content: &Content, notes: &mut Vec<String>) {
        let open = self.state.encounter.clone();
        if let Some(e) = open.filter(|e| !content.encounters.contains_key(e)) {
            self.state.encounter = None;
            self.state.set_aside.encounter = Some((e.clone(), self.state.scene));
            notes.push(format!(
                "encounter `{e}` no longer exists; it is set aside until it returns"
            ));
        }
        if let Some((e, scene)) = self.state.set_aside.encounter.clone() {
            let free = self.state.encounter.is_none() && self.state.hazard.is_none();
            if scene == self.state.scene && free && content.encounters.contains_key(&e) {
                self.state.set_aside.encounter = None;
                self.state.encounter = Some(e.clone());
                notes.push(format!("encounter `{e}` exists again; it is open again"));
            }
        }
    }

    /// The hazard under way brought in line with its definition, or set aside when it cannot
    /// be; one set aside taken up again when it can.
    fn reconcile_hazard(&mut self, content: &Content, notes: &mut Vec<String>) {
        if let Some(mut run) = self.state.hazard.take() {
            match run.reconcile(content) {
                Ok(changes) => {
                    notes.extend(changes);
                    self.state.hazard = Some(run);
                }
                Err(why) => {
                    self.state.set_aside.hazard = Some((run, self.state.scene));
                    notes.push(format!(
                        "{why}; the hazard is set aside until it returns, and the run goes on"
                    ));
                }
            }
        }
        if let Some((mut run, scene)) = self.state.set_aside.hazard.take() {
            let free = self.state.encounter.is_none() && self.state.hazard.is_none();
            let ready = scene == self.state.scene && free;
            match ready.then(|| run.reconcile(content)) {
                Some(Ok(changes)) => {
                    notes.push(format!("hazard `{}` exists again; it goes on", run.hazard));
                    notes.extend(changes);
                    self.state.hazard = Some(run);
                }
                _ => self.state.set_aside.hazard = Some((run, scene)),
            }
        }
    }

    /// Items gone from the content taken out of every inventory and set aside; those back,
    /// returned to the player.
    fn reconcile_items(&mut self, content: &Content, notes: &mut Vec<String>) {
        let mut orphans = std::mem::take(&mut self.state.orphans);
        let mut creatures: Vec<&mut Creature> = vec![&mut self.state.player];
        creatures.extend(self.state.enemies.iter_mut());
        for c in creatures {
            let (keep, gone): (Vec<ItemStack>, Vec<ItemStack>) =
                (c.inventory.drain(..)).partition(|s| content.items.contains_key(&s.item));
            c.inventory = keep;
            for s in gone {
                notes.push(format!(
                    "item `{}` no longer exists; {} set aside until it returns",
                    s.item, s.count
                ));
                orphans.push(s);
            }
        }
        let (back, still): (Vec<ItemStack>, Vec<ItemStack>) =
            (orphans.into_iter()).partition(|s| content.items.contains_key(&s.item));
        for s in back {
            notes.push(format!(
                "item `{}` exists again; {} returned to the inventory",
                s.item, s.count
            ));
            self.state.player.inventory.push(s);
        }
        self.state.orphans = still;
    }
}
