//! The texts of every file the loader read, so a span can be turned into `path:line:col` and a source line.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

/// Index of a file in a [`SourceMap`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub u32);

/// A byte range inside one file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file.
    pub file: FileId,
    /// The first byte.
    pub start: u32,
    /// The byte after the last.
    pub end: u32,
}

impl Span {
    /// A span of bytes in a file.
    pub fn new(file: FileId, range: Range<usize>) -> Span {
        Span {
            file,
            start: range.start as u32,
            end: range.end as u32,
        }
    }

    /// A span covering the whole first line of a file, for problems that concern the file as a whole.
    pub fn file_start(file: FileId) -> Span {
        Span {
            file,
            start: 0,
            end: 0,
        }
    }
}

/// One file's display path (relative to the mods directory, `rats/data/items.toml`) and text.
#[derive(Debug, Clone)]
pub struct SourceFile {
    path: String,
    /// Where it was read on disk, when it was (a mod's file, not a test's text).
    disk: Option<Arc<Path>>,
    text: Arc<str>,
    /// Where each line starts, found when a span is first shown: a check of a big pack reads
    /// every file and shows a few, and the index was a fifth of the texts' size again.
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// The length and hash of the text once it is let go ([`SourceFile::release`]), so that
    /// the file read again to show a problem is known to be the file that was read.
    released: Option<(usize, u64)>,
}

/// A text's hash, to tell a file read again from the one read first.
fn text_hash(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// A text's length and hash: what a file let go keeps of it ([`SourceFile::release`]).
pub(crate) fn fingerprint(text: &str) -> (usize, u64) {
    (text.len(), text_hash(text))
}

impl SourceFile {
    /// A file with its display path (relative to the mods directory) and its text.
    pub fn new(path: impl Into<String>, text: impl Into<Arc<str>>) -> SourceFile {
        SourceFile {
            path: path.into(),
            disk: None,
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
            released: None,
        }
    }

    /// Lets the text go: a check of a big pack holds no data file's text while it resolves
    /// what the files define, and reads again only the files a problem is shown in
    /// ([`SourceFile::restore`]). Until the text is back, a span in it is shown as the file alone
    /// (what needs a line meanwhile, a trigger's name, counted it before: `RawTrigger::line`).
    pub(crate) fn release(&mut self) {
        if self.released.is_none() {
            self.released = Some(fingerprint(&self.text));
            self.text = Arc::from("");
            self.line_starts = std::sync::OnceLock::new();
        }
    }

    /// Whether the text was let go and is not back.
    pub(crate) fn is_released(&self) -> bool {
        self.released.is_some()
    }

    /// Puts back a text let go, read again from disk: only when it is the text that was read
    /// (the same length and hash); otherwise the file changed since, and `false` says so.
    pub(crate) fn restore(&mut self, text: String) -> bool {
        match self.released {
            Some((len, hash)) if text.len() == len && text_hash(&text) == hash => {
                self.text = text.into();
                self.released = None;
                self.line_starts = std::sync::OnceLock::new();
                true
            }
            _ => false,
        }
    }

    /// Where each line starts.
    fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(line_ends(self.text.as_bytes()).map(|i| i as u32 + 1));
            starts
        })
    }

    /// The display path.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The path a terminal or an editor opens from the current directory: the file's place on
    /// disk, relative to the current directory when it is under it (`mods/rats/data/a.toml` from
    /// the project's root), else whole; the display path for a file not read from disk.
    pub fn shown(&self) -> std::borrow::Cow<'_, str> {
        let Some(disk) = &self.disk else {
            return self.path.as_str().into();
        };
        let cwd = std::env::current_dir().ok();
        let under = cwd.as_deref().and_then(|cwd| disk.strip_prefix(cwd).ok());
        let shown = under.unwrap_or(disk).to_string_lossy();
        match shown.strip_prefix("./") {
            Some(rest) => rest.to_string().into(),
            None => shown.into_owned().into(),
        }
    }

    /// Where it was read on disk, when it was (a mod's file, not a test's text or lantern's own):
    /// what the language server maps an editor's documents to.
    pub(crate) fn disk(&self) -> Option<&Path> {
        self.disk.as_deref()
    }

    /// The text, shared.
    pub(crate) fn shared_text(&self) -> Arc<str> {
        self.text.clone()
    }

    /// Whether it holds the text `other` holds: at once when one read is shared by both (a
    /// file a reload took by its stamp).
    pub(crate) fn same_text(&self, other: &SourceFile) -> bool {
        Arc::ptr_eq(&self.text, &other.text) || self.text == other.text
    }

    /// The text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// One-based line and column (in characters) of a byte offset.
    pub(crate) fn line_col(&self, offset: u32) -> (usize, usize) {
        let offset = offset.min(self.text.len() as u32);
        let starts = self.line_starts();
        let line = match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = starts[line] as usize;
        let end = floor_char_boundary(&self.text, offset as usize);
        let col = self.text[start..end].chars().count();
        (line + 1, col + 1)
    }

    /// The text of a one-based line, without its line break.
    pub(crate) fn line_text(&self, line: usize) -> &str {
        if self.is_released() {
            return "";
        }
        let starts = self.line_starts();
        let start = starts.get(line - 1).copied().unwrap_or(0) as usize;
        let end = starts
            .get(line)
            .map(|&e| e as usize)
            .unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }
}

