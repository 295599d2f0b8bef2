//! What the files a patch resolves again declare now, against what they declared in the running
//! version: the winners to resolve, the IDs they add and remove by kind, and where each ID is
//! written now; or that only resolving everything says what the declarations mean.

use super::super::names::{Declared, Picks};
use super::super::Symbols;
use crate::content::by_file::ByFile;
use crate::content::raw_defs::{RawDefs, Src};
use crate::content::spanned::Spanned;
use crate::content::{Content, Override, Registry};
use crate::diag::{FileId, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The IDs of one kind the changed files declare now and did not (each where it is written), and
/// those they declared and do not now.
#[derive(Default)]
pub(super) struct Ids {
    pub(super) added: Vec<(Id, Span)>,
    pub(super) removed: Vec<Id>,
    /// The IDs the changed files declare (the winners among their entries).
    pub(super) declared: Vec<Id>,
    /// Those of them that could not be resolved now (a quest, hazard or card with a mistake
    /// that leaves it out of the content, as a whole resolution does).
    pub(super) failed: Vec<Id>,
}

impl Ids {
    /// Notes which of the declared IDs `part` (the changed files resolved) lacks.
    pub(super) fn failed_in<T>(&mut self, part: &Registry<T>) {
        let failed = self.declared.iter().filter(|id| !part.contains_key(*id));
        self.failed = failed.cloned().collect();
    }
}

/// The IDs the changed files add and remove, by kind (named as `Symbols`' and `Content`'s
/// registries are).
#[derive(Default)]
pub(super) struct Changes {
    pub(super) tags: Ids,
    pub(super) items: Ids,
    pub(super) creatures: Ids,
    pub(super) quests: Ids,
    pub(super) encounters: Ids,
    pub(super) progress_types: Ids,
    pub(super) hazards: Ids,
    pub(super) cards: Ids,
}

impl Changes {
    /// Every kind's IDs.
    fn kinds(&self) -> [&Ids; 8] {
        [
            &self.tags,
            &self.items,
            &self.creatures,
            &self.quests,
            &self.encounters,
            &self.progress_types,
            &self.hazards,
            &self.cards,
        ]
    }

    /// The IDs removed, of every kind.
    pub(super) fn removed(&self) -> Vec<Id> {
        let kinds = self.kinds().into_iter();
        kinds.flat_map(|k| k.removed.iter().cloned()).collect()
    }

    /// Whether an ID of any kind came or went.
    pub(super) fn any(&self) -> bool {
        let mut kinds = self.kinds().into_iter();
        kinds.any(|k| !k.added.is_empty() || !k.removed.is_empty())
    }

    /// `syms` declaring the added IDs and not the removed ones (a kind's table copied only where
    /// one of its IDs came or went).
    pub(super) fn declared_in(&self, syms: &Symbols) -> Symbols {
        let mut syms = syms.clone();
        fn apply(table: &mut super::super::symbols::Declared, ids: &Ids) {
            if ids.added.is_empty() && ids.removed.is_empty() {
                return;
            }
            let table = Arc::make_mut(table);
            table.extend(ids.added.iter().cloned());
            for id in &ids.removed {
                table.remove(id);
            }
        }
        each_registry!(apply(&mut syms, &self));
        syms
    }
}

/// What the changed files declare now, against what they declared in the running version
/// (`last`, resolved against `syms`): the winners to resolve, the IDs added and removed, and
/// where each ID is written now. `None` when only resolving everything says what the
/// declarations mean: an ID the files declare and another file does too (a duplicate, an
/// override, an overridden definition gone), an added ID of another mod's namespace, or a
/// definition removed that bears triggers (every trigger after it would move).
pub(super) fn redeclared(
    last: &Content,
    syms: &Symbols,
    raw: &RawDefs,
    changed: &[FileId],
) -> Option<(Declared, Changes, Spans)> {
    let mut declared = Declared::default();
    let mut changes = Changes::default();
    let mut spans = BTreeMap::new();
    macro_rules! redeclare {
        ($($kind:literal $list:ident),*) => {$(
            let again = Redeclared { kind: $kind, winners: &syms.$list, overrides: &last.overrides };
            (declared.$list, changes.$list) = again.of(&raw.$list, |r| &r.id, changed, &mut spans)?;
        )*};
    }
    redeclare!(
        "tag" tags, "encounter" encounters, "progress type" progress_types, "hazard" hazards,
        "card" cards
    );
    macro_rules! redeclare_picks {
        ($($kind:literal $list:ident),*) => {$(
            let again = Redeclared { kind: $kind, winners: &syms.$list, overrides: &last.overrides };
            let (winners, ids) = again.of(&raw.$list, |r| &r.id, changed, &mut spans)?;
            declared.$list = Picks::of(winners, raw.$list.len());
            changes.$list = ids;
        )*};
    }
    redeclare_picks!("item" items, "creature" creatures, "quest" quests);
    let bears = |removed: &[Id], triggers: &dyn Fn(&Id) -> bool| removed.iter().any(triggers);
    let items = |id: &Id| last.items.get(id).is_none_or(|d| !d.triggers.is_empty());
    let creatures = |id: &Id| {
        last.creatures
            .get(id)
            .is_none_or(|d| !d.triggers.is_empty())
    };
    if bears(&changes.items.removed, &items) || bears(&changes.creatures.removed, &creatures) {
        return None;
    }
    Some((declared, changes, spans))
}

/// One kind's declarations in the running version: its winners and what was overridden.
struct Redeclared<'a> {
    kind: &'static str,
    winners: &'a BTreeMap<Id, Span>,
    overrides: &'a [Override],
}

