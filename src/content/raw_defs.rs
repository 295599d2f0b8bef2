//! What a mod set's data files define, before resolution: each definition with the mod and file
//! it came from ([`Src`]), every kind a list a file ([`RawDefs`]), the entries of a game's own
//! tables ([`HostEntry`]), and the tables a data file may hold.

use super::by_file::{ByFile, InFile};
use super::raw::*;
use crate::content::spanned::Spanned;
use crate::diag::{FileId, Span};
use std::sync::Arc;

/// A raw definition with the mod and file it came from.
#[derive(Debug)]
pub(crate) struct Src<T> {
    /// The mod, shared by every definition it holds.
    pub ns: Arc<str>,
    pub file: FileId,
    pub span: Span,
    pub raw: T,
}

/// Everything the data files of a mod set define, in load order, each kind a list a file
/// ([`ByFile`]).
#[derive(Debug, Default)]
pub(crate) struct RawDefs {
    pub tags: ByFile<Src<RawTag>>,
    pub rarities: ByFile<Src<RawRarity>>,
    pub items: ByFile<Src<RawItem>>,
    pub creatures: ByFile<Src<RawCreature>>,
    pub triggers: ByFile<Src<RawTrigger>>,
    pub quests: ByFile<Src<RawQuest>>,
    pub encounters: ByFile<Src<RawEncounter>>,
    pub event_types: ByFile<Src<RawEventType>>,
    pub progress_types: ByFile<Src<RawProgressType>>,
    pub hazards: ByFile<Src<RawHazard>>,
    pub cards: ByFile<Src<RawCard>>,
    /// Entries of the hosting game's own tables: the table's position in its rules, and the entry.
    pub host: ByFile<(usize, Src<HostEntry>)>,
    /// The IDs named by entries of the game's tables that could not be read: checked all the
    /// same, as a built-in entry's references are when another of its keys is wrong.
    pub loose_refs: ByFile<Src<Refs>>,
    /// Files read per mod, for the reload summary.
    pub files: usize,
    /// The data files read, in order.
    pub data_files: Vec<FileId>,
    /// `(file, mod, id, why)` of the definitions that could not be read (a wrong type, a file
    /// that does not parse): references to them are not reported again as unknown.
    pub broken: ByFile<(FileId, String, String, &'static str)>,
    /// Every locale file, in load order.
    pub locales: Vec<super::locale::LocaleFile>,
    /// The settings each file's `{ setting = "..." }` references read.
    pub settings_read: ByFile<(FileId, crate::id::Id)>,
}

impl<T> InFile for Src<T> {
    fn file(&self) -> FileId {
        self.file
    }
}

impl<T> InFile for (usize, Src<T>) {
    fn file(&self) -> FileId {
        self.1.file
    }
}

impl InFile for (FileId, crate::id::Id) {
    fn file(&self) -> FileId {
        self.0
    }
}

impl InFile for (FileId, String, String, &'static str) {
    fn file(&self) -> FileId {
        self.0
    }
}

/// IDs an entry of a game's table names, as written, each with the kind it must be.
pub(crate) type Refs = Vec<(crate::content::vocab::FieldType, Spanned<String>)>;

/// An entry of a game's own table (`[[crops]]`): its `id`, and the rest read into the game's type.
pub(crate) struct HostEntry {
    pub id: Spanned<String>,
    pub value: std::sync::Arc<dyn std::any::Any + Send + Sync>,
    /// The entry's text as written: what a reload compares to say it changed.
    pub text: std::sync::Arc<str>,
    /// The keys players read and their texts as written (`Vocabulary::texts`).
    pub texts: std::sync::Arc<[(&'static str, String)]>,
    /// The IDs it names in the keys the game declared with `Vocabulary::refers`, as written, with
    /// their kind: the resolver checks each.
    pub refs: Refs,
    /// Its triggers, when the game's table carries them (`Vocabulary::triggers`).
    pub triggers: Vec<Spanned<RawTrigger>>,
    /// Where the value of each of its keys is written, for the game's rules' problems
    /// (`Vocabulary::validate`).
    pub keys: Vec<(String, std::ops::Range<usize>)>,
}

impl std::fmt::Debug for HostEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HostEntry({})", self.id.get_ref())
    }
}

/// The arrays a data file may hold.
pub(crate) const TABLES: &[&str] = &[
    "tags",
    "rarities",
    "items",
    "creatures",
    "triggers",
    "quests",
    "encounters",
    "event_types",
    "hazards",
    "cards",
    "progress_types",
];

/// The tables of the roguelike's creature-and-inventory vocabulary, which a game may leave out.
pub(crate) const CREATURE_TABLES: &[&str] = &["tags", "rarities", "items", "creatures"];

/// Calls `$then!` with the name of every list of definitions a `RawDefs` holds (the memo's
/// `replace_file` names them itself, so that a list added here does not build until it is put
/// there too).
macro_rules! raw_lists {
    ($then:ident) => {
        $then!(
            tags,
            rarities,
            items,
            creatures,
            triggers,
            quests,
            encounters,
            event_types,
            progress_types,
            hazards,
            cards,
            host,
            loose_refs,
            broken,
            settings_read
        )
    };
}

impl RawDefs {
    /// The parts one after another. No definition moves: each file's lists become that file's
    /// part of the whole ([`ByFile`]).
    pub(super) fn join(parts: Vec<RawDefs>) -> RawDefs {
        let mut all = RawDefs::default();
        for part in parts {
            all.append(part);
        }
        all
    }

    /// Adds what another `RawDefs` holds after what this one holds.
    pub(super) fn append(&mut self, mut other: RawDefs) {
        let all = self;
        macro_rules! append {
            ($($list:ident),*) => {
                $(all.$list.append(std::mem::take(&mut other.$list));)*
            };
        }
        raw_lists!(append);
        all.locales.append(&mut other.locales);
        all.files += other.files;
    }
}
