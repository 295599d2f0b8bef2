//! A synthetic mod set for benchmarks and stress tests: many mods, many definitions, real cross-references.

use std::fmt::Write;
use std::path::Path;

/// Writes `mods` mods of `defs` definitions each under `dir`; mod `m0` is a base every other mod depends on.
/// Returns the number of definitions written.
pub fn write_mod_set(dir: &Path, mods: usize, defs: usize) -> std::io::Result<usize> {
    let mut total = 0;
    for m in 0..mods {
        let id = format!("m{m}");
        let root = dir.join(&id);
        std::fs::create_dir_all(root.join("data"))?;
        let depends = if m == 0 {
            String::new()
        } else {
            "depends = [\"m0 >=1.0\"]\n".to_string()
        };
        std::fs::write(
            root.join("mod.toml"),
            format!("id = \"{id}\"\nversion = \"1.0.0\"\n{depends}"),
        )?;
        let tags = (defs / 10).max(1);
        let items = defs / 2;
        let creatures = defs / 5;
        let quests = defs / 10;
        let triggers = defs - tags - items - creatures - quests;
        let mut text = String::new();
        if m == 0 {
            text.push_str("[[rarities]]\nid = \"white\"\nrank = 1\n\n[[rarities]]\nid = \"blue\"\nrank = 2\n\n");
        }
        for t in 0..tags {
            let _ = writeln!(text, "[[tags]]\nid = \"tag{t}\"\nname = \"Tag {t}\"\n");
        }
        for i in 0..items {
            let _ = writeln!(
                text,
                "[[items]]\nid = \"item{i}\"\nname = \"Item {i}\"\ntags = [\"tag{}\", \"m0:tag{}\"]\nrarity = \"{}\"\nstack = 99\n",
                i % tags,
                (i * 7) % tags,
                if i % 3 == 0 { "blue" } else { "white" }
            );
        }
        for c in 0..creatures {
            let _ = writeln!(
                text,
                "[[creatures]]\nid = \"creature{c}\"\nhealth = {}\ntags = [\"tag{}\"]\nattributes = {{ attack = 1, armor = {} }}\nitems = [ {{ item = \"item{}\", count = 2 }} ]\n",
                5 + c % 10,
                c % tags,
                c % 3,
                c % items.max(1)
            );
        }
        for q in 0..quests {
            let _ = writeln!(
                text,
                "[[quests]]\nid = \"quest{q}\"\non = \"creature_died\"\ncount = {}\ncondition = [ {{ check = \"has_tag\", who = \"target\", value = \"m0:tag{}\" }} ]\nactions = [ {{ action = \"give_item\", item = \"item{}\", count = 1, target = \"self\" }} ]\n",
                1 + q % 5,
                q % tags,
                q % items.max(1)
            );
        }
        for t in 0..triggers {
            let _ = writeln!(
                text,
                "[[triggers]]\non = \"damage_taken\"\nwhen = {{ damage_type = \"fire\" }}\ncondition = [ {{ check = \"has_item\", who = \"self\", item = \"item{}\", count = 1 }} ]\nchance = 0.5\nactions = [ {{ action = \"heal\", amount = 1, target = \"self\" }} ]\n",
                t % items.max(1)
            );
        }
        std::fs::write(root.join("data").join("defs.toml"), text)?;
        total += tags + items + creatures + quests + triggers;
    }
    Ok(total)
}
