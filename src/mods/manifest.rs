//! `mod.toml`: a mod's id, name, version, its relations to other mods and its settings.

use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic, FileId, Span};
use crate::id::is_ident;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawManifest {
    id: Spanned<String>,
    name: Option<String>,
    version: Spanned<String>,
    #[serde(default)]
    description: String,
    #[serde(default)]
    authors: Vec<String>,
    #[serde(default)]
    depends: Vec<Spanned<String>>,
    #[serde(default)]
    optional: Vec<Spanned<String>>,
    #[serde(default)]
    conflicts: Vec<Spanned<String>>,
    language: Option<Spanned<String>>,
    #[serde(default)]
    untranslated: Vec<String>,
    #[serde(default)]
    settings: std::collections::BTreeMap<Spanned<String>, Spanned<super::settings::RawSetting>>,
    game: Option<Spanned<String>>,
    #[serde(default)]
    renames: std::collections::BTreeMap<Spanned<String>, Spanned<String>>,
    ids_in_storage: Option<Spanned<Vec<String>>>,
}

/// The most names a manifest's `[renames]` maps, and the most storage keys it lists as holding
/// IDs: each is applied to every save of an older version.
const MOST_RENAMES: usize = 10_000;
const MOST_STORAGE_KEYS: usize = 1_000;

/// A validated manifest.
#[derive(Debug, Clone)]
pub(crate) struct Manifest {
    pub id: String,
    pub id_span: Span,
    pub name: String,
    pub version: semver::Version,
    /// Read so a manifest may say it; nothing shows it yet (a mod browser would).
    #[allow(dead_code)]
    pub description: String,
    /// Read so a manifest may say it; nothing shows it yet.
    #[allow(dead_code)]
    pub authors: Vec<String>,
    pub depends: Vec<Dependency>,
    pub optional: Vec<Dependency>,
    pub conflicts: Vec<Dependency>,
    /// The language its texts are written in (`language = "de"`; `en` when not said).
    pub language: String,
    /// Text keys that are the same in every language (`"brand"`, or `"names.*"` for a prefix):
    /// `lantern check` does not ask translations for them.
    pub untranslated: Vec<String>,
    /// The settings a player may choose (`[settings.<name>]`), in the order written.
    pub settings: Vec<super::settings::SettingDecl>,
    /// The versions of the hosting game the mod works with (`game = ">=0.3, <0.5"`), and where
    /// that is written.
    pub game: Option<(semver::VersionReq, Span)>,
    /// Old names of the mod's definitions and their new ones (`[renames]`, `"old_sword" =
    /// "blade"`), with where each is written: applied to a save made with an older version.
    pub renames: Vec<(String, String, Span)>,
    /// The keys of the mod's storage whose values hold IDs of its definitions
    /// (`ids_in_storage = ["favorite"]`): `[renames]` applies to them too.
    pub ids_in_storage: Vec<String>,
}

/// `core >=0.1`: a mod id with an optional semver requirement, and where it was written.
#[derive(Debug, Clone)]
pub(crate) struct Dependency {
    pub id: String,
    pub requirement: Option<semver::VersionReq>,
    pub span: Span,
}

impl Manifest {
    /// Parses and validates a manifest; any error leaves the mod out.
    pub(crate) fn parse(text: &str, file: FileId) -> Result<Manifest, Vec<Diagnostic>> {
        let doc = crate::toml_file::parse_document(text, file)?;
        let span = doc.span();
        let doc = Spanned::new(span, toml::de::DeValue::Table(doc.into_inner()));
        // Every mistake in it at once: a manifest is small, so reading it again per mistake is cheap.
        let raw: RawManifest = match crate::toml_file::all_errors(doc, file, "mod.toml") {
            (errors, Some(raw)) if errors.is_empty() => raw,
            (errors, _) => return Err(errors),
        };
        let mut errors = Vec::new();
        let at = |s: &Spanned<String>| Span::new(file, s.span());
        if !is_ident(raw.id.get_ref()) {
            errors.push(
                Diagnostic::error(Code::Manifest, format!("`{}` is not a valid mod id", raw.id.get_ref()))
                    .at(at(&raw.id))
                    .with_help("a mod id uses only lowercase letters, digits and `_`, such as `rats` or `more_rats`"),
            );
        }
        let version = match semver::Version::parse(raw.version.get_ref()) {
            Ok(v) => Some(v),
            Err(e) => {
                errors.push(
                    Diagnostic::error(
                        Code::Manifest,
                        format!("`{}` is not a semantic version: {e}", raw.version.get_ref()),
                    )
                    .at(at(&raw.version))
                    .with_help("write three numbers, such as `1.2.0`"),
                );
                None
            }
        };
        let mut relations = |list: &[Spanned<String>]| -> Vec<Dependency> {
            list.iter()
                .filter_map(|d| parse_dependency(d, file).map_err(|e| errors.push(e)).ok())
                .collect()
        };
        let depends = relations(&raw.depends);
        let optional = relations(&raw.optional);
        let conflicts = relations(&raw.conflicts);
        errors.extend(named_twice(
            raw.id.get_ref(),
            &[
                ("depends", &depends),
                ("optional", &optional),
                ("conflicts", &conflicts),
            ],
        ));
        let language = language(raw.language.as_ref(), file, &mut errors);
        let mut settings: Vec<_> = raw.settings.into_iter().collect();
        settings.sort_by_key(|(name, _)| name.span().start);
        let settings = super::settings::declarations(settings, file, &mut errors);
        let game = (raw.game.as_ref()).and_then(|g| game_requirement(g, file, &mut errors));
        let renames = renames(raw.renames, file, &mut errors);
        let ids_in_storage = ids_in_storage(raw.ids_in_storage, file, &mut errors);
        match version {
            Some(version) if errors.is_empty() => Ok(Manifest {
                id: raw.id.get_ref().clone(),
                id_span: at(&raw.id),
                name: raw.name.unwrap_or_else(|| raw.id.get_ref().clone()),
                version,
                description: raw.description,
                authors: raw.authors,
                depends,
                optional,
                conflicts,
                language,
                untranslated: raw.untranslated,
                settings,
                game,
                renames,
                ids_in_storage,
            }),
            _ => Err(errors),
        }
    }
}

