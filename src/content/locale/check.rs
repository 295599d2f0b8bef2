//! Translation mistakes, found by `lantern check`: a text used and defined in no language, a
//! language missing some of a mod's texts (one warning per mod and language, with the count), a
//! text defined and never used, an argument a text uses that no caller gives, a plural form the
//! language never chooses. And the coverage per mod and language, for a portal to show.

use super::{Locales, Space, Text, LANTERN};
use crate::content::Content;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, Span};
use std::collections::{BTreeMap, BTreeSet};

/// The most key comparisons "did you mean" makes for one namespace's stray keys: a few
/// hundred suggestions for a mod of a few hundred texts, one or two for a flood of them.
const MOST_COMPARED: usize = 100_000;

/// A text a script names with a literal key (`lantern.text("rats_left", { count = n })`).
#[derive(Debug, Clone)]
pub(crate) struct TextUse {
    /// Its namespace (the calling mod's for a bare key).
    pub ns: String,
    pub key: String,
    /// The arguments the call gives, when they are written as a table constructor.
    pub args: Option<Vec<String>>,
    pub at: Span,
}

/// What the scripts say of texts.
#[derive(Debug, Default)]
pub(crate) struct ScriptTexts {
    pub uses: Vec<TextUse>,
    /// Mods whose scripts name a text by a key built at run time: their texts are not reported
    /// unused, since any may be.
    pub dynamic: BTreeSet<String>,
}

/// How much of a mod's texts one language has.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Coverage {
    /// The mod whose texts these are (`lantern` for lantern's own).
    pub mod_id: String,
    /// The language.
    pub language: String,
    /// Texts the mod has in its own language (less those marked `untranslated`).
    pub texts: usize,
    /// How many of them this language has.
    pub translated: usize,
    /// The keys it lacks, in order.
    pub missing: Vec<String>,
}

impl Content {
    /// For every mod and every language its texts are translated into (by it or by another mod),
    /// how many of its texts that language has.
    pub fn coverage(&self) -> Vec<Coverage> {
        coverage(self, &data_keys(self))
    }
}

/// [`Content::coverage`] with the data's keys already gathered.
fn coverage(content: &Content, data: &BTreeMap<&str, BTreeSet<String>>) -> Vec<Coverage> {
    let mut out = Vec::new();
    for (ns, space) in content.locales.spaces() {
        let expected = expected(space, data.get(ns.as_str()));
        // A language some locale file gives (lantern's built-in German is no mod's work).
        let given = |texts: &BTreeMap<String, super::Entry>| texts.values().any(|e| e.at.is_some());
        for (lang, _) in space
            .langs
            .iter()
            .filter(|(l, t)| **l != space.default && given(t))
        {
            let missing: Vec<String> = expected
                .iter()
                .filter(|k| space.find_in(k, lang).is_none())
                .map(|k| k.to_string())
                .collect();
            out.push(Coverage {
                mod_id: ns.clone(),
                language: lang.clone(),
                texts: expected.len(),
                translated: expected.len() - missing.len(),
                missing,
            });
        }
    }
    out
}

/// The keys the data's written texts have, by namespace: the texts in each mod's own language
/// that a translation gives again (a text that names a key is that key's).
/// Only the mods with locale files are gathered: what the keys serve (a translation's coverage, a
/// locale file's unused keys) is about those files, and a pack of a hundred thousand definitions
/// and no translation made a key for every text of every one.
fn data_keys(content: &Content) -> BTreeMap<&str, BTreeSet<String>> {
    let base = content.untranslated.as_deref().unwrap_or(content);
    let mut keys: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let with_files: BTreeSet<&str> = base
        .locales
        .spaces()
        .filter(|(_, s)| s.langs.values().any(|t| t.values().any(|e| e.at.is_some())))
        .map(|(ns, _)| ns.as_str())
        .collect();
    if with_files.is_empty() {
        return keys;
    }
    super::fields::each_text_read(base, |f| {
        if f.text.is_empty() || !with_files.contains(f.ns()) {
            return;
        }
        let own = f.key();
        let named = base
            .locales
            .space(f.ns())
            .is_some_and(|s| s.aliases.contains_key(&own));
        if !named {
            if let Some((ns, _)) = base.locales.spaces.get_key_value(f.ns()) {
                keys.entry(ns.as_str()).or_default().insert(own);
            }
        }
    });
    keys
}

