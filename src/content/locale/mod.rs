//! Texts in the player's language. A mod's `locale/<lang>.toml` files give its texts by key, a
//! translation mod's `locale/<mod>/<lang>.toml` another mod's; every player-facing text of the
//! data has a key without being given one (`creatures.rat.name`, see `fields`) and may name one
//! instead of being written (`name = "@rat_name"`). `Locales` holds them all, with the data's
//! own words as each mod's default language; `Content::in_language` gives the content with its
//! texts in one language, and `Content::text` a message with its arguments. A lookup falls back
//! from the language (`de-AT`) to its base (`de`) to the mod's default; a text no language has is
//! shown as `[missing text rats:rats_left]`, which a player can report. lantern's own messages are the
//! `lantern` namespace, in English and German, built in.

pub(crate) mod check;
mod fields;
mod read;
mod text;

pub use check::Coverage;
#[cfg(feature = "cli")]
pub(crate) use fields::each_text_read;
#[cfg(feature = "cli")]
pub(crate) use read::MADE_FROM;
#[cfg(feature = "cli")]
pub(crate) use read::{read_made_from, read_texts};
pub(crate) use read::{read_mod, LocaleFile};
pub(crate) use text::Text;
#[cfg(feature = "cli")]
pub(crate) use text::{categories, category};

/// The plural forms a locale file's table may hold, CLDR's categories.
#[cfg(feature = "cli")]
pub(crate) const PLURAL_FORMS: [&str; 6] = text::CATEGORIES;
pub use text::TextArg;

use crate::content::Content;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, Span};
use crate::id::Id;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The namespace of lantern's own messages.
pub(crate) const LANTERN: &str = "lantern";

/// lantern's own messages, built in; a mod adds a language with `locale/lantern/<lang>.toml`.
const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("builtin/en.toml")),
    ("de", include_str!("builtin/de.toml")),
];

/// Every text of a mod set, by namespace, language and key.
#[derive(Debug, Clone, Default)]
pub(crate) struct Locales {
    spaces: BTreeMap<String, Space>,
}

/// One namespace's texts.
#[derive(Debug, Clone, Default)]
pub(crate) struct Space {
    /// The language the mod's data is written in.
    pub default: String,
    /// Texts by language, then key.
    pub langs: BTreeMap<String, BTreeMap<String, Entry>>,
    /// The key a data text names with `@` instead of its own (`creatures.rat.name` -> `rat`;
    /// another mod's as `mod:key`).
    pub aliases: BTreeMap<String, String>,
    /// Keys (or `prefix.*`) that need no translation.
    pub untranslated: BTreeSet<String>,
    /// What each translated text was made from, by language and key, as its translation's
    /// `[made_from]` says: a source changed since makes it stale.
    pub made_from: BTreeMap<(String, String), (String, Span)>,
}

/// One text in one language.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub text: Text,
    /// Where it is written in a locale file (`None`: built in).
    pub at: Option<Span>,
}

impl Space {
    /// Every key any language of it has, with where it is written: in the default language when
    /// that has it, else in the first language that does.
    #[cfg_attr(not(feature = "cli"), allow(dead_code))]
    pub(crate) fn keys(&self) -> BTreeMap<&str, Option<Span>> {
        let mut keys = BTreeMap::new();
        let default = self.langs.get(&self.default);
        for texts in default.into_iter().chain(self.langs.values()) {
            for (key, entry) in texts {
                keys.entry(key.as_str()).or_insert(entry.at);
            }
        }
        keys
    }

    /// The text of `key` in `lang`, its base language, or the default; with the language found.
    fn find(&self, key: &str, lang: Option<&str>) -> Option<(&Entry, &str)> {
        [lang, lang.map(base_language), Some(self.default.as_str())]
            .into_iter()
            .flatten()
            .find_map(|l| {
                let (l, texts) = self.langs.get_key_value(l)?;
                Some((texts.get(key)?, l.as_str()))
            })
    }

