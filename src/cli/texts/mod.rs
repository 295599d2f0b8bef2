//! `lantern texts`: a mod's texts out to translators and back. `export` writes every text of a
//! mod a player reads (its data's, by their keys such as `items.rusty_key.name`, and its
//! `locale/<language>.toml`'s), in its own language or filled with a translation's, as a locale
//! TOML file, a gettext PO file (`po`) or JSON (`json`): the base file a translation platform
//! takes. `import` takes a translated file back into the mod's `locale/<language>.toml` or a
//! translation mod's `locale/<mod>/<language>.toml`, and says what `check` then says of it.

mod files;
mod plural_forms;
mod po;

use super::{TextFormat, TextsExport, TextsImport};
use crate::content::locale::{Space, Text};
use crate::content::Content;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// A text's forms: one (`None`) or by plural category.
pub(super) type Forms = Vec<(Option<&'static str>, String)>;

/// One text of a mod as a translator sees it: its forms in the mod's language, where it is
/// written and the arguments a translation keeps.
pub(super) struct Source {
    forms: Forms,
    place: Option<String>,
    args: Vec<String>,
}

impl Source {
    fn is_plural(&self) -> bool {
        self.forms.iter().any(|(c, _)| c.is_some())
    }

    /// The text of a category (the single text when it has no forms; `other` when it lacks it).
    fn form(&self, cat: &str) -> &str {
        let found = (self
            .forms
            .iter()
            .find(|(c, _)| *c == Some(cat) || c.is_none()))
        .or_else(|| self.forms.iter().find(|(c, _)| *c == Some("other")))
        .or(self.forms.first());
        found.map_or("", |(_, t)| t.as_str())
    }

    fn args(&self) -> &[String] {
        &self.args
    }
}

/// A translated file as read: its texts by key, what each was made from, and what was left out.
#[derive(Default)]
pub(super) struct Imported {
    pub lang: Option<String>,
    pub mod_id: Option<String>,
    pub texts: BTreeMap<String, Forms>,
    pub made_from: BTreeMap<String, String>,
    /// Entries that name no text of the mod, as written.
    pub unknown: Vec<String>,
    /// Entries with no key whose source text more than one key has.
    pub ambiguous: Vec<String>,
    pub fuzzy: usize,
    pub untranslated: usize,
}

/// The format a path's extension says, else `None`.
fn format_of(path: &Path) -> Option<TextFormat> {
    match path.extension()?.to_str()? {
        "po" | "pot" => Some(TextFormat::Po),
        "json" => Some(TextFormat::Json),
        "toml" => Some(TextFormat::Toml),
        _ => None,
    }
}

/// Loads the mods as `check` does; their problems printed and `None` when there are errors.
fn checked(roots: &[PathBuf], rules: &crate::host::Rules) -> Option<crate::load::World> {
    let world = crate::load::check_game(roots, rules, crate::lua::Limits::default());
    if world.has_errors() {
        eprint!(
            "{}",
            crate::diag::render_all(&world.diagnostics, &world.sources)
        );
        return None;
    }
    Some(world)
}

/// The texts of `mod_id`, or the usage error that names the mods that have texts.
fn space_of<'c>(content: &'c Content, mod_id: &str) -> Result<&'c Space, ExitCode> {
    content.locales.space(mod_id).ok_or_else(|| {
        let names = content.locales.spaces().map(|(ns, _)| ns.as_str());
        eprintln!(
            "error: there is no mod `{}` with texts{}",
            crate::diag::visible(mod_id),
            crate::diag::did_you_mean_suffix(mod_id, names)
        );
        ExitCode::from(2)
    })
}

