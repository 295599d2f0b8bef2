//! Reading a mod's data files: every `*.toml` under `data/`, at any depth, into raw definitions.
//!
//! Each definition is deserialized on its own, so one bad entry costs only that entry: the rest of
//! the file still loads and every problem is reported.

use super::by_file::{ByFile, InFile};
pub(crate) use super::memo::ParseMemo;
use super::raw::*;
use super::read_data::{self, Parse, Read, Text, ToRead};
use crate::content::declare::Declarations;
use crate::content::spanned::Spanned;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, SourceMap, Span};
use crate::mods::files::display_path;
use crate::mods::{Found, ModFolder};
use std::path::Path;
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

/// What a load keeps of its data files' texts once they are parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Texts {
    /// Every text, as a game and an editor need them: a problem found while the game runs is
    /// shown at its line, and a reload compares texts.
    Kept,
    /// None: a check of a big pack holds no text while it resolves (a sixth of its memory); a
    /// file a problem is shown in is read again ([`crate::load::check_game`]).
    Released,
}

/// A data file to parse: its place in the source map, its mod, its text.
pub(crate) type Job = (FileId, Arc<str>, Arc<str>);

/// Reads every data file of every mod, in load order. With a `memo` of the last load of the
/// same mod set, a file whose stamp says it was not written since is not read again, and only
/// the files whose text changed are parsed again ([`ParseMemo`]). Without one, each file is
/// parsed by the thread that read it ([`read_data`]), and with `texts` at [`Texts::Released`]
/// its text is let go as soon as it is parsed.
pub(crate) fn read_mods(
    mods: &[ModFolder],
    rules: &Declarations,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    memo: Option<&mut ParseMemo>,
    texts: Texts,
) -> RawDefs {
    read_mods_while(mods, rules, sources, diags, memo, texts, |_| ()).0
}

/// [`read_mods`], running `meanwhile` on the calling thread while the files are read (a load
/// runs the mods' scripts then); it may add files to the source map after the data files.
pub(crate) fn read_mods_while<R>(
    mods: &[ModFolder],
    rules: &Declarations,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    memo: Option<&mut ParseMemo>,
    texts: Texts,
    meanwhile: impl FnOnce(&mut SourceMap) -> R,
) -> (RawDefs, R) {
    // The mods are walked in order, each data file given its place in the source map; the files
    // are read (and parsed) after, on every core.
    let mut walked: Vec<Walked> = Vec::new();
    let mut to_read: Vec<ToRead<'_>> = Vec::new();
    let mut locales = Vec::new();
    for m in mods {
        let ns: Arc<str> = m.id().into();
        let mods_root = m.root.as_path();
        let root = &m.real;
        for path in data_files_of(m, diags) {
            let display = display_path(&path, mods_root);
            // Taken before the file is read: an edit between the two leaves a stamp that no
            // longer matches, so the file is read again next time, never wrongly kept.
            let stamp = memo
                .as_ref()
                .and_then(|_| crate::mods::stamp_inside(root, &path));
            let (file, ns, said_at) = (sources.next_id(), ns.clone(), diags.len());
            let known = memo
                .as_deref()
                .and_then(|memo| memo.known(file, &display, m.id(), stamp.as_ref()));
            let known = match known {
                // Found as the last load read it, by its stamp: not read again.
                Some(known) => {
                    let text = known.shared_text();
                    sources.add_shared(known);
                    Some(text)
                }
                None => {
                    sources.add_read(display, &path, "");
                    to_read.push(ToRead {
                        file,
                        ns: ns.clone(),
                        root,
                        path,
                    });
                    None
                }
            };
            walked.push(Walked {
                file,
                ns,
                stamp,
                known,
                said_at,
            });
        }
        locales.extend(super::locale::read_mod(m, sources, diags));
    }
    let parse = memo.is_none().then_some(Parse { rules, texts });
    let (read, meant) = read_data::read_all(&to_read, parse, || meanwhile(sources));
    let mut read = read.into_iter();
    drop(to_read);
    // What each file gave goes to the source map. Its problems with reading go where the walk
    // would have said them had it read the file then; what parsing said, after all of those.
    let (mut jobs, mut stamps, mut data_files, mut parts) = (vec![], vec![], vec![], vec![]);
    let (mut read_said, mut parse_said) = (Vec::new(), Vec::new());
    let mut files = 0;
    for w in walked {
        let read_now = w.known.is_none();
        let got = match w.known {
            Some(text) => Read::Text(Text::Kept(text), None),
            None => match read.next() {
                Some(got) => got,
                None => continue, // one answer a file: not reached
            },
        };
        match got {
            Read::Refused(refused) => {
                let d = refused.diagnostic(sources.get(w.file).path());
                read_said.push((w.said_at, d));
            }
            Read::NotUtf8(text, offset, d) => {
                files += 1;
                sources.fill(w.file, Ok(text.into()));
                let d = d.at(Span::new(w.file, offset..offset + 1));
                read_said.push((w.said_at, d));
            }
            Read::Text(text, parsed) => {
                files += 1;
                data_files.push(w.file);
                match text {
                    Text::Kept(text) => {
                        if read_now {
                            sources.fill(w.file, Ok(text.clone()));
                        }
                        jobs.push((w.file, w.ns, text));
                        stamps.push(w.stamp);
                    }
                    Text::Released(len, hash) => sources.fill(w.file, Err((len, hash))),
                }
                if let Some(parsed) = parsed {
                    let (defs, said) = *parsed;
                    parts.push(defs);
                    parse_said.push(said);
                }
            }
        }
    }
    said_where(diags, read_said);
    let mut defs = match memo {
        Some(memo) => {
            let defs = memo.parse(&jobs, &stamps, sources, rules, diags);
            if texts == Texts::Released {
                drop(jobs);
                sources.release(&data_files);
            }
            defs
        }
        None => {
            drop(jobs);
            diags.extend(parse_said.into_iter().flatten());
            RawDefs::join(parts)
        }
    };
    defs.files = files;
    defs.data_files = data_files;
    defs.locales = locales;
    (defs, meant)
}