    /// The text of `key` in `lang` or its base language, without the mod's own language: a
    /// translation's text, if it has one.
    pub(crate) fn find_in(&self, key: &str, lang: &str) -> Option<(&Entry, &str)> {
        [lang, base_language(lang)].into_iter().find_map(|l| {
            let (l, texts) = self.langs.get_key_value(l)?;
            Some((texts.get(key)?, l.as_str()))
        })
    }

    /// The key a data text has: the one it names with `@`, or its own.
    pub(crate) fn key_of<'k>(&'k self, own: &'k str) -> &'k str {
        self.aliases.get(own).map_or(own, String::as_str)
    }

    /// Whether `key` needs no translation.
    pub(crate) fn is_untranslated(&self, key: &str) -> bool {
        // A set looked up by the key and each of its beginnings (`names.*`), so a manifest listing
        // a hundred thousand keys costs a look-up each, not a scan.
        if self.untranslated.is_empty() {
            return false;
        }
        self.untranslated.contains(key)
            || key
                .char_indices()
                .map(|(i, _)| &key[..i])
                .chain([key])
                .any(|prefix| self.untranslated.contains(&format!("{prefix}*")))
    }
}

impl Locales {
    pub(crate) fn space(&self, ns: &str) -> Option<&Space> {
        self.spaces.get(ns)
    }

    pub(crate) fn spaces(&self) -> impl Iterator<Item = (&String, &Space)> {
        self.spaces.iter()
    }

    /// `key` of `ns` in `lang` with `args`, or the missing-text marker, or the too-long one.
    pub(crate) fn render(
        &self,
        ns: &str,
        key: &str,
        lang: Option<&str>,
        args: &[(&str, TextArg)],
    ) -> String {
        self.render_within(ns, key, lang, args)
            .unwrap_or_else(|len| too_long(ns, key, len))
    }

    /// As [`Locales::render`], with the length a text too long to render would have as the error.
    pub(crate) fn render_within(
        &self,
        ns: &str,
        key: &str,
        lang: Option<&str>,
        args: &[(&str, TextArg)],
    ) -> Result<String, usize> {
        match self.spaces.get(ns).and_then(|s| s.find(key, lang)) {
            Some((entry, found_in)) => entry.text.render(found_in, args),
            None => Ok(missing(ns, key)),
        }
    }

    /// Whether any language of `ns` has `key`.
    pub(crate) fn has(&self, ns: &str, key: &str) -> bool {
        self.spaces
            .get(ns)
            .is_some_and(|s| s.langs.values().any(|t| t.contains_key(key)))
    }
}

/// The language a tag falls back to: `de` for `de-AT`, `zh` for `zh-Hans`.
pub(crate) fn base_language(lang: &str) -> &str {
    lang.split(['-', '_']).next().unwrap_or(lang)
}

/// What a player sees for a text no language has: the key, to report.
fn missing(ns: &str, key: &str) -> String {
    format!("[missing text {ns}:{key}]")
}

/// What a text too long to render reads as, where no one can be told (a room's name).
fn too_long(ns: &str, key: &str, len: usize) -> String {
    format!(
        "[text {ns}:{key} too long: {} with its arguments]",
        crate::diag::bytes(len)
    )
}

/// The refusal of a text too long to render, for a script that asked for it.
pub(crate) fn too_long_message(key: &str, len: usize) -> String {
    format!(
        "the text `{key}` would be {} long with these arguments, more than a text may be ({}): \
         fill its arguments with shorter text",
        crate::diag::bytes(len),
        crate::diag::bytes(text::MOST_RENDERED)
    )
}

