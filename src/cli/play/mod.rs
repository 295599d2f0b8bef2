//! `play`: a game in the terminal, one command per line. Every game's tools have it (`harvest
//! play`): the console's own commands (quests, the open encounter and hazard, give, start, emit,
//! why, log, save, load, restart, reload), then the game's declared verbs, each listed in `help`
//! with its parameters and documentation; a game's [`Flavor`] adds commands of its own before both
//! (the roguelike's are in `rogue.rs`).
//!
//! Reads from the keyboard with a line editor (history, completion of commands and IDs), or line by
//! line from a pipe (plain text, each command echoed), so a session can be scripted and its
//! transcript tested. Unless `--no-watch`, the mods directory is watched and a change is reloaded
//! between two commands, never during one.

mod commands;
mod lines;

use super::shown;
use super::views::hazard_text;
use crate::content::find_id;
use crate::diag::render_all;
use crate::game::Game;
use crate::lua::Limits;
use crate::reload::Live;
use commands::{command, home};
use lines::{completion_words, read_lines};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{mpsc, Arc, Mutex};

pub(super) struct Options {
    pub mods: Vec<PathBuf>,
    /// The game's vocabulary: its verbs are commands, and every reload keeps it.
    pub rules: crate::host::Rules,
    pub seed: u64,
    /// The language to play in.
    pub lang: Option<String>,
    pub load: Option<PathBuf>,
    /// Watch the mods directory and reload on changes.
    pub watch: bool,
    pub limits: Limits,
    /// Developer commands: `devcard CARD` adds a card straight to the hazard hand.
    pub dev: bool,
    /// The player's `--set` choices, as typed.
    pub settings: Vec<(String, String)>,
}

/// One console command as `help` shows it and completion offers it: the names it answers to
/// (besides its one-letter aliases), how it is written, and what it does. `command` and the play
/// loop run them; a test holds every name to a command that runs.
pub(super) struct Command {
    pub(super) names: &'static [&'static str],
    pub(super) usage: &'static str,
    pub(super) help: &'static str,
}

/// A flavor's commands: `None` when the line is not one of them.
pub(super) type FlavorCommand = fn(&mut Game, &[&str]) -> Option<Result<String, crate::Error>>;

/// What a game adds to the console: commands of its own, run before the console's and the
/// declared verbs (shown first in `help`); the banner's hint; and how the end of a run is told.
pub(super) struct Flavor {
    pub(super) commands: &'static [Command],
    /// Runs one of `commands`; `None` when the line is not one of them.
    pub(super) run: FlavorCommand,
    /// What the banner says to type first.
    pub(super) begin: &'static str,
    /// What an encounter whose every option is blocked says the player can do.
    pub(super) stuck: &'static str,
    pub(super) ending: fn(&Game) -> String,
}

/// A game's console with nothing of its own but its declared verbs.
pub(super) const PLAIN: Flavor = Flavor {
    commands: &[],
    run: |_, _| None,
    begin: "`help` lists the game's verbs too",
    stuck: "every option is blocked",
    ending: plain_ending,
};

fn plain_ending(game: &Game) -> String {
    let s = game.state();
    let done = s.quests.values().filter(|q| q.done).count();
    format!(
        "The run is over: turn {}, {} quests done. `restart` begins a new run, `load FILE` goes back to a save, `quit` leaves.",
        s.turn, done
    )
}

enum Msg {
    Line(String),
    End,
    Changed,
}

/// Loads the mods, starts the run and loads the save asked for; what went wrong is printed.
fn start(options: &Options) -> Result<Live, ExitCode> {
    let (mut live, notes) = match Live::start_with(
        &options.mods,
        &options.rules,
        options.seed,
        options.limits,
        &options.settings,
    ) {
        Ok(started) => started,
        Err(e) => {
            if let Some(problems) = e.problems() {
                if let Some(code) = super::settings::typed_wrong(problems.diagnostics()) {
                    return Err(code);
                }
                eprintln!("{problems}");
            }
            eprintln!(
                "the mods have errors; fix them and start again (`lantern check` lists them)"
            );
            return Err(ExitCode::from(1));
        }
    };
    if !notes.is_empty() {
        eprintln!("{notes}");
    }
    if let Some(lang) = &options.lang {
        super::set_language(live.game_mut(), lang)?;
    }
    if let Some(path) = &options.load {
        match live.load_save(path) {
            Ok(notes) => print_problems(&notes),
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(1));
            }
        }
    }
    super::settings::apply_flags(live.game_mut(), &options.settings, options.load.is_some())?;
    print_diags(&live.game_mut().take_problems(), live.sources());
    Ok(live)
}