/// The keys every translation of `space` should have: its own language's locale file and its
/// data's written texts, less what needs no translation.
fn expected<'a>(space: &'a Space, data: Option<&'a BTreeSet<String>>) -> Vec<&'a str> {
    let mut keys: BTreeSet<&str> = space
        .langs
        .get(&space.default)
        .into_iter()
        .flat_map(|t| t.keys())
        .map(String::as_str)
        .collect();
    keys.extend(data.into_iter().flatten().map(String::as_str));
    keys.into_iter()
        .filter(|k| !space.is_untranslated(k))
        .collect()
}

/// Who says each text (by namespace and key), with the arguments each gives when known and where
/// it says it.
type Given = BTreeMap<(String, String), Vec<(Option<Vec<String>>, Option<Span>)>>;

/// Every translation mistake of the content and the scripts.
pub(crate) fn check(content: &Content, scripts: &ScriptTexts) -> Vec<Diagnostic> {
    let locales = &content.locales;
    let mut diags = Vec::new();
    // Who gives which arguments to each text: data (none), the game's code, lantern, scripts.
    let mut given = Given::new();
    game_texts(content, &mut given, &mut diags);
    if let Some(own) = locales.space(LANTERN).and_then(|s| s.langs.get("en")) {
        for (key, entry) in own {
            let args = entry.text.args().into_iter().map(String::from).collect();
            given
                .entry((LANTERN.into(), key.clone()))
                .or_default()
                .push((Some(args), None));
        }
    }
    script_texts(content, scripts, &mut given, &mut diags);
    let data = data_keys(content);
    let none = BTreeSet::new();
    let named: BTreeSet<(String, String)> = locales
        .spaces()
        .flat_map(|(ns, s)| {
            s.aliases.values().map(move |k| match k.split_once(':') {
                Some((other, key)) => (other.to_string(), key.to_string()),
                None => (ns.clone(), k.clone()),
            })
        })
        .collect();
    for (ns, space) in locales.spaces() {
        let mut ctx = SpaceCheck {
            content,
            ns,
            space,
            data: data.get(ns.as_str()).unwrap_or(&none),
            named: &named,
            given: &given,
            dynamic: scripts.dynamic.contains(ns.as_str()),
            diags: &mut diags,
        };
        ctx.unused();
        ctx.arguments();
        ctx.plurals();
        ctx.stale();
    }
    coverage_gaps(content, &data, &mut diags);
    diags.extend(placeholders_in_data(content));
    diags
}

/// The texts the game's code says: each with its arguments into `given`, and the keys a mod
/// with locale files lacks, said once for the mod.
fn game_texts<'c>(content: &'c Content, given: &mut Given, diags: &mut Vec<Diagnostic>) {
    let locales = &content.locales;
    let mut lacking: BTreeMap<&'c str, Vec<&'c str>> = BTreeMap::new();
    for (id, args) in &content.declared.texts {
        let (ns, key) = (id.as_str().split_once(':')).unwrap_or((LANTERN, id.as_str()));
        let args = args.iter().map(|a| a.to_string()).collect();
        given
            .entry((ns.into(), key.into()))
            .or_default()
            .push((Some(args), None));
        // A mod that has no locale files at all (a stand-in for the game's home mod in a test) is not written
        // for this game's messages; one that has them and lacks some is.
        let localized = locales.space(ns).is_some_and(|s| {
            s.langs
                .values()
                .flat_map(|t| t.values())
                .any(|e| e.at.is_some())
        });
        if localized && !locales.has(ns, key) {
            lacking.entry(ns).or_default().push(key);
        }
    }
    for (ns, keys) in lacking {
        diags.push(
            Diagnostic::warning(
                Code::Locale,
                format!(
                    "the game says {} of `{ns}`'s texts that no language of `{ns}` has: {}",
                    keys.len(),
                    first_five(&keys)
                ),
            )
            .with_help(format!(
                "players read `[missing text {ns}:{}]`; add the texts to `{ns}`'s locale/<language>.toml",
                keys[0]
            )),
        );
    }
}

