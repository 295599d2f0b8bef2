//! lantern's tools for a game with its own vocabulary: `check`, `test`, `docs` and `new` over the
//! game's world, from a few lines of the game's own `main` (`examples/harvest` has them). The
//! `lantern` binary is the same tools, and `play` and `sim`, for the reference roguelike.

use super::{check, docs, test, LimitArgs};
use crate::host::Rules;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
struct ToolsCli {
    #[command(subcommand)]
    command: Tool,
}

#[derive(Subcommand)]
enum Tool {
    /// Validate every mod against the game's vocabulary; exit 1 on errors.
    Check {
        /// A folder that holds mods; give it again for more (the game's first, then the player's).
        #[arg(long)]
        mods: Vec<PathBuf>,
        #[arg(long, value_enum, default_value = "human")]
        format: check::Format,
    },
    /// Run the mods' Lua tests with the game's verbs.
    Test {
        /// A folder that holds mods; give it again for more (the game's first, then the player's).
        #[arg(long)]
        mods: Vec<PathBuf>,
        /// Run only the tests whose `file > describe > it` name contains this.
        filter: Option<String>,
        #[arg(long, value_enum, default_value = "pretty")]
        format: crate::harness::report::Format,
        /// Rerun the tests whenever a mod or test file changes.
        #[arg(long)]
        watch: bool,
        #[command(flatten)]
        limits: LimitArgs,
    },
    /// Create a new mod for the game with a manifest, a data file, a script and a passing test.
    New {
        /// The mod's id: lowercase letters, digits and `_`.
        name: String,
        /// A folder that holds mods; the mod is written into the last one.
        #[arg(long)]
        mods: Vec<PathBuf>,
    },
    /// Write editor support files (the Lua definitions include the game's functions).
    Docs {
        /// Write a LuaLS definition file for the `lantern` API here.
        #[arg(long, value_name = "FILE")]
        lua_defs: Option<PathBuf>,
        /// Write JSON Schemas for lantern's data files and manifests into this folder.
        #[arg(long, value_name = "DIR")]
        schema: Option<PathBuf>,
    },
}

/// Runs `check`, `test`, `docs` or `new` from the process's arguments for a game called `name`
/// whose vocabulary is `rules`, over `default_mods` unless `--mods` is given, and returns the exit
/// code (0 success, 1 content errors or failed tests, 2 usage errors).
pub fn tools(name: &str, rules: &Rules, default_mods: &[PathBuf]) -> ExitCode {
    tools_from(name, rules, default_mods, std::env::args().skip(1))
}

/// [`tools`] with the arguments given (without the program's name).
pub fn tools_from(
    name: &str,
    rules: &Rules,
    default_mods: &[PathBuf],
    args: impl IntoIterator<Item = String>,
) -> ExitCode {
    let cli = match ToolsCli::try_parse_from(std::iter::once(name.to_string()).chain(args)) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    let or_default = |mods: Vec<PathBuf>| {
        if mods.is_empty() {
            default_mods.to_vec()
        } else {
            mods
        }
    };
    let missing = |mods: &[PathBuf]| {
        mods.iter().find(|m| !m.is_dir()).map(|m| {
            eprintln!(
                "error: the mods folder `{}` does not exist\n  = help: pass the folder that holds your mods with `--mods DIR`",
                m.display()
            );
            ExitCode::from(2)
        })
    };
    match cli.command {
        Tool::Check { mods, format } => {
            let mods = or_default(mods);
            missing(&mods).unwrap_or_else(|| check::run(&mods, rules, format))
        }
        Tool::Test {
            mods,
            filter,
            format,
            watch,
            limits,
        } => {
            let mods = or_default(mods);
            missing(&mods).unwrap_or_else(|| {
                test::run(
                    &mods,
                    rules,
                    filter.as_deref(),
                    format,
                    watch,
                    limits.limits(),
                )
            })
        }
        Tool::New { name, mods } => super::new::run_for(&or_default(mods), &name, rules),
        Tool::Docs { lua_defs, schema } => docs::run(rules, lua_defs.as_deref(), schema.as_deref()),
    }
}
