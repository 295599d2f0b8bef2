//! Reading a mod set's data files: the mods walked in load order for every `*.toml` under
//! `data/`, at any depth (each given its place in the source map, a near-miss name or a file that
//! cannot be read said where the walk found it), then the files read and parsed on every core
//! ([`read_data`]) or taken from the last load ([`ParseMemo`]). One file's reading is
//! [`super::data_file`]'s; what the files define, [`super::raw_defs`]'s.

use super::data_file::read_file;
pub(crate) use super::memo::ParseMemo;
use super::raw_defs::RawDefs;
pub(crate) use super::read_data::Texts;
use super::read_data::{self, Parse, Read, Text, ToRead};
use crate::content::declare::Declarations;
use crate::diag::Code;
use crate::diag::{Diagnostic, FileId, SourceMap, Span};
use crate::mods::files::display_path;
use crate::mods::{Found, ModFolder};
use std::path::Path;
use std::sync::Arc;

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
    let settings = super::DataSettings::of(mods, &Default::default());
    let reading = (rules, &settings);
    read_mods_while(mods, reading, sources, diags, memo, texts, |_| ()).0
}

/// [`read_mods`], running `meanwhile` on the calling thread while the files are read (a load
/// runs the mods' scripts then); it may add files to the source map after the data files.
pub(crate) fn read_mods_while<R>(
    mods: &[ModFolder],
    (rules, settings): (&Declarations, &super::DataSettings),
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
    memo: Option<&mut ParseMemo>,
    texts: Texts,
    meanwhile: impl FnOnce(&mut SourceMap) -> R,
) -> (RawDefs, R) {
    // The mods are walked in order, each data file given its place in the source map; the files
    // are read (and parsed) after, on every core.
    let (walked, to_read, locales) = walk(mods, memo.as_deref(), sources, diags);
    let parse = memo.is_none().then_some(Parse {
        rules,
        settings,
        texts,
    });
    let (read, meant) = read_data::read_all(&to_read, parse, || meanwhile(sources));
    drop(to_read);
    let Gathered {
        jobs,
        stamps,
        data_files,
        parts,
        parse_said,
        files,
    } = gather(walked, read, sources, diags);
    let mut defs = match memo {
        Some(memo) => {
            let defs = memo.parse(&jobs, &stamps, sources, (rules, settings), diags);
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

/// The data files of the mods walked in order, each given its place in the source map: those
/// the memo knows by their stamp are taken as they were, the others are to be read; and each
/// mod's locale files, read.
fn walk<'m>(
    mods: &'m [ModFolder],
    memo: Option<&ParseMemo>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Walked>, Vec<ToRead<'m>>, Vec<super::locale::LocaleFile>) {
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
            let known = memo.and_then(|memo| memo.known(file, &display, m.id(), stamp.as_ref()));
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
    (walked, to_read, locales)
}

/// What the files read gave, gathered in the walk's order.
struct Gathered {
    /// The kept texts to parse (with the memo), each with its file's stamp in `stamps`.
    jobs: Vec<(FileId, Arc<str>, Arc<str>)>,
    stamps: Vec<Option<crate::mods::Stamp>>,
    data_files: Vec<FileId>,
    /// What the files parsed as they were read define, and what parsing them said.
    parts: Vec<RawDefs>,
    parse_said: Vec<Vec<Diagnostic>>,
    files: usize,
}

/// Puts what each file gave into the source map and gathers it. A file's problems with reading
/// go where the walk would have said them had it read the file then; what parsing said is
/// gathered, to follow all of those.
fn gather(
    walked: Vec<Walked>,
    read: Vec<Read>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Gathered {
    let mut read = read.into_iter();
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
    Gathered {
        jobs,
        stamps,
        data_files,
        parts,
        parse_said,
        files,
    }
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
pub(super) fn parse_all(
    jobs: &[Job],
    rules: &Declarations,
    settings: &super::DataSettings,
) -> (RawDefs, Vec<Vec<Diagnostic>>) {
    let bytes: usize = jobs.iter().map(|(_, _, text)| text.len()).sum();
    parse_on(jobs, rules, settings, threads_for(bytes))
}

/// How many threads parse `bytes` of data: one below [`PARALLEL_FROM`], every core a load may
/// use above.
pub(super) fn threads_for(bytes: usize) -> usize {
    if bytes < PARALLEL_FROM {
        1
    } else {
        super::threads::cores()
    }
}

/// [`parse_all`] on at most `threads` threads.
fn parse_on(
    jobs: &[Job],
    rules: &Declarations,
    settings: &super::DataSettings,
    threads: usize,
) -> (RawDefs, Vec<Vec<Diagnostic>>) {
    // Each file's definitions apart, joined at the end into lists made at their size.
    let parse_run = |run: &[Job]| {
        let mut parts = Vec::with_capacity(run.len());
        let said = run
            .iter()
            .map(|(file, ns, text)| {
                let (mut defs, mut diags) = (RawDefs::default(), Vec::new());
                read_file(text, *file, ns, rules, settings, &mut defs, &mut diags);
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
        let rules = crate::test_rules();
        let run = |threads| {
            let none = crate::content::DataSettings::default();
            let (defs, said) = parse_on(&jobs, rules.defs(), &none, threads);
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
