//! Reading the data files a walk of the mods found, on every core: each file is read, decoded
//! and, for a load without a memo, parsed by the thread that read it, so a big pack's reading
//! overlaps its parsing and a text let go is never held beside the others.
//!
//! Threads take the next file as they finish one; what each file gave is put back in the files'
//! order, so a load is the same on any machine and with any number of threads.

use super::data_file::read_file;
use super::declare::Declarations;
use super::raw_defs::RawDefs;
use crate::diag::{Diagnostic, FileId};
use crate::mods::files::Refused;
use crate::mods::ModRoot;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

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

/// A data file to read, its place in the source map taken already.
pub(super) struct ToRead<'a> {
    pub file: FileId,
    pub ns: Arc<str>,
    pub root: &'a ModRoot,
    pub path: PathBuf,
}

/// What reading (and parsing) one file gave.
#[derive(Debug)]
pub(super) enum Read {
    /// The file could not be read, and why.
    Refused(Refused),
    /// The file is not UTF-8: its text with the bad bytes replaced, and where the first is.
    NotUtf8(String, usize, Diagnostic),
    /// The file's text (or its length and hash, once let go) and, when parsing was asked for,
    /// what it defines and what parsing it said.
    Text(Text, Option<Box<(RawDefs, Vec<Diagnostic>)>>),
}

/// A file's text as a load keeps it.
#[derive(Debug)]
pub(super) enum Text {
    Kept(Arc<str>),
    /// Let go once parsed: its length and hash ([`crate::diag::SourceFile::release`]).
    Released(usize, u64),
}

/// How the files are parsed as they are read: by these rules, keeping the texts or not.
#[derive(Clone, Copy)]
pub(super) struct Parse<'r> {
    pub rules: &'r Declarations,
    /// The settings' values a `{ setting = "..." }` reads.
    pub settings: &'r super::DataSettings,
    pub texts: Texts,
}

/// Below this many files the calling thread reads them all: starting a thread would cost more
/// than it saves.
const PARALLEL_FROM: usize = 8;

