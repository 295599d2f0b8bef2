//! A document the editor has open: its text and the start of each of its lines, kept up to date
//! by each edit.
//!
//! An editor sends an edit as a range in lines and UTF-16 columns. Finding the range from scratch
//! means finding every line of the text, and a "replace all" sends thousands of edits at once: 4,000
//! edits to a 4 MB file took 50 s. The line starts are kept and mended around each edit instead, so
//! an edit costs the length of its own lines plus moving the text and the starts after it.

use super::position::{line_starts, Lines};

/// An open document.
pub(super) struct Document {
    text: String,
    /// The byte offset where each line starts; the first is 0.
    starts: Vec<usize>,
}

impl Document {
    pub(super) fn new(text: String) -> Document {
        let mut starts = vec![0];
        starts.extend(line_starts(text.as_bytes(), 0..text.len()));
        Document { text, starts }
    }

    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// Its lines, to turn positions into offsets and back.
    pub(super) fn lines(&self) -> Lines<'_> {
        Lines::kept(&self.text, &self.starts)
    }

    /// Applies one change the editor sent: the whole text, or a range replaced.
    pub(super) fn change(&mut self, change: lsp_types::TextDocumentContentChangeEvent) {
        let Some(range) = change.range else {
            *self = Document::new(change.text);
            return;
        };
        let lines = self.lines();
        let (start, end) = (lines.offset(range.start), lines.offset(range.end));
        if start > end {
            return;
        }
        self.replace(start..end, &change.text);
    }

    /// Replaces the bytes at `range` (on character boundaries) with `new`, mending the line starts:
    /// those the replaced bytes and the byte before them made go, those the new bytes and the byte
    /// before them make come, and those after move by the change in length.
    fn replace(&mut self, range: std::ops::Range<usize>, new: &str) {
        let (start, end) = (range.start, range.end);
        self.text.replace_range(start..end, new);
        // A start `p` depends on the bytes at `p - 1` and `p` (a `\r` is lone unless `\n` follows).
        let first = self.starts.partition_point(|&p| p < start.max(1));
        let last = self.starts.partition_point(|&p| p <= end + 1);
        let grown = new.len() as isize - (end - start) as isize;
        let from = start.saturating_sub(1);
        let to = (start + new.len() + 1).min(self.text.len());
        let made: Vec<usize> = line_starts(self.text.as_bytes(), from..to).collect();
        let after: Vec<usize> = self.starts[last..]
            .iter()
            .map(|&p| (p as isize + grown) as usize)
            .filter(|&p| p > to)
            .collect();
        self.starts.truncate(first);
        self.starts.extend(made.into_iter().filter(|&p| p > 0));
        self.starts.extend(after);
        if self.starts.first() != Some(&0) {
            self.starts.insert(0, 0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lsp_types::{Position, Range, TextDocumentContentChangeEvent};

    fn edit(doc: &mut Document, from: (u32, u32), to: (u32, u32), text: &str) {
        doc.change(TextDocumentContentChangeEvent {
            range: Some(Range::new(
                Position::new(from.0, from.1),
                Position::new(to.0, to.1),
            )),
            range_length: None,
            text: text.to_string(),
        });
    }

    /// Every edit leaves the starts a fresh count of the text would find.
    fn agrees(doc: &Document) {
        let fresh = Document::new(doc.text.clone());
        assert_eq!(doc.starts, fresh.starts, "{:?}", doc.text);
    }

    #[test]
    fn edits_by_range_land_where_the_editor_counted_in_utf16() {
        let mut doc = Document::new("id = \"😀rat\"\nname = \"Rat\"\n".to_string());
        // After the emoji (two UTF-16 units), `rat` becomes `cat`.
        edit(&mut doc, (0, 8), (0, 9), "c");
        assert_eq!(doc.text(), "id = \"😀cat\"\nname = \"Rat\"\n");
        // A line joined, then one inserted.
        edit(&mut doc, (0, 13), (1, 0), " ");
        assert_eq!(doc.text(), "id = \"😀cat\" name = \"Rat\"\n");
        edit(&mut doc, (1, 0), (1, 0), "health = 3\n");
        assert_eq!(doc.text(), "id = \"😀cat\" name = \"Rat\"\nhealth = 3\n");
        // Backwards is refused; the whole text replaces.
        edit(&mut doc, (1, 2), (0, 0), "x");
        assert_eq!(doc.text(), "id = \"😀cat\" name = \"Rat\"\nhealth = 3\n");
        doc.change(TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text: "new".into(),
        });
        assert_eq!(doc.text(), "new");
        agrees(&doc);
    }

    #[test]
    fn line_starts_are_mended_around_each_edit() {
        let mut doc = Document::new("a = 1\r\nb = 2\rc = 3\n".to_string());
        edit(&mut doc, (0, 5), (1, 0), "");
        agrees(&doc);
        edit(&mut doc, (0, 1), (0, 1), "\n\n\r");
        agrees(&doc);
        // Splitting a `\r\n` makes the `\r` lone; joining them again makes it one break.
        let mut crlf = Document::new("x\r\ny".to_string());
        crlf.replace(1..1, "z");
        agrees(&crlf);
        crlf.replace(1..2, "");
        agrees(&crlf);
        crlf.replace(2..3, "");
        agrees(&crlf);
    }

    #[test]
    fn random_edits_keep_the_starts_a_fresh_count_finds() {
        // Seeded, so every run makes the same cases.
        let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(7);
        let mut next =
            |n: usize| (rand_core::RngCore::next_u64(&mut rng) % n.max(1) as u64) as usize;
        let pieces = ["", "a", "\n", "\r", "\r\n", "é", "x\ny", "\r\r\n\n"];
        let mut doc = Document::new("start\r\nof\rit\n".to_string());
        for _ in 0..3_000 {
            let len = doc.text.len();
            let mut a = next(len + 1);
            let mut b = next(len + 1);
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            while !doc.text.is_char_boundary(a) {
                a -= 1;
            }
            while !doc.text.is_char_boundary(b) {
                b -= 1;
            }
            doc.replace(a..b, pieces[next(pieces.len())]);
            agrees(&doc);
        }
    }
}
