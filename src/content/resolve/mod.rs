//! Resolution: raw definitions into typed registries, every reference checked.
//!
//! Two passes. `symbols` declares every ID (duplicates, overrides); then each winning definition is
//! resolved against those symbols (`defs`, with conditions, actions and triggers in `vocabulary`).
//! Nothing stops at the first error: a definition with a bad field is still built where it can be,
//! and the diagnostic says what was wrong and what was meant.

mod assemble;
mod defs;
pub(crate) mod fields;
mod hazard;
mod named;
mod names;
mod patch;
mod symbols;
mod vocabulary;

pub(crate) use patch::{patch, Resolution};
pub(crate) use symbols::Symbols;

use super::event::{EventKey, EventTable};
use super::raw_defs::RawDefs;
use super::vocab;
use super::vocab::FieldType;
use super::{Content, Extensions, ModInfo};
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use crate::id::Id;
use std::collections::BTreeMap;
use std::ops::Range;

/// What a reference must name.
#[derive(Debug, Clone, Copy)]
pub(crate) enum RefKind {
    Tag,
    Item,
    Creature,
    Quest,
    Encounter,
    ProgressType,
    Hazard,
    Card,
    /// A mod's setting (`rats:rat_health`).
    Setting,
    /// An entry of one of the game's tables, by its kind.
    Host(&'static str),
}

static NO_IDS: BTreeMap<Id, Span> = BTreeMap::new();

impl RefKind {
    /// The kind of ID a field type names, if it names one.
    pub(crate) fn of(ty: FieldType) -> Option<RefKind> {
        Some(match ty {
            FieldType::Item => RefKind::Item,
            FieldType::Creature => RefKind::Creature,
            FieldType::Quest => RefKind::Quest,
            FieldType::Encounter => RefKind::Encounter,
            FieldType::Hazard => RefKind::Hazard,
            FieldType::Card => RefKind::Card,
            FieldType::Host(kind) => RefKind::Host(kind),
            FieldType::Int
            | FieldType::Float
            | FieldType::String
            | FieldType::Bool
            | FieldType::DamageType => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            RefKind::Host(kind) => kind,
            RefKind::Tag => "tag",
            RefKind::Item => "item",
            RefKind::Creature => "creature",
            RefKind::Quest => "quest",
            RefKind::Encounter => "encounter",
            RefKind::ProgressType => "progress type",
            RefKind::Hazard => "hazard",
            RefKind::Card => "card",
            RefKind::Setting => "setting",
        }
    }

    fn table(self, syms: &Symbols) -> &BTreeMap<Id, Span> {
        match self {
            RefKind::Tag => &syms.tags,
            RefKind::Item => &syms.items,
            RefKind::Creature => &syms.creatures,
            RefKind::Quest => &syms.quests,
            RefKind::Encounter => &syms.encounters,
            RefKind::ProgressType => &syms.progress_types,
            RefKind::Hazard => &syms.hazards,
            RefKind::Card => &syms.cards,
            RefKind::Setting => &syms.settings,
            RefKind::Host(kind) => syms.host.get(kind).unwrap_or(&NO_IDS),
        }
    }
}

/// The resolution context of one definition: its mod, its file, the symbols, and where problems go.
pub(crate) struct Cx<'a> {
    pub syms: &'a Symbols,
    pub events: &'a EventTable,
    pub diags: &'a mut Vec<Diagnostic>,
    pub ns: String,
    pub file: FileId,
    /// Where a bare name is made full (`ns:name`) to be looked up: one buffer, not one string a
    /// reference.
    full: String,
    /// The events an `emit_event` action of the data names, gathered over the whole load (for
    /// `lantern check`'s "nothing emits it"); `None` where one action is read alone.
    pub emitted: Option<&'a std::cell::RefCell<std::collections::BTreeSet<EventKey>>>,
    /// Where each entry read notes the keys it knew and needed, when the editor schema asks
    /// (`builtin_keys`); `None` while loading.
    pub probe: Option<&'a std::cell::RefCell<Vec<fields::Probed>>>,
    /// Where each reference resolved is noted with its file, when a reload may patch what this
    /// resolution makes ([`named::Named`]); `None` otherwise.
    pub naming: Option<&'a named::Naming>,
    /// The other mods this file's references may name without a word: those its mod depends on,
    /// and those already warned of; found once per file.
    named_freely: Vec<Box<str>>,
    /// The causes this file's references were already said to follow from (a mod's changed id,
    /// its missing script): the rest of them say nothing more (`Diagnostic::once_per` keeps the
    /// first across files).
    said: Vec<String>,
}

impl Cx<'_> {
    /// Whether `cause` is new to this file, noting it.
    pub(crate) fn first_of(&mut self, cause: &str) -> bool {
        if self.said.iter().any(|c| c == cause) {
            return false;
        }
        self.said.push(cause.to_string());
        true
    }
}

