//! Reading a mod's locale files: `locale/<lang>.toml` holds the mod's own texts in one language,
//! `locale/<mod>/<lang>.toml` another mod's (a translation mod's files). Nested tables are dotted
//! keys; a table of plural forms (`one`, `other`, ...) is one text.

use super::text::{Template, Text, CATEGORIES};
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, SourceMap, Span};
use crate::mods::files::display_path;
use crate::mods::{Found, ModFolder};
use toml::de::DeValue;
use toml::Spanned;

/// One locale file, read.
#[derive(Debug)]
pub(crate) struct LocaleFile {
    /// The mod whose folder holds it.
    pub by: String,
    /// The mod whose texts it gives (`by` itself, or the mod it translates).
    pub ns: String,
    /// Its language tag, from its name.
    pub lang: String,
    /// Where the file is.
    pub file: FileId,
    /// Its texts by dotted key, each with where its value is written, in the file's order.
    pub texts: Vec<(String, Text, Span)>,
    /// Its `[made_from]` table: the text in the mod's own language each key was translated
    /// from, with where it is written (`"creatures.rat.name" = "Rat"`).
    pub made_from: Vec<(String, String, Span)>,
}

/// The top-level table of a translation that says what each text was translated from.
pub(crate) const MADE_FROM: &str = "made_from";

/// Reads every locale file of `m`.
pub(crate) fn read_mod(
    m: &ModFolder,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Vec<LocaleFile> {
    let root = &m.real;
    let locale_dir = m.dir.join("locale");
    let mut out = Vec::new();
    for found in crate::mods::walk(root, &locale_dir) {
        let path = match found {
            Found::File(path) => path,
            Found::Refused(path, refused) => {
                diags.push(refused.diagnostic(&display_path(&path, &m.root)));
                continue;
            }
            Found::TooMany => continue,
        };
        let display = display_path(&path, &m.root);
        let Some((ns, lang)) = place(&locale_dir, &path, m.id()) else {
            diags.push(
                Diagnostic::warning(Code::Locale, format!("`{display}` is not read"))
                    .with_help("a locale file is `locale/<language>.toml` (`locale/de.toml`), or `locale/<mod>/<language>.toml` to translate another mod"),
            );
            continue;
        };
        let bytes = match crate::mods::read_inside(root, &path) {
            Ok(b) => b,
            Err(refused) => {
                diags.push(refused.diagnostic(&display));
                continue;
            }
        };
        let (text, utf8_error) = crate::mods::decode_utf8(bytes);
        let file = sources.add_read(display.clone(), &path, text);
        if let Some((offset, d)) = utf8_error {
            diags.push(d.at(Span::new(file, offset..offset + 1)));
            continue;
        }
        if let Err((what, code)) = crate::mods::language_tag(&lang) {
            let help = match code {
                Some(code) => format!("name the file by its language's code: `{code}.toml`"),
                None => {
                    "name the file by its language: `en.toml`, `de.toml`, `zh-Hans.toml`".into()
                }
            };
            diags.push(
                Diagnostic::error(Code::Locale, format!("`{lang}` in `{display}` {what}"))
                    .at(Span::file_start(file))
                    .with_help(help),
            );
            continue;
        }
        let text = sources.get(file).text().to_string();
        let texts = read_texts(&text, file, diags);
        let made_from = read_made_from(&text, file, diags);
        out.push(LocaleFile {
            by: m.id().to_string(),
            ns,
            lang,
            file,
            texts,
            made_from,
        });
    }
    out
}

/// The namespace and language a path under `locale/` gives, if it is one of the two shapes.
fn place(
    locale_dir: &std::path::Path,
    path: &std::path::Path,
    own: &str,
) -> Option<(String, String)> {
    let rel = path.strip_prefix(locale_dir).ok()?;
    let parts: Vec<&str> = rel.iter().filter_map(|p| p.to_str()).collect();
    let lang_of = |file: &str| file.strip_suffix(".toml").map(str::to_string);
    match parts.as_slice() {
        [file] => Some((own.to_string(), lang_of(file)?)),
        [ns, file] if crate::id::is_ident(ns) => Some((ns.to_string(), lang_of(file)?)),
        _ => None,
    }
}

/// The texts of one file's text, by dotted key; every mistake is a diagnostic and costs only its
/// own key.
pub(crate) fn read_texts(
    text: &str,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, Text, Span)> {
    let doc = match crate::toml_file::parse_document(text, file) {
        Ok(doc) => doc.into_inner(),
        Err(errors) => {
            diags.extend(errors.into_iter().take(1));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    let mut reader = Reader {
        file,
        diags,
        out: &mut out,
    };
    for (key, value) in doc {
        if key.get_ref() != MADE_FROM {
            reader.value(key.get_ref(), key.span(), value);
        }
    }
    out
}

/// A file's `[made_from]` table, by dotted key: parsed again only when the file has one.
pub(crate) fn read_made_from(
    text: &str,
    file: FileId,
    diags: &mut Vec<Diagnostic>,
) -> Vec<(String, String, Span)> {
    if !text.contains(MADE_FROM) {
        return Vec::new();
    }
    let Ok(doc) = crate::toml_file::parse_document(text, file) else {
        return Vec::new();
    };
    let Some((_, table)) = doc
        .into_inner()
        .into_iter()
        .find(|(k, _)| k.get_ref() == MADE_FROM)
    else {
        return Vec::new();
    };
    let at = Span::new(file, table.span());
    let DeValue::Table(entries) = table.into_inner() else {
        diags.push(
            Diagnostic::error(
                Code::WrongType,
                format!("`{MADE_FROM}` is a table of each key's source text"),
            )
            .at(at)
            .with_help(format!("[{MADE_FROM}]\n\"creatures.rat.name\" = \"Rat\"")),
        );
        return Vec::new();
    };
    let mut out = Vec::new();
    for (key, value) in entries {
        let at = Span::new(file, value.span());
        match value.into_inner() {
            DeValue::String(source) => {
                out.push((key.get_ref().to_string(), source.into_owned(), at))
            }
            other => diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!(
                        "`{MADE_FROM}.\"{}\"` is {}: it is the text the key was translated from",
                        key.get_ref(),
                        describe(&other)
                    ),
                )
                .at(at),
            ),
        }
    }
    out
}

struct Reader<'a> {
    file: FileId,
    diags: &'a mut Vec<Diagnostic>,
    out: &'a mut Vec<(String, Text, Span)>,
}

