//! gettext's PO files, the form every translation platform takes (Weblate, Crowdin, Pontoon,
//! Transifex): `write` makes one of a mod's texts, each under its key as `msgctxt` with its
//! source text as `msgid` (a plural's `one` and `other` as `msgid` and `msgid_plural`);
//! `read` takes a translated one back, its plural forms named by the file's own formula.

use super::plural_forms::{self, Formula};
use super::{Forms, Imported, Source};
use crate::diag::{Code, Diagnostic, FileId, Span};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// What the file is of: the mod, its version and language, and the language translated to
/// (`None`: a template, every `msgstr` empty).
pub(super) struct Header<'a> {
    pub mod_id: &'a str,
    pub version: &'a str,
    pub source_lang: &'a str,
    pub lang: Option<&'a str>,
}

/// The PO file of `sources`, with `translated`'s texts as the `msgstr`s.
pub(super) fn write(
    h: &Header<'_>,
    sources: &BTreeMap<String, Source>,
    translated: &BTreeMap<String, Forms>,
) -> String {
    let (lang, plural) = match h.lang {
        Some(lang) => (lang, plural_forms::header(lang)),
        None => ("", "nplurals=INTEGER; plural=EXPRESSION;".to_string()),
    };
    let mut out = format!(
        "# The texts of `{mod_id}` {version} a player reads, written in `{src}`{to}.\n\
         # Made by `lantern texts export`; `lantern texts import` takes the translation back.\n\
         msgid \"\"\nmsgstr \"\"\n",
        mod_id = h.mod_id,
        version = h.version,
        src = h.source_lang,
        to = h.lang.map_or(String::new(), |l| format!(", for `{l}`")),
    );
    let version = env!("CARGO_PKG_VERSION");
    for field in [
        format!("Project-Id-Version: {} {}", h.mod_id, h.version),
        format!("Language: {lang}"),
        "MIME-Version: 1.0".into(),
        "Content-Type: text/plain; charset=UTF-8".into(),
        "Content-Transfer-Encoding: 8bit".into(),
        format!("Plural-Forms: {plural}"),
        format!("X-Generator: lantern {version}"),
        format!("X-Lantern-Mod: {}", h.mod_id),
        format!("X-Source-Language: {}", h.source_lang),
    ] {
        let _ = writeln!(out, "{}", quoted(&format!("{field}\n")));
    }
    let cats = h.lang.map(crate::content::locale::categories);
    for (key, source) in sources {
        out.push('\n');
        let args = source.args();
        if !args.is_empty() {
            let names: Vec<String> = args.iter().map(|a| format!("{{{a}}}")).collect();
            let _ = writeln!(out, "#. keep {} as written", names.join(", "));
        }
        if let Some(place) = &source.place {
            let _ = writeln!(out, "#: {}", place.replace(char::is_whitespace, "_"));
        }
        let _ = writeln!(out, "msgctxt {}", quoted(key));
        let done = translated.get(key);
        let form = |cat: &str| {
            done.and_then(|forms| {
                let f = forms.iter().find(|(c, _)| *c == Some(cat) || c.is_none());
                f.or_else(|| forms.iter().find(|(c, _)| *c == Some("other")))
            })
            .map_or("", |(_, t)| t.as_str())
        };
        if source.is_plural() {
            let _ = writeln!(out, "msgid {}", quoted(source.form("one")));
            let _ = writeln!(out, "msgid_plural {}", quoted(source.form("other")));
            let cats = cats.clone().unwrap_or_else(|| vec!["one", "other"]);
            for (i, cat) in cats.iter().enumerate() {
                let text = if h.lang.is_some() { form(cat) } else { "" };
                let _ = writeln!(out, "msgstr[{i}] {}", quoted(text));
            }
        } else {
            let _ = writeln!(out, "msgid {}", quoted(source.form("other")));
            let text =
                done.and_then(|f| f.iter().find(|(c, _)| c.is_none() || *c == Some("other")));
            let _ = writeln!(out, "msgstr {}", quoted(text.map_or("", |(_, t)| t)));
        }
    }
    out
}