pub(super) fn run(options: Options, flavor: &Flavor, program: &str) -> ExitCode {
    let mut live = match start(&options) {
        Ok(live) => live,
        Err(code) => return code,
    };
    let interactive = std::io::stdin().is_terminal();
    let (tx, rx) = mpsc::channel::<Msg>();
    // At a terminal the reader waits for each command's output before it shows the next prompt.
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let words = Arc::new(Mutex::new(completion_words(live.game(), flavor)));
    // However many bursts of changes come while a reload runs, one more reload follows them.
    let pending = crate::reload::Pending::default();
    let _watch = (options.watch)
        .then(|| watch(&options.mods, &tx, &pending))
        .flatten();
    // The banner comes once the watcher is running, so a tool that waits for it can edit at once,
    // and before the first prompt.
    let mods = live.game().content().mods.len();
    println!(
        "{}: {mods} mod{} loaded, seed {}. Type `help` for commands, {}.",
        program,
        if mods == 1 { "" } else { "s" },
        live.game().seed(),
        flavor.begin
    );
    read_lines(tx.clone(), interactive, words.clone(), done_rx);
    drop(tx);
    while let Ok(msg) = rx.recv() {
        // Dropped at the end of the iteration, whichever way it ends: the reader may prompt again.
        let mut _ack = Ack(None);
        let line = match msg {
            Msg::End => break,
            Msg::Changed => {
                pending.take();
                show_reload(&reload(&mut live, &words, flavor), interactive);
                continue;
            }
            Msg::Line(line) => {
                _ack = Ack(interactive.then_some(&done_tx));
                line
            }
        };
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if !interactive {
            println!("> {line}");
        }
        match run_command(&mut live, line, &words, flavor, options.dev) {
            Flow::Quit => break,
            Flow::Done => {}
            Flow::Game => play_line(&mut live, line, flavor),
        }
    }
    ExitCode::SUCCESS
}

/// Watches the mods' folders, sending [`Msg::Changed`] once for each burst of changes while no
/// reload is pending; `None` (with a warning) when they cannot be watched.
fn watch(
    mods: &[PathBuf],
    tx: &mpsc::Sender<Msg>,
    pending: &crate::reload::Pending,
) -> Option<crate::reload::Watch> {
    let (tx, pending) = (tx.clone(), pending.clone());
    match crate::reload::watch_all(mods, move || {
        if pending.raise() {
            let _ = tx.send(Msg::Changed);
        }
    }) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!(
                "warning: cannot watch {} for changes ({e}); use `reload`",
                shown(mods)
            );
            None
        }
    }
}

/// Prints what a reload said: at a terminal above the prompt, shown again after it.
fn show_reload(text: &str, interactive: bool) {
    if interactive {
        // The prompt is on screen, the terminal in raw mode: clear the prompt's line,
        // print above it and show it again. (rustyline's external printer would do
        // this, but while one exists, input sent in one burst, a paste, sticks until
        // the next key press: rustyline issue 976.)
        // The text is made visible first; only lantern's own line control is raw.
        let shown = crate::diag::visible_lines(text).replace('\n', "\r\n");
        std::print!("\r\x1b[2K{shown}> ");
        let _ = std::io::Write::flush(&mut std::io::stdout());
    } else {
        print!("{text}");
    }
}

/// What the loop does after a command line.
enum Flow {
    Quit,
    /// The console answered it.
    Done,
    /// A command over the game: [`play_line`] runs it.
    Game,
}

