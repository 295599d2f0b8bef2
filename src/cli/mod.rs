//! The command line: `lantern check`, `play`, `test`, `new` and `docs`.
//!
//! This is the only module that prints or renders diagnostics to the terminal (invariant 5).
//! Exit codes: 0 success, 1 content errors or failed tests, 2 usage errors.
//!
//! Everything it prints passes through the `print!` family defined here, which shows every
//! control character but the line break and the tab as an escape (`diag::visible_lines`): text a
//! mod controls reaches the output inside lantern's own, and none of it may move the cursor,
//! retitle the terminal or overwrite a line. Text inside a line (a message, a name, a test's
//! output) is made [`crate::diag::visible`] where it is put in, so its line breaks cannot forge a
//! line of lantern's either.

/// `print!`, with control characters shown escaped (see the module's documentation).
macro_rules! print {
    ($($t:tt)*) => { crate::cli::write_out(false, &crate::diag::visible_lines(&format!($($t)*)), false) };
}
/// `println!`, as `print!` above.
macro_rules! println {
    () => { crate::cli::write_out(false, "", true) };
    ($($t:tt)*) => { crate::cli::write_out(false, &crate::diag::visible_lines(&format!($($t)*)), true) };
}
/// `eprint!`, as `print!` above.
macro_rules! eprint {
    ($($t:tt)*) => { crate::cli::write_out(true, &crate::diag::visible_lines(&format!($($t)*)), false) };
}
/// `eprintln!`, as `print!` above.
macro_rules! eprintln {
    () => { crate::cli::write_out(true, "", true) };
    ($($t:tt)*) => { crate::cli::write_out(true, &crate::diag::visible_lines(&format!($($t)*)), true) };
}

/// Writes what the `print!` family made to standard output (or error), with a line break after
/// it when `line`. A reader that has gone away (`lantern new x | head -1`) ends the command
/// quietly, as ripgrep and git end, where Rust's own `println!` panics.
/// A single-line text a mod controls (a name, a title, an option, a reason), as a line of the
/// console shows it: its line breaks and control characters as escapes, so it cannot forge a
/// line of lantern's (a prompt, a state hash) where it is put in.
pub(crate) fn one_line(text: &str) -> String {
    crate::diag::visible(text).into_owned()
}

pub(crate) fn write_out(to_stderr: bool, text: &str, line: bool) {
    use std::io::Write;
    let written = if to_stderr {
        let mut err = std::io::stderr().lock();
        err.write_all(text.as_bytes())
            .and_then(|()| if line { err.write_all(b"\n") } else { Ok(()) })
    } else {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes())
            .and_then(|()| if line { out.write_all(b"\n") } else { Ok(()) })
    };
    if let Err(e) = written {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
    }
}

mod args;
mod check;
mod docs;
mod lsp;
mod new;
mod play;
mod profile;
#[cfg(feature = "roguelike")]
mod rogue;
mod settings;
mod sim;
mod status;
mod test;
mod texts;
mod tools;
mod views;
mod words;

use crate::host::Rules;
pub use tools::{tools, tools_from};

use args::*;
use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// Puts `game` in `lang`: a usage error when it is no language tag, a warning when no mod has a
/// text in it (every text is then the mod's own).
fn set_language(game: &mut crate::game::Game, lang: &str) -> Result<(), ExitCode> {
    check_language(game.content(), lang)?;
    game.set_language(lang);
    Ok(())
}

/// Whether `lang` is a language tag, warning when no mod has a text in it.
fn check_language(content: &crate::content::Content, lang: &str) -> Result<(), ExitCode> {
    language_tag(lang)?;
    if let Some(warning) = language_unknown(content, lang) {
        eprintln!("warning: {warning}");
    }
    Ok(())
}

/// A usage error when `lang` is not a language tag.
fn language_tag(lang: &str) -> Result<(), ExitCode> {
    if let Err(message) = language_syntax(lang) {
        eprintln!("error: {message}");
        return Err(ExitCode::from(2));
    }
    Ok(())
}

