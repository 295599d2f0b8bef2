//! `lantern sim hazard ID`: seeded runs of a hazard with a built-in policy, and the seed's table.

use crate::hazard::sim::{table, Policy};
use crate::hazard::Route;
use crate::lua::Limits;
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum RouteArg {
    Safe,
    Risk,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum SimFormat {
    Table,
    Json,
}

pub(super) struct Options<'a> {
    pub mods: &'a [std::path::PathBuf],
    /// The vocabulary the mods are loaded with (a game's, or the roguelike's).
    pub rules: &'a crate::host::Rules,
    pub hazard: &'a str,
    pub runs: u64,
    pub route: Option<RouteArg>,
    pub policy: Policy,
    pub seed: u64,
    pub format: SimFormat,
    pub threads: Option<usize>,
    pub lua_policy: Option<&'a Path>,
    /// The language of the names the report shows.
    pub lang: Option<&'a str>,
    /// The player's `--set` choices, as typed: the data reads them.
    pub settings: &'a [(String, String)],
}

pub(super) fn run(o: Options) -> ExitCode {
    let world = match loaded(&o) {
        Ok(world) => world,
        Err(code) => return code,
    };
    let Some(id) = hazard_id(&world.content, o.hazard) else {
        eprintln!("error: `{}` is not a hazard ID", o.hazard);
        return ExitCode::from(2);
    };
    let routes: Vec<Route> = match o.route {
        Some(RouteArg::Safe) => vec![Route::Safe],
        Some(RouteArg::Risk) => vec![Route::Risk],
        None => vec![Route::Safe, Route::Risk],
    };
    let threads = o.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let total = o.runs * routes.len() as u64;
    let show = std::io::stderr().is_terminal() && matches!(o.format, SimFormat::Table);
    let progress = move |done: u64| progress_bar(show, done, total);
    let start = std::time::Instant::now();
    let spec = crate::hazard::sim::Spec {
        routes: routes.clone(),
        runs: o.runs,
        seed: o.seed,
        policy: o.policy,
        threads,
    };
    let source = match o.lua_policy.map(std::fs::read_to_string).transpose() {
        Ok(source) => source,
        Err(e) => {
            eprintln!("error: cannot read the Lua policy: {e}");
            return ExitCode::from(1);
        }
    };
    let name = o
        .lua_policy
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let make = |source: &str| -> Result<Box<dyn crate::hazard::sim::Chooser>, String> {
        Ok(Box::new(crate::lua::policy::LuaPolicy::new(source, &name)?))
    };
    let factory = source.as_ref().map(|src| move || make(src));
    let custom: Option<crate::hazard::sim::ChooserFactory> = factory.as_ref().map(|f| f as _);
    let label = o.lua_policy.map(|_| format!("lua:{name}"));
    let report = match crate::hazard::sim::simulate_with(
        &world.content,
        &id,
        &spec,
        &progress,
        custom,
        label.as_deref(),
    ) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    };
    if show {
        eprintln!("\r{:60}", "");
    }
    let elapsed = start.elapsed();
    match o.format {
        SimFormat::Table => {
            print!("{}", table(&report, &world.content));
            let _ = std::io::stdout().flush();
            eprintln!(
                "{total} runs in {:.2} s on {threads} threads ({:.0} runs/s)",
                elapsed.as_secs_f64(),
                total as f64 / elapsed.as_secs_f64().max(1e-9)
            );
        }
        SimFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        ),
    }
    ExitCode::SUCCESS
}

/// The mods loaded (in the language asked for) for the simulation; what stops it, said.
fn loaded(o: &Options) -> Result<crate::load::World, ExitCode> {
    let mut world = crate::load::load_game_with(o.mods, o.rules, Limits::default(), o.settings);
    if let Some(code) = super::settings::typed_wrong(&world.diagnostics) {
        return Err(code);
    }
    if world.has_errors() {
        eprintln!(
            "{}",
            crate::diag::render_all(&world.diagnostics, &world.sources)
        );
        return Err(ExitCode::from(1));
    }
    if let Some(lang) = o.lang {
        super::check_language(&world.content, lang)?;
        world.content = std::sync::Arc::new(world.content.in_language(lang));
    }
    Ok(world)
}

/// The hazard a name means: a whole ID as written; a bare name the one hazard of that name, or
/// else the game's home mod's (as the console reads a bare ID).
fn hazard_id(content: &crate::content::Content, name: &str) -> Option<crate::id::Id> {
    let id = crate::id::Id::parse(name, content.declared.home())?;
    let named: Vec<&crate::id::Id> = (content.hazards.keys())
        .filter(|h| h.name() == name)
        .collect();
    Some(match named[..] {
        [one] if !name.contains(':') && !content.hazards.contains_key(&id) => one.clone(),
        _ => id,
    })
}

/// Redraws the progress bar on the terminal (`show`): `done` of `total` runs.
fn progress_bar(show: bool, done: u64, total: u64) {
    if show {
        let width = 30;
        let filled = ((done.min(total) as f64 / total.max(1) as f64) * width as f64) as usize;
        eprint!(
            "\r[{}{}] {done}/{total} runs",
            "#".repeat(filled),
            " ".repeat(width - filled)
        );
        let _ = std::io::stderr().flush();
    }
}
