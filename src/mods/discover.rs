//! Finding mods: every folder in the mods directory that holds a `mod.toml`.

use super::Manifest;
use crate::diag::{Diagnostic, FileId, SourceMap};
use std::path::{Path, PathBuf};

/// A mod folder with a valid manifest.
#[derive(Debug, Clone)]
pub struct ModFolder {
    pub manifest: Manifest,
    pub dir: PathBuf,
    pub manifest_file: FileId,
}

impl ModFolder {
    pub fn id(&self) -> &str {
        &self.manifest.id
    }
}

/// Every mod folder in `mods_dir`, sorted by folder name; problems become diagnostics.
pub fn discover(
    mods_dir: &Path,
    sources: &mut SourceMap,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModFolder> {
    let entries = match std::fs::read_dir(mods_dir) {
        Ok(entries) => entries,
        Err(e) => {
            diags.push(
                Diagnostic::error(format!(
                    "cannot read the mods directory `{}`: {e}",
                    mods_dir.display()
                ))
                .with_help("pass the folder that holds your mods with `--mods DIR`"),
            );
            return Vec::new();
        }
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() && !is_hidden(p))
        .collect();
    dirs.sort();
    let mut found: Vec<ModFolder> = Vec::new();
    for dir in dirs {
        let folder = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let manifest_path = dir.join("mod.toml");
        let display = format!("{folder}/mod.toml");
        let bytes = match std::fs::read(&manifest_path) {
            Ok(bytes) => bytes,
            Err(_) if !manifest_path.exists() => {
                diags.push(
                    Diagnostic::warning(format!(
                        "folder `{folder}` has no mod.toml and is ignored"
                    ))
                    .with_help("a mod is a folder with a mod.toml; `lantern new NAME` creates one"),
                );
                continue;
            }
            Err(e) => {
                diags.push(Diagnostic::error(format!("cannot read `{display}`: {e}")));
                continue;
            }
        };
        let (text, utf8_error) = decode_utf8(&bytes);
        let file = sources.add(display.clone(), text.clone());
        if let Some((offset, d)) = utf8_error {
            diags.push(d.at(crate::diag::Span::new(file, offset..offset + 1)));
            continue;
        }
        match Manifest::parse(&text, file) {
            Ok(manifest) => {
                if let Some(first) = found.iter().find(|m| m.manifest.id == manifest.id) {
                    diags.push(
                        Diagnostic::error(format!(
                            "two folders declare the mod id `{}`; this one is ignored",
                            manifest.id
                        ))
                        .at(manifest.id_span)
                        .with_label(first.manifest.id_span, "first declared here"),
                    );
                    continue;
                }
                found.push(ModFolder {
                    manifest,
                    dir,
                    manifest_file: file,
                });
            }
            Err(errors) => diags.extend(errors),
        }
    }
    if found.is_empty() && !diags.iter().any(Diagnostic::is_error) {
        diags.push(
            Diagnostic::error(format!("no mods found in `{}`", mods_dir.display()))
                .with_help("a mod is a folder with a mod.toml; `lantern new NAME` creates one"),
        );
    }
    found
}

fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'))
}

/// Decodes UTF-8; on failure returns the lossy text, the offset of the first bad byte and an error.
pub fn decode_utf8(bytes: &[u8]) -> (String, Option<(usize, Diagnostic)>) {
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), None),
        Err(e) => {
            let valid = e.valid_up_to();
            let d = Diagnostic::error(format!(
                "the file is not valid UTF-8 (the first invalid byte is at offset {valid})"
            ))
            .with_help("save the file as UTF-8");
            (
                String::from_utf8_lossy(bytes).into_owned(),
                Some((valid, d)),
            )
        }
    }
}
