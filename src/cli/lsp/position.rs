//! Where things are, as the protocol says it: `file://` URIs for paths, and lines with columns in
//! UTF-16 code units (the protocol's default) for byte offsets.

use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The start of every line of a text, to turn byte offsets into positions and back.
pub(super) struct Lines<'a> {
    text: &'a str,
    starts: std::borrow::Cow<'a, [usize]>,
}

impl<'a> Lines<'a> {
    /// The lines of `text`: a line ends at `\n`, `\r\n` or a lone `\r`, as the protocol says.
    pub(super) fn new(text: &'a str) -> Lines<'a> {
        let mut starts = vec![0];
        starts.extend(line_starts(text.as_bytes(), 0..text.len()));
        Lines {
            text,
            starts: starts.into(),
        }
    }

    /// The lines of `text` whose starts are kept already (an open document's).
    pub(super) fn kept(text: &'a str, starts: &'a [usize]) -> Lines<'a> {
        Lines {
            text,
            starts: starts.into(),
        }
    }

    /// The position of a byte offset (one inside a character counts as its start).
    pub(super) fn position(&self, offset: usize) -> Position {
        let offset = floor_boundary(self.text, offset.min(self.text.len()));
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character = self.text[start..offset].encode_utf16().count();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position; one past a line's end is the line's end, one past the last
    /// line the text's end.
    pub(super) fn offset(&self, at: Position) -> usize {
        let Some(&start) = self.starts.get(at.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(at.line as usize + 1)
            .copied()
            .unwrap_or(self.text.len());
        let line = self.text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0;
        for (i, c) in line.char_indices() {
            if units >= at.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        start + line.len()
    }

    /// The range of a byte range.
    pub(super) fn range(&self, bytes: std::ops::Range<usize>) -> Range {
        Range::new(self.position(bytes.start), self.position(bytes.end))
    }
}

/// The line starts that the bytes at `bytes[within]` make: one after each `\n` and each lone
/// `\r` (a `\r` is lone when the byte after it, which may lie past `within`, is not `\n`).
pub(super) fn line_starts(
    bytes: &[u8],
    within: std::ops::Range<usize>,
) -> impl Iterator<Item = usize> + '_ {
    let end = within.end.min(bytes.len());
    let start = within.start.min(end);
    memchr::memchr2_iter(b'\n', b'\r', &bytes[start..end])
        .map(move |i| start + i)
        .filter(move |&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
        .map(|i| i + 1)
}

/// The largest character boundary at or before `offset`.
fn floor_boundary(text: &str, mut offset: usize) -> usize {
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The `file://` URI of an absolute path, every byte but the unreserved ones and `/` escaped.
pub(super) fn uri_of(path: &Path) -> Option<Uri> {
    let text = path.to_str()?;
    let mut uri = String::from("file://");
    if !text.starts_with('/') {
        // A Windows path (`C:\mods`): `file:///C:/mods`.
        uri.push('/');
    }
    for b in text.bytes() {
        match b {
            b'\\' => uri.push('/'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(b as char)
            }
            b':' if uri.len() <= "file:///".len() + 1 => uri.push(':'),
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    Uri::from_str(&uri).ok()
}

/// The path a `file://` URI names, if it names one.
pub(super) fn path_of(uri: &Uri) -> Option<PathBuf> {
    let text = uri.as_str().strip_prefix("file://")?;
    // An authority (`file://host/...`) other than the empty one is not a local file.
    let text = text.strip_prefix("localhost").unwrap_or(text);
    if !text.starts_with('/') {
        return None;
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let text = String::from_utf8(out).ok()?;
    // `/C:/mods` is a Windows drive path.
    let windows = text.len() > 2 && text.as_bytes()[2] == b':';
    Some(PathBuf::from(if windows { &text[1..] } else { &text[..] }))
}

/// The path as lantern keys files: its real path when it exists (the editor may name it through
/// a symlink or a relative part), else as given.
pub(super) fn real(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_positions_agree_across_wide_and_astral_characters() {
        let text = "a = \"赌\"\r\nb = \"😀x\"\rc\n";
        let lines = Lines::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(x), Position::new(1, 7));
        assert_eq!(lines.offset(Position::new(1, 7)), x);
        assert_eq!(lines.position(text.find('c').unwrap()), Position::new(2, 0));
        // Past a line's end is its end; past the last line is the text's end.
        assert_eq!(lines.offset(Position::new(0, 99)), text.find('\r').unwrap());
        assert_eq!(lines.offset(Position::new(9, 0)), text.len());
    }

    #[test]
    fn paths_go_to_uris_and_back() {
        let path = Path::new("/tmp/my mods/rats/data/ß%.toml");
        let uri = uri_of(path).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///tmp/my%20mods/rats/data/%C3%9F%25.toml"
        );
        assert_eq!(path_of(&uri).unwrap(), path);
        let other = Uri::from_str("untitled:Untitled-1").unwrap();
        assert_eq!(path_of(&other), None);
    }
}
