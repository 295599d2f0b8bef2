//! What the last load of a mod set parsed, kept for the next: a reload after one file changed
//! (or an editor's check after one keystroke) parses that file alone and takes the rest as it was.
//!
//! The memo holds each data file as read (its text, mod and place in the source map), its stamp,
//! what parsing it said, and what all of them define (the `RawDefs` the loader gives back after
//! resolving). A file whose stamp is unchanged is not even read again ([`crate::mods::Stamp`]
//! says when a stamp is trusted). A file reused must read exactly as it did, at the same place,
//! in the same mod; when the list of data files differs at all (a file added, removed or renamed,
//! a manifest that changed a mod's ID, a locale file that moved the places after it), everything
//! is parsed again. So a load from a memo gives what a load without one gives: the tests below
//! and in `tests/reload.rs` compare the two.

use super::data_file::read_file;
use super::parse::{self, parse_all, Job};
use super::raw_defs::RawDefs;
use crate::content::declare::Declarations;
use crate::diag::{Diagnostic, FileId, SourceFile, SourceMap};
use crate::mods::Stamp;
use std::sync::Arc;

/// The data files of a mod set as its last load parsed them (see the module's words). A memo
/// serves one game's rules: its owner loads with the same rules every time.
#[derive(Default)]
pub(crate) struct ParseMemo {
    files: Vec<Parsed>,
    /// What the files define, given back by the loader once it has resolved them
    /// ([`ParseMemo::keep`]); `None` while a load has them, or before the first.
    defs: Option<RawDefs>,
    /// How many files the last load parsed, for the tests.
    #[cfg_attr(not(test), allow(dead_code))]
    parsed: usize,
    /// The settings' values the files' `{ setting = "..." }` were read with: other values, and
    /// every file is parsed again.
    settings: super::DataSettings,
}

/// One data file as it was parsed.
struct Parsed {
    file: FileId,
    path: String,
    ns: String,
    text: Arc<str>,
    said: Vec<Diagnostic>,
    /// The file as the source map holds it, and its stamp when it was read (`None` when it was
    /// an editor's unsaved buffer, or the memo's owner reads no stamps): a file found with the
    /// same stamp is taken as it is, not read.
    source: Option<Arc<SourceFile>>,
    stamp: Option<Stamp>,
}

impl ParseMemo {
    /// The data file that was `file` in the last load, as it read it, when it is the file `path`
    /// of mod `ns` and its stamp now (`stamp`) says it was not written since.
    pub(super) fn known(
        &self,
        file: FileId,
        path: &str,
        ns: &str,
        stamp: Option<&Stamp>,
    ) -> Option<Arc<SourceFile>> {
        let at = self
            .files
            .binary_search_by_key(&file, |old| old.file)
            .ok()?;
        let old = &self.files[at];
        let same = old.path == path && old.ns == ns && old.stamp?.unchanged(stamp?);
        same.then(|| old.source.clone()).flatten()
    }

    /// What the data files `jobs` define, parsing only those that do not read as the memo has
    /// them; what parsing said of every file goes to `diags`, in the files' order.
    pub(super) fn parse(
        &mut self,
        jobs: &[Job],
        stamps: &[Option<Stamp>],
        sources: &SourceMap,
        (rules, settings): (&Declarations, &super::DataSettings),
        diags: &mut Vec<Diagnostic>,
    ) -> RawDefs {
        if !self.settings.same_as(settings) {
            self.settings = settings.clone();
            if let Some(old) = self.defs.take() {
                old.drop_aside();
            }
        }
        let same_files = self.files.len() == jobs.len()
            && self.files.iter().zip(jobs).all(|(old, (file, ns, _))| {
                old.file == *file && *old.ns == **ns && old.path == sources.get(*file).path()
            });
        let changed: Vec<usize> = (0..jobs.len())
            .filter(|&i| {
                !same_files || {
                    let (old, new) = (&self.files[i].text, &jobs[i].2);
                    !(Arc::ptr_eq(old, new) || **old == **new)
                }
            })
            .collect();
        let changed_bytes: usize = changed.iter().map(|&i| jobs[i].2.len()).sum();
        let all_bytes: usize = jobs.iter().map(|(_, _, text)| text.len()).sum();
        // The changed files are parsed one after another: when they are so many that every file
        // parsed on every core would take less, that is done instead.
        let reuse = same_files && changed_bytes * parse::threads_for(all_bytes) <= all_bytes;
        let defs = match self.defs.take() {
            Some(mut defs) if reuse => {
                for &i in &changed {
                    let (file, ns, text) = &jobs[i];
                    let (mut fresh, mut said) = (RawDefs::default(), Vec::new());
                    read_file(text, *file, ns, rules, settings, &mut fresh, &mut said);
                    defs.replace_file(*file, fresh);
                    self.files[i].text = text.clone();
                    self.files[i].said = said;
                }
                self.parsed = changed.len();
                defs
            }
            old => {
                if let Some(old) = old {
                    old.drop_aside();
                }
                let (defs, said) = parse_all(jobs, rules, settings);
                self.files = jobs
                    .iter()
                    .zip(said)
                    .map(|((file, ns, text), said)| Parsed {
                        file: *file,
                        path: sources.get(*file).path().to_string(),
                        ns: ns.to_string(),
                        text: text.clone(),
                        said,
                        source: None,
                        stamp: None,
                    })
                    .collect();
                self.parsed = jobs.len();
                defs
            }
        };
        // Each file's stamp as it was read now, and the file as the source map holds it.
        for (parsed, stamp) in self.files.iter_mut().zip(stamps) {
            parsed.stamp = *stamp;
            parsed.source = sources.shared(parsed.file);
        }
        diags.extend(self.files.iter().flat_map(|f| f.said.iter().cloned()));
        defs
    }

