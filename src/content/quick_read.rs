//! A data file read by the quick reader ([`crate::quick_toml`]): the whole file, or nothing.
//!
//! Most of a big pack's load is parsing its TOML; most data files are plain. A file the quick
//! reader reads to the end, every entry of a lantern table taken by its raw type, gives exactly
//! the raw definitions `toml` would have given (spans included) and no problem. Anything else (a
//! game's own table, an unknown one, any mistake) leaves `defs` as it was and says so: the file
//! is then read by [`super::data_file::read_file`]'s `toml` path, which reports what is wrong.

use super::raw_defs::{RawDefs, Src, CREATURE_TABLES, TABLES};
use crate::content::declare::Declarations;
use crate::diag::{FileId, Span};
use crate::quick_toml::{self, Value};

/// Reads one data file's text into `defs` when the quick reader reads all of it; whether it did.
pub(super) fn read_file(
    text: &str,
    file: FileId,
    ns: &std::sync::Arc<str>,
    rules: &Declarations,
    defs: &mut RawDefs,
) -> bool {
    let Ok(doc) = quick_toml::parse(text) else {
        return false;
    };
    let mut read = RawDefs::default();
    for (name, tables) in doc {
        let Value::Array {
            items,
            headed: true,
        } = tables.value
        else {
            return false;
        };
        if !lantern_table(&name, rules) {
            return false;
        }
        for entry in items {
            let span = Span::new(file, entry.start as usize..entry.end as usize);
            macro_rules! take {
                ($list:ident) => {
                    match quick_toml::from_item(entry) {
                        Ok(raw) => read.$list.push(Src {
                            ns: ns.clone(),
                            file,
                            span,
                            raw,
                        }),
                        Err(_) => return false,
                    }
                };
            }
            match &*name {
                "tags" => take!(tags),
                "rarities" => take!(rarities),
                "items" => take!(items),
                "creatures" => take!(creatures),
                "triggers" => take!(triggers),
                "quests" => take!(quests),
                "encounters" => take!(encounters),
                "event_types" => take!(event_types),
                "progress_types" => take!(progress_types),
                "hazards" => take!(hazards),
                "cards" => take!(cards),
                _ => return false,
            }
        }
    }
    defs.append(read);
    true
}

/// Whether `name` is one of lantern's own tables for this game (not one it leaves out, not the
/// game's own, which `toml`'s path reads).
fn lantern_table(name: &str, rules: &Declarations) -> bool {
    TABLES.contains(&name)
        && !(rules.without_creatures && CREATURE_TABLES.contains(&name))
        && rules.tables.iter().all(|t| t.key != name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceMap;
    use std::path::{Path, PathBuf};

    fn data_files(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                data_files(&path, found);
            } else if path.extension().is_some_and(|e| e == "toml")
                && path.components().any(|c| c.as_os_str() == "data")
            {
                found.push(path);
            }
        }
    }

    /// Reads `text` both ways; whether the quick reader read it. When it did, `toml` read the
    /// same raw definitions (spans included) and found nothing wrong.
    fn both(text: &str, rules: &Declarations) -> bool {
        let mut sources = SourceMap::new();
        let file = sources.add("defs.toml", text);
        let mut quick = RawDefs::default();
        let ns: std::sync::Arc<str> = "m".into();
        if !read_file(text, file, &ns, rules, &mut quick) {
            assert_eq!(format!("{quick:?}"), format!("{:?}", RawDefs::default()));
            return false;
        }
        let (mut slow, mut said) = (RawDefs::default(), Vec::new());
        super::super::data_file::read_file_with_toml(text, file, &ns, rules, &mut slow, &mut said);
        assert!(
            said.is_empty(),
            "toml found a mistake the quick reader did not: {said:?}"
        );
        assert_eq!(format!("{quick:?}"), format!("{slow:?}"));
        true
    }

    #[test]
    fn every_data_file_the_repository_ships_reads_as_toml_reads_it() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        for dir in ["mods", "examples", "tests/fixtures"] {
            data_files(&root.join(dir), &mut files);
        }
        let rules = crate::test_rules();
        let (mut read, mut core) = (0, Vec::new());
        for path in &files {
            let Ok(text) = std::fs::read_to_string(path) else {
                continue;
            };
            let quick = both(&text, rules.defs());
            read += usize::from(quick);
            // A file of lantern's own tables only (not the roguelike's rooms, which are the
            // game's, or unknown to a game without it): the quick reader's to read.
            let lantern_tables = text
                .lines()
                .map(str::trim_start)
                .filter(|l| l.starts_with('['))
                .all(|l| {
                    let name = l.trim_start_matches('[').split(['.', ']']).next();
                    lantern_table(name.unwrap_or_default(), rules.defs())
                });
            if path.starts_with(root.join("mods/core")) && lantern_tables {
                core.push((path.file_name().unwrap().to_owned(), quick));
            }
        }
        assert!(
            read * 2 > files.len(),
            "{read} of {} files read",
            files.len()
        );
        // The bundled game's files of lantern's tables are all plain.
        assert!(
            core.len() > 5 && core.iter().all(|(_, quick)| *quick),
            "{core:?}"
        );
    }

    #[test]
    fn a_generated_pack_reads_as_toml_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        crate::content::generate::write_mod_set(dir.path(), 2, 500).unwrap();
        let text = std::fs::read_to_string(dir.path().join("m1/data/defs.toml")).unwrap();
        assert!(both(&text, crate::test_rules().defs()));
    }

    #[test]
    fn a_file_with_a_mistake_or_a_game_table_is_left_to_toml() {
        let rules = crate::test_rules();
        for text in [
            "[[items]]\nid = \"a\"\nstack = \"many\"\n",
            "[[items]]\nid = \"a\"\nstak = 1\n",
            "[[itemz]]\nid = \"a\"\n",
            "[items]\nid = \"a\"\n",
            "[[items]]\nid = \"a\"\n[[rooms]]\nid = \"r\"\n",
        ] {
            assert!(!both(text, rules.defs()), "{text:?}");
        }
    }
}
