//! Every ```toml block of a guide chapter is written as a data file (named after the chapter and the
//! block's line) of one mod that depends on core; the mod must load without a single diagnostic.
//! Blocks marked ```toml,no_check (manifests) are skipped.

mod common;

use common::root;
use lantern::content::load;

fn toml_blocks(markdown: &str) -> Vec<(usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (n, line) in markdown.lines().enumerate() {
        match (&mut current, line.trim_start()) {
            (None, "```toml") => current = Some((n + 1, String::new())),
            (Some(_), "```") => blocks.push(current.take().expect("inside a block")),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

#[test]
fn every_toml_example_in_the_guide_loads() {
    let mut checked = 0;
    let mut chapters = Vec::new();
    for entry in std::fs::read_dir(root().join("docs/guide")).unwrap() {
        let path = entry.unwrap().path();
        let markdown = std::fs::read_to_string(&path).unwrap();
        if markdown.contains("```lua\n") {
            // A chapter with scripts is run whole, data and Lua together, by tests/guide_lua.rs.
            continue;
        }
        let chapter = path.file_stem().unwrap().to_string_lossy().into_owned();
        chapters.push(chapter.clone());
        let dir = tempfile::tempdir().unwrap();
        common::world::copy_dir(&root().join("mods/core"), &dir.path().join("core"));
        let guide = dir.path().join("guide");
        std::fs::create_dir_all(guide.join("data")).unwrap();
        std::fs::write(
            guide.join("mod.toml"),
            "id = \"guide\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
        )
        .unwrap();
        for (line, block) in toml_blocks(&markdown) {
            std::fs::write(
                guide.join(format!("data/{chapter}-line{line}.toml")),
                &block,
            )
            .unwrap();
            checked += 1;
        }
        let loaded = load(dir.path(), &lantern::roguelike::rules().extensions());
        let rendered = lantern::diag::render_all(&loaded.diagnostics, &loaded.sources);
        assert!(
            loaded.diagnostics.is_empty(),
            "{}: an example does not load cleanly\n{rendered}",
            path.display()
        );
    }
    assert!(checked >= 4, "only {checked} examples found");
    // A ```lua block that is no part of a mod (an editor's setup) is marked `lua,no_check`: an
    // unmarked one would hand the chapter to the Lua test and leave its TOML unchecked here.
    for chapter in ["01-mods", "02-rules", "03-encounters"] {
        assert!(
            chapters.iter().any(|c| c == chapter),
            "{chapter} was not checked: {chapters:?}"
        );
    }
}