/// Reads every file of `files` (parsing each with `parse`, when given) on the other cores while
/// the calling thread runs `meanwhile`, then on it too; what each file gave, in the files' order,
/// and what `meanwhile` gave. (A helper a core, the calling thread among them: a helper more
/// made no check faster and held 20-30 MB more of a million definitions' memory.)
pub(super) fn read_all<R>(
    files: &[ToRead<'_>],
    parse: Option<Parse<'_>>,
    meanwhile: impl FnOnce() -> R,
) -> (Vec<Read>, R) {
    let helpers = super::threads::cores().saturating_sub(1).min(files.len());
    if files.len() < PARALLEL_FROM || helpers == 0 {
        let meant = meanwhile();
        return (read_on(files, parse, 0, || ()).0, meant);
    }
    read_on(files, parse, helpers, meanwhile)
}

/// [`read_all`] on `helpers` threads and the calling one, which runs `meanwhile` first.
fn read_on<R>(
    files: &[ToRead<'_>],
    parse: Option<Parse<'_>>,
    helpers: usize,
    meanwhile: impl FnOnce() -> R,
) -> (Vec<Read>, R) {
    let next = AtomicUsize::new(0);
    // A language server's unsaved buffers stand in for files on the thread that asked; each
    // reading thread sees them too.
    let unsaved = crate::mods::files::unsaved_now();
    let work = || {
        let mut got = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(f) = files.get(i) else { break };
            got.push((i, read_one(f, parse)));
        }
        got
    };
    let work = || crate::mods::files::with_unsaved_of(unsaved.clone(), work);
    let (mut parts, meant) = std::thread::scope(|scope| {
        let helpers: Vec<_> = (0..helpers).map(|_| scope.spawn(work)).collect();
        let meant = meanwhile();
        let mut parts = vec![work()];
        for h in helpers {
            parts.push(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
        }
        (parts, meant)
    });
    let mut read: Vec<Option<Read>> = std::iter::repeat_with(|| None).take(files.len()).collect();
    for (i, r) in parts.drain(..).flatten() {
        read[i] = Some(r);
    }
    // Every index was taken by one thread, and every thread ran to the end.
    (read.into_iter().flatten().collect(), meant)
}

/// Reads one file, and parses it when asked.
fn read_one(f: &ToRead<'_>, parse: Option<Parse<'_>>) -> Read {
    let bytes = match crate::mods::read_inside(f.root, &f.path) {
        Ok(bytes) => bytes,
        Err(refused) => return Read::Refused(refused),
    };
    let (text, utf8_error) = crate::mods::decode_utf8(bytes);
    if let Some((offset, d)) = utf8_error {
        return Read::NotUtf8(text, offset, d);
    }
    let Some(parse) = parse else {
        return Read::Text(Text::Kept(text.into()), None);
    };
    let mut parsed = Box::new((RawDefs::default(), Vec::new()));
    let (defs, said) = &mut *parsed;
    let mut parse_text =
        |text: &str| read_file(text, f.file, &f.ns, parse.rules, parse.settings, defs, said);
    let text = match parse.texts {
        Texts::Kept => {
            let text: Arc<str> = text.into();
            parse_text(&text);
            Text::Kept(text)
        }
        Texts::Released => {
            parse_text(&text);
            let (len, hash) = crate::diag::fingerprint(&text);
            Text::Released(len, hash)
        }
    };
    Read::Text(text, Some(parsed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// Twelve generated mods' data files, as a walk of them would give them to read.
    fn files_of<'a>(dir: &Path, root: &'a ModRoot) -> Vec<ToRead<'a>> {
        (0..12)
            .map(|m| ToRead {
                file: FileId(m),
                ns: format!("m{m}").into(),
                root,
                path: dir.join(format!("m{m}/data/defs.toml")),
            })
            .collect()
    }

    #[test]
    fn reading_on_many_threads_gives_what_one_thread_gives() {
        let dir = tempfile::tempdir().unwrap();
        crate::content::generate::write_mod_set(dir.path(), 12, 200).unwrap();
        let data = |m: usize| dir.path().join(format!("m{m}/data/defs.toml"));
        // A file that is not UTF-8, one gone since the walk, one with a mistake.
        std::fs::write(data(3), b"[[tags]]\nid = \"caf\xe9\"\n").unwrap();
        std::fs::remove_file(data(5)).unwrap();
        let mut text = std::fs::read_to_string(data(7)).unwrap();
        text.push_str("\n[[items]]\nid = \"broken\"\nstack = \"many\"\n");
        std::fs::write(data(7), &text).unwrap();
        let root = ModRoot::of(dir.path());
        let files = files_of(dir.path(), &root);
        let rules = crate::test_rules();
        for texts in [Texts::Kept, Texts::Released] {
            let parse = Some(Parse {
                rules: rules.defs(),
                settings: &Default::default(),
                texts,
            });
            let one = read_on(&files, parse, 0, || ()).0;
            assert_eq!(one.len(), files.len(), "one answer a file");
            assert!(matches!(one[3], Read::NotUtf8(_, 18, _)), "{:?}", one[3]);
            assert!(matches!(one[5], Read::Refused(_)), "{:?}", one[5]);
            let Read::Text(kept, Some(parsed)) = &one[7] else {
                panic!("{:?}", one[7])
            };
            let (defs, said) = &**parsed;
            assert!(defs.items.len() > 10, "{} items", defs.items.len());
            assert!(format!("{said:?}").contains("stack"), "{said:?}");
            match (texts, kept) {
                (Texts::Kept, Text::Kept(kept)) => assert_eq!(**kept, text),
                (Texts::Released, Text::Released(len, hash)) => {
                    assert_eq!((*len, *hash), crate::diag::fingerprint(&text))
                }
                other => panic!("{other:?}"),
            }
            let one = format!("{one:?}");
            for helpers in [1, 2, 15] {
                let many = format!("{:?}", read_on(&files, parse, helpers, || ()).0);
                assert_eq!(many, one, "{helpers} threads helping, {texts:?}");
            }
        }
        // What the calling thread does meanwhile is done there, and what it gave comes back.
        let caller = std::thread::current().id();
        let parse = Some(Parse {
            rules: rules.defs(),
            settings: &Default::default(),
            texts: Texts::Kept,
        });
        let (read, ran_on) = read_on(&files, parse, 2, || std::thread::current().id());
        assert_eq!(ran_on, caller);
        assert_eq!(read.len(), files.len());
        // Read alone, for a memo to parse: the texts, nothing parsed.
        let read = read_on(&files, None, 3, || ()).0;
        assert!(matches!(&read[7], Read::Text(Text::Kept(t), None) if **t == text));
    }

    #[test]
    fn every_reading_thread_sees_the_unsaved_texts_of_the_thread_that_asked() {
        let dir = tempfile::tempdir().unwrap();
        crate::content::generate::write_mod_set(dir.path(), 12, 20).unwrap();
        let root = ModRoot::of(dir.path());
        let files = files_of(dir.path(), &root);
        let unsaved: crate::mods::files::Unsaved = files
            .iter()
            .map(|f| {
                let text = format!("[[tags]]\nid = \"unsaved_{}\"\n", f.ns);
                (std::fs::canonicalize(&f.path).unwrap(), text.into())
            })
            .collect();
        let rules = crate::test_rules();
        let parse = Some(Parse {
            rules: rules.defs(),
            settings: &Default::default(),
            texts: Texts::Kept,
        });
        let read = crate::mods::files::with_unsaved(Arc::new(unsaved), || {
            read_on(&files, parse, 3, || ()).0
        });
        for (f, got) in files.iter().zip(&read) {
            let Read::Text(Text::Kept(text), Some(parsed)) = got else {
                panic!("{got:?}")
            };
            let defs = &parsed.0;
            assert_eq!(**text, format!("[[tags]]\nid = \"unsaved_{}\"\n", f.ns));
            assert_eq!(defs.tags.len(), 1, "{}", f.ns);
        }
    }
}