/// The mod's language (`en` when it says none); one that is no language tag is an error.
fn language(
    language: Option<&Spanned<String>>,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> String {
    let at = |s: &Spanned<String>| Span::new(file, s.span());
    match language {
        Some(l) => match super::language_tag(l.get_ref()) {
            Ok(()) => l.get_ref().clone(),
            Err((what, code)) => {
                errors.push(
                    Diagnostic::error(
                        Code::Manifest,
                        format!("`{}` {what}", crate::diag::visible(l.get_ref())),
                    )
                    .at(at(l))
                    .with_help(match code {
                        Some(code) => format!("write its code: `{code}`"),
                        None => "write a language tag such as `en`, `de` or `zh-Hans`".into(),
                    }),
                );
                String::new()
            }
        },
        None => "en".to_string(),
    }
}

/// `game = ">=0.3, <0.5"`: the versions of the game the mod works with, and where it says so.
fn game_requirement(
    g: &Spanned<String>,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> Option<(semver::VersionReq, Span)> {
    let at = |s: &Spanned<String>| Span::new(file, s.span());
    semver::VersionReq::parse(g.get_ref())
        .map(|req| (req, at(g)))
        .map_err(|e| {
            errors.push(
                Diagnostic::error(
                    Code::Manifest,
                    format!(
                        "`{}` is not a version requirement: {e}",
                        crate::diag::visible(g.get_ref())
                    ),
                )
                .at(at(g))
                .with_help("the versions of the game the mod works with, such as `>=0.3, <0.5`"),
            )
        })
        .ok()
}

/// `ids_in_storage`: the storage keys whose values hold IDs a rename reaches, at most
/// `MOST_STORAGE_KEYS` of them.
fn ids_in_storage(
    keys: Option<Spanned<Vec<String>>>,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> Vec<String> {
    match keys {
        Some(keys) if keys.get_ref().len() > MOST_STORAGE_KEYS => {
            errors.push(
                Diagnostic::error(
                    Code::Manifest,
                    format!("`ids_in_storage` lists at most {MOST_STORAGE_KEYS} keys"),
                )
                .at(Span::new(file, keys.span())),
            );
            Vec::new()
        }
        Some(keys) => keys.into_inner(),
        None => Vec::new(),
    }
}

/// `[renames]`: each old name and new one a name of this mod (`"old_sword" = "blade"`), in the
/// order written; a name that is not one is an error at it.
fn renames(
    raw: std::collections::BTreeMap<Spanned<String>, Spanned<String>>,
    file: FileId,
    errors: &mut Vec<Diagnostic>,
) -> Vec<(String, String, Span)> {
    let mut list: Vec<_> = raw.into_iter().collect();
    list.sort_by_key(|(old, _)| old.span().start);
    // Each is looked for through a whole saved state: a manifest lists a bounded number.
    if let Some((old, _)) = list.get(MOST_RENAMES) {
        errors.push(
            Diagnostic::error(
                Code::Manifest,
                format!("`[renames]` lists at most {MOST_RENAMES} names"),
            )
            .at(Span::new(file, old.span())),
        );
        return Vec::new();
    }
    let mut out = Vec::new();
    for (old, new) in list {
        let bad = [&old, &new].into_iter().find(|n| !is_ident(n.get_ref()));
        if let Some(bad) = bad {
            errors.push(
                Diagnostic::error(
                    Code::Manifest,
                    format!(
                        "`{}` cannot name a definition: a name uses lowercase letters, digits and `_`",
                        crate::diag::visible(bad.get_ref())
                    ),
                )
                .at(Span::new(file, bad.span()))
                .with_help("`[renames]` maps an old name of one of this mod's definitions to its new one: `\"old_sword\" = \"blade\"`"),
            );
            continue;
        }
        let span = Span::new(file, old.span().start..new.span().end);
        out.push((old.into_inner(), new.into_inner(), span));
    }
    out
}

/// A mod named twice among a manifest's relations (twice in one list, or in two: a mod that
/// both depends on and conflicts with another), or the mod itself named: each an error at the
/// later place.
fn named_twice(own: &str, lists: &[(&str, &Vec<Dependency>)]) -> Vec<Diagnostic> {
    let mut errors = Vec::new();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for (list, deps) in lists {
        for d in deps.iter() {
            if d.id == own {
                errors.push(
                    Diagnostic::error(Code::Manifest, format!("`{own}` names itself in `{list}`"))
                        .at(d.span),
                );
            } else if let Some((_, first)) = seen.iter().find(|(id, _)| *id == d.id) {
                let help = if first == list {
                    format!(
                        "name it once; requirements go together: `{} >=0.1, <0.5`",
                        d.id
                    )
                } else {
                    "a mod is in one of `depends`, `optional` and `conflicts`".to_string()
                };
                errors.push(
                    Diagnostic::error(
                        Code::Manifest,
                        format!("`{}` is already in `{first}`", d.id),
                    )
                    .at(d.span)
                    .with_help(help),
                );
            } else {
                seen.push((&d.id, list));
            }
        }
    }
    errors
}

fn parse_dependency(text: &Spanned<String>, file: FileId) -> Result<Dependency, Diagnostic> {
    let span = Span::new(file, text.span());
    let trimmed = text.get_ref().trim();
    let (id, req) = match trimmed.find(|c: char| c.is_whitespace() || "<>=^~*".contains(c)) {
        Some(i) => (&trimmed[..i], Some(trimmed[i..].trim())),
        None => (trimmed, None),
    };
    if !is_ident(id) {
        return Err(
            Diagnostic::error(Code::Manifest, format!("`{trimmed}` does not name a mod"))
                .at(span)
                .with_help(
                    "write a mod id, optionally followed by a version requirement: `core >=0.1`",
                ),
        );
    }
    let requirement = match req {
        None | Some("") => None,
        Some(req) => Some(semver::VersionReq::parse(req).map_err(|e| {
            Diagnostic::error(
                Code::Manifest,
                format!("`{req}` is not a version requirement: {e}"),
            )
            .at(span)
            .with_help_opt(
                did_you_mean(req, [">=0.1", "^1.0", "~1.2"])
                    .or(Some("such as `>=0.1` or `^1.2`".into())),
            )
        })?),
    };
    Ok(Dependency {
        id: id.to_string(),
        requirement,
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dependencies_with_and_without_requirements() {
        let text = "id = \"rats\"\nversion = \"1.2.0\"\ndepends = [\"core >=0.1\", \"weather\"]\n";
        let m = Manifest::parse(text, FileId(0)).unwrap();
        assert_eq!(m.depends[0].id, "core");
        assert!(m.depends[0]
            .requirement
            .as_ref()
            .unwrap()
            .matches(&semver::Version::new(0, 1, 5)));
        assert_eq!(m.depends[1].id, "weather");
        assert!(m.depends[1].requirement.is_none());
        assert_eq!(m.name, "rats");
    }

    #[test]
    fn renames_and_storage_keys_are_bounded() {
        let mut text = String::from("id = \"rats\"\nversion = \"1.0.0\"\n[renames]\n");
        for n in 0..=MOST_RENAMES {
            text.push_str(&format!("old{n} = \"new{n}\"\n"));
        }
        let errors = Manifest::parse(&text, FileId(0)).unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].message, "`[renames]` lists at most 10000 names");
        let keys: Vec<String> = (0..=MOST_STORAGE_KEYS)
            .map(|n| format!("\"k{n}\""))
            .collect();
        let text = format!(
            "id = \"rats\"\nversion = \"1.0.0\"\nids_in_storage = [{}]\n",
            keys.join(", ")
        );
        let errors = Manifest::parse(&text, FileId(0)).unwrap_err();
        assert_eq!(
            errors[0].message,
            "`ids_in_storage` lists at most 1000 keys"
        );
        assert!(errors[0].span.is_some());
    }
}