    /// Takes back what the files define once the loader is done with it, for the next load.
    pub(crate) fn keep(&mut self, mut defs: RawDefs) {
        // The locale files are read and parsed with every load; their share is not kept.
        defs.locales = Vec::new();
        self.defs = Some(defs);
    }

    /// How many data files the last load parsed.
    #[cfg(test)]
    fn parsed(&self) -> usize {
        self.parsed
    }
}

impl RawDefs {
    /// Puts what `file` defines now (`fresh`, parsed from it alone) in place of what it defined:
    /// every list keeps each file's entries apart
    /// ([`ByFile`](super::by_file::ByFile)), so only that file's move.
    fn replace_file(&mut self, file: FileId, fresh: RawDefs) {
        // Every list by name, so a list added to `RawDefs` does not build until it is put here.
        let RawDefs {
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
            settings_read,
            files: _,
            data_files: _,
            locales: _,
        } = fresh;
        self.tags.replace_file(file, tags);
        self.rarities.replace_file(file, rarities);
        self.items.replace_file(file, items);
        self.creatures.replace_file(file, creatures);
        self.triggers.replace_file(file, triggers);
        self.quests.replace_file(file, quests);
        self.encounters.replace_file(file, encounters);
        self.event_types.replace_file(file, event_types);
        self.progress_types.replace_file(file, progress_types);
        self.hazards.replace_file(file, hazards);
        self.cards.replace_file(file, cards);
        self.host.replace_file(file, host);
        self.loose_refs.replace_file(file, loose_refs);
        self.broken.replace_file(file, broken);
        self.settings_read.replace_file(file, settings_read);
    }

    /// Drops what a large mod set defines on a thread of its own, so the load that is done with
    /// it does not wait for a hundred thousand definitions to be freed.
    pub(crate) fn drop_aside(self) {
        if self.items.len() + self.creatures.len() + self.triggers.len() + self.host.len() < 10_000
        {
            return;
        }
        drop_aside(self);
    }
}