impl Redeclared<'_> {
    /// The winners among the changed files' entries of this kind (`list`), by their index in
    /// it, and the IDs they add and remove, when a patch can follow what they declare: each
    /// entry's ID is one its file declared (a winner there, or one a later mod overrides) or a
    /// new one of its own mod, none twice; every entry a later mod overrides is still there, and
    /// no ID removed overrides another's. Where each entry's ID (`id_of`, as
    /// [`super::symbols::declare`] reads it) is written now goes to `spans`.
    fn of<T>(
        &self,
        list: &ByFile<Src<T>>,
        id_of: impl Fn(&T) -> &Spanned<String>,
        changed: &[FileId],
        spans: &mut Spans,
    ) -> Option<(BTreeMap<Id, usize>, Ids)> {
        let of = |file: FileId| changed.binary_search(&file).is_ok();
        let overridden_as = |id: &Id| {
            self.overrides
                .iter()
                .find(|o| o.kind == self.kind && o.id == *id)
        };
        let mut winners = BTreeMap::new();
        let mut overridden = BTreeSet::new();
        let mut ids = Ids::default();
        let entries = changed.iter().flat_map(|&f| list.enumerate_file(f));
        for (i, src) in entries {
            let written = id_of(&src.raw);
            let id = Id::parse(written.get_ref(), &src.ns)?;
            let at = Span::new(src.file, written.span());
            let fresh = match self.winners.get_key_value(&id) {
                Some((id, span)) if span.file == src.file => {
                    winners.insert(id.clone(), i).is_none()
                }
                Some(_) => {
                    let was = overridden_as(&id).is_some_and(|o| o.replaced.file == src.file);
                    was && overridden.insert(id.clone())
                }
                None => {
                    let own = id.namespace() == &*src.ns && overridden_as(&id).is_none();
                    ids.added.push((id.clone(), at));
                    own && winners.insert(id.clone(), i).is_none()
                }
            };
            if !fresh {
                return None;
            }
            spans.insert((self.kind, id, src.file), at);
        }
        let gone = |(id, span): (&Id, &Span)| {
            (of(span.file) && !winners.contains_key(id)).then(|| id.clone())
        };
        ids.removed = self.winners.iter().filter_map(gone).collect();
        let was_overridden = self
            .overrides
            .iter()
            .filter(|o| o.kind == self.kind && of(o.replaced.file))
            .count();
        let follows = overridden.len() == was_overridden
            && ids.removed.iter().all(|id| overridden_as(id).is_none());
        ids.declared = winners.keys().cloned().collect();
        follows.then_some((winners, ids))
    }
}

/// Where the changed files' entries write their IDs now, by kind, ID and file.
pub(super) type Spans = BTreeMap<(&'static str, Id, FileId), Span>;