impl Reader<'_> {
    fn value(&mut self, key: &str, key_span: std::ops::Range<usize>, value: Spanned<DeValue<'_>>) {
        let span = Span::new(self.file, value.span());
        match value.into_inner() {
            DeValue::String(s) => match Template::parse(&s) {
                Ok(t) => self.out.push((key.to_string(), Text::One(t), span)),
                Err(why) => self.diags.push(
                    Diagnostic::error(
                        Code::Locale,
                        format!("the text `{key}` is malformed: {why}"),
                    )
                    .at(span),
                ),
            },
            DeValue::Table(table) if is_plural(&table) => self.plural(key, span, table),
            DeValue::Table(table) => {
                for (k, v) in table {
                    let dotted = format!("{key}.{}", k.get_ref());
                    self.value(&dotted, k.span(), v);
                }
            }
            other => self.diags.push(
                Diagnostic::error(
                    Code::WrongType,
                    format!(
                        "`{key}` is {}: a text is a string, or a table of plural forms",
                        describe(&other)
                    ),
                )
                .at(Span::new(self.file, key_span)),
            ),
        }
    }

    fn plural(&mut self, key: &str, span: Span, table: toml::de::DeTable<'_>) {
        let mut forms = std::collections::BTreeMap::new();
        let mut broken = false;
        for (k, v) in table {
            let at = Span::new(self.file, v.span());
            if GO_I18N_NOTES.contains(&k.get_ref().as_ref()) {
                continue;
            }
            let Some(category) = CATEGORIES.iter().find(|c| **c == k.get_ref().as_ref()) else {
                unreachable_category(self.diags, key, k.get_ref(), Span::new(self.file, k.span()));
                broken = true;
                continue;
            };
            match v.into_inner() {
                DeValue::String(s) => match Template::parse(&s) {
                    Ok(t) => {
                        forms.insert(*category, t);
                    }
                    Err(why) => {
                        self.diags.push(
                            Diagnostic::error(
                                Code::Locale,
                                format!("the `{category}` form of `{key}` is malformed: {why}"),
                            )
                            .at(at),
                        );
                        broken = true;
                    }
                },
                other => {
                    self.diags.push(
                        Diagnostic::error(
                            Code::WrongType,
                            format!(
                                "the `{category}` form of `{key}` is {}: a plural form is a string",
                                describe(&other)
                            ),
                        )
                        .at(at),
                    );
                    broken = true;
                }
            }
        }
        if !forms.contains_key("other") {
            self.diags.push(
                Diagnostic::error(
                    Code::Locale,
                    format!("the plural `{key}` has no `other` form"),
                )
                .at(span)
                .with_help(
                    "every plural needs `other`, the form for every count no other form takes",
                ),
            );
            return;
        }
        if broken {
            return;
        }
        // `other` alone is one text: go-i18n (and a platform writing its TOML) writes every
        // message so, and a data text written so takes no `count`.
        let text = match forms.remove("other") {
            Some(other) if forms.is_empty() => Text::One(other),
            Some(other) => {
                forms.insert("other", other);
                Text::Plural(forms)
            }
            None => return,
        };
        self.out.push((key.to_string(), text, span));
    }
}