/// The texts scripts name with a literal key: each with its arguments into `given`; one no
/// language of its mod has is said at the call.
fn script_texts(
    content: &Content,
    scripts: &ScriptTexts,
    given: &mut Given,
    diags: &mut Vec<Diagnostic>,
) {
    let locales = &content.locales;
    for u in &scripts.uses {
        given
            .entry((u.ns.clone(), u.key.clone()))
            .or_default()
            .push((u.args.clone(), Some(u.at)));
        if !locales.has(&u.ns, &u.key) {
            diags.push(
                Diagnostic::warning(
                    Code::Locale,
                    format!(
                        "`{}:{}` is a text no language of `{}` has",
                        u.ns, u.key, u.ns
                    ),
                )
                .at(u.at)
                .with_help_opt(locales.space(&u.ns).and_then(|s| {
                    did_you_mean(
                        &u.key,
                        s.langs.values().flat_map(|t| t.keys().map(String::as_str)),
                    )
                })),
            );
        }
    }
}

/// Each language that lacks some of a mod's texts, said at its file with the first few keys.
fn coverage_gaps(
    content: &Content,
    data: &BTreeMap<&str, BTreeSet<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    let locales = &content.locales;
    for c in coverage(content, data)
        .into_iter()
        .filter(|c| !c.missing.is_empty())
    {
        let at = file_of(locales, &c.mod_id, &c.language);
        let d = Diagnostic::warning(
            Code::Locale,
            format!(
                "`{}` lacks {} of `{}`'s {} texts: {}",
                c.language,
                c.missing.len(),
                c.mod_id,
                c.texts,
                first_five(&c.missing)
            ),
        )
        .with_help(format!(
            "players in `{}` read these in `{}`'s own language; translate them, or list a text that reads the same in every language in `untranslated` in mod.toml",
            c.language, c.mod_id
        ));
        diags.push(match at {
            Some(at) => d.at(at),
            None => d,
        });
    }
}

/// The first five keys of a list, quoted, and how many more there are.
fn first_five<K: AsRef<str>>(keys: &[K]) -> String {
    let mut shown: Vec<String> = (keys.iter().take(5))
        .map(|k| format!("`{}`", k.as_ref()))
        .collect();
    if keys.len() > 5 {
        shown.push(format!("and {} more", keys.len() - 5));
    }
    shown.join(", ")
}

/// A data text written with a `{placeholder}` (`description = "Deals {damage} damage"`): a data
/// text is no template, so players would read the braces as written. Said once per mod, at the
/// first such text, with how many more there are.
fn placeholders_in_data(content: &Content) -> Vec<Diagnostic> {
    let base = content.untranslated.as_deref().unwrap_or(content);
    // Per mod: the first such text (its key, place and placeholder) and how many there are.
    let mut found: BTreeMap<String, ((String, Span, String), usize)> = BTreeMap::new();
    super::fields::each_text_read(base, |f| {
        if f.text.starts_with('@') {
            return;
        }
        if let Some(name) = placeholder(f.text) {
            found
                .entry(f.ns().to_string())
                .or_insert_with(|| ((f.key(), f.at, name.to_string()), 0))
                .1 += 1;
        }
    });
    found
        .into_iter()
        .map(|(ns, ((key, at, name), count))| {
            let more = match count - 1 {
                0 => String::new(),
                1 => format!(" (and 1 more text of `{ns}`)"),
                n => format!(" (and {n} more texts of `{ns}`)"),
            };
            Diagnostic::warning(
                Code::Locale,
                format!(
                    "`{key}` of `{ns}` has `{{{name}}}`, but a text in a data file is no \
                     template: players read the braces as written{more}"
                ),
            )
            .at(at)
            .with_help(
                "a text with arguments goes in a locale file and is said with \
                 `lantern.text(\"key\", { name = value })`; a data text may name it with `@key`",
            )
        })
        .collect()
}

/// The first `{name}` of `text` (a name of letters, digits and `_`), if any.
fn placeholder(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let len = after
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        if len > 0 && after[len..].starts_with('}') {
            return Some(&after[..len]);
        }
        rest = after;
    }
    None
}