/// `text` as a PO string: C's escapes, long texts on lines of their own after a line break.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                // Octal, as C and gettext read it: three digits, so no digit after it is taken in.
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    let _ = write!(out, "\\{b:03o}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One entry as read: its keywords' strings and where it starts.
#[derive(Default)]
struct Entry {
    ctxt: Option<String>,
    id: Option<String>,
    plural: Option<String>,
    strs: BTreeMap<usize, String>,
    fuzzy: bool,
    obsolete: bool,
    at: usize,
}

/// Reads a PO file (`file` in the source map): its texts by key, each made from its `msgid`.
/// An entry with no `msgctxt` is the key whose source is its `msgid`, when one key has it.
/// Untranslated and fuzzy entries are counted and left out, as gettext leaves them out.
pub(super) fn read(
    text: &str,
    file: FileId,
    by_source: &dyn Fn(&str) -> Vec<String>,
) -> Result<Imported, Diagnostic> {
    let entries = parse(text, file)?;
    let mut imported = Imported::default();
    let mut formula: Option<Formula> = None;
    for e in entries {
        let at = Span::new(file, e.at..e.at);
        let (Some(id), false) = (&e.id, e.obsolete) else {
            continue;
        };
        if id.is_empty() && e.ctxt.is_none() {
            header_fields(&e, at, &mut imported, &mut formula)?;
            continue;
        }
        let key = match &e.ctxt {
            Some(key) => key.clone(),
            None => match by_source(id).as_slice() {
                [key] => key.clone(),
                [] => {
                    imported
                        .unknown
                        .push(format!("\"{}\"", crate::diag::visible(id)));
                    continue;
                }
                _ => {
                    imported
                        .ambiguous
                        .push(format!("\"{}\"", crate::diag::visible(id)));
                    continue;
                }
            },
        };
        if e.fuzzy {
            imported.fuzzy += 1;
            continue;
        }
        let forms: Forms = if e.plural.is_some() {
            let lang = imported.lang.clone().unwrap_or_default();
            let named = match &formula {
                Some(f) => f.categories(&lang),
                None => (crate::content::locale::categories(&lang)
                    .into_iter()
                    .map(Some))
                .collect(),
            };
            (e.strs.iter())
                .filter(|(_, t)| !t.is_empty())
                .filter_map(|(i, t)| {
                    named
                        .get(*i)
                        .copied()
                        .flatten()
                        .map(|c| (Some(c), t.clone()))
                })
                .collect()
        } else {
            (e.strs.get(&0).filter(|t| !t.is_empty()).into_iter())
                .map(|t| (None, t.clone()))
                .collect()
        };
        if forms.is_empty() {
            imported.untranslated += 1;
            continue;
        }
        let source = e.plural.clone().unwrap_or_else(|| id.clone());
        imported.made_from.insert(key.clone(), source);
        imported.texts.insert(key, forms);
    }
    Ok(imported)
}

/// The header entry's `Language`, `X-Lantern-Mod` and `Plural-Forms`.
fn header_fields(
    e: &Entry,
    at: Span,
    imported: &mut Imported,
    formula: &mut Option<Formula>,
) -> Result<(), Diagnostic> {
    let header = e.strs.get(&0).map(String::as_str).unwrap_or("");
    for line in header.lines() {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim() {
            "Language" if !value.is_empty() => imported.lang = Some(value.replace('_', "-")),
            "X-Lantern-Mod" if !value.is_empty() => imported.mod_id = Some(value.to_string()),
            "Plural-Forms" if !value.contains("INTEGER") => {
                let f = Formula::parse(value).map_err(|why| {
                    Diagnostic::error(
                        Code::Locale,
                        format!("the file's `Plural-Forms` cannot be read: {why}"),
                    )
                    .at(at)
                    .with_help(
                        "a platform writes it for the language: `nplurals=2; plural=(n != 1);`",
                    )
                })?;
                *formula = Some(f);
            }
            _ => {}
        }
    }
    Ok(())
}

/// The most entries a file may hold: far beyond any mod's texts.
const MOST_ENTRIES: usize = 1_000_000;

/// The file's entries, or the first line that is not PO with what is wrong with it.
fn parse(text: &str, file: FileId) -> Result<Vec<Entry>, Diagnostic> {
    let mut entries = Vec::new();
    let mut e = Entry::default();
    let mut started = false;
    // The string a continuation line (`"..."`) adds to.
    let mut last: Option<Target> = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len();
        let wrong = |what: String| {
            let trimmed = line.trim_end().len();
            Diagnostic::error(Code::Locale, what)
                .at(Span::new(file, here..here + trimmed.max(1).min(line.len())))
        };
        let mut l = line.trim();
        let obsolete = l.starts_with("#~");
        if obsolete {
            l = l[2..].trim_start();
        } else if l.starts_with('#') {
            if l.starts_with("#,") && l.contains("fuzzy") {
                if started {
                    entries.push(std::mem::take(&mut e));
                    started = false;
                }
                e.fuzzy = true;
            }
            continue;
        }
        if l.is_empty() {
            continue;
        }
        if l.starts_with('"') {
            let s = string(l).map_err(&wrong)?;
            match last {
                Some(t) => e.target(t).push_str(&s),
                None => return Err(wrong("a string continues no `msgid` or `msgstr`".into())),
            }
            continue;
        }
        let (word, rest) = l.split_once(|c: char| c.is_whitespace()).unwrap_or((l, ""));
        let target = match word {
            "msgctxt" => Target::Ctxt,
            "msgid" => Target::Id,
            "msgid_plural" => Target::Plural,
            "msgstr" => Target::Str(0),
            w if w.starts_with("msgstr[") && w.ends_with(']') => {
                let n = w["msgstr[".len()..w.len() - 1].parse().ok().filter(|n: &usize| *n < 6);
                Target::Str(n.ok_or_else(|| wrong(format!("`{}` is no plural form from 0 to 5", crate::diag::visible(w))))?)
            }
            w => {
                return Err(wrong(format!(
                    "`{}` is not a PO keyword: an entry is `msgctxt`, `msgid`, `msgid_plural` and `msgstr`",
                    crate::diag::visible(w)
                )))
            }
        };
        // `msgctxt` or `msgid` after a `msgstr` starts the next entry.
        if matches!(target, Target::Ctxt | Target::Id)
            && (!e.strs.is_empty() || (target == Target::Ctxt && e.id.is_some()))
        {
            entries.push(std::mem::take(&mut e));
            if entries.len() > MOST_ENTRIES {
                return Err(wrong(format!(
                    "the file holds more than {MOST_ENTRIES} entries"
                )));
            }
        }
        if !started || e.id.is_none() && e.ctxt.is_none() {
            e.at = here;
        }
        started = true;
        e.obsolete |= obsolete;
        *e.target(target) = string(rest.trim()).map_err(&wrong)?;
        last = Some(target);
    }
    if started || e.id.is_some() {
        entries.push(e);
    }
    Ok(entries)
}

