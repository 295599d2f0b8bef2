//! lantern's tools for a game with its own vocabulary: `check`, `test`, `docs`, `new`, `sim`,
//! `lsp` and `play` (the console, its commands the game's verbs) over the game's world, from a few lines of
//! the game's own `main` (`examples/harvest` has them). The `lantern` binary is the same tools for
//! the reference roguelike, whose console adds its own commands.

use super::{
    parsed, run_tool, CheckArgs, DocsArgs, LspArgs, NewArgs, PlayArgs, SimWhat, TestArgs,
    TextsArgs, Tool,
};
use crate::host::Rules;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
struct ToolsCli {
    #[command(subcommand)]
    command: GameTool,
}

#[derive(Subcommand)]
enum GameTool {
    /// Validate every mod against the game's vocabulary; exit 1 on errors.
    Check(CheckArgs),
    /// Run the mods' Lua tests with the game's verbs.
    Test(TestArgs),
    /// Create a new mod for the game with a manifest, a data file, a script and a passing test.
    New(NewArgs),
    /// Write editor support files (the Lua definitions include the game's functions).
    Docs(DocsArgs),
    /// A mod's texts out to translators (locale TOML, gettext PO or JSON) and a translation back.
    Texts(TextsArgs),
    /// Serve the game's mods to an editor: a language server over stdio that knows the game's
    /// vocabulary.
    Lsp(LspArgs),
    /// Play the game over the mods in the terminal, one command per line: its verbs, and the
    /// console's commands; a change to a mod is swapped in while the game runs.
    Play(PlayArgs),
    /// Simulate a hazard of the game's mods many times and print how it plays against its
    /// design targets.
    Sim {
        #[command(subcommand)]
        what: SimWhat,
    },
}

/// Runs `check`, `test`, `docs`, `new`, `sim`, `lsp` or `play` from the process's arguments for a game called `name`
/// whose vocabulary is `rules`, over `default_mods` unless `--mods` is given, and returns the exit
/// code (0 success, 1 content errors or failed tests, 2 usage errors).
pub fn tools(name: &str, rules: &Rules, default_mods: &[PathBuf]) -> ExitCode {
    tools_from(name, rules, default_mods, std::env::args_os().skip(1))
}

/// [`tools`] with the arguments given (without the program's name).
pub fn tools_from(
    name: &str,
    rules: &Rules,
    default_mods: &[PathBuf],
    args: impl IntoIterator<Item = impl Into<std::ffi::OsString> + Clone>,
) -> ExitCode {
    let args =
        std::iter::once(std::ffi::OsString::from(name)).chain(args.into_iter().map(Into::into));
    let cli = match parsed::<ToolsCli, _>(args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let tool = match cli.command {
        GameTool::Check(a) => Tool::Check(a),
        GameTool::Test(a) => Tool::Test(a),
        GameTool::New(a) => Tool::New(a),
        GameTool::Docs(a) => Tool::Docs(a),
        GameTool::Texts(a) => Tool::Texts(a),
        GameTool::Lsp(a) => Tool::Lsp(a),
        GameTool::Sim { what } => Tool::Sim(what),
        GameTool::Play(a) => Tool::Play(a, &super::play::PLAIN),
    };
    run_tool(tool, rules, default_mods, name)
}