/// The keys go-i18n's messages hold beside their forms: notes for translators, not texts.
const GO_I18N_NOTES: [&str; 2] = ["description", "hash"];

/// A table is a plural when it holds `other` or `one` and nothing but plural forms, go-i18n's
/// notes, or near-misses of the forms (`ohter`), so a misspelt form is reported rather than read
/// as a nested key.
fn is_plural(table: &toml::de::DeTable<'_>) -> bool {
    let names: Vec<&str> = table.keys().map(|k| k.get_ref().as_ref()).collect();
    names.iter().any(|n| *n == "other" || *n == "one")
        && names.iter().all(|n| {
            CATEGORIES.contains(n)
                || GO_I18N_NOTES.contains(n)
                || did_you_mean(n, CATEGORIES.iter().copied()).is_some()
        })
}

fn describe(v: &DeValue<'_>) -> &'static str {
    match v {
        DeValue::String(_) => "a string",
        DeValue::Integer(_) => "an integer",
        DeValue::Float(_) => "a float",
        DeValue::Boolean(_) => "a boolean",
        DeValue::Datetime(_) => "a date",
        DeValue::Array(_) => "an array",
        DeValue::Table(_) => "a table",
    }
}

fn unreachable_category(diags: &mut Vec<Diagnostic>, key: &str, written: &str, at: Span) {
    diags.push(
        Diagnostic::error(
            Code::Locale,
            format!("`{written}` is not a plural form (in `{key}`)"),
        )
        .at(at)
        .with_help_opt(
            did_you_mean(written, CATEGORIES.iter().copied())
                .or(Some(format!("the forms are {}", CATEGORIES.join(", ")))),
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (Vec<(String, Text, Span)>, Vec<String>) {
        let mut diags = Vec::new();
        let texts = read_texts(text, FileId(0), &mut diags);
        (texts, diags.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn nested_tables_are_dotted_keys_and_plural_tables_are_one_text() {
        let (texts, diags) = read(
            "greeting = \"Hallo\"\n[creatures.rat]\nname = \"Ratte\"\n[rats_left]\none = \"{count} Ratte\"\nother = \"{count} Ratten\"\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        let keys: Vec<&str> = texts.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(keys, ["creatures.rat.name", "greeting", "rats_left"]);
        assert!(matches!(texts[2].1, Text::Plural(_)));
    }

    /// A platform's go-i18n TOML: every message a table of its forms with a `description`; one
    /// of `other` alone is a single text.
    #[test]
    fn go_i18n_messages_read_as_lantern_texts() {
        let (texts, diags) = read(
            "[items.rat_tail.name]\nother = \"Rattenschwanz\"\n\n[rats_left]\ndescription = \"shown after each rat\"\nhash = \"sha1-1234\"\none = \"{count} Ratte\"\nother = \"{count} Ratten\"\n",
        );
        assert!(diags.is_empty(), "{diags:?}");
        assert!(
            matches!(&texts[0], (k, Text::One(t), _) if k == "items.rat_tail.name" && t.written() == "Rattenschwanz")
        );
        let Text::Plural(forms) = &texts[1].1 else {
            panic!("{:?}", texts[1]);
        };
        assert_eq!(forms.keys().copied().collect::<Vec<_>>(), ["one", "other"]);
        assert!(
            !texts[0].1.args().contains(&"count"),
            "no false `{{count}}`"
        );
    }

    #[test]
    fn malformed_texts_and_plurals_are_each_reported() {
        let (texts, diags) =
            read("a = \"{count\"\nb = 3\n[c]\none = \"x\"\n[d]\none = \"x\"\nohter = \"y\"\n");
        assert!(texts.is_empty());
        assert_eq!(diags.len(), 5, "{diags:?}");
        assert!(diags[0].contains("`a` is malformed"));
        assert!(diags[1].contains("`b` is an integer"), "{}", diags[1]);
        assert!(diags[2].contains("`c` has no `other`"));
        assert!(diags[3].contains("`ohter` is not a plural form"));
    }
}
