//! The command line's arguments, as clap reads them: the commands, and each one's flags.

use super::{check, sim};
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(name = "lantern", version, about = "A Lua-scriptable modding runtime")]
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) command: Command,
}

#[derive(Subcommand)]
pub(super) enum Command {
    /// Validate every mod in the mods directory; exit 1 on errors.
    Check(CheckArgs),
    /// Run the mods' Lua tests (`mods/*/tests/**/*.lua`) and the scenarios in `scripts/`.
    Test(TestArgs),
    /// Create a new mod with a manifest, data, a script and a passing test.
    New(NewArgs),
    /// Simulate a hazard many times and print how it plays against its design targets.
    Sim {
        #[command(subcommand)]
        what: SimWhat,
    },
    /// Write editor support files.
    Docs(DocsArgs),
    /// A mod's texts out to translators (locale TOML, gettext PO or JSON) and a translation back.
    Texts(TextsArgs),
    /// Serve the mods to an editor: a language server over stdio (diagnostics as you type,
    /// completion, go to definition, references, hover).
    Lsp(LspArgs),
    #[cfg(feature = "roguelike")]
    /// Play the reference game over the mods, one command per line.
    Play(PlayArgs),
}

/// `play`'s arguments, for lantern and for a game's own tools.
#[derive(clap::Args)]
pub(super) struct PlayArgs {
    /// A folder that holds mods; give it again for more (the game's first, then the player's).
    /// Default: `mods` (a game's tools: the game's own).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    /// The run seed: the same seed and commands give the same game.
    #[arg(long, default_value_t = 1)]
    pub(super) seed: u64,
    /// Do not watch the mods for changes (`reload` still reloads by hand).
    #[arg(long)]
    pub(super) no_watch: bool,
    /// Continue a saved game.
    #[arg(long)]
    pub(super) load: Option<PathBuf>,
    /// Developer commands (`devcard CARD` adds any card to the hazard hand).
    #[arg(long)]
    pub(super) dev: bool,
    /// The language to play in (`de`, `zh-Hans`): texts a language lacks are each mod's own.
    #[arg(long)]
    pub(super) lang: Option<String>,
    /// Choose a mod's setting: `--set rats:rat_health=20` (give it again for more; `settings`
    /// in `play` lists them).
    #[arg(long = "set", value_name = "SETTING=VALUE")]
    pub(super) set: Vec<String>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
}

#[derive(Subcommand)]
pub(super) enum SimWhat {
    /// Play a hazard with a built-in policy.
    Hazard {
        /// The hazard's ID (a bare name is the one hazard of that name, whichever mod defines it).
        id: String,
        /// A folder that holds mods; give it again for more (the game's first, then the player's).
        /// Default: `mods` (a game's tools: the game's own).
        #[arg(long)]
        mods: Vec<PathBuf>,
        #[arg(long, default_value_t = 10_000)]
        runs: u64,
        /// One route only (default: both, `runs` each).
        #[arg(long, value_enum)]
        route: Option<sim::RouteArg>,
        #[arg(long, value_enum, default_value = "greedy")]
        policy: crate::hazard::sim::Policy,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, value_enum, default_value = "table")]
        format: sim::SimFormat,
        /// Threads to run on (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// A policy written in Lua: a file returning `function(run) return { card = N, side = "top" } end`.
        #[arg(long, value_name = "FILE")]
        lua_policy: Option<PathBuf>,
        /// The language of the names in the report (`de`).
        #[arg(long)]
        lang: Option<String>,
        /// Choose a mod's setting the hazard's data reads: `--set rats:rat_health=20` (give it
        /// again for more).
        #[arg(long = "set", value_name = "SETTING=VALUE")]
        set: Vec<String>,
    },
}

/// `check`'s arguments, for lantern and for a game's own tools.
#[derive(clap::Args)]
pub(super) struct CheckArgs {
    /// A folder that holds mods; give it again for more (the game's first, then the player's).
    /// Default: `mods` (a game's tools: the game's own).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    /// `human` (with carets) or `json` (for editors and CI).
    #[arg(long, value_enum, default_value = "human")]
    pub(super) format: check::Format,
    /// The limits the mods' `main.lua` run under while they load (a portal checking uploads
    /// may lower them; see docs/security.md).
    #[command(flatten)]
    pub(super) limits: LimitArgs,
}

/// `test`'s arguments.
#[derive(clap::Args)]
pub(super) struct TestArgs {
    /// A folder that holds mods; give it again for more (the game's first, then the player's).
    /// Default: `mods` (a game's tools: the game's own).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    /// Run only the tests whose `file > describe > it` name contains this.
    pub(super) filter: Option<String>,
    #[arg(long, value_enum, default_value = "pretty")]
    pub(super) format: crate::harness::report::Format,
    /// Rerun the tests whenever a mod or test file changes.
    #[arg(long)]
    pub(super) watch: bool,
    /// The language test games are in (`lantern.test.game{ lang = "de" }` sets one game's).
    #[arg(long)]
    pub(super) lang: Option<String>,
    /// Lua instructions one test may run, the games it makes and drives included.
    #[arg(long, default_value_t = crate::lua::Limits::default().test_instructions)]
    pub(super) test_instructions: u64,
    /// Choose a mod's setting: `--set rats:rat_health=20` (give it again for more; `settings`
    /// in `play` lists them).
    #[arg(long = "set", value_name = "SETTING=VALUE")]
    pub(super) set: Vec<String>,
    /// After the report, where the test games' scripts spent their instructions, by mod and by
    /// handler.
    #[arg(long)]
    pub(super) profile: bool,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
}