/// The offset of every line's last byte in `bytes`: a line ends at `\n`, `\r\n` or a `\r` alone
/// (old Mac files; Lua counts it as a line too, so its line numbers and these agree).
fn line_ends(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr2_iter(b'\n', b'\r', bytes)
        .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
}

fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every file read during one load, addressed by [`FileId`]. Cloning it shares the files (a
/// test game's map is its mod set's, with the game's scripts added).
#[derive(Debug, Default, Clone)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> SourceMap {
        SourceMap::default()
    }

    /// Adds a file; its ID is its position.
    pub(crate) fn add(&mut self, path: impl Into<String>, text: impl Into<Arc<str>>) -> FileId {
        self.files.push(Arc::new(SourceFile::new(path, text)));
        FileId(self.files.len() as u32 - 1)
    }

    /// The ID the next file added takes.
    pub(crate) fn next_id(&self) -> FileId {
        FileId(self.files.len() as u32)
    }

    /// Adds a file another map holds already (a file a reload found as it was).
    pub(crate) fn add_shared(&mut self, file: Arc<SourceFile>) -> FileId {
        self.files.push(file);
        FileId(self.files.len() as u32 - 1)
    }

    /// Lets the texts of `files` go ([`SourceFile::release`]), each one this map alone holds.
    pub(crate) fn release(&mut self, files: &[FileId]) {
        for id in files {
            if let Some(file) = self.files.get_mut(id.0 as usize).and_then(Arc::get_mut) {
                file.release();
            }
        }
    }

    /// Gives a file added before it was read (with an empty text) the text read, or, for a text
    /// let go as soon as it was parsed, its [`fingerprint`]: the file then reads as one let go.
    pub(crate) fn fill(&mut self, id: FileId, text: Result<Arc<str>, (usize, u64)>) {
        if let Some(file) = self.files.get_mut(id.0 as usize).and_then(Arc::get_mut) {
            match text {
                Ok(text) => file.text = text,
                Err(print) => file.released = Some(print),
            }
            file.line_starts = std::sync::OnceLock::new();
        }
    }

    /// Puts back the text of a file let go ([`SourceFile::restore`]).
    pub(crate) fn restore(&mut self, id: FileId, text: String) -> bool {
        let file = self.files.get_mut(id.0 as usize).and_then(Arc::get_mut);
        file.is_some_and(|file| file.restore(text))
    }

    /// The file, shared.
    pub(crate) fn shared(&self, id: FileId) -> Option<Arc<SourceFile>> {
        self.files.get(id.0 as usize).cloned()
    }

    /// Adds a file read from `disk`, so its problems name a path that opens
    /// ([`SourceFile::shown`]).
    pub(crate) fn add_read(
        &mut self,
        path: impl Into<String>,
        disk: &Path,
        text: impl Into<Arc<str>>,
    ) -> FileId {
        let mut file = SourceFile::new(path, text);
        file.disk = Some(disk.into());
        self.files.push(Arc::new(file));
        FileId(self.files.len() as u32 - 1)
    }

    /// The file; a span from another load (a bug, never a modder's doing) reads as an empty file
    /// of that name rather than taking the game down.
    pub fn get(&self, id: FileId) -> &SourceFile {
        static UNKNOWN: std::sync::LazyLock<SourceFile> =
            std::sync::LazyLock::new(|| SourceFile::new("<a file of another load>", ""));
        self.files.get(id.0 as usize).map_or(&UNKNOWN, |f| f)
    }

    /// Every file with its ID.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), &**f))
    }

    /// `path:line:col` of the start of a span.
    pub(crate) fn location(&self, span: Span) -> String {
        let file = self.get(span.file);
        if file.is_released() {
            return file.path().to_string();
        }
        let (line, col) = file.line_col(span.start);
        format!("{}:{line}:{col}", file.path())
    }

    /// The file with this display path, if it was read.
    pub fn find(&self, path: &str) -> Option<FileId> {
        self.files
            .iter()
            .position(|f| f.path == path)
            .map(|i| FileId(i as u32))
    }

    /// The same place in `to`, another load of the same files: the file of that path when its
    /// text did not change (so the span still points at what it pointed at), else `None`.
    pub(crate) fn carry(&self, span: Span, to: &SourceMap) -> Option<Span> {
        let from = self.files.get(span.file.0 as usize)?;
        let file = to.find(&from.path)?;
        (to.get(file).text() == from.text()).then_some(Span { file, ..span })
    }

    /// `path:line` of the start of a span, the form used for run-time messages.
    pub(crate) fn file_line(&self, span: Span) -> String {
        let file = self.get(span.file);
        let (line, _) = file.line_col(span.start);
        format!("{}:{line}", file.path())
    }
}

