//! Text to tree: a document read byte by byte, one header's lines at a time.
//!
//! Each header's `key = value` lines are read into a table of their own, which is then put in
//! place by its header's path ([`attach`]): through the tables headers made, and the last table of
//! an array headers made, never through anything else.

use super::{Entries, GaveUp, Item, Value};
use std::borrow::Cow;

/// Deeper than this, arrays and inline tables are given up on rather than read by recursion.
const DEEPEST: u32 = 32;

/// Reads a whole document: the root table's keys and values.
pub(crate) fn parse(text: &str) -> Result<Entries<'_>, GaveUp> {
    if u32::try_from(text.len()).is_err() {
        return Err(GaveUp);
    }
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
    };
    let mut root = Entries::new();
    r.lines(&mut root)?;
    let mut above: Option<Cow<'_, str>> = None;
    while r.peek() == Some(b'[') {
        let (path, array, start, end) = r.header()?;
        // `[[a.b]]` right under another table's header adds to the last `[[a]]` however far
        // above: valid, seldom meant, and said by the caller's own reader.
        if path.len() > 1 && above.as_ref() != path.first() {
            return Err(GaveUp);
        }
        above = path.first().cloned();
        // A definition's table holds a handful of keys: room for them at once, not by doubling.
        let mut entries = Entries::with_capacity(8);
        r.lines(&mut entries)?;
        let table = Item {
            start,
            end,
            value: Value::Table {
                entries,
                headed: true,
            },
        };
        attach(&mut root, &path, array, table)?;
    }
    Ok(root)
}

/// Puts the table a header opened at its path: `[a.b]` a new table `b` in `a`, `[[a.b]]` one
/// more table in the array `b` of `a`. Each step but the last goes through a table a header
/// opened, or the last table of an array headers made; a step not there yet (a table TOML would
/// make implicitly), a table opened twice, and anything else are given up on.
fn attach<'a>(
    root: &mut Entries<'a>,
    path: &[Cow<'a, str>],
    array: bool,
    table: Item<'a>,
) -> Result<(), GaveUp> {
    let (last, parents) = path.split_last().ok_or(GaveUp)?;
    let mut here = root;
    for key in parents {
        let (_, item) = here.iter_mut().find(|(k, _)| k == key).ok_or(GaveUp)?;
        here = match &mut item.value {
            Value::Table {
                entries,
                headed: true,
            } => entries,
            Value::Array {
                items,
                headed: true,
            } => match items.last_mut() {
                Some(Item {
                    value: Value::Table { entries, .. },
                    ..
                }) => entries,
                _ => return Err(GaveUp),
            },
            _ => return Err(GaveUp),
        };
    }
    match here.iter_mut().find(|(k, _)| k == last) {
        None if array => {
            let (start, end) = (table.start, table.end);
            let items = vec![table];
            let value = Value::Array {
                items,
                headed: true,
            };
            here.push((last.clone(), Item { start, end, value }));
        }
        None => here.push((last.clone(), table)),
        Some((
            _,
            Item {
                value:
                    Value::Array {
                        items,
                        headed: true,
                    },
                ..
            },
        )) if array => items.push(table),
        Some(_) => return Err(GaveUp),
    }
    Ok(())
}

/// Adds a key to a table; a key written twice is given up on.
fn insert<'a>(entries: &mut Entries<'a>, key: Cow<'a, str>, item: Item<'a>) -> Result<(), GaveUp> {
    if entries.iter().any(|(k, _)| *k == key) {
        return Err(GaveUp);
    }
    entries.push((key, item));
    Ok(())
}

/// A byte TOML allows in no string or comment: a control character other than a tab.
fn is_control(b: u8) -> bool {
    (b < 0x20 && b != b'\t') || b == 0x7f
}