/// The `*.toml` files under a mod's `data/`, sorted; what else is there, and what could not be
/// walked, said in `diags`.
fn data_files_of(m: &ModFolder, diags: &mut Vec<Diagnostic>) -> Vec<std::path::PathBuf> {
    let (root, mods_root) = (&m.real, m.root.as_path());
    let (mut found_files, mut unread) = (Vec::new(), Vec::new());
    for found in crate::mods::walk(root, &m.dir.join("data")) {
        match found {
            Found::File(path) if path.extension().is_some_and(|e| e == "toml") => {
                found_files.push(path)
            }
            Found::File(path) if looks_like_data(&path) => unread.push(path),
            Found::File(_) => {}
            Found::Refused(path, refused) => {
                diags.push(refused.diagnostic(&display_path(&path, mods_root)))
            }
            Found::TooMany => diags.push(Diagnostic::error(
                Code::FileRefused,
                format!(
                    "`{}/data` holds more than {} files; the rest are not read",
                    m.id(),
                    crate::mods::MOST_FILES
                ),
            )),
        }
    }
    found_files.sort();
    unread.sort();
    for path in unread {
        diags.push(
            Diagnostic::warning(
                Code::FileRefused,
                format!("`{}` is not read", display_path(&path, mods_root)),
            )
            .with_help("only files ending in `.toml` under data/ are data files"),
        );
    }
    found_files
}

/// A data file the walk found: its place in the source map, its mod, its stamp when a memo asked
/// for one, its text when the memo knows it unchanged, and how many problems the walk had said
/// when it came to the file.
struct Walked {
    file: FileId,
    ns: Arc<str>,
    stamp: Option<crate::mods::Stamp>,
    known: Option<Arc<str>>,
    said_at: usize,
}

/// Puts each of `said`, `(at, diagnostic)` in the order of `at`, before what `diags` held at
/// `at`: where it would be had it been said when `diags` was that long.
fn said_where(diags: &mut Vec<Diagnostic>, said: Vec<(usize, Diagnostic)>) {
    if said.is_empty() {
        return;
    }
    let before = std::mem::take(diags);
    let mut said = said.into_iter().peekable();
    for (i, d) in before.into_iter().enumerate() {
        while let Some((_, early)) = said.next_if(|(at, _)| *at <= i) {
            diags.push(early);
        }
        diags.push(d);
    }
    diags.extend(said.map(|(_, d)| d));
}