/// The one-based line of each offset (ascending) in `text`, counted in one pass, as
/// [`SourceFile::line_col`] numbers them; an offset past the end is on the last line.
pub(crate) fn lines_at(text: &str, offsets: impl Iterator<Item = u32>) -> Vec<usize> {
    let mut ends = line_ends(text.as_bytes()).peekable();
    let mut line = 1;
    offsets
        .map(|at| {
            while ends.next_if(|&end| end < at as usize).is_some() {
                line += 1;
            }
            line
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{lines_at, SourceFile, SourceMap, Span};

    /// Lines counted in one pass agree with the index of lines, whatever ends them (`\n`,
    /// `\r\n`, a `\r` alone), wherever an offset falls (a line's start, its end, past the text).
    #[test]
    fn lines_counted_in_one_pass_are_the_indexs() {
        for text in [
            "one\ntwo\r\nthree\rfour\n\nsix",
            "\r\n\r\n[[triggers]]\non = \"x\"\r",
            "",
        ] {
            let file = SourceFile::new("a.toml", text);
            let offsets = 0..=text.len() as u32 + 2;
            let counted = lines_at(text, offsets.clone());
            let indexed: Vec<usize> = offsets.map(|at| file.line_col(at).0).collect();
            assert_eq!(counted, indexed, "{text:?}");
        }
        assert_eq!(
            lines_at("a\nb\r\nc\rd", [0, 2, 5, 7].into_iter()),
            [1, 2, 3, 4]
        );
    }

    /// A text let go comes back only as it was, and its places with it; meanwhile a place in it
    /// is the file alone.
    #[test]
    fn a_released_text_comes_back_only_unchanged() {
        let text = "[[items]]\nid = \"lamp\"\nstack = \"many\"\n";
        let mut map = SourceMap::new();
        let file = map.add("m/data/a.toml", text);
        let at = text.find("\"many\"").unwrap() as u32;
        let span = Span::new(file, at as usize..at as usize + 6);
        assert_eq!(map.location(span), "m/data/a.toml:3:9");
        map.release(&[file]);
        assert!(map.get(file).is_released());
        assert_eq!((map.get(file).text(), map.get(file).line_text(3)), ("", ""));
        assert_eq!(map.location(span), "m/data/a.toml");
        assert!(!map.restore(file, text.replace("many", "lots")));
        assert!(!map.restore(file, String::new()));
        assert!(map.get(file).is_released());
        assert!(map.restore(file, text.to_string()));
        assert_eq!(map.location(span), "m/data/a.toml:3:9");
        assert_eq!(map.get(file).line_text(3), "stack = \"many\"");
    }
}