/// Every text of `mod_id` a player reads, in its own language, with where it is written.
fn sources(
    content: &Content,
    files: &mut crate::diag::SourceMap,
    space: &Space,
    mod_id: &str,
) -> BTreeMap<String, Source> {
    let mut texts = BTreeMap::new();
    let mut spans = BTreeMap::new();
    crate::content::locale::each_text_read(content, |f| {
        // A text that names a key is that key's, which the locale file gives; a field left
        // empty has nothing to translate.
        if f.ns() == mod_id && !f.text.is_empty() && !space.aliases.contains_key(&f.key()) {
            spans.insert(f.key(), f.at);
            let forms = vec![(None, f.text.to_string())];
            texts.insert(f.key(), (forms, Vec::new()));
        }
    });
    for (key, entry) in space.langs.get(&space.default).into_iter().flatten() {
        if let Some(at) = entry.at {
            spans.insert(key.clone(), at);
        }
        let args = entry.text.args().into_iter().map(str::to_string).collect();
        texts.insert(key.clone(), (forms_of(&entry.text), args));
    }
    // The check let go of the texts of files it found nothing wrong in: read them again for
    // their lines (a file changed since keeps its texts unplaced).
    for file in spans
        .values()
        .map(|s| s.file)
        .collect::<std::collections::BTreeSet<_>>()
    {
        let f = files.get(file);
        if let Some(disk) = f.disk().filter(|_| f.is_released()).map(Path::to_path_buf) {
            if let Ok(text) = std::fs::read_to_string(disk) {
                files.restore(file, text);
            }
        }
    }
    (texts.into_iter())
        .map(|(key, (forms, args))| {
            let place = spans.get(&key).filter(|s| !files.get(s.file).is_released());
            let place = place.map(|s| files.file_line(*s));
            (key, Source { forms, place, args })
        })
        .collect()
}

/// A text's forms as written.
fn forms_of(text: &Text) -> Forms {
    match text {
        Text::One(t) => vec![(None, t.written())],
        Text::Plural(forms) => (forms.iter())
            .map(|(form, t)| (Some(*form), t.written()))
            .collect(),
    }
}