/// The start of the first file that gives `ns`'s texts in `lang`.
fn file_of(locales: &Locales, ns: &str, lang: &str) -> Option<Span> {
    let space = locales.space(ns)?;
    let at = space.langs.get(lang)?.values().filter_map(|e| e.at).min()?;
    Some(Span::file_start(at.file))
}

struct SpaceCheck<'a> {
    content: &'a Content,
    ns: &'a str,
    space: &'a Space,
    /// The keys of the namespace's written data texts.
    data: &'a BTreeSet<String>,
    /// Every text a data text names with `@`, by namespace and key.
    named: &'a BTreeSet<(String, String)>,
    given: &'a Given,
    dynamic: bool,
    diags: &'a mut Vec<Diagnostic>,
}

impl SpaceCheck<'_> {
    /// Each translated text whose `[made_from]` source is not the mod's own text of its key now:
    /// the translation was made from a text that has changed since.
    fn stale(&mut self) {
        if self.space.made_from.is_empty() {
            return;
        }
        // The texts written in the data, for the keys a translation says it was made from.
        let base = self.content.untranslated.as_deref().unwrap_or(self.content);
        let asked: BTreeSet<&str> = self
            .space
            .made_from
            .keys()
            .map(|(_, k)| k.as_str())
            .collect();
        let mut written: BTreeMap<String, String> = BTreeMap::new();
        super::fields::each_text_read(base, |f| {
            if f.ns() == self.ns && !f.text.starts_with('@') {
                let key = f.key();
                if asked.contains(key.as_str()) {
                    written.insert(key, f.text.to_string());
                }
            }
        });
        let own = self.space.langs.get(&self.space.default);
        for ((lang, key), (source, at)) in &self.space.made_from {
            let now = match own.and_then(|t| t.get(key)).map(|e| &e.text) {
                Some(Text::One(t)) => Some(t.written()),
                Some(Text::Plural(forms)) => forms.get("other").map(|t| t.written()),
                None => written.get(key).cloned(),
            };
            // A key with no text of its own is the unused keys' to report.
            let Some(now) = now else { continue };
            if now != *source {
                self.diags.push(
                    Diagnostic::warning(
                        Code::Locale,
                        format!(
                            "`{lang}`'s `{key}` of `{}` is stale: it was translated from \"{}\", \
                             and the text is now \"{}\"",
                            self.ns,
                            crate::diag::visible(source),
                            crate::diag::visible(&now)
                        ),
                    )
                    .at(*at)
                    .with_help(format!(
                        "translate it again, then write the new text here: \"{key}\" = \"{}\"",
                        crate::diag::visible(&now)
                    )),
                );
            }
        }
    }

    /// Whether anything uses `key`: a data text (as its own key or by naming it), a game's
    /// table entry, the game's code, lantern, a script.
    fn used(&self, key: &str) -> bool {
        let full = (self.ns.to_string(), key.to_string());
        self.data.contains(key)
            || self.named.contains(&full)
            || self.given.contains_key(&full)
            || self.host_entry_key(key)
    }

    /// `rooms.cellar.name`: a text of an entry of one of the game's tables.
    fn host_entry_key(&self, key: &str) -> bool {
        let mut parts = key.splitn(3, '.');
        let (Some(table), Some(name), Some(_)) = (parts.next(), parts.next(), parts.next()) else {
            return false;
        };
        let Some(id) = crate::id::Id::parse(name, self.ns) else {
            return false;
        };
        self.content
            .host_table(table)
            .is_some_and(|t| t.contains_key(&id))
    }

    /// Texts nothing uses: a translation's key that the mod does not have (a misspelling), or a
    /// key of the mod's own language that no data, code or script names.
    fn unused(&mut self) {
        if self.ns == LANTERN {
            return self.lanterns_own();
        }
        let default = &self.space.default;
        let mut own: BTreeSet<&str> = self
            .space
            .langs
            .get(default)
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default();
        own.extend(self.data.iter().map(String::as_str));
        // "Did you mean" compares with every key: for the first problems a file shows, so a
        // file of a hundred thousand stray keys costs no more than a look-up each.
        let mut suggested = 0;
        for (lang, texts) in &self.space.langs {
            for (key, entry) in texts {
                let Some(at) = entry.at else { continue };
                let in_default = own.contains(key.as_str());
                if lang != default && in_default {
                    continue;
                }
                if self.used(key) || (self.dynamic && in_default) {
                    continue;
                }
                suggested += 1;
                let help = if suggested <= crate::diag::MOST_PER_FILE
                    && suggested * own.len() <= MOST_COMPARED
                {
                    did_you_mean(key, own.iter().copied().filter(|k| *k != key))
                } else {
                    None
                };
                let message = if lang == default {
                    format!("the text `{key}` of `{}` is never used", self.ns)
                } else {
                    format!("`{}` has no text `{key}` to translate", self.ns)
                };
                self.diags.push(
                    Diagnostic::warning(Code::Locale, message)
                        .at(at)
                        .with_help_opt(help),
                );
            }
        }
    }

    /// A mod's translation of lantern's own messages may hold only their keys.
    fn lanterns_own(&mut self) {
        let own: Vec<&str> = self
            .space
            .langs
            .get("en")
            .map(|t| t.keys().map(String::as_str).collect())
            .unwrap_or_default();
        for texts in self.space.langs.values() {
            for (key, entry) in texts {
                let Some(at) = entry.at else { continue };
                if !own.contains(&key.as_str()) {
                    let help = did_you_mean(key, own.iter().copied());
                    self.diags.push(
                        Diagnostic::warning(
                            Code::Locale,
                            format!("lantern has no message `{key}` to translate"),
                        )
                        .at(at)
                        .with_help_opt(help),
                    );
                }
            }
        }
    }

    /// An argument a text uses that a caller does not give shows as `{name}` to players.
    fn arguments(&mut self) {
        for texts in self.space.langs.values() {
            for (key, entry) in texts {
                let Some(at) = entry.at else { continue };
                let uses = entry.text.args();
                if uses.is_empty() {
                    continue;
                }
                let callers = self.given.get(&(self.ns.to_string(), key.clone()));
                let from_data = self.data.contains(key)
                    || self.named.contains(&(self.ns.to_string(), key.clone()));
                let mut lacking: BTreeSet<&str> = BTreeSet::new();
                for (given, _) in callers.into_iter().flatten() {
                    if let Some(given) = given {
                        lacking.extend(uses.iter().filter(|a| !given.iter().any(|g| g == *a)));
                    }
                }
                if from_data {
                    lacking.extend(uses.iter());
                }
                if lacking.is_empty() {
                    continue;
                }
                let names: Vec<String> = lacking.iter().map(|a| format!("`{{{a}}}`")).collect();
                let who = if from_data { "the data" } else { "its callers" };
                let givers: BTreeSet<String> = callers
                    .into_iter()
                    .flatten()
                    .filter_map(|(g, _)| g.clone())
                    .flatten()
                    .collect();
                let help = if givers.is_empty() {
                    "a text the data names has no arguments".to_string()
                } else {
                    format!(
                        "the arguments given are {}",
                        givers
                            .iter()
                            .map(|g| format!("`{{{g}}}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                };
                self.diags.push(
                    Diagnostic::warning(
                        Code::Locale,
                        format!("the text `{key}` uses {}, which {who} do not give; players read it as written", names.join(", ")),
                    )
                    .at(at)
                    .with_help(help),
                );
            }
        }
    }

    /// A plural form its language never chooses is a mistake in the translation.
    fn plurals(&mut self) {
        for (lang, texts) in &self.space.langs {
            let chosen = super::text::categories(lang);
            for (key, entry) in texts {
                let (Text::Plural(forms), Some(at)) = (&entry.text, entry.at) else {
                    continue;
                };
                // `other` is every plural's own, for a count no other form takes: never a mistake.
                for form in (forms.keys()).filter(|f| !chosen.contains(f) && **f != "other") {
                    self.diags.push(
                        Diagnostic::warning(
                            Code::Locale,
                            format!("the `{form}` form of `{key}` is never chosen in `{lang}`"),
                        )
                        .at(at)
                        .with_help(format!("`{lang}` has the forms {}", chosen.join(", "))),
                    );
                }
            }
        }
    }
}