/// lantern's own texts, read once per process.
fn built_in() -> &'static Space {
    static READ: std::sync::OnceLock<Space> = std::sync::OnceLock::new();
    READ.get_or_init(|| {
        let mut space = Space {
            default: "en".into(),
            ..Space::default()
        };
        for (lang, text) in BUILT_IN {
            let mut ignored = Vec::new();
            let texts = read::read_texts(text, crate::diag::FileId(u32::MAX), &mut ignored);
            debug_assert!(ignored.is_empty(), "built-in {lang}: {ignored:?}");
            let table = space.langs.entry(lang.to_string()).or_default();
            for (key, text, _) in texts {
                table.insert(key, Entry { text, at: None });
            }
        }
        space
    })
}

/// Builds the content's texts: lantern's own, every locale file in load order (a later mod's
/// text of the same key and language wins, as overrides do), and the data's texts as each mod's
/// default language. A data text naming a key (`@key`) is replaced by that key's text.
pub(crate) fn assemble(content: &mut Content, files: Vec<LocaleFile>, diags: &mut Vec<Diagnostic>) {
    let mut locales = Locales::default();
    locales.spaces.insert(LANTERN.into(), built_in().clone());
    for m in &content.mods {
        locales.spaces.insert(
            m.id.clone(),
            Space {
                default: m.language.clone(),
                untranslated: m.untranslated.iter().cloned().collect(),
                ..Space::default()
            },
        );
    }
    for f in files {
        if !may_translate(content, &f, diags) {
            continue;
        }
        let Some(space) = locales.spaces.get_mut(&f.ns) else {
            continue;
        };
        for (key, source, at) in f.made_from {
            space.made_from.insert((f.lang.clone(), key), (source, at));
        }
        let table = space.langs.entry(f.lang).or_default();
        for (key, text, at) in f.texts {
            table.insert(key, Entry { text, at: Some(at) });
        }
    }
    data_texts(content, &mut locales, diags);
    content.locales = Arc::new(locales);
}

/// Whether a file translating another mod (`locale/rats/de.toml`) may: the mod is loaded and the
/// translating mod depends on it, so it loads after it and its texts win.
fn may_translate(content: &Content, f: &LocaleFile, diags: &mut Vec<Diagnostic>) -> bool {
    if f.ns == f.by || f.ns == LANTERN {
        return true;
    }
    let at = Span::file_start(f.file);
    if !content.mods.iter().any(|m| m.id == f.ns) {
        let help = did_you_mean(&f.ns, content.mods.iter().map(|m| m.id.as_str()));
        diags.push(
            Diagnostic::warning(
                Code::Locale,
                format!(
                    "`{}` translates `{}`, which is not loaded; its texts are not used",
                    f.by, f.ns
                ),
            )
            .at(at)
            .with_help_opt(help),
        );
        return false;
    }
    let depends = content
        .mods
        .iter()
        .find(|m| m.id == f.by)
        .is_some_and(|m| m.deps.contains(&f.ns));
    if !depends {
        diags.push(
            Diagnostic::error(
                Code::Locale,
                format!("`{}` translates `{}` without depending on it", f.by, f.ns),
            )
            .at(at)
            .with_help(format!(
                "add `optional = [\"{}\"]` (or `depends`) to `{}`'s mod.toml, so it loads after `{}` and its texts win",
                f.ns, f.by, f.ns
            )),
        );
        return false;
    }
    true
}

/// The data texts that name a key (`@rat_name`, `@core:greeting`) take that key's text in the
/// mod's own language, and the key is remembered for every language; `@@` is a text that starts
/// with `@`. A written text stays as it is: it is its mod's own language, found in the content
/// itself, never copied.
/// The texts of the definitions a reload resolved again (`defs`, a content holding only them) as
/// [`assemble`] would leave them among the texts it has (`locales`): `@@` written as `@`. `false`
/// when the texts must be assembled again: a text of theirs names a key, or a text of their
/// namespaces does (whose alias they could be).
pub(crate) fn patch_texts(defs: &mut Content, locales: &Locales) -> bool {
    let mut names_a_key = false;
    fields::each_text_read(defs, |f| {
        let aliased = locales.space(f.ns()).is_some_and(|s| !s.aliases.is_empty());
        names_a_key |= aliased || (f.text.starts_with('@') && !f.text.starts_with("@@"));
    });
    if names_a_key {
        return false;
    }
    // Only `@@` is left to write as `@`: no key is named, so nothing is asked of `locales`.
    data_texts(defs, &mut Locales::default(), &mut Vec::new());
    true
}