/// What is wrong with `lang` as a language tag, if anything: for `--lang` and the console's `lang`.
fn language_syntax(lang: &str) -> Result<(), String> {
    crate::mods::language_tag(lang).map_err(|(what, code)| {
        let help = match code {
            Some(code) => format!("write its code: `{code}`"),
            None => "write one such as `en`, `de` or `zh-Hans`".into(),
        };
        format!("`{}` {what}\n  = help: {help}", crate::diag::visible(lang))
    })
}

/// The warning for a language no mod has a text in (every text is then the mod's own).
fn language_unknown(content: &crate::content::Content, lang: &str) -> Option<String> {
    (!content.has_language(lang)).then(|| {
        format!(
            "no mod has texts in `{}`; each mod's own language is shown (the mods have {})",
            crate::diag::visible(lang),
            content.languages().join(", ")
        )
    })
}

/// The mods folders given, or `default` when none was.
fn or_default(mods: Vec<PathBuf>, default: &[PathBuf]) -> Vec<PathBuf> {
    if mods.is_empty() {
        default.to_vec()
    } else {
        mods
    }
}

/// A usage error when a mods folder is not there: a mistake in the command, not in any mod (a
/// CI job pointed at the wrong folder must fail, not report "0 passed").
fn missing_folder(mods: &[PathBuf]) -> Option<ExitCode> {
    if let Some(m) = mods.iter().find(|m| !m.is_dir()) {
        eprintln!(
            "error: the mods folder `{}` does not exist\n  = help: pass the folder that holds your mods with `--mods DIR`",
            m.display()
        );
        return Some(ExitCode::from(2));
    }
    // A mod's own folder given for the folder that holds it: said as the loader says it.
    let m = mods.iter().find(|m| m.join("mod.toml").is_file())?;
    let mut diags = Vec::new();
    crate::mods::discover(
        std::slice::from_ref(m),
        &mut crate::diag::SourceMap::new(),
        &mut diags,
    );
    let sources = crate::diag::SourceMap::new();
    for d in diags.iter().filter(|d| d.is_error()) {
        eprint!("{}", crate::diag::render(d, &sources));
    }
    Some(ExitCode::from(2))
}

/// `check`, `test`, `new`, `docs` and `sim` for a vocabulary, over `default` mods folders unless the
/// command names others: lantern's and a game's tools share them.
fn run_tool(tool: Tool, rules: &Rules, default: &[PathBuf], program: &str) -> ExitCode {
    match tool {
        Tool::Check(a) => {
            let mods = or_default(a.mods, default);
            missing_folder(&mods)
                .unwrap_or_else(|| check::run(&mods, rules, a.format, a.limits.limits()))
        }
        Tool::Test(a) => run_test(a, rules, default),
        Tool::New(a) => new::run_for(&or_default(a.mods, default), &a.name, rules, program),
        Tool::Docs(a) => docs::run(rules, a.lua_defs.as_deref(), a.schema.as_deref()),
        Tool::Texts(TextsArgs {
            action: TextsAction::Export(a),
        }) => {
            let mods = or_default(a.mods.clone(), default);
            missing_folder(&mods).unwrap_or_else(|| texts::export(&mods, rules, &a))
        }
        Tool::Texts(TextsArgs {
            action: TextsAction::Import(a),
        }) => {
            let mods = or_default(a.mods.clone(), default);
            missing_folder(&mods).unwrap_or_else(|| texts::import(&mods, rules, &a))
        }
        Tool::Lsp(a) => lsp::run(a.mods, default, rules, a.limits.limits()),
        Tool::Play(a, flavor) => run_play(a, flavor, rules, default, program),
        Tool::Sim(SimWhat::Hazard {
            id,
            mods,
            runs,
            route,
            policy,
            seed,
            format,
            threads,
            lua_policy,
            lang,
            set,
        }) => {
            let mods = or_default(mods, default);
            let settings = match settings::parse_flags(&set) {
                Ok(s) => s,
                Err(code) => return code,
            };
            missing_folder(&mods).unwrap_or_else(|| {
                sim::run(sim::Options {
                    mods: &mods,
                    rules,
                    hazard: &id,
                    runs,
                    route,
                    policy,
                    seed,
                    format,
                    threads,
                    lua_policy: lua_policy.as_deref(),
                    lang: lang.as_deref(),
                    settings: &settings,
                })
            })
        }
    }
}