/// `lsp`'s arguments.
#[derive(clap::Args)]
pub(super) struct LspArgs {
    /// A folder that holds mods; give it again for more. Default: the game's own (`mods` for
    /// lantern) and the editor's workspace (its `mods` folder, the folder that holds the mod
    /// opened, or the folder itself).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
}

/// `new`'s arguments.
#[derive(clap::Args)]
pub(super) struct NewArgs {
    /// The mod's id: lowercase letters, digits and `_`.
    pub(super) name: String,
    /// A folder that holds mods; the mod is written into the last one. Default: `mods` (a game's
    /// tools: the game's own).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
}

/// `docs`'s arguments.
#[derive(clap::Args)]
pub(super) struct DocsArgs {
    /// Write a LuaLS definition file for the `lantern` API here.
    #[arg(long, value_name = "FILE")]
    pub(super) lua_defs: Option<PathBuf>,
    /// Write JSON Schemas for data files and manifests into this folder (for Taplo / Even Better TOML).
    #[arg(long, value_name = "DIR")]
    pub(super) schema: Option<PathBuf>,
}

/// `texts`'s arguments.
#[derive(clap::Args)]
pub(super) struct TextsArgs {
    #[command(subcommand)]
    pub(super) action: TextsAction,
}

#[derive(clap::Subcommand)]
pub(super) enum TextsAction {
    /// Write every text of a mod a player reads, for translators: in its own language, or with a
    /// translation's texts (`--lang`), as locale TOML, gettext PO or JSON.
    Export(TextsExport),
    /// Take a translated file back as the mod's `locale/<lang>.toml`, or a translation mod's.
    Import(TextsImport),
}

/// The forms texts travel in.
#[derive(clap::ValueEnum, Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum TextFormat {
    /// A locale file, as a mod's `locale/<lang>.toml`.
    Toml,
    /// gettext PO, which every translation platform takes.
    Po,
    /// JSON, nested by the keys' parts.
    Json,
}

/// `texts export`'s arguments.
#[derive(clap::Args)]
pub(super) struct TextsExport {
    /// The mod whose texts to write (`lantern` for lantern's own lines).
    #[arg(value_name = "MOD")]
    pub(super) mod_id: String,
    /// A folder that holds mods; give it again for more (the game's first, then the player's).
    /// Default: `mods` (a game's tools: the game's own).
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    /// The language being translated to: its texts so far fill the file (a PO file's `msgstr`s).
    #[arg(long, value_name = "LANG")]
    pub(super) lang: Option<String>,
    /// The file's form. Default: by `--out`'s extension (`.po`, `.pot`, `.json`), else `toml`.
    #[arg(long, value_enum)]
    pub(super) format: Option<TextFormat>,
    /// Write the file here rather than to standard output.
    #[arg(long, value_name = "FILE")]
    pub(super) out: Option<PathBuf>,
}

/// `texts import`'s arguments.
#[derive(clap::Args)]
pub(super) struct TextsImport {
    /// The translated file (`.po`, `.toml` or `.json`).
    #[arg(value_name = "FILE")]
    pub(super) file: PathBuf,
    /// A folder that holds mods; give it again for more.
    #[arg(long)]
    pub(super) mods: Vec<PathBuf>,
    /// Whose texts they are. Default: what the file says (a PO file `export` made names it).
    #[arg(long = "mod", value_name = "MOD")]
    pub(super) mod_id: Option<String>,
    /// The language they are in. Default: the PO file's `Language`.
    #[arg(long, value_name = "LANG")]
    pub(super) lang: Option<String>,
    /// The file's form. Default: by its extension.
    #[arg(long, value_enum)]
    pub(super) format: Option<TextFormat>,
    /// A translation mod's folder: the texts go to its `locale/<mod>/<lang>.toml`. Default: the
    /// mod's own `locale/<lang>.toml`.
    #[arg(long, value_name = "DIR")]
    pub(super) into: Option<PathBuf>,
}

/// The scripts' limits for one run; the defaults are in the guide's Lua chapter.
#[derive(clap::Args)]
pub(super) struct LimitArgs {
    /// Lua instructions one call into a script may run.
    #[arg(long, default_value_t = crate::lua::Limits::default().instructions)]
    pub(super) lua_instructions: u64,
    /// Lua instructions all of one mod's calls in one turn may run together.
    #[arg(long, default_value_t = crate::lua::Limits::default().turn_instructions)]
    pub(super) lua_turn_instructions: u64,
    /// Megabytes each mod's scripts may hold in the Lua state.
    #[arg(long, default_value_t = crate::lua::Limits::default().memory / (1024 * 1024))]
    pub(super) lua_memory_mb: usize,
}

impl LimitArgs {
    pub(super) fn limits(&self) -> crate::lua::Limits {
        crate::lua::Limits::default()
            .with_instructions(self.lua_instructions)
            .with_turn_instructions(self.lua_turn_instructions)
            .with_memory(self.lua_memory_mb.saturating_mul(1024 * 1024))
    }
}