impl<'a> Cx<'a> {
    pub(crate) fn new(
        syms: &'a Symbols,
        events: &'a EventTable,
        diags: &'a mut Vec<Diagnostic>,
        ns: &str,
        file: FileId,
        emitted: Option<&'a std::cell::RefCell<std::collections::BTreeSet<EventKey>>>,
    ) -> Cx<'a> {
        Cx {
            syms,
            events,
            diags,
            ns: ns.to_string(),
            file,
            full: String::new(),
            emitted,
            probe: None,
            naming: None,
            named_freely: Vec::new(),
            said: Vec::new(),
        }
    }

    /// The event an `emit_event` action names, noted as one the data emits.
    pub(crate) fn emitted(&mut self, name: &Spanned<String>) -> Option<EventKey> {
        let key = self.event(name)?;
        if let Some(emitted) = self.emitted {
            emitted.borrow_mut().insert(key);
        }
        Some(key)
    }

    pub(crate) fn span(&self, range: Range<usize>) -> Span {
        Span::new(self.file, range)
    }

    /// Resolves a reference to an existing definition, with "did you mean" when it does not exist.
    pub(crate) fn reference(&mut self, kind: RefKind, text: &Spanned<String>) -> Option<Id> {
        let table = kind.table(self.syms);
        // A name that is declared: the declared ID itself, shared (nothing made, and the
        // reference compares equal to it by pointer); a bare name is looked up in its own mod.
        let written = text.get_ref().as_str();
        let found = if written.contains(':') {
            table.get_key_value(written)
        } else {
            self.full.clear();
            self.full.extend([self.ns.as_str(), ":", written]);
            table.get_key_value(self.full.as_str())
        };
        if let Some((id, _)) = found {
            if id.namespace() != self.ns {
                self.named_across(id, text.span());
            }
            if let Some(naming) = self.naming {
                naming.borrow_mut().push((self.file, id.clone()));
            }
            return Some(id.clone());
        }
        let span = self.span(text.span());
        let Some(id) = Id::parse(text.get_ref(), &self.ns) else {
            self.diags.push(
                Diagnostic::error(
                    Code::InvalidId,
                    crate::id::invalid_id(text.get_ref(), kind.name()),
                )
                .at(span)
                .with_help(
                    "an ID is `name` or `mod:name`, using lowercase letters, digits and `_`",
                ),
            );
            return None;
        };
        if let Some(why) = self.syms.broken.get(&id) {
            self.follow_on(span, format!("`{id}` {why}"));
            return None;
        }
        let own = format!("{}:{}", self.ns, id.name());
        if self.written_under_another_id(&id, span, table.contains_key(own.as_str())) {
            return None;
        }
        let help = did_you_mean(id.as_str(), table.keys().map(Id::as_str));
        self.diags.push(
            Diagnostic::error(
                Code::UnknownReference,
                format!("unknown {} `{id}`", kind.name()),
            )
            .at(span)
            .with_help_opt(help),
        );
        None
    }

    /// Whether `id`, unknown, names this mod's own definition under another mod ID (`smith:hammer`
    /// in the mod now called `smithy`, whose `hammer` exists: `own_exists`): a mod whose `id`
    /// changed names its old one throughout, and that is one mistake, said once for the mod.
    pub(crate) fn written_under_another_id(
        &mut self,
        id: &Id,
        span: Span,
        own_exists: bool,
    ) -> bool {
        if !own_exists || id.namespace() == self.ns {
            return false;
        }
        let cause = format!(
            "this mod's id is `{}`, but its data names `{}:`",
            self.ns,
            id.namespace()
        );
        if self.first_of(&cause) {
            // Said at the manifest's `id`, the one line that changed, with the first name.
            let d = Diagnostic::error(
                Code::UnknownReference,
                format!("{cause} (`{id}`): was its id `{}`?", id.namespace()),
            );
            let d = match self.syms.manifest_ids.get(self.ns.as_str()) {
                Some(at) => d.at(*at).with_label(span, "named here"),
                None => d.at(span),
            };
            self.diags.push(d.once_per(cause.clone()).with_help(format!(
                "write `{}:` for `{}:` throughout, or the bare name (`{}`): a bare name is \
                     the mod's own whatever its id",
                self.ns,
                id.namespace(),
                id.name()
            )));
        }
        true
    }

    /// Warns when `id`, another mod's, is named by a mod that does not depend on that mod: the
    /// reference works only while the other mod happens to be installed (a player may remove it,
    /// and nothing says this mod needs it). Said once per pair of mods.
    fn named_across(&mut self, id: &Id, at: std::ops::Range<usize>) {
        let other = id.namespace();
        if self.named_freely.iter().any(|n| **n == *other) {
            return;
        }
        self.named_freely.push(other.into());
        let Some(reach) = self.syms.reachable.get(self.ns.as_str()) else {
            return;
        };
        if reach.contains(other) {
            return;
        }
        let span = self.span(at);
        let cause = format!("`{}` names `{other}`'s definitions", self.ns);
        self.diags.push(
            Diagnostic::warning(
                Code::Dependency,
                format!("{cause} (`{id}`) but does not depend on `{other}`"),
            )
            .at(span)
            .with_help(format!(
                "add `{other}` to `depends` in `{}`'s mod.toml (or to `optional`, if the mod \
                 works without it): without it, a player who removes `{other}` breaks this mod",
                self.ns
            ))
            .once_per(cause),
        );
    }

    /// A problem that follows from one already reported: said once per subject, after the causes.
    pub(crate) fn follow_on(&mut self, span: Span, message: String) {
        if !self.diags.iter().any(|d| d.message == message) {
            self.diags.push(
                Diagnostic::error(Code::Follows, message)
                    .at(span)
                    .following(),
            );
        }
    }

    /// Resolves an event name: an engine event, or a custom one (`rats:ritual_done`, or bare in its own mod).
    pub(crate) fn event(&mut self, text: &Spanned<String>) -> Option<EventKey> {
        let name = text.get_ref();
        if let Some(key) = self.events.lookup(name) {
            return Some(key);
        }
        if !name.contains(':') {
            if let Some(key) = self.events.lookup(&format!("{}:{name}", self.ns)) {
                return Some(key);
            }
        }
        let help = did_you_mean(name, self.events.names()).or_else(|| {
            Some("custom events are declared with `[[event_types]]`; `lantern docs` lists the engine events".to_string())
        });
        self.diags.push(
            Diagnostic::error(
                Code::UnknownReference,
                if name.is_empty() {
                    "the event name is empty".to_string()
                } else {
                    format!("unknown event `{name}`")
                },
            )
            .at(self.span(text.span()))
            .with_help_opt(help),
        );
        None
    }

    pub(crate) fn rarity(&mut self, text: &Spanned<String>) -> Option<String> {
        if self.syms.rarities.contains_key(text.get_ref()) {
            return Some(text.get_ref().clone());
        }
        let help = did_you_mean(
            text.get_ref(),
            self.syms.rarities.keys().map(String::as_str),
        );
        self.diags.push(
            Diagnostic::error(
                Code::UnknownReference,
                format!("unknown rarity `{}`", text.get_ref()),
            )
            .at(self.span(text.span()))
            .with_help_opt(help),
        );
        None
    }

    pub(crate) fn damage_type(&mut self, text: &Spanned<String>) -> Option<String> {
        self.vocabulary("damage type", text, vocab::DAMAGE_TYPES)
    }

    pub(crate) fn attribute(&mut self, text: &Spanned<String>) -> Option<&'static str> {
        let names: Vec<&'static str> = vocab::attribute_names().collect();
        let known = self.vocabulary("attribute", text, &names)?;
        names.into_iter().find(|n| *n == known)
    }

    /// Checks a word against a fixed list of engine vocabulary.
    pub(crate) fn vocabulary(
        &mut self,
        what: &str,
        text: &Spanned<String>,
        known: &[&str],
    ) -> Option<String> {
        if known.contains(&text.get_ref().as_str()) {
            return Some(text.get_ref().clone());
        }
        let help = did_you_mean(text.get_ref(), known.iter().copied())
            .unwrap_or_else(|| format!("one of: {}", known.join(", ")));
        self.diags.push(
            Diagnostic::error(
                Code::UnknownReference,
                format!("unknown {what} `{}`", text.get_ref()),
            )
            .at(self.span(text.span()))
            .with_help(help),
        );
        None
    }
}