/// The commands over the run itself rather than the game: `quit`, `reload`, `restart`, `load`,
/// and `devcard` with `--dev`.
fn run_command(
    live: &mut Live,
    line: &str,
    words: &Arc<Mutex<Vec<String>>>,
    flavor: &Flavor,
    dev: bool,
) -> Flow {
    let words_of_line: Vec<&str> = line.split_whitespace().collect();
    match words_of_line[0] {
        "quit" | "exit" => return Flow::Quit,
        "reload" => print!("{}", reload(live, words, flavor)),
        "devcard" if dev => {
            let result = words_of_line
                .get(1)
                .ok_or_else(|| crate::Error::from("`devcard` needs a card"))
                .and_then(|c| find_id(&live.game().content().cards, c, home(live.game()), "card"))
                .and_then(|card| live.game_mut().dev_card(&card));
            match result {
                Ok(()) => println!("{}", hazard_text(live.game()).unwrap_or_default()),
                Err(e) => println!("error: {e}"),
            }
        }
        "restart" => restart(live, words_of_line.get(1).copied(), words, flavor),
        "load" => match words_of_line.get(1) {
            None => println!("error: `load` needs a file"),
            Some(path) => match live.load_save(Path::new(path)) {
                Ok(notes) => {
                    print_problems(&notes);
                    println!("loaded {path}");
                }
                Err(e) => println!("error: {e}"),
            },
        },
        _ => return Flow::Game,
    }
    Flow::Done
}

/// Runs a command over the game and prints what it said: the mods' messages, the command's
/// text, the ending when the run ended, then the problems it met.
fn play_line(live: &mut Live, line: &str, flavor: &Flavor) {
    let was_over = live.game().state().over;
    let result = command(live.game_mut(), line, flavor);
    let game = live.game_mut();
    match result {
        Ok(text) => {
            for m in game.take_messages() {
                // One line each: a mod's line breaks are shown, not obeyed.
                println!("{}", crate::diag::visible(&m));
            }
            if !text.is_empty() {
                println!("{text}");
            }
            if game.state().over && !was_over {
                println!("{}", (flavor.ending)(game));
            }
        }
        Err(e) => {
            game.take_messages();
            if game.state().over {
                // Not a mistake of the player's: the run has ended.
                println!("{}", (flavor.ending)(game));
            } else {
                println!("error: {e}");
            }
        }
    }
    let problems = live.game_mut().take_problems();
    print_diags(&problems, live.sources());
}

/// `restart [SEED]`: a new run over the mods as they are now; the run goes on when they do not
/// load.
fn restart(live: &mut Live, seed: Option<&str>, words: &Arc<Mutex<Vec<String>>>, flavor: &Flavor) {
    let seed = match seed.map(str::parse::<u64>) {
        None => live.game().seed(),
        Some(Ok(seed)) => seed,
        Some(Err(_)) => {
            println!("error: `restart` takes a seed, a whole number");
            return;
        }
    };
    match live.restart(seed) {
        Ok(notes) => {
            print_problems(&notes);
            if let Ok(mut w) = words.lock() {
                *w = completion_words(live.game(), flavor);
            }
            println!("A new run begins, seed {seed}.");
        }
        Err(e) => {
            if let Some(problems) = e.problems() {
                print_problems(problems);
            }
            println!("the mods do not load; the run goes on as it was");
        }
    }
}

/// Tells the line editor, when dropped, that a command's output is complete.
struct Ack<'a>(Option<&'a mpsc::Sender<()>>);

impl Drop for Ack<'_> {
    fn drop(&mut self) {
        if let Some(tx) = self.0 {
            let _ = tx.send(());
        }
    }
}

/// Reloads the mods; returns the summary and what went wrong or was dropped, ready to print.
fn reload(live: &mut Live, words: &Arc<Mutex<Vec<String>>>, flavor: &Flavor) -> String {
    let report = live.reload();
    let mut text = String::new();
    if !report.problems.is_empty() {
        text.push_str(&report.problems.to_string());
        text.push('\n');
    }
    text.push_str(&format!(
        "{} (generation {})\n",
        report.summary, report.generation
    ));
    if report.ok {
        if let Ok(mut w) = words.lock() {
            *w = completion_words(live.game(), flavor);
        }
    }
    text
}

fn print_diags(diags: &[crate::diag::Diagnostic], sources: &crate::diag::SourceMap) {
    if !diags.is_empty() {
        println!("{}", render_all(diags, sources).trim_end());
    }
}

fn print_problems(problems: &crate::diag::Problems) {
    if !problems.is_empty() {
        println!("{problems}");
    }
}