/// The text and where reading is in it.
struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn at_start(&self, what: &[u8]) -> bool {
        self.bytes[self.at..].starts_with(what)
    }

    fn skip_blanks(&mut self) {
        while let Some(b' ' | b'\t') = self.peek() {
            self.at += 1;
        }
    }

    /// A comment's text, from its `#` to the end of the line (not taken).
    fn comment(&mut self) -> Result<(), GaveUp> {
        self.at += 1;
        while let Some(b) = self.peek() {
            if b == b'\n' || b == b'\r' {
                break;
            }
            if is_control(b) {
                return Err(GaveUp);
            }
            self.at += 1;
        }
        Ok(())
    }

    /// What may end a line after a value or a header: blanks, a comment, then the line's end or
    /// the text's.
    fn end_of_line(&mut self) -> Result<(), GaveUp> {
        self.skip_blanks();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        match self.peek() {
            None => Ok(()),
            Some(b'\n') => {
                self.at += 1;
                Ok(())
            }
            Some(b'\r') if self.bytes.get(self.at + 1) == Some(&b'\n') => {
                self.at += 2;
                Ok(())
            }
            _ => Err(GaveUp),
        }
    }

    /// Blanks, line ends and comments, between an array's values.
    fn skip_space(&mut self) -> Result<(), GaveUp> {
        loop {
            self.skip_blanks();
            match self.peek() {
                Some(b'\n') => self.at += 1,
                Some(b'\r') if self.bytes.get(self.at + 1) == Some(&b'\n') => self.at += 2,
                Some(b'#') => self.comment()?,
                _ => return Ok(()),
            }
        }
    }

    /// The `key = value` lines up to the next header or the end of the text.
    fn lines(&mut self, entries: &mut Entries<'a>) -> Result<(), GaveUp> {
        loop {
            self.skip_blanks();
            match self.peek() {
                None | Some(b'[') => return Ok(()),
                Some(b'\n' | b'\r' | b'#') => self.end_of_line()?,
                Some(_) => {
                    let key = self.key()?;
                    self.skip_blanks();
                    if self.peek() != Some(b'=') {
                        return Err(GaveUp);
                    }
                    self.at += 1;
                    self.skip_blanks();
                    let value = self.value(0)?;
                    self.end_of_line()?;
                    insert(entries, key, value)?;
                }
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: its path, whether it adds to an array, and its span.
    #[allow(clippy::type_complexity)]
    fn header(&mut self) -> Result<(Vec<Cow<'a, str>>, bool, u32, u32), GaveUp> {
        let start = self.at as u32;
        self.at += 1;
        let array = self.peek() == Some(b'[');
        if array {
            self.at += 1;
        }
        let mut path = Vec::new();
        loop {
            self.skip_blanks();
            path.push(self.key()?);
            self.skip_blanks();
            match self.peek() {
                Some(b'.') => self.at += 1,
                Some(b']') => break,
                _ => return Err(GaveUp),
            }
        }
        self.at += 1;
        if array {
            if self.peek() != Some(b']') {
                return Err(GaveUp);
            }
            self.at += 1;
        }
        let end = self.at as u32;
        self.end_of_line()?;
        Ok((path, array, start, end))
    }

    /// A bare key (`A-Z a-z 0-9 _ -`) or a quoted one on one line.
    fn key(&mut self) -> Result<Cow<'a, str>, GaveUp> {
        match self.peek() {
            Some(b'"') if !self.at_start(b"\"\"\"") => self.basic_string(),
            Some(b'\'') if !self.at_start(b"'''") => self.literal_string(),
            _ => {
                let start = self.at;
                while let Some(b) = self.peek() {
                    if !(b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
                        break;
                    }
                    self.at += 1;
                }
                if self.at == start {
                    return Err(GaveUp);
                }
                Ok(Cow::Borrowed(&self.text[start..self.at]))
            }
        }
    }

    /// One value, `depth` arrays and inline tables down.
    fn value(&mut self, depth: u32) -> Result<Item<'a>, GaveUp> {
        if depth > DEEPEST {
            return Err(GaveUp);
        }
        let start = self.at;
        let value = match self.peek().ok_or(GaveUp)? {
            b'"' if self.at_start(b"\"\"\"") => Value::Str(Cow::Owned(self.multiline_basic()?)),
            b'"' => Value::Str(self.basic_string()?),
            b'\'' if self.at_start(b"'''") => Value::Str(Cow::Borrowed(self.multiline_literal()?)),
            b'\'' => Value::Str(self.literal_string()?),
            b'[' => self.array(depth)?,
            b'{' => self.inline_table(depth)?,
            b't' if self.at_start(b"true") => {
                self.at += 4;
                Value::Bool(true)
            }
            b'f' if self.at_start(b"false") => {
                self.at += 5;
                Value::Bool(false)
            }
            _ => self.number()?,
        };
        Ok(Item {
            start: start as u32,
            end: self.at as u32,
            value,
        })
    }

    /// `[ value, value, ]`, over lines and comments.
    fn array(&mut self, depth: u32) -> Result<Value<'a>, GaveUp> {
        self.at += 1;
        let mut items = Vec::new();
        loop {
            self.skip_space()?;
            if self.peek() == Some(b']') {
                self.at += 1;
                break;
            }
            items.push(self.value(depth + 1)?);
            self.skip_space()?;
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    break;
                }
                _ => return Err(GaveUp),
            }
        }
        Ok(Value::Array {
            items,
            headed: false,
        })
    }

    /// `{ key = value, key = value }` on one line, as TOML 1.0 writes it.
    fn inline_table(&mut self, depth: u32) -> Result<Value<'a>, GaveUp> {
        self.at += 1;
        self.skip_blanks();
        let mut entries = Entries::new();
        if self.peek() == Some(b'}') {
            self.at += 1;
        } else {
            loop {
                let key = self.key()?;
                self.skip_blanks();
                if self.peek() != Some(b'=') {
                    return Err(GaveUp);
                }
                self.at += 1;
                self.skip_blanks();
                let value = self.value(depth + 1)?;
                insert(&mut entries, key, value)?;
                self.skip_blanks();
                match self.peek() {
                    Some(b',') => {
                        self.at += 1;
                        self.skip_blanks();
                    }
                    Some(b'}') => {
                        self.at += 1;
                        break;
                    }
                    _ => return Err(GaveUp),
                }
            }
        }
        Ok(Value::Table {
            entries,
            headed: false,
        })
    }

    /// An integer or a float in decimal, as TOML writes them; anything else (hex, `inf`, a date)
    /// is given up on.
    fn number(&mut self) -> Result<Value<'a>, GaveUp> {
        let start = self.at;
        while let Some(b) = self.peek() {
            if !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'+' | b'-' | b'.' | b':')) {
                break;
            }
            self.at += 1;
        }
        number(&self.text[start..self.at])
    }

    /// `"..."` on one line.
    fn basic_string(&mut self) -> Result<Cow<'a, str>, GaveUp> {
        self.at += 1;
        let start = self.at;
        loop {
            match self.peek().ok_or(GaveUp)? {
                b'"' => {
                    self.at += 1;
                    return Ok(Cow::Borrowed(&self.text[start..self.at - 1]));
                }
                b'\\' => break,
                b if is_control(b) => return Err(GaveUp),
                _ => self.at += 1,
            }
        }
        let mut out = String::from(&self.text[start..self.at]);
        loop {
            match self.peek().ok_or(GaveUp)? {
                b'"' => {
                    self.at += 1;
                    return Ok(Cow::Owned(out));
                }
                b'\\' => self.escape(&mut out)?,
                b if is_control(b) => return Err(GaveUp),
                _ => self.plain_run(&mut out, b'"'),
            }
        }
    }

    /// Copies text up to the next quote, backslash or control character.
    fn plain_run(&mut self, out: &mut String, quote: u8) {
        let start = self.at;
        while let Some(b) = self.peek() {
            if b == quote || b == b'\\' || is_control(b) {
                break;
            }
            self.at += 1;
        }
        out.push_str(&self.text[start..self.at]);
    }

    /// One escape of TOML 1.0, from its backslash.
    fn escape(&mut self, out: &mut String) -> Result<(), GaveUp> {
        self.at += 1;
        let c = match self.peek().ok_or(GaveUp)? {
            b'b' => '\u{8}',
            b't' => '\t',
            b'n' => '\n',
            b'f' => '\u{c}',
            b'r' => '\r',
            b'"' => '"',
            b'\\' => '\\',
            b'u' => return self.unicode(4, out),
            b'U' => return self.unicode(8, out),
            _ => return Err(GaveUp),
        };
        self.at += 1;
        out.push(c);
        Ok(())
    }

    /// `\uXXXX` or `\UXXXXXXXX`, from its letter: a Unicode scalar value.
    fn unicode(&mut self, digits: usize, out: &mut String) -> Result<(), GaveUp> {
        let hex = self
            .text
            .get(self.at + 1..self.at + 1 + digits)
            .ok_or(GaveUp)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(GaveUp);
        }
        let code = u32::from_str_radix(hex, 16).map_err(|_| GaveUp)?;
        out.push(char::from_u32(code).ok_or(GaveUp)?);
        self.at += 1 + digits;
        Ok(())
    }

    /// Past the line end right after a multi-line string's opening quotes, which is not its text.
    fn skip_first_line_end(&mut self) {
        if self.peek() == Some(b'\n') {
            self.at += 1;
        } else if self.at_start(b"\r\n") {
            self.at += 2;
        }
    }

    /// How many quotes close a multi-line string here: the last three of a run of three to five
    /// (up to two quotes just before the closing ones are text). `None` when fewer than three.
    fn closing(&self, quote: u8) -> Result<Option<usize>, GaveUp> {
        let run = self.bytes[self.at..]
            .iter()
            .take_while(|b| **b == quote)
            .count();
        match run {
            0..=2 => Ok(None),
            3..=5 => Ok(Some(run)),
            _ => Err(GaveUp),
        }
    }

    /// `"""..."""`, escapes and line-ending backslashes read.
    fn multiline_basic(&mut self) -> Result<String, GaveUp> {
        self.at += 3;
        self.skip_first_line_end();
        let mut out = String::new();
        loop {
            match self.peek().ok_or(GaveUp)? {
                b'"' => match self.closing(b'"')? {
                    Some(run) => {
                        out.push_str(&"\"\""[..run - 3]);
                        self.at += run;
                        return Ok(out);
                    }
                    None => {
                        out.push('"');
                        self.at += 1;
                    }
                },
                b'\\' if self.line_ending_backslash() => {}
                b'\\' => self.escape(&mut out)?,
                b'\n' => {
                    out.push('\n');
                    self.at += 1;
                }
                b'\r' if self.at_start(b"\r\n") => {
                    out.push_str("\r\n");
                    self.at += 2;
                }
                b if is_control(b) => return Err(GaveUp),
                _ => self.plain_run(&mut out, b'"'),
            }
        }
    }

    /// A backslash that is the last thing on its line but blanks: it, the line end and every
    /// blank and line end after it are skipped. Whether it was one.
    fn line_ending_backslash(&mut self) -> bool {
        let rest = &self.bytes[self.at + 1..];
        let blanks = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        if !(rest[blanks..].starts_with(b"\n") || rest[blanks..].starts_with(b"\r\n")) {
            return false;
        }
        self.at += 1 + blanks;
        while let Some(b' ' | b'\t' | b'\n') = self.peek() {
            self.at += 1;
        }
        while self.at_start(b"\r\n") {
            self.at += 2;
            while let Some(b' ' | b'\t' | b'\n') = self.peek() {
                self.at += 1;
            }
        }
        true
    }

    /// `'...'` on one line: the text as written.
    fn literal_string(&mut self) -> Result<Cow<'a, str>, GaveUp> {
        self.at += 1;
        let start = self.at;
        loop {
            match self.peek().ok_or(GaveUp)? {
                b'\'' => {
                    self.at += 1;
                    return Ok(Cow::Borrowed(&self.text[start..self.at - 1]));
                }
                b if is_control(b) => return Err(GaveUp),
                _ => self.at += 1,
            }
        }
    }

    /// `'''...'''`: the text as written.
    fn multiline_literal(&mut self) -> Result<&'a str, GaveUp> {
        self.at += 3;
        self.skip_first_line_end();
        let start = self.at;
        loop {
            match self.peek().ok_or(GaveUp)? {
                b'\'' => {
                    if let Some(run) = self.closing(b'\'')? {
                        let end = self.at + run - 3;
                        self.at += run;
                        return Ok(&self.text[start..end]);
                    }
                    self.at += 1;
                }
                b'\n' => self.at += 1,
                b'\r' if self.at_start(b"\r\n") => self.at += 2,
                b if is_control(b) => return Err(GaveUp),
                _ => self.at += 1,
            }
        }
    }
}

