//! Finding mods: every folder in the mods directories that holds a `mod.toml`. A game's own mods
//! and the player's can live in folders of their own (`--mods game/mods --mods ~/my-mods`), as
//! Factorio keeps its base data apart from the mods folder; a mod id is still declared once.

use super::Manifest;
use crate::diag::Code;
use crate::diag::{Diagnostic, SourceMap};
use std::path::{Path, PathBuf};

/// A mod folder with a valid manifest.
#[derive(Debug, Clone)]
pub(crate) struct ModFolder {
    pub manifest: Manifest,
    pub dir: PathBuf,
    /// The mods directory it was found in; its files are shown relative to it (`rats/data/a.toml`).
    pub root: PathBuf,
    /// The folder and its real path, found once a load: every file of the mod is read through it.
    pub real: super::ModRoot,
}

impl ModFolder {
    pub(crate) fn id(&self) -> &str {
        &self.manifest.id
    }
}

/// Every mod folder in the mods directories, each directory's sorted by path, the directories in
/// the order given; problems become diagnostics.
///
/// A folder without a `mod.toml` whose own subfolders are mods is a *group* (`mods/examples/`): its
/// mods are found too. Any other folder without a `mod.toml` is skipped with a warning. A mod id
/// declared in two folders (of one directory or of two) is an error at the second.
pub(crate) fn discover(
    roots: &[PathBuf],
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModFolder> {
    let mut found: Vec<ModFolder> = Vec::new();
    for root in roots {
        discover_in(root, &mut found, sources, diags);
    }
    if found.is_empty() && !diags.iter().any(Diagnostic::is_error) {
        let dirs: Vec<String> = roots.iter().map(|r| format!("`{}`", r.display())).collect();
        diags.push(
            Diagnostic::error(
                Code::ModLayout,
                format!("no mods found in {}", dirs.join(" or ")),
            )
            .with_help("a mod is a folder with a mod.toml; `lantern new NAME` creates one"),
        );
    }
    found
}

fn discover_in(
    mods_dir: &Path,
    found: &mut Vec<ModFolder>,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) {
    if mods_dir.join("mod.toml").is_file() {
        // The mod itself, not the folder that holds it: the most common first mistake.
        let parent = mods_dir
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        diags.push(
            Diagnostic::error(
                Code::ModLayout,
                format!(
                    "`{}` is a mod (it has a mod.toml), not a folder that holds mods",
                    mods_dir.display()
                ),
            )
            .with_help(format!(
                "pass the folder that holds it: `--mods {}`",
                parent.display()
            )),
        );
        return;
    }
    let dirs = match list_dirs(mods_dir) {
        Ok(dirs) => dirs,
        Err(e) => {
            diags.push(
                Diagnostic::error(
                    Code::ModLayout,
                    format!(
                        "cannot read the mods directory `{}`: {e}",
                        mods_dir.display()
                    ),
                )
                .with_help("pass the folder that holds your mods with `--mods DIR`"),
            );
            return;
        }
    };
    // Each mod's real path is found from the mods directory's, resolved once.
    let mods_real = super::ModRoot::of(mods_dir);
    let mut folders = Vec::new();
    for dir in dirs {
        let children = if dir.join("mod.toml").exists() {
            Vec::new()
        } else {
            list_dirs(&dir).unwrap_or_default()
        };
        if children.iter().any(|d| d.join("mod.toml").exists()) {
            folders.extend(children);
        } else {
            folders.push(dir);
        }
    }
    for dir in folders {
        if let Some(m) = read_folder(mods_dir, &mods_real, &dir, found, sources, diags) {
            found.push(m);
        }
    }
}

fn list_dirs(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    // The entry's kind as the listing gives it (no `stat` a file); a link is followed.
    let is_dir = |e: &std::fs::DirEntry| match e.file_type() {
        Ok(t) if t.is_symlink() => e.path().is_dir(),
        Ok(t) => t.is_dir(),
        Err(_) => e.path().is_dir(),
    };
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .filter(is_dir)
        .map(|e| e.path())
        .filter(|p| !is_hidden(p))
        .collect();
    dirs.sort();
    Ok(dirs)
}

/// Reads one folder's manifest; `None` (with a diagnostic) when it is not a loadable mod.
fn read_folder(
    mods_dir: &Path,
    mods_real: &super::ModRoot,
    dir: &Path,
    found: &[ModFolder],
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Option<ModFolder> {
    let folder = super::files::display_path(dir, mods_dir);
    let display = format!("{folder}/mod.toml");
    let real = mods_real.within(dir);
    let bytes = match super::read_mod_file(&real, "mod.toml") {
        Ok(Some(bytes)) => bytes,
        Ok(None) => {
            diags.push(
                Diagnostic::warning(
                    Code::ModLayout,
                    format!("folder `{folder}` has no mod.toml and is ignored"),
                )
                .with_help("a mod is a folder with a mod.toml; `lantern new NAME` creates one"),
            );
            return None;
        }
        Err(refused) => {
            diags.push(refused.diagnostic(&display));
            return None;
        }
    };
    let (text, utf8_error) = decode_utf8(bytes);
    let file = sources.add_read(display, &dir.join("mod.toml"), text.clone());
    if let Some((offset, d)) = utf8_error {
        diags.push(d.at(crate::diag::Span::new(file, offset..offset + 1)));
        return None;
    }
    match Manifest::parse(&text, file) {
        Ok(manifest) => {
            if let Some(first) = found.iter().find(|m| m.manifest.id == manifest.id) {
                diags.push(
                    Diagnostic::error(
                        Code::ModLayout,
                        format!(
                            "two folders declare the mod id `{}`; this one is ignored",
                            manifest.id
                        ),
                    )
                    .at(manifest.id_span)
                    .with_label(first.manifest.id_span, "first declared here"),
                );
                return None;
            }
            check_layout(dir, &folder, diags);
            Some(ModFolder {
                manifest,
                dir: dir.to_path_buf(),
                root: mods_dir.to_path_buf(),
                real: real.clone(),
            })
        }
        Err(errors) => {
            diags.extend(errors);
            None
        }
    }
}

/// The folders of a mod that lantern reads.
pub(super) const MOD_FOLDERS: &[&str] = &["data", "scripts", "tests"];

/// Warns about what a typo in a mod's layout would silently leave unread: a folder named like one
/// lantern reads (`dat/`, `script/`), and Lua files without the `scripts/main.lua` that runs them.
/// Other folders (`assets/`, `docs/`) are the modder's own business and pass without a word.
fn check_layout(dir: &Path, folder: &str, diags: &mut Vec<Diagnostic>) {
    for sub in list_dirs(dir).unwrap_or_default() {
        let name = sub.file_name().unwrap_or_default().to_string_lossy();
        if MOD_FOLDERS.contains(&name.as_ref()) {
            continue;
        }
        // Stricter than "did you mean" elsewhere: `sprites/` must not read as `scripts/`.
        let meant = MOD_FOLDERS
            .iter()
            .find(|known| strsim::damerau_levenshtein(&name.to_lowercase(), known) <= 2);
        if let Some(meant) = meant {
            diags.push(
                Diagnostic::warning(
                    Code::ModLayout,
                    format!("folder `{folder}/{name}` is not read by lantern"),
                )
                .with_help(format!("did you mean `{meant}`?")),
            );
        }
    }
    let scripts = dir.join("scripts");
    if !scripts.join("main.lua").exists() {
        let lua: Vec<String> = std::fs::read_dir(&scripts)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".lua"))
                    .collect()
            })
            .unwrap_or_default();
        // A main.lua beside mod.toml is the usual first mistake; say where it belongs.
        let root_lua: Vec<String> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(Result::ok)
                    .filter(|e| e.path().is_file())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .filter(|n| n.ends_with(".lua"))
                    .collect()
            })
            .unwrap_or_default();
        if lua.is_empty() && !root_lua.is_empty() {
            let first = root_lua
                .iter()
                .find(|n| *n == "main.lua")
                .unwrap_or(&root_lua[0]);
            diags.push(
                Diagnostic::warning(Code::ModLayout, format!(
                    "`{folder}/{first}` is never run: lantern runs a mod's `scripts/main.lua`"
                ))
                .with_help(format!(
                    "move the mod's Lua into `{folder}/scripts/`, with `main.lua` the file that runs first"
                )),
            );
        }
        if !lua.is_empty() {
            let help = match crate::diag::suggest("main.lua", lua.iter().map(String::as_str)) {
                Some(close) => format!("lantern runs scripts/main.lua, which `require`s the rest; is `{close}` meant to be `main.lua`?"),
                None => "lantern runs scripts/main.lua, which `require`s the rest".to_string(),
            };
            diags.push(
                Diagnostic::warning(
                    Code::ModLayout,
                    format!(
                        "`{folder}/scripts` has Lua files but no main.lua, so none of them runs"
                    ),
                )
                .with_help(help),
            );
        }
    }
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Decodes UTF-8, without the byte-order mark some editors write first; on failure returns the
/// lossy text, the offset of the first bad byte and an error.
pub(crate) fn decode_utf8(mut bytes: Vec<u8>) -> (String, Option<(usize, Diagnostic)>) {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    // The bytes become the text without a copy when they are UTF-8, as they nearly always are.
    match String::from_utf8(bytes) {
        Ok(text) => (text, None),
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let d = Diagnostic::error(
                Code::FileRefused,
                format!(
                    "the file is not valid UTF-8 (the first invalid byte is at offset {valid})"
                ),
            )
            .with_help("save the file as UTF-8");
            (
                String::from_utf8_lossy(e.as_bytes()).into_owned(),
                Some((valid, d)),
            )
        }
    }
}