/// `lantern texts export`: writes the texts of a mod to `--out`, or to standard output.
pub(super) fn export(roots: &[PathBuf], rules: &crate::host::Rules, a: &TextsExport) -> ExitCode {
    let Some(mut world) = checked(roots, rules) else {
        return ExitCode::from(1);
    };
    let space = match space_of(&world.content, &a.mod_id) {
        Ok(space) => space,
        Err(code) => return code,
    };
    if let Some(lang) = &a.lang {
        if let Err(code) = super::language_tag(lang) {
            return code;
        }
    }
    let format = a
        .format
        .or(a.out.as_deref().and_then(format_of))
        .unwrap_or(TextFormat::Toml);
    let sources = sources(&world.content, &mut world.sources, space, &a.mod_id);
    let translated: BTreeMap<String, Forms> = match &a.lang {
        Some(lang) if *lang != space.default => (space.langs.get(lang).into_iter().flatten())
            .filter(|(key, _)| sources.contains_key(*key))
            .map(|(key, entry)| (key.clone(), forms_of(&entry.text)))
            .collect(),
        _ => BTreeMap::new(),
    };
    let lang = a.lang.as_deref().filter(|l| *l != space.default);
    let version = (world.content.mods.iter())
        .find(|m| m.id == a.mod_id)
        .map_or_else(
            || env!("CARGO_PKG_VERSION").to_string(),
            |m| m.version.to_string(),
        );
    let own: BTreeMap<String, Forms> = (sources.iter())
        .map(|(k, s)| (k.clone(), s.forms.clone()))
        .collect();
    let file = match format {
        TextFormat::Po => {
            let header = po::Header {
                mod_id: &a.mod_id,
                version: &version,
                source_lang: &space.default,
                lang,
            };
            po::write(&header, &sources, &translated)
        }
        TextFormat::Toml => {
            let shown = if lang.is_some() { &translated } else { &own };
            files::toml(
                &a.mod_id,
                lang.unwrap_or(&space.default),
                lang.is_some(),
                shown,
                &BTreeMap::new(),
            )
        }
        TextFormat::Json => files::json(if lang.is_some() { &translated } else { &own }),
    };
    let count = if lang.is_some() {
        translated.len()
    } else {
        sources.len()
    };
    match &a.out {
        None => {
            print!("{file}");
            ExitCode::SUCCESS
        }
        Some(path) => match crate::write::replacing(path, file.as_bytes(), "texts") {
            Ok(()) => {
                let of = lang.map_or(String::new(), |l| {
                    format!(" ({count} translated into `{l}`)")
                });
                println!(
                    "wrote the {} texts of `{}`{of} to {}",
                    sources.len(),
                    a.mod_id,
                    path.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: {e}");
                ExitCode::from(1)
            }
        },
    }
}

/// `lantern texts import`: reads a translated file and writes it as the locale file of its mod
/// and language, then says what `check` says of that file.
pub(super) fn import(roots: &[PathBuf], rules: &crate::host::Rules, a: &TextsImport) -> ExitCode {
    let Some(format) = a.format.or_else(|| format_of(&a.file)) else {
        eprintln!(
            "error: `{}` is not a `.po`, `.toml` or `.json` file\n  = help: say which it is with `--format po|toml|json`",
            crate::diag::visible(&a.file.display().to_string())
        );
        return ExitCode::from(2);
    };
    let Some(mut world) = checked(roots, rules) else {
        return ExitCode::from(1);
    };
    let text = match std::fs::read(&a.file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(_) => {
                eprintln!("error: `{}` is not UTF-8 text", a.file.display());
                return ExitCode::from(1);
            }
        },
        Err(e) => {
            eprintln!("error: cannot read `{}`: {e}", a.file.display());
            return ExitCode::from(2);
        }
    };
    let mut read_map = crate::diag::SourceMap::new();
    let file = read_map.add(a.file.display().to_string(), text.as_str());
    // Which mod's: said, else the file's own word (a PO file made by `export` names it). A file
    // that cannot be read says so first.
    let peek = match files::read(format, &text, file, &|_| Vec::new()) {
        Ok(peek) => peek,
        Err(d) => {
            eprint!("{}", crate::diag::render_all(&[d], &read_map));
            return ExitCode::from(1);
        }
    };
    let named = a.mod_id.clone().or(peek.mod_id);
    let Some(mod_id) = named else {
        eprintln!("error: say whose texts these are: `--mod MOD`");
        return ExitCode::from(2);
    };
    let space = match space_of(&world.content, &mod_id) {
        Ok(space) => space,
        Err(code) => return code,
    };
    let sources = sources(&world.content, &mut world.sources, space, &mod_id);
    let by_source = |text: &str| -> Vec<String> {
        (sources.iter())
            .filter(|(_, s)| s.forms.iter().any(|(_, t)| t == text))
            .map(|(k, _)| k.clone())
            .collect()
    };
    let mut imported = match files::read(format, &text, file, &by_source) {
        Ok(imported) => imported,
        Err(d) => {
            eprint!("{}", crate::diag::render_all(&[d], &read_map));
            return ExitCode::from(1);
        }
    };
    let Some(lang) = a.lang.clone().or(imported.lang.clone()) else {
        eprintln!("error: say which language the file is in: `--lang de`");
        return ExitCode::from(2);
    };
    if let Err(code) = super::language_tag(&lang) {
        return code;
    }
    // A language whose whole counts never take `other` (Polish: `one`, `few`, `many`) comes
    // from a platform without it; a locale file's plural has it, for any count no form takes.
    for forms in imported.texts.values_mut() {
        if forms.iter().any(|(c, _)| c.is_some()) && !forms.iter().any(|(c, _)| *c == Some("other"))
        {
            if let Some((_, last)) = forms.last().cloned() {
                forms.push((Some("other"), last));
            }
        }
    }
    let unknown: Vec<String> = (imported.texts.keys())
        .filter(|k| !sources.contains_key(*k))
        .cloned()
        .collect();
    for key in &unknown {
        imported.texts.remove(key);
        imported.made_from.remove(key);
        imported
            .unknown
            .push(format!("`{}`", crate::diag::visible(key)));
    }
    let dest = match destination(&world.content, &mod_id, &lang, a.into.as_deref()) {
        Ok(dest) => dest,
        Err(code) => return code,
    };
    let written = files::toml(&mod_id, &lang, true, &imported.texts, &imported.made_from);
    if let Err(e) = crate::write::replacing(&dest, written.as_bytes(), "texts") {
        eprintln!("error: {e}");
        return ExitCode::from(1);
    }
    report(&imported, &mod_id, &lang, &dest, sources.len());
    after_import(roots, rules, &dest)
}

