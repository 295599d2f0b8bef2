//! Building a mods directory in a temporary folder: the bundled core plus one mod written by the test.

use super::root;
use lantern::game::Game;
use lantern::load::{load_game, World};
use lantern::lua::Limits;
use std::path::PathBuf;

pub(crate) use super::fs::copy_dir;

/// A temporary mods directory holding core and a mod `test` with these files (path relative to the mod).
pub(crate) struct TestMods {
    pub dir: tempfile::TempDir,
}

impl TestMods {
    pub(crate) fn new(files: &[(&str, &str)]) -> TestMods {
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&root().join("mods/core"), &dir.path().join("core"));
        let m = dir.path().join("test");
        std::fs::create_dir_all(&m).unwrap();
        std::fs::write(
            m.join("mod.toml"),
            "id = \"test\"\nversion = \"1.0.0\"\ndepends = [\"core\"]\n",
        )
        .unwrap();
        for (path, text) in files {
            let p = m.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        TestMods { dir }
    }

    /// Adds a mod `other` beside `test`, its `main.lua` being `script`.
    pub(crate) fn add_other(&self, script: &str) {
        let other = self.path().join("other");
        std::fs::create_dir_all(other.join("scripts")).unwrap();
        std::fs::write(
            other.join("mod.toml"),
            "id = \"other\"\nversion = \"1.0.0\"\n",
        )
        .unwrap();
        std::fs::write(other.join("scripts/main.lua"), script).unwrap();
    }

    pub(crate) fn path(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    pub(crate) fn world(&self, limits: Limits) -> World {
        load_game(&[self.path()], &super::reference_rules(), limits)
    }

    /// A game over these mods with their scripts attached; panics on load errors.
    pub(crate) fn game(&self, seed: u64) -> (Game, World) {
        self.game_with(seed, Limits::default())
    }

    pub(crate) fn game_with(&self, seed: u64, limits: Limits) -> (Game, World) {
        let mut world = self.world(limits);
        assert!(
            !world.has_errors(),
            "{}",
            lantern::diag::render_all(&world.diagnostics, &world.sources)
        );
        let game = world.start(seed);
        (game, world)
    }
}

/// Starts a turn: `turn_started` runs every handler listening to it.
pub(crate) fn turn(g: &mut Game) {
    g.emit_command(lantern::game::ev::TURN_STARTED, None, &[])
        .unwrap();
}

/// The problems the game raised since last asked, rendered as a modder sees them.
pub(crate) fn problems(g: &mut Game, world: &World) -> Vec<String> {
    g.take_problems()
        .iter()
        .map(|d| lantern::diag::render(d, &world.sources))
        .collect()
}