/// Builds the content from raw definitions; returns it with every problem found, and the symbols
/// it was resolved against.
pub(crate) fn resolve(
    raw: &mut RawDefs,
    keep: bool,
    mods: Vec<ModInfo>,
    ext: &Extensions,
    diags: &mut Vec<Diagnostic>,
) -> (Content, Symbols, named::Named) {
    assemble::resolve_all(raw, keep, mods, ext, diags)
}

/// The built-in checks and actions, by name.
pub(crate) fn vocabulary_names() -> (&'static [&'static str], &'static [&'static str]) {
    (vocabulary::CHECKS, vocabulary::ACTIONS)
}

/// The keys each built-in action (`actions`) or check (`checks`) reads and the ones it needs, as
/// the resolver itself reads them: what the editor schema closes each one's table with. Each is
/// read again with every key found so far present, until no new one appears, so a key read only
/// beside another is found too. `open` is set for one that takes any key (`emit_event`'s payload).
#[cfg(feature = "cli")]
pub(crate) fn builtin_keys(checks: bool) -> BTreeMap<&'static str, fields::Probed> {
    let syms = Symbols::default();
    let events = EventTable::new(Vec::new());
    let (names, head) = if checks {
        (vocabulary::CHECKS, "check")
    } else {
        (vocabulary::ACTIONS, "action")
    };
    let mut out = BTreeMap::new();
    for &name in names {
        let mut shape = fields::Probed::default();
        for pass in 0..4 {
            let mut map = BTreeMap::new();
            map.insert(
                head.to_string(),
                Spanned::new(0..0, toml::Value::from(name)),
            );
            for key in &shape.known {
                map.entry(key.to_string())
                    .or_insert_with(|| Spanned::new(0..0, toml::Value::from("x")));
            }
            map.insert("zz_probe".into(), Spanned::new(0..0, toml::Value::from(1)));
            let record = std::cell::RefCell::new(Vec::new());
            let mut diags = Vec::new();
            let mut cx = Cx::new(&syms, &events, &mut diags, "probe", FileId(0), None);
            cx.probe = Some(&record);
            let entry = Spanned::new(0..0, crate::content::raw::RawMap::from(map));
            if checks {
                vocabulary::condition(&mut cx, &entry);
            } else {
                vocabulary::action(&mut cx, &entry);
            }
            let Some(read) = record.into_inner().pop() else {
                break;
            };
            let before = shape.known.len();
            if pass == 0 {
                shape.required = read.required;
            }
            shape.open = read.open;
            for key in read.known {
                if key != "zz_probe" && !shape.known.contains(&key) {
                    shape.known.push(key);
                }
            }
            if pass > 0 && shape.known.len() == before {
                break;
            }
        }
        shape.known.sort_unstable();
        out.insert(name, shape);
    }
    out
}