/// Where a translation of `mod_id` into `lang` goes: the mod's own `locale/<lang>.toml`, or
/// `locale/<mod>/<lang>.toml` of the translation mod `into`.
fn destination(
    content: &Content,
    mod_id: &str,
    lang: &str,
    into: Option<&Path>,
) -> Result<PathBuf, ExitCode> {
    let own = content.mods.iter().find(|m| m.id == mod_id);
    let same = |dir: &Path| {
        own.is_some_and(|m| std::fs::canonicalize(&m.dir).ok() == std::fs::canonicalize(dir).ok())
    };
    let path = match (into, own) {
        (Some(dir), _) if same(dir) => dir.join("locale").join(format!("{lang}.toml")),
        (Some(dir), _) => {
            if !dir.join("mod.toml").is_file() {
                eprintln!(
                    "error: `{}` is not a mod (it has no mod.toml)\n  = help: a translation is a mod of its own: `lantern new {mod_id}_{lang}`, then `--into` its folder",
                    dir.display()
                );
                return Err(ExitCode::from(2));
            }
            dir.join("locale").join(mod_id).join(format!("{lang}.toml"))
        }
        (None, Some(m)) => m.dir.join("locale").join(format!("{lang}.toml")),
        (None, None) => {
            eprintln!("error: `{mod_id}`'s texts are built in: import them into a translation mod with `--into DIR`");
            return Err(ExitCode::from(2));
        }
    };
    if let Some(parent) = path.parent() {
        if let Err(e) = std::fs::create_dir_all(parent) {
            eprintln!("error: cannot create the folder {}: {e}", parent.display());
            return Err(ExitCode::from(1));
        }
    }
    Ok(path)
}

/// What the import wrote and what it left out.
fn report(imported: &Imported, mod_id: &str, lang: &str, dest: &Path, of: usize) {
    println!(
        "wrote {} of the {of} texts of `{mod_id}` in `{lang}` to {}",
        imported.texts.len(),
        dest.display()
    );
    let left = of.saturating_sub(imported.texts.len());
    if left > 0 {
        println!("  {left} texts stay in the mod's own language until they are translated");
    }
    if imported.fuzzy > 0 {
        println!("  {} fuzzy entries were left out, as gettext leaves them out: review them and import again", imported.fuzzy);
    }
    for (what, list) in [
        (
            "name no text of the mod and were left out",
            &imported.unknown,
        ),
        (
            "have no key and a source text several keys have; left out",
            &imported.ambiguous,
        ),
    ] {
        if !list.is_empty() {
            let shown: Vec<&str> = list.iter().take(5).map(String::as_str).collect();
            let more = if list.len() > 5 {
                format!(" and {} more", list.len() - 5)
            } else {
                String::new()
            };
            eprintln!(
                "warning: {} entries {what}: {}{more}",
                list.len(),
                shown.join(", ")
            );
        }
    }
}

/// Checks the mods again and prints what it says of the written file; exit 1 on an error there.
fn after_import(roots: &[PathBuf], rules: &crate::host::Rules, dest: &Path) -> ExitCode {
    let world = crate::load::check_game(roots, rules, crate::lua::Limits::default());
    let dest = std::fs::canonicalize(dest).unwrap_or_else(|_| dest.to_path_buf());
    let about: Vec<crate::diag::Diagnostic> = (world.diagnostics.iter())
        .filter(|d| {
            d.span.is_some_and(|s| {
                let f = world.sources.get(s.file);
                f.disk()
                    .and_then(|p| std::fs::canonicalize(p).ok())
                    .as_deref()
                    == Some(dest.as_path())
            })
        })
        .cloned()
        .collect();
    if about.is_empty() {
        println!("  `check` has nothing to say of it");
        return ExitCode::SUCCESS;
    }
    eprint!("{}", crate::diag::render_all(&about, &world.sources));
    if about.iter().any(|d| d.is_error()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