/// Which string of an entry a line writes.
#[derive(Clone, Copy, PartialEq)]
enum Target {
    Ctxt,
    Id,
    Plural,
    Str(usize),
}

impl Entry {
    fn target(&mut self, t: Target) -> &mut String {
        match t {
            Target::Ctxt => self.ctxt.get_or_insert_with(String::new),
            Target::Id => self.id.get_or_insert_with(String::new),
            Target::Plural => self.plural.get_or_insert_with(String::new),
            Target::Str(i) => self.strs.entry(i).or_default(),
        }
    }
}

/// A quoted PO string's text.
fn string(s: &str) -> Result<String, String> {
    let inner = (s.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .filter(|_| s.len() >= 2)
        .ok_or_else(|| format!("`{}` is not a quoted string", crate::diag::visible(s)))?;
    let mut bytes = Vec::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c == '"' {
            return Err("a `\"` inside a string is written `\\\"`".into());
        }
        if c != '\\' {
            let mut buf = [0; 4];
            bytes.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let Some((_, e)) = chars.next() else {
            return Err("the string ends in a lone `\\`".into());
        };
        match e {
            'n' => bytes.push(b'\n'),
            't' => bytes.push(b'\t'),
            'r' => bytes.push(b'\r'),
            'a' => bytes.push(7),
            'b' => bytes.push(8),
            'f' => bytes.push(12),
            'v' => bytes.push(11),
            '"' | '\\' | '\'' | '?' => bytes.push(e as u8),
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|(_, d)| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                bytes.push((v & 0xFF) as u8);
            }
            'x' => {
                let mut v = 0u32;
                let mut any = false;
                while let Some(d) = chars.peek().and_then(|(_, d)| d.to_digit(16)) {
                    v = (v * 16 + d) & 0xFF;
                    any = true;
                    chars.next();
                }
                if !any {
                    return Err("`\\x` takes hexadecimal digits".into());
                }
                bytes.push(v as u8);
            }
            other => {
                return Err(format!(
                    "`\\{}` is no escape",
                    crate::diag::visible(&other.to_string())
                ))
            }
        }
    }
    String::from_utf8(bytes).map_err(|_| "the string's escapes make no UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_read_back_as_written() {
        for text in [
            "plain",
            "say \"hi\"\\",
            "two\nlines\tand\r",
            "\u{1b}[31m red",
            "é ü 字",
            "\u{7}0",
        ] {
            assert_eq!(string(&quoted(text)).unwrap(), text, "{text:?}");
        }
        assert_eq!(string(r#""\x41\101\?""#).unwrap(), "AA?");
        assert!(string("\"a\"b\"").unwrap_err().contains("inside a string"));
        assert!(string("\"a\\").unwrap_err().contains("not a quoted string"));
        assert!(string("\"\\q\"").unwrap_err().contains("no escape"));
        assert!(string("\"\\377\"").unwrap_err().contains("UTF-8"));
    }
}
