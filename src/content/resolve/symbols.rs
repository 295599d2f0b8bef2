//! The first resolution pass: which IDs exist, who defines each, duplicates and overrides.

use super::super::by_file::ByFile;
use super::super::defs::Override;
use super::super::raw_defs::Src;
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};

/// The IDs of one kind of definition, each where it is declared. Shared: a reload that adds or
/// removes a definition copies its kind's table, not every kind's.
pub(crate) type Declared = std::sync::Arc<BTreeMap<Id, Span>>;

/// Every ID that exists after declaration, by kind.
#[derive(Debug, Default, Clone)]
pub(crate) struct Symbols {
    pub tags: Declared,
    pub rarities: BTreeMap<String, i64>,
    pub items: Declared,
    pub creatures: Declared,
    pub quests: Declared,
    pub encounters: Declared,
    pub triggers: BTreeMap<Id, Span>,
    pub progress_types: Declared,
    pub hazards: Declared,
    pub cards: Declared,
    /// Actions and checks registered by Lua (`rats:summon`).
    pub actions: BTreeSet<Id>,
    pub checks: BTreeSet<Id>,
    /// Definitions that could not be read, already reported: a reference to one is not "unknown".
    pub broken: BTreeMap<Id, &'static str>,
    /// Mods whose scripts failed to load: their actions and checks are not "unregistered".
    pub failed_scripts: BTreeSet<String>,
    /// Mods with no `scripts/main.lua`: a reference to their actions and checks says so.
    pub scriptless: BTreeSet<String>,
    /// The mods each mod depends on, directly or not (`depends` and `optional`): a reference to
    /// another mod's definition is warned of when it is not among them. Empty for content
    /// already built (a script's action at run time).
    pub reachable: BTreeMap<String, BTreeSet<String>>,
    /// Where each mod's manifest writes its `id`.
    pub manifest_ids: BTreeMap<String, Span>,
    /// The mods' settings, where each is declared, and what each takes.
    pub settings: BTreeMap<Id, Span>,
    pub setting_kinds: BTreeMap<Id, crate::content::SettingKind>,
    /// The entries of the game's own tables, by kind.
    pub host: BTreeMap<&'static str, BTreeMap<Id, Span>>,
    /// The game's declarations: its actions and checks, with their parameters.
    pub(crate) rules: std::sync::Arc<crate::content::declare::Declarations>,
}

impl Symbols {
    /// How many names there are: what a "did you mean" over them compares against at most.
    pub(crate) fn len(&self) -> usize {
        self.tags.len()
            + self.rarities.len()
            + self.items.len()
            + self.creatures.len()
            + self.quests.len()
            + self.encounters.len()
            + self.triggers.len()
            + self.progress_types.len()
            + self.hazards.len()
            + self.cards.len()
            + self.actions.len()
            + self.checks.len()
            + self.host.values().map(BTreeMap::len).sum::<usize>()
    }
}

/// Which mods each mod may override: itself and everything it depends on, directly or not.
pub(super) struct Visibility {
    pub reachable: BTreeMap<String, BTreeSet<String>>,
}

impl Visibility {
    pub(super) fn may_define(&self, by: &str, ns: &str) -> bool {
        by == ns || self.reachable.get(by).is_some_and(|r| r.contains(ns))
    }
}

/// Declares one kind of definition: returns the index of the winning raw entry per ID, in ID order.
///
/// A second definition of an ID in the same mod is an error that points at both; a definition in
/// another mod's namespace overrides it when the defining mod depends on that one, and is an error
/// otherwise. Later mods in load order win.
pub(super) fn declare<T>(
    kind: &'static str,
    list: &ByFile<Src<T>>,
    id_of: impl Fn(&T) -> &Spanned<String>,
    visibility: &Visibility,
    overrides: &mut Vec<Override>,
    diags: &mut Vec<Diagnostic>,
) -> BTreeMap<Id, usize> {
    let mut winners: BTreeMap<Id, usize> = BTreeMap::new();
    for (index, src) in list.iter().enumerate() {
        let raw_id = id_of(&src.raw);
        let span = Span::new(src.file, raw_id.span());
        let Some(id) = Id::parse(raw_id.get_ref(), &src.ns) else {
            diags.push(
                Diagnostic::error(
                    Code::InvalidId,
                    crate::id::invalid_id(raw_id.get_ref(), kind),
                )
                .at(span)
                .with_help(
                    "an ID is `name` or `mod:name`, using lowercase letters, digits and `_`",
                ),
            );
            continue;
        };
        if !visibility.may_define(&src.ns, id.namespace()) {
            let known = visibility.reachable.contains_key(id.namespace());
            let help = if known {
                format!(
                    "add `{}` to `depends` in {}/mod.toml to override its definitions",
                    id.namespace(),
                    src.ns
                )
            } else {
                format!(
                    "there is no mod `{}`; a bare name defines `{}:{}`",
                    id.namespace(),
                    src.ns,
                    id.name()
                )
            };
            diags.push(
                Diagnostic::error(Code::ForeignNamespace, format!("mod `{}` defines {kind} `{id}` in another mod's namespace without depending on it", src.ns))
                    .at(span)
                    .with_help(help),
            );
            continue;
        }
        // One search of the map per definition: the entry is where it goes either way.
        match winners.entry(id) {
            std::collections::btree_map::Entry::Occupied(mut taken) => {
                let prev = &list[*taken.get()];
                let prev_span = Span::new(prev.file, id_of(&prev.raw).span());
                let id = taken.key();
                if prev.ns == src.ns {
                    diags.push(
                        Diagnostic::error(
                            Code::Duplicate,
                            format!("{kind} `{id}` is defined twice"),
                        )
                        .at(span)
                        .with_label(prev_span, "first defined here")
                        .with_help("rename one of them; the first definition is kept"),
                    );
                    continue;
                }
                overrides.push(Override {
                    id: id.clone(),
                    kind,
                    by_mod: src.ns.to_string(),
                    span,
                    replaced: prev_span,
                });
                taken.insert(index);
            }
            std::collections::btree_map::Entry::Vacant(free) => {
                let id = free.key();
                if id.namespace() != &*src.ns {
                    // Overriding a definition that does not exist (yet) is almost always a typo.
                    diags.push(
                        Diagnostic::warning(
                            Code::Override,
                            format!(
                                "mod `{}` overrides {kind} `{id}`, which `{}` does not define",
                                src.ns,
                                id.namespace()
                            ),
                        )
                        .at(span),
                    );
                }
                free.insert(index);
            }
        }
    }
    winners
}
