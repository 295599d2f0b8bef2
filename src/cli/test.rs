//! `lantern test`: discover and run every mod's tests and the scenarios in `scripts/`.

use super::shown;
use crate::harness::{self, report, Harness};
use crate::lua::Limits;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::{mpsc, Arc};

/// The exit code of a run that found no test to run (a filter that matches nothing, a mod set
/// without tests), apart from 1 for failed tests: pytest's code for "no tests collected".
const NOTHING_TO_RUN: u8 = 5;

/// How every test game starts: in a language (`--lang`), with settings (`--set`), profiled
/// (`--profile`).
pub(super) struct Games {
    pub lang: Option<String>,
    pub settings: Vec<(String, String)>,
    pub profile: bool,
}

pub(super) fn run(
    roots: &[PathBuf],
    rules: &crate::host::Rules,
    filter: Option<&str>,
    format: report::Format,
    watch: bool,
    limits: Limits,
    games: Games,
) -> ExitCode {
    let run_once = |filter| run_once(roots, rules, filter, format, limits, &games);
    let code = run_once(filter);
    if !watch {
        return code;
    }
    let (tx, rx) = mpsc::channel();
    let _watch = match crate::reload::watch_all(roots, move || {
        let _ = tx.send(());
    }) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("error: cannot watch {}: {e}", shown(roots));
            return ExitCode::from(1);
        }
    };
    println!("watching {} for changes (Ctrl-C to stop)", shown(roots));
    while rx.recv().is_ok() {
        while rx.try_recv().is_ok() {}
        // Every change reruns every test: the whole bundled suite takes well under a second, and a
        // changed data file can break any mod's tests.
        println!();
        run_once(filter);
    }
    code
}

fn run_once(
    roots: &[PathBuf],
    rules: &crate::host::Rules,
    filter: Option<&str>,
    format: report::Format,
    limits: Limits,
    games: &Games,
) -> ExitCode {
    let mut files = harness::discover_all(roots);
    // A filter that names a mod (or `scripts`) selects that folder's files; any other filter
    // selects tests whose `file > describe > it` name contains it.
    let mut filter = filter;
    if let Some(f) = filter {
        let prefix = format!("{f}/");
        if files.iter().any(|t| t.display.starts_with(&prefix)) {
            files.retain(|t| t.display.starts_with(&prefix));
            filter = None;
        }
    }
    let mut h = Harness::over(roots, rules.clone(), limits);
    if let Some(lang) = &games.lang {
        h = h.in_language(lang);
    }
    let mut h = h.with_settings(games.settings.clone());
    if games.profile {
        h = h.profiled();
    }
    let wrong = h.settings_problems();
    if !wrong.is_empty() {
        for w in wrong {
            eprintln!("error: --set: {w}");
        }
        return ExitCode::from(2);
    }
    let h = Arc::new(h);
    let results = harness::run(&h, &files, filter);
    // The mods' own problems once, first: every test that made a game of them failed because of them.
    for problems in h.load_problems() {
        eprint!("{problems}");
    }
    if results.is_empty() {
        match filter {
            Some(f) => eprintln!(
                "error: no test matches `{f}`{}",
                crate::diag::did_you_mean_suffix(
                    f,
                    files.iter().filter_map(|t| t.display.split('/').next())
                )
            ),
            None => eprintln!(
                "error: no tests found under {}: a mod's tests are the .lua files in its tests/ folder",
                shown(roots)
            ),
        }
        return ExitCode::from(NOTHING_TO_RUN);
    }
    print!("{}", report::render(&results, format));
    if games.profile {
        let mut profile = super::profile::Profile::default();
        for (mods, handlers, events) in h.take_costs() {
            profile.add_costs(mods, handlers, events);
        }
        // After the report, which a machine may be reading from standard output.
        eprintln!("{}", profile.render("in the test games"));
    }
    if results
        .iter()
        .any(|r| matches!(r.status, harness::Status::Failed { .. }))
    {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