fn data_texts(content: &mut Content, locales: &mut Locales, diags: &mut Vec<Diagnostic>) {
    fields::each_text(content, |f| {
        if !f.text.starts_with('@') {
            return;
        }
        if let Some(rest) = f.text.strip_prefix("@@") {
            *f.text = format!("@{rest}");
            return;
        }
        let named = f.text[1..].to_string();
        let (ns, key) = match named.split_once(':') {
            Some((ns, key)) => (ns.to_string(), key.to_string()),
            None => (f.ns().to_string(), named.clone()),
        };
        let own = f.key();
        let default = locales
            .space(&ns)
            .map(|s| s.default.clone())
            .unwrap_or_default();
        let in_default = locales
            .space(&ns)
            .and_then(|s| s.langs.get(&s.default))
            .is_some_and(|t| t.contains_key(&key));
        if !in_default {
            // Players in the mod's own language, and in any that lacks it, would read the key.
            let message = if locales.has(&ns, &key) {
                format!("`{own}` names the text `{ns}:{key}`, which `{ns}`'s own language (`{default}`) does not have")
            } else {
                format!("`{own}` names the text `{ns}:{key}`, which no language of `{ns}` has")
            };
            diags.push(
                Diagnostic::warning(Code::Locale, message)
                    .at(f.at)
                    .with_help(format!("add `{key} = \"...\"` to `{ns}`'s locale/{default}.toml, or write the text itself")),
            );
        }
        *f.text = locales.render(&ns, &key, None, &[]);
        if let Some(space) = locales.spaces.get_mut(f.ns()) {
            space
                .aliases
                .insert(own, if ns == f.ns() { key } else { named });
        }
    });
}

impl Content {
    /// The language the content's texts are in; `None` when each mod's are in its own default.
    pub fn language(&self) -> Option<&str> {
        self.language.as_deref()
    }

    /// Every language some mod has texts in, lantern's own and the mods' defaults included.
    pub fn languages(&self) -> Vec<String> {
        let mut langs: BTreeSet<String> = BTreeSet::new();
        for (_, space) in self.locales.spaces() {
            langs.insert(space.default.clone());
            langs.extend(space.langs.keys().cloned());
        }
        langs.into_iter().collect()
    }

    /// Whether some mod (or lantern itself) has texts in `lang` or in its base language.
    pub(crate) fn has_language(&self, lang: &str) -> bool {
        let base = base_language(lang);
        self.languages().iter().any(|l| l == lang || l == base)
    }

    /// This content with every text of its definitions in `lang`: the content a game in that
    /// language runs over (its state is the same; only what players read changes). A text `lang`
    /// lacks is its base language's (`de` for `de-AT`), else the mod's own.
    pub fn in_language(self: &Arc<Self>, lang: &str) -> Content {
        // Always from the content as the mods wrote it, whatever language this one is in.
        let base = self.untranslated.clone().unwrap_or_else(|| self.clone());
        let mut out = (*base).clone();
        out.language = Some(lang.to_string());
        out.untranslated = Some(base.clone());
        let locales = &base.locales;
        // Only a namespace with a text in `lang`, or naming another's, can change: the rest
        // keep their own words without a key being made.
        let changes = |s: &Space| {
            !s.aliases.is_empty()
                || s.langs.contains_key(lang)
                || s.langs.contains_key(base_language(lang))
        };
        fields::each_text(&mut out, |f| {
            let Some(space) = locales.space(f.ns()).filter(|s| changes(s)) else {
                return;
            };
            let own = f.key();
            let (ns, key) = match space.key_of(&own).split_once(':') {
                Some((ns, key)) => (ns, key),
                None => (f.ns(), space.key_of(&own)),
            };
            if let Some((entry, found_in)) = locales.space(ns).and_then(|s| s.find_in(key, lang)) {
                *f.text = entry
                    .text
                    .render(found_in, &[])
                    .unwrap_or_else(|len| too_long(ns, key, len));
            }
        });
        out
    }