/// Drops `value` on a thread of its own: what a load or a reload is done with (a hundred
/// thousand raw definitions, the version a reload replaced) is freed while the game goes on.
/// If no thread can be started, it drops here.
pub(crate) fn drop_aside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("lantern-drop".into())
        .spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::ParseMemo;
    use crate::lua::Limits;
    use std::path::{Path, PathBuf};

    /// The content and every problem of a load, as text: two loads that give the same text gave
    /// the same content (spans and places included).
    fn load(roots: &[PathBuf], memo: Option<&mut ParseMemo>) -> (String, String) {
        let world = crate::load::load_with(
            roots,
            None,
            Limits::default(),
            &crate::test_rules(),
            memo,
            None,
            &[],
        );
        (
            format!("{:?}", world.content),
            crate::diag::render_all(&world.diagnostics, &world.sources),
        )
    }

    fn write(path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_load_from_the_memo_is_the_load_without_it() {
        let dir = tempfile::tempdir().unwrap();
        let roots = [dir.path().to_path_buf()];
        crate::content::generate::write_mod_set(dir.path(), 3, 300).unwrap();
        // `m1` overrides an item of `m0`, which it depends on; `m2` has a second file.
        let m1 = dir.path().join("m1/data/defs.toml");
        let base = std::fs::read_to_string(&m1).unwrap();
        write(
            &m1,
            &format!("{base}\n[[items]]\nid = \"m0:item1\"\nname = \"Mine\"\n"),
        );
        let more = dir.path().join("m2/data/more.toml");
        write(&more, "[[tags]]\nid = \"late\"\n");
        let added = dir.path().join("m1/data/added.toml");
        let mut memo = ParseMemo::default();
        let first = load(&roots, Some(&mut memo));
        assert_eq!(first, load(&roots, None));
        assert_eq!(memo.parsed(), 4);

        // Each step: a file written, and how many files the memo parses for it.
        let m0 = dir.path().join("m0/data/defs.toml");
        let m0_text = std::fs::read_to_string(&m0).unwrap();
        let steps: Vec<(&Path, String, usize)> = vec![
            // Written again as it was: nothing is parsed.
            (&m0, m0_text.clone(), 0),
            // The overridden item's own file, its lines moved by a comment.
            (
                &m0,
                format!("# moved\n{}", m0_text.replace("stack = 99", "stack = 98")),
                1,
            ),
            // A file that no longer parses, then one with a mistake in an entry, then fixed.
            (&more, "[[tags]\nid = \"late\"\n".into(), 1),
            (&more, "[[tags]]\nid = \"late\"\nnmae = \"x\"\n".into(), 1),
            (&more, "[[tags]]\nid = \"later\"\n".into(), 1),
            // A file added: the places after it move, so everything is parsed.
            (&added, "[[tags]]\nid = \"new\"\n".into(), 5),
            // The override taken away again.
            (&m1, base.clone(), 1),
        ];
        for (n, (path, text, parsed)) in steps.iter().enumerate() {
            write(path, text);
            let with_memo = load(&roots, Some(&mut memo));
            assert_eq!(memo.parsed(), *parsed, "step {n}");
            let without = load(&roots, None);
            assert_eq!(with_memo.1, without.1, "step {n}: the problems");
            let broken = n == 2 || n == 3;
            assert_eq!(
                with_memo.1.contains("error"),
                broken,
                "step {n}: {}",
                with_memo.1
            );
            assert!(with_memo.0 == without.0, "step {n}: the content differs");
        }
    }

    /// Writes `text` to `path` and gives the file the modification time `at`.
    fn write_at(path: &Path, text: &str, at: std::time::SystemTime) {
        write(path, text);
        let file = std::fs::File::options().write(true).open(path).unwrap();
        file.set_modified(at).unwrap();
    }

    #[test]
    fn a_file_is_read_again_unless_its_stamp_says_it_was_not_written_since() {
        let dir = tempfile::tempdir().unwrap();
        let roots = [dir.path().to_path_buf()];
        write(
            &dir.path().join("m/mod.toml"),
            "id = \"m\"\nversion = \"1.0.0\"\n",
        );
        let (old, fresh) = (
            dir.path().join("m/data/old.toml"),
            dir.path().join("m/data/fresh.toml"),
        );
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        let now = std::time::SystemTime::now();
        write_at(&old, "[[tags]]\nid = \"aaa\"\n", hour_ago);
        write_at(&fresh, "[[tags]]\nid = \"ccc\"\n", now);
        let mut memo = ParseMemo::default();
        load(&roots, Some(&mut memo));
        // Both changed behind the memo's back, their length and time as they were: the file
        // written an hour before it was read is taken as it was (its stamp is trusted); the one
        // written just before could have been written again within the same tick, so it is read.
        write_at(&old, "[[tags]]\nid = \"bbb\"\n", hour_ago);
        write_at(&fresh, "[[tags]]\nid = \"ddd\"\n", now);
        let (content, _) = load(&roots, Some(&mut memo));
        assert!(
            content.contains("m:aaa") && !content.contains("m:bbb"),
            "{content}"
        );
        assert!(
            content.contains("m:ddd") && !content.contains("m:ccc"),
            "{content}"
        );
        // Written again as anyone writes (a new time): read, and what it says now is loaded.
        write(&old, "[[tags]]\nid = \"eee\"\n");
        let (content, _) = load(&roots, Some(&mut memo));
        assert!(content.contains("m:eee"), "{content}");
        assert_eq!(load(&roots, Some(&mut memo)), load(&roots, None));
    }
}