/// A decimal integer (`-3`, `1_000`) or float (`0.5`, `1e3`, `-2.5E-3`) as TOML writes them.
fn number(token: &str) -> Result<Value<'static>, GaveUp> {
    let bytes = token.as_bytes();
    let unsigned = match bytes.first() {
        Some(b'+' | b'-') => &bytes[1..],
        _ => bytes,
    };
    let whole = digits(unsigned);
    if whole == 0 || (unsigned[0] == b'0' && whole > 1) {
        return Err(GaveUp);
    }
    let mut rest = &unsigned[whole..];
    if rest.is_empty() {
        let plain: String;
        let token = if token.contains('_') {
            plain = token.replace('_', "");
            &plain
        } else {
            token
        };
        return token.parse::<i64>().map(Value::Int).map_err(|_| GaveUp);
    }
    if token.contains('_') {
        return Err(GaveUp);
    }
    if let Some(after) = rest.strip_prefix(b".") {
        let fraction = digits(after);
        if fraction == 0 {
            return Err(GaveUp);
        }
        rest = &after[fraction..];
    }
    if let Some(after) = rest.strip_prefix(b"e").or_else(|| rest.strip_prefix(b"E")) {
        let after = match after.first() {
            Some(b'+' | b'-') => &after[1..],
            _ => after,
        };
        let exponent = digits(after);
        if exponent == 0 {
            return Err(GaveUp);
        }
        rest = &after[exponent..];
    }
    if !rest.is_empty() {
        return Err(GaveUp);
    }
    match token.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(Value::Float(f)),
        _ => Err(GaveUp),
    }
}

/// How long the run of digits at the start is, single underscores between digits included.
fn digits(bytes: &[u8]) -> usize {
    if !bytes.first().is_some_and(u8::is_ascii_digit) {
        return 0;
    }
    let mut i = 1;
    loop {
        match bytes.get(i) {
            Some(b) if b.is_ascii_digit() => i += 1,
            Some(b'_') if bytes.get(i + 1).is_some_and(u8::is_ascii_digit) => i += 2,
            _ => return i,
        }
    }
}