/// The built-in card effects, by name (any action is a card effect too).
#[cfg(feature = "cli")]
pub(crate) fn card_effect_names() -> &'static [&'static str] {
    hazard::EFFECTS
}

/// The symbols of built content, so actions written at run time (by Lua) are validated exactly as
/// TOML actions are.
pub(crate) fn symbols_of(content: &Content, ext: &Extensions) -> Symbols {
    let ids = |keys: &mut dyn Iterator<Item = (&Id, Span)>| {
        std::sync::Arc::new(
            keys.map(|(k, s)| (k.clone(), s))
                .collect::<BTreeMap<Id, Span>>(),
        )
    };
    Symbols {
        tags: ids(&mut content.tags.iter().map(|(k, v)| (k, v.span))),
        rarities: content
            .rarities
            .iter()
            .map(|r| (r.id.clone(), r.rank))
            .collect(),
        items: ids(&mut content.items.iter().map(|(k, v)| (k, v.span))),
        creatures: ids(&mut content.creatures.iter().map(|(k, v)| (k, v.span))),
        quests: ids(&mut content.quests.iter().map(|(k, v)| (k, v.span))),
        encounters: ids(&mut content.encounters.iter().map(|(k, v)| (k, v.span))),
        progress_types: ids(&mut content.progress_types.iter().map(|(k, v)| (k, v.span))),
        hazards: ids(&mut content.hazards.iter().map(|(k, v)| (k, v.span))),
        cards: ids(&mut content.cards.iter().map(|(k, v)| (k, v.span))),
        triggers: BTreeMap::new(),
        actions: ext.actions.clone(),
        checks: ext.checks.clone(),
        broken: Default::default(),
        failed_scripts: ext.failed.clone(),
        scriptless: ext.scriptless.clone(),
        reachable: BTreeMap::new(),
        manifest_ids: BTreeMap::new(),
        settings: content.settings().map(|s| (s.id.clone(), s.span)).collect(),
        setting_kinds: content
            .settings()
            .map(|s| (s.id.clone(), s.kind.clone()))
            .collect(),
        host: content
            .declared
            .tables
            .iter()
            .map(|t| {
                let ids = content
                    .tables
                    .ids(t.kind)
                    .map(|id| (id.clone(), Span::new(FileId(0), 0..0)));
                (t.kind, ids.collect())
            })
            .collect(),
        rules: content.declared.clone(),
    }
}

/// Resolves one action table written at run time; the error is every problem in one message.
pub(crate) fn runtime_action(
    syms: &Symbols,
    events: &EventTable,
    ns: &str,
    map: &crate::content::raw::EntryMap,
) -> Result<crate::content::ActionEntry, String> {
    let mut diags = Vec::new();
    let mut cx = Cx::new(syms, events, &mut diags, ns, FileId(0), None);
    let entry = Spanned::new(0..0, map.clone());
    let action = vocabulary::action(&mut cx, &entry);
    if diags.is_empty() {
        action.ok_or_else(|| "the action could not be read".to_string())
    } else {
        Err(diags
            .iter()
            .map(|d| match &d.help {
                Some(h) => format!("{} ({h})", d.message),
                None => d.message.clone(),
            })
            .collect::<Vec<_>>()
            .join("; "))
    }
}