/// `test`: the flags read (language, settings), then the run.
fn run_test(a: TestArgs, rules: &Rules, default: &[PathBuf]) -> ExitCode {
    let mods = or_default(a.mods, default);
    if let Some(Err(code)) = a.lang.as_deref().map(language_tag) {
        return code;
    }
    let settings = match settings::parse_flags(&a.set) {
        Ok(s) => s,
        Err(code) => return code,
    };
    missing_folder(&mods).unwrap_or_else(|| {
        test::run(
            &mods,
            rules,
            a.filter.as_deref(),
            a.format,
            a.watch,
            a.limits
                .limits()
                .with_test_instructions(a.test_instructions),
            test::Games {
                lang: a.lang,
                settings,
                profile: a.profile,
            },
        )
    })
}

/// `play`: the settings read, then the console.
fn run_play(
    a: PlayArgs,
    flavor: &'static play::Flavor,
    rules: &Rules,
    default: &[PathBuf],
    program: &str,
) -> ExitCode {
    let mods = or_default(a.mods, default);
    let settings = match settings::parse_flags(&a.set) {
        Ok(s) => s,
        Err(code) => return code,
    };
    missing_folder(&mods).unwrap_or_else(|| {
        play::run(
            play::Options {
                dev: a.dev,
                mods,
                rules: rules.clone(),
                seed: a.seed,
                lang: a.lang,
                load: a.load,
                watch: !a.no_watch,
                limits: a.limits.limits(),
                settings,
            },
            flavor,
            program,
        )
    })
}

/// The tools every game gets.
enum Tool {
    Check(CheckArgs),
    Test(TestArgs),
    New(NewArgs),
    Docs(DocsArgs),
    Texts(TextsArgs),
    Sim(SimWhat),
    Lsp(LspArgs),
    /// The console, with a game's own commands besides its verbs.
    Play(PlayArgs, &'static play::Flavor),
}

/// The mods directories as a message names them: `mods` or `mods`, `mine`.
fn shown(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|r| format!("`{}`", r.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The command line parsed, or the exit code after clap printed why not (help and `--version`
/// are a success, a usage error is 2).
fn parsed<T: Parser, A: Into<std::ffi::OsString> + Clone>(
    args: impl IntoIterator<Item = A>,
) -> Result<T, ExitCode> {
    T::try_parse_from(args).map_err(|e| {
        let _ = e.print();
        if e.use_stderr() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        }
    })
}

/// The rules of the `lantern` binary's own game: the reference roguelike's with its feature, the
/// empty ones without (a game's own binary passes its rules to [`tools`] instead).
fn tool_rules() -> crate::host::Rules {
    #[cfg(feature = "roguelike")]
    return crate::roguelike::rules();
    #[cfg(not(feature = "roguelike"))]
    crate::host::Rules::empty()
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match parsed::<Cli, _>(std::env::args_os()) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    let default = [PathBuf::from("mods")];
    let rules = tool_rules();
    match cli.command {
        Command::Check(a) => run_tool(Tool::Check(a), &rules, &default, "lantern"),
        Command::Test(a) => run_tool(Tool::Test(a), &rules, &default, "lantern"),
        Command::New(a) => run_tool(Tool::New(a), &rules, &default, "lantern"),
        Command::Docs(a) => run_tool(Tool::Docs(a), &rules, &default, "lantern"),
        Command::Texts(a) => run_tool(Tool::Texts(a), &rules, &default, "lantern"),
        Command::Lsp(a) => run_tool(Tool::Lsp(a), &rules, &default, "lantern"),
        Command::Sim { what } => run_tool(Tool::Sim(what), &rules, &default, "lantern"),
        #[cfg(feature = "roguelike")]
        #[cfg(feature = "roguelike")]
        Command::Play(a) => run_tool(Tool::Play(a, &rogue::FLAVOR), &rules, &default, "lantern"),
    }
}