/// Below this many bytes of data, the files are parsed on the calling thread: starting threads
/// would cost more than it saves.
const PARALLEL_FROM: usize = 256 * 1024;

/// Parses each file's text, in the files' order: what they define, and what parsing each said.
/// A large mod set is cut into as many runs of files as there are cores, each parsed on its own
/// thread into its own `RawDefs`, then joined in order: every list ends as one thread would have
/// made it, so loading is the same on any machine.
pub(super) fn parse_all(jobs: &[Job], rules: &Declarations) -> (RawDefs, Vec<Vec<Diagnostic>>) {
    let bytes: usize = jobs.iter().map(|(_, _, text)| text.len()).sum();
    parse_on(jobs, rules, threads_for(bytes))
}

/// How many threads parse `bytes` of data: one below [`PARALLEL_FROM`], every core above.
pub(super) fn threads_for(bytes: usize) -> usize {
    if bytes < PARALLEL_FROM {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    }
}

/// [`parse_all`] on at most `threads` threads.
fn parse_on(jobs: &[Job], rules: &Declarations, threads: usize) -> (RawDefs, Vec<Vec<Diagnostic>>) {
    // Each file's definitions apart, joined at the end into lists made at their size.
    let parse_run = |run: &[Job]| {
        let mut parts = Vec::with_capacity(run.len());
        let said = run
            .iter()
            .map(|(file, ns, text)| {
                let (mut defs, mut diags) = (RawDefs::default(), Vec::new());
                read_file(text, *file, ns, rules, &mut defs, &mut diags);
                parts.push(defs);
                diags
            })
            .collect::<Vec<_>>();
        (parts, said)
    };
    let threads = threads.min(jobs.len());
    if threads < 2 {
        let (parts, said) = parse_run(jobs);
        return (RawDefs::join(parts), said);
    }
    // Runs of about equal bytes.
    let bytes: usize = jobs.iter().map(|(_, _, text)| text.len()).sum();
    let mut runs: Vec<&[Job]> = Vec::new();
    let (mut start, mut taken) = (0, 0);
    for (i, (_, _, text)) in jobs.iter().enumerate() {
        taken += text.len();
        if taken * threads >= bytes * (runs.len() + 1) || i + 1 == jobs.len() {
            runs.push(&jobs[start..=i]);
            start = i + 1;
        }
    }
    let parsed: Vec<(Vec<RawDefs>, Vec<Vec<Diagnostic>>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = runs
            .iter()
            .map(|run| scope.spawn(move || parse_run(run)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let (mut parts, mut said) = (Vec::with_capacity(jobs.len()), Vec::new());
    for (run, run_said) in parsed {
        parts.extend(run);
        said.extend(run_said);
    }
    (RawDefs::join(parts), said)
}

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
            broken
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

/// Parses one data file's text into `defs`.
pub(crate) fn read_file(
    text: &str,
    file: FileId,
    ns: &Arc<str>,
    rules: &Declarations,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    // Most files are read by the quick reader; the rest, and every mistake, by `toml`.
    if !super::quick_read::read_file(text, file, ns, rules, defs) {
        read_file_with_toml(text, file, ns, rules, defs, diags);
    }
    number_triggers(text, file, defs);
}

/// Gives every trigger `file` defines (at the top level, carried by an item, a creature or an
/// entry of a game's table) the line it starts at, counted in one pass over the file's text.
fn number_triggers(text: &str, file: FileId, defs: &mut RawDefs) {
    /// Each trigger a definition carries, with where it starts.
    fn borne<'a>(list: &'a mut [Spanned<RawTrigger>], found: &mut Vec<(u32, &'a mut u32)>) {
        for t in list {
            found.push((t.span().start as u32, &mut t.get_mut().line));
        }
    }
    let mut found: Vec<(u32, &mut u32)> = Vec::new();
    for src in defs.triggers.iter_mut().filter(|s| s.file == file) {
        found.push((src.span.start, &mut src.raw.line));
    }
    for src in defs.items.iter_mut().filter(|s| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    for src in defs.creatures.iter_mut().filter(|s| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    for (_, src) in defs.host.iter_mut().filter(|(_, s)| s.file == file) {
        borne(&mut src.raw.triggers, &mut found);
    }
    found.sort_by_key(|(at, _)| *at);
    let lines = crate::diag::lines_at(text, found.iter().map(|(at, _)| *at));
    for ((_, line), n) in found.into_iter().zip(lines) {
        *line = n as u32;
    }
}

/// [`read_file`] by the `toml` crate alone: every file the quick reader does not read, and what
/// is wrong in it.
pub(super) fn read_file_with_toml(
    text: &str,
    file: FileId,
    ns: &Arc<str>,
    rules: &Declarations,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let doc = match crate::toml_file::parse_document(text, file) {
        Ok(doc) => doc.into_inner(),
        Err(errors) => {
            // The first syntax error is where the parser lost its way; what it reports after it
            // (and every reference to what the file defines) follows from that one.
            diags.extend(errors.into_iter().take(1));
            defs.broken
                .extend(ids_written(text).map(|id| (file, ns.to_string(), id, UNPARSED)));
            return;
        }
    };
    for (key, value) in doc {
        let key_span = Span::new(file, key.span());
        let name: &str = key.get_ref();
        let host_table = rules.tables.iter().position(|t| t.key == name);
        let builtin = |t: &&&str| !(rules.without_creatures && CREATURE_TABLES.contains(*t));
        if !TABLES.iter().filter(builtin).any(|t| *t == name) && host_table.is_none() {
            let tables: Vec<&str> = TABLES
                .iter()
                .filter(builtin)
                .copied()
                .chain(rules.tables.iter().map(|t| t.key))
                .collect();
            let message = if CREATURE_TABLES.contains(&name) {
                format!(
                    "`{name}` is lantern's creature-and-inventory vocabulary, which the game `{}` does not use",
                    rules.namespace
                )
            } else {
                format!("unknown table `{name}` in a data file")
            };
            diags.push(
                Diagnostic::error(Code::UnknownTable, message)
                    .at(key_span)
                    .with_help_opt(did_you_mean(name, tables.iter().copied()).or(Some(format!(
                        "a data file holds these arrays: {}",
                        tables.join(", ")
                    )))),
            );
            continue;
        }
        let value_span = value.span();
        let toml::de::DeValue::Array(entries) = value.into_inner() else {
            diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!("`{name}` must be an array of tables, written `[[{name}]]`"),
                )
                .at(Span::new(file, value_span)),
            );
            continue;
        };
        if let Some(t) = host_table {
            for entry in entries {
                read_host_entry(text, entry, file, ns, t, rules, defs, diags);
            }
            continue;
        }
        for entry in entries {
            let span = Span::new(file, entry.span());
            macro_rules! take {
                ($list:ident, $what:expr) => {{
                    let at = entry.span();
                    match crate::toml_file::from_value(entry, file, $what) {
                        Ok(raw) => defs.$list.push(Src {
                            ns: ns.clone(),
                            file,
                            span,
                            raw,
                        }),
                        Err(first) => {
                            // Read the entry again to report every mistake in it, not only the first.
                            match entry_again(text, name, at) {
                                Some(again) => {
                                    let id = id_of(&again);
                                    let (found, partial) =
                                        crate::toml_file::all_errors(again, file, $what);
                                    diags.extend(found);
                                    match partial {
                                        Some(raw) => defs.$list.push(Src {
                                            ns: ns.clone(),
                                            file,
                                            span,
                                            raw,
                                        }),
                                        None => defs.broken.extend(id.map(|id| (file, ns.to_string(), id, HAS_ERRORS))),
                                    }
                                }
                                None => diags.push(first),
                            }
                        }
                    }
                }};
            }
            match name {
                "tags" => take!(tags, "tag"),
                "rarities" => take!(rarities, "rarity"),
                "items" => take!(items, "item"),
                "creatures" => take!(creatures, "creature"),
                "triggers" => take!(triggers, "trigger"),
                "quests" => take!(quests, "quest"),
                "encounters" => take!(encounters, "encounter"),
                "event_types" => take!(event_types, "event type"),
                "progress_types" => take!(progress_types, "progress type"),
                "hazards" => take!(hazards, "hazard"),
                "cards" => take!(cards, "card"),
                _ => unreachable!("checked against TABLES above"),
            }
        }
    }
}

/// Reads one entry of a game's table: its `id`, then the rest into the game's type.
#[allow(clippy::too_many_arguments)]
fn read_host_entry(
    text: &str,
    entry: toml::Spanned<toml::de::DeValue<'_>>,
    file: FileId,
    ns: &Arc<str>,
    table: usize,
    rules: &Declarations,
    defs: &mut RawDefs,
    diags: &mut Vec<Diagnostic>,
) {
    let decl = &rules.tables[table];
    let span = Span::new(file, entry.span());
    let whole = entry.span();
    let toml::de::DeValue::Table(mut fields) = entry.into_inner() else {
        diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!(
                    "each entry of `{}` must be a table, written `[[{}]]`",
                    decl.key, decl.key
                ),
            )
            .at(span),
        );
        return;
    };
    let id = fields
        .iter()
        .find(|(k, _)| k.get_ref() == "id")
        .map(|(k, _)| k.clone())
        .and_then(|k| fields.remove(&k).map(|v| (k, v)));
    // Without a usable `id` the rest is still read, so every mistake in the entry is reported.
    let id = match id {
        Some((_, v)) => match v.get_ref().as_str() {
            Some(text) => Some(Spanned::new(v.span(), text.to_string())),
            None => {
                diags.push(
                    Diagnostic::error(
                        Code::WrongType,
                        format!("`id` of a {} must be a string", decl.kind),
                    )
                    .at(Span::new(file, v.span())),
                );
                None
            }
        },
        None => {
            diags.push(
                Diagnostic::error(Code::MissingKey, format!("a {} needs an `id`", decl.kind))
                    .at(span),
            );
            None
        }
    };
    // What the entry says, key by key (the entry's own span is its header's for `[[crops]]`).
    let mut written = String::new();
    for (k, v) in &fields {
        for part in [
            text.get(k.span()),
            Some("="),
            text.get(v.span()),
            Some("\n"),
        ] {
            written.push_str(part.unwrap_or_default());
        }
    }
    let keys = fields
        .iter()
        .map(|(k, v)| (k.get_ref().to_string(), v.span()))
        .collect();
    let refs = qualify_refs(&mut fields, &decl.refs, ns);
    let mut triggers = Vec::new();
    if decl.in_play.is_some() {
        let key = fields
            .iter()
            .find(|(k, _)| k.get_ref() == "triggers")
            .map(|(k, _)| k.clone());
        if let Some(value) = key.and_then(|k| fields.remove(&k)) {
            let copy = value.clone();
            match crate::toml_file::from_value::<Vec<Spanned<RawTrigger>>>(value, file, "trigger") {
                Ok(t) => triggers = t,
                Err(_) => {
                    let (found, partial) = crate::toml_file::all_errors::<Vec<Spanned<RawTrigger>>>(
                        copy, file, "trigger",
                    );
                    diags.extend(found);
                    triggers = partial.unwrap_or_default();
                }
            }
        }
    }
    let rest = toml::Spanned::new(whole.clone(), toml::de::DeValue::Table(fields));
    // When the entry does not read, it is read again to report every mistake: from the text, as
    // the game's type sees it (no `id` or `triggers`, its IDs made full). Only then.
    let mut again = || {
        let entry = entry_again(text, decl.key, whole.clone())?;
        let toml::de::DeValue::Table(mut fields) = entry.into_inner() else {
            return None;
        };
        let taken: Vec<_> = fields
            .keys()
            .filter(|k| {
                let k: &str = k.get_ref();
                k == "id" || (decl.in_play.is_some() && k == "triggers")
            })
            .cloned()
            .collect();
        for k in &taken {
            fields.remove(k);
        }
        qualify_refs(&mut fields, &decl.refs, ns);
        Some(toml::Spanned::new(
            whole.clone(),
            toml::de::DeValue::Table(fields),
        ))
    };
    let (mut found, value) = (decl.read)(rest, file, decl.kind, &mut again);
    // serde knows the keys of the game's type; a modder writes `id` and `triggers` too.
    let known: Vec<&str> = std::iter::once("id")
        .chain(decl.keys.unwrap_or_default().iter().copied())
        .chain(decl.in_play.is_some().then_some("triggers"))
        .collect();
    for d in found.iter_mut().filter(|d| d.code == Code::UnknownKey) {
        if let Some(key) = d.message.split('`').nth(1) {
            d.help = did_you_mean(key, known.iter().copied())
                .or_else(|| Some(format!("known keys: {}", known.join(", "))));
        }
    }
    diags.extend(found);
    let (id, value) = match (id, value) {
        (Some(id), Some(value)) => (id, value),
        (id, _) => {
            if !refs.is_empty() {
                defs.loose_refs.push(Src {
                    ns: ns.clone(),
                    file,
                    span,
                    raw: refs,
                });
            }
            // An entry with an `id` that cannot be read: a reference to it follows from that.
            if let Some(id) = id {
                defs.broken
                    .push((file, ns.to_string(), id.into_inner(), HAS_ERRORS));
            }
            return;
        }
    };
    defs.host.push((
        table,
        Src {
            ns: ns.clone(),
            file,
            span,
            raw: HostEntry {
                id,
                value,
                text: written.into(),
                refs,
                triggers,
                keys,
            },
        },
    ));
}

/// The IDs an entry of a game's table names in its reference keys (one ID or an array of them, or
/// a key of tables inside it: `loot.item`), as written, for the resolver to check; each is replaced by its full form (`wheat` written in
/// the mod `valley` is `valley:wheat`) before the entry is read into the game's type, so the game
/// holds IDs it can look up. A value that is no ID is left as it is and reported by the resolver;
/// one of another type is the game's type's to report.
fn qualify_refs(
    fields: &mut toml::de::DeTable<'_>,
    refs: &[(&'static str, crate::content::vocab::FieldType)],
    ns: &str,
) -> Vec<(crate::content::vocab::FieldType, Spanned<String>)> {
    let mut found = Vec::new();
    for (path, ty) in refs {
        let mut keys = path.split('.');
        let Some(first) = keys.next() else {
            continue;
        };
        let rest: Vec<&str> = keys.collect();
        if let Some((_, value)) = fields.iter_mut().find(|(k, _)| k.get_ref() == first) {
            qualify_at(value, &rest, *ty, ns, &mut found);
        }
    }
    found
}

/// The IDs at `path` under `value` (`loot.item`: the `item` of each table in `loot`), made full:
/// an array is walked element by element at the same place in the path, a table by its key.
fn qualify_at(
    value: &mut toml::Spanned<toml::de::DeValue<'_>>,
    path: &[&str],
    ty: crate::content::vocab::FieldType,
    ns: &str,
    found: &mut Vec<(crate::content::vocab::FieldType, Spanned<String>)>,
) {
    use toml::de::DeValue;
    let span = value.span();
    match (value.get_mut(), path) {
        (DeValue::Array(items), _) => {
            for item in items.iter_mut() {
                qualify_at(item, path, ty, ns, found);
            }
        }
        (DeValue::Table(table), [key, rest @ ..]) => {
            if let Some((_, child)) = table.iter_mut().find(|(k, _)| k.get_ref() == key) {
                qualify_at(child, rest, ty, ns, found);
            }
        }
        (DeValue::String(text), []) => {
            found.push((ty, Spanned::new(span, text.to_string())));
            // `wheat` is `valley:wheat`; a full ID, and what is no ID, stay as written.
            if !text.contains(':') && crate::id::is_ident(text) && crate::id::is_ident(ns) {
                *text = std::borrow::Cow::Owned(format!("{ns}:{text}"));
            }
        }
        // Another type is the game's type's to report.
        _ => {}
    }
}

/// Why a definition could not be read, as a reference to it says.
const HAS_ERRORS: &str = "has errors, see above";
const UNPARSED: &str = "is in a file that does not parse, see above";

/// The entry of `[[table]]` at `span`, parsed again from the text.
fn entry_again<'a>(
    text: &'a str,
    table: &str,
    span: std::ops::Range<usize>,
) -> Option<toml::Spanned<toml::de::DeValue<'a>>> {
    let doc = crate::toml_file::parse_document(text, FileId(0))
        .ok()?
        .into_inner();
    let (_, list) = doc.into_iter().find(|(k, _)| k.get_ref() == table)?;
    let toml::de::DeValue::Array(entries) = list.into_inner() else {
        return None;
    };
    entries.into_iter().find(|e| e.span() == span)
}

/// The `id` an entry gives itself, if it is a string.
fn id_of(entry: &toml::Spanned<toml::de::DeValue<'_>>) -> Option<String> {
    let id = entry.get_ref().as_table()?.get("id")?;
    id.get_ref().as_str().map(str::to_string)
}

/// The IDs a file that does not parse meant to define, from its `id = "..."` lines.
fn ids_written(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().filter_map(|line| {
        let rest = line
            .trim_start()
            .strip_prefix("id")?
            .trim_start()
            .strip_prefix('=')?;
        let rest = rest.trim_start().strip_prefix('"')?;
        rest.split_once('"').map(|(id, _)| id.to_string())
    })
}

/// A name within two edits of `.toml` or with `.toml` inside it; editor backups (`items.toml~`,
/// `.swp`, `.bak`) are not.
fn looks_like_data(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let backup = name.ends_with('~')
        || [".swp", ".swx", ".bak", ".orig", ".tmp"]
            .iter()
            .any(|b| name.ends_with(b));
    let ext = path.extension().unwrap_or_default().to_string_lossy();
    !backup
        && (name.contains(".toml") || strsim::damerau_levenshtein(&ext.to_lowercase(), "toml") <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_with_reading_go_where_the_walk_would_have_said_them() {
        let said = |names: &[&str]| -> Vec<Diagnostic> {
            names
                .iter()
                .map(|n| Diagnostic::warning(Code::FileRefused, *n))
                .collect()
        };
        let messages = |d: &[Diagnostic]| d.iter().map(|d| d.message.clone()).collect::<Vec<_>>();
        let mut diags = said(&["walk a", "walk b", "walk c"]);
        let read = said(&["first", "at one", "at one too", "at the end"]);
        let at = [0, 1, 1, 3];
        said_where(&mut diags, at.into_iter().zip(read).collect());
        let order = [
            "first",
            "walk a",
            "at one",
            "at one too",
            "walk b",
            "walk c",
            "at the end",
        ];
        assert_eq!(messages(&diags), order);
        said_where(&mut diags, Vec::new());
        assert_eq!(messages(&diags), order, "nothing to put: nothing moves");
    }

    #[test]
    fn parsing_on_many_threads_gives_what_one_thread_gives() {
        let dir = tempfile::tempdir().unwrap();
        crate::content::generate::write_mod_set(dir.path(), 7, 300).unwrap();
        let mut sources = SourceMap::new();
        let mut jobs = Vec::new();
        for m in 0..7 {
            let path = dir.path().join(format!("m{m}/data/defs.toml"));
            let mut text = std::fs::read_to_string(&path).unwrap();
            // A mistake in some files: their diagnostics keep their order too.
            if m % 3 == 1 {
                text.push_str("\n[[items]]\nid = \"broken\"\nstack = \"many\"\n");
            }
            let file = sources.add(format!("m{m}/data/defs.toml"), text);
            jobs.push((
                file,
                ["m0", "m1", "m2", "m3", "m4", "m5", "m6"][m].into(),
                sources.get(file).shared_text(),
            ));
        }
        let rules = crate::bundled_rules();
        let run = |threads| {
            let (defs, said) = parse_on(&jobs, rules.defs(), threads);
            assert_eq!(said.len(), jobs.len(), "what each file said, file by file");
            (format!("{defs:?}"), format!("{said:?}"), defs.items.len())
        };
        let one = run(1);
        assert!(one.2 > 1000 && one.1.contains("stack"), "{} items", one.2);
        for threads in [2, 3, 16] {
            assert_eq!(run(threads), one, "{threads} threads");
        }
    }
}