    /// The text `key` (`rats:rats_left`; a bare key is lantern's own) in the content's language, with
    /// its `{arguments}` filled from `args`. A text no language has reads
    /// `[missing text rats:rats_left]`; an argument not given stays `{room}`.
    pub fn text(&self, key: &str, args: &[(&str, TextArg)]) -> String {
        let (ns, key) = key.split_once(':').unwrap_or((LANTERN, key));
        self.locales.render(ns, key, self.language.as_deref(), args)
    }

    /// As [`Content::text`], refused with a message when the text would be longer than a text may
    /// be with these arguments (for a script, which is told; measured before anything is written).
    pub(crate) fn text_within(
        &self,
        key: &str,
        args: &[(&str, TextArg)],
    ) -> Result<String, String> {
        let (ns, bare) = key.split_once(':').unwrap_or((LANTERN, key));
        self.locales
            .render_within(ns, bare, self.language.as_deref(), args)
            .map_err(|len| too_long_message(key, len))
    }

    /// One of lantern's own words (a damage type, a die's color or state, `top`) in the content's
    /// language, or the word itself when lantern has no text for it.
    pub(crate) fn word(&self, word: &str) -> String {
        if self.locales.has(LANTERN, word) {
            self.text(word, &[])
        } else {
            word.to_string()
        }
    }

    /// The text `field` of the entry `id` of the game's table `table` (`rooms`) in the content's
    /// language: its key is `<table>.<name>.<field>` in the ID's namespace, as the built-in
    /// tables' are; `written` (what the entry says) when no language has one. `written` may name a
    /// key (`@cellar_name`), as any data text may.
    pub fn text_of(&self, table: &str, id: &Id, field: &str, written: &str) -> String {
        if let Some(rest) = written.strip_prefix("@@") {
            return format!("@{rest}");
        }
        if let Some(named) = written.strip_prefix('@') {
            let (ns, key) = named.split_once(':').unwrap_or((id.namespace(), named));
            return self.locales.render(ns, key, self.language.as_deref(), &[]);
        }
        let key = format!("{table}.{}.{field}", id.name());
        match self
            .locales
            .space(id.namespace())
            .and_then(|s| s.find(&key, self.language.as_deref()))
        {
            Some((entry, lang)) => entry
                .text
                .render(lang, &[])
                .unwrap_or_else(|len| too_long(id.namespace(), &key, len)),
            None => written.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untranslated_keys_are_exact_or_a_beginning_with_a_star() {
        let space = Space {
            untranslated: ["brand", "names.*"].map(String::from).into(),
            ..Space::default()
        };
        assert!(space.is_untranslated("brand"));
        assert!(space.is_untranslated("names.ada"));
        assert!(!space.is_untranslated("brand.name"));
        assert!(!space.is_untranslated("name"));
    }

    #[test]
    fn lanterns_own_texts_read_cleanly_in_every_built_in_language() {
        let mut keys: Vec<Vec<String>> = Vec::new();
        for (lang, text) in BUILT_IN {
            let mut diags = Vec::new();
            let texts = read::read_texts(text, crate::diag::FileId(0), &mut diags);
            assert!(diags.is_empty(), "{lang}: {diags:?}");
            let mut k: Vec<String> = texts.into_iter().map(|t| t.0).collect();
            // lantern's keys are plain names: a dotted one is a key that fell into a table.
            assert!(k.iter().all(|k| crate::id::is_ident(k)), "{lang}: {k:?}");
            k.sort();
            keys.push(k);
        }
        assert_eq!(keys[0], keys[1], "English and German have the same keys");
    }
}
