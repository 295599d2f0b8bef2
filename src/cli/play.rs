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

use super::shown;
use super::views::{deck, describe_event, encounter_text, hazard_round_text, hazard_text, quests};
use crate::content::{find_id, Value};
use crate::diag::render_all;
use crate::game::{CreatureRef, Game, Outcome};
use crate::id::Id;
use crate::lua::Limits;
use crate::reload::Live;
use std::io::{BufRead, IsTerminal};
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

/// The console's own commands, in the order `help` lists them (after the game's).
const COMMANDS: &[Command] = &[
    Command {
        names: &["help"],
        usage: "help",
        help: "these commands",
    },
    Command {
        names: &["status"],
        usage: "status",
        help: "the turn, the game's state, the quests under way, what is open",
    },
    Command {
        names: &["quests"],
        usage: "quests",
        help: "every started quest",
    },
    Command {
        names: &["deck"],
        usage: "deck",
        help: "the cards your hazards draw from",
    },
    Command {
        names: &["encounter"],
        usage: "encounter",
        help: "show the open encounter and its options",
    },
    Command {
        names: &["choose"],
        usage: "choose N",
        help: "choose option N of the encounter",
    },
    Command {
        names: &["hazard"],
        usage: "hazard",
        help: "show the open hazard: routes, round, hand, dice, meters",
    },
    Command {
        names: &["route"],
        usage: "route safe|risk [T]",
        help: "choose the hazard's route (T: progress type, where the hazard lets you)",
    },
    Command {
        names: &["play"],
        usage: "play N [top|bottom]",
        help: "play card N of the hand",
    },
    Command {
        names: &["end"],
        usage: "end",
        help: "end the hazard round",
    },
    Command {
        names: &["spawn"],
        usage: "spawn CREATURE",
        help: "add an enemy to the room",
    },
    Command {
        names: &["emit"],
        usage: "emit EVENT [target=T] [key=value ...]",
        help: "raise any event (T: player, an enemy number, or a creature to spawn)",
    },
    Command {
        names: &["give"],
        usage: "give ITEM [COUNT]",
        help: "give yourself items",
    },
    Command {
        names: &["start"],
        usage: "start QUEST",
        help: "start a quest",
    },
    Command {
        names: &["why"],
        usage: "why ID",
        help: "why a trigger or quest did or did not fire last time",
    },
    Command {
        names: &["log"],
        usage: "log [N]",
        help: "the last N events (default 10)",
    },
    Command {
        names: &["save", "load"],
        usage: "save FILE / load FILE",
        help: "",
    },
    Command {
        names: &["restart"],
        usage: "restart [SEED]",
        help: "a new run over the mods as they are now (the same seed unless given)",
    },
    Command {
        names: &["reload"],
        usage: "reload",
        help: "reload the mods now (changes are picked up by themselves unless --no-watch)",
    },
    Command {
        names: &["profile"],
        usage: "profile",
        help: "where the scripts' work went, by mod and by handler: instructions, memory, calls",
    },
    Command {
        names: &["settings"],
        usage: "settings",
        help: "the mods' settings: values, ranges, scopes",
    },
    Command {
        names: &["set"],
        usage: "set SETTING VALUE",
        help: "change a setting (`run` and `player` ones during play; `startup` ones with --set)",
    },
    Command {
        names: &["lang"],
        usage: "lang [LANGUAGE]",
        help: "the languages the mods have / play in LANGUAGE from now on (`lang de`)",
    },
    Command {
        names: &["seed", "hash"],
        usage: "seed / hash",
        help: "the run seed / the state hash",
    },
    Command {
        names: &["quit"],
        usage: "quit",
        help: "",
    },
];

/// `help`'s text: `help`, the game's commands, its declared verbs (those its commands do not
/// already cover), then the console's.
fn help(flavor: &Flavor, game: &Game) -> String {
    let mut out = String::from("commands:");
    let mut line = |usage: &str, help: &str| {
        out.push_str(&match (help, usage.chars().count()) {
            ("", _) => format!("\n  {usage}"),
            (help, n) if n > 20 => format!("\n  {usage}   {help}"),
            (help, _) => format!("\n  {usage:<20} {help}"),
        });
    };
    // `help` first, then the game's commands and verbs, then the rest of the console's.
    let (first, rest) = COMMANDS.split_at(1);
    for c in first.iter().chain(flavor.commands) {
        line(c.usage, c.help);
    }
    for (usage, doc) in verbs(game, flavor) {
        line(&usage, doc);
    }
    for c in rest.iter().filter(|c| console_has(game, flavor, c)) {
        line(c.usage, c.help);
    }
    out
}

/// Whether one of the console's own commands is the game's: not shadowed by a command or verb of
/// the game's of the same name (Harvest's `play`), and, for `spawn` and `give`, not left out with
/// the creature-and-inventory vocabulary.
fn console_has(game: &Game, flavor: &Flavor, c: &Command) -> bool {
    let declared = &game.content().declared;
    let shadowed = c.names.iter().any(|n| {
        declared.verbs.contains_key(*n) || flavor.commands.iter().any(|f| f.names.contains(n))
    });
    let creatures = !(declared.without_creatures && matches!(c.names, ["spawn"] | ["give"]));
    !shadowed && creatures
}

/// The game's declared verbs the flavor's commands do not answer to: usage and documentation.
fn verbs(game: &Game, flavor: &Flavor) -> Vec<(String, &'static str)> {
    game.content()
        .declared
        .verbs
        .iter()
        .filter(|(name, _)| {
            !flavor
                .commands
                .iter()
                .any(|c| c.names.contains(&name.as_str()))
        })
        .map(|(name, sig)| {
            let mut usage = name.clone();
            for p in &sig.params {
                let param = p.name.to_uppercase();
                usage.push(' ');
                usage.push_str(&if p.required {
                    param
                } else {
                    format!("[{param}]")
                });
            }
            (usage, sig.doc)
        })
        .collect()
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
    let _watch = if options.watch {
        let tx = tx.clone();
        let pending = pending.clone();
        match crate::reload::watch_all(&options.mods, move || {
            if pending.raise() {
                let _ = tx.send(Msg::Changed);
            }
        }) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!(
                    "warning: cannot watch {} for changes ({e}); use `reload`",
                    shown(&options.mods)
                );
                None
            }
        }
    } else {
        None
    };
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
                let text = reload(&mut live, &words, flavor);
                if interactive {
                    // The prompt is on screen, the terminal in raw mode: clear the prompt's line,
                    // print above it and show it again. (rustyline's external printer would do
                    // this, but while one exists, input sent in one burst, a paste, sticks until
                    // the next key press: rustyline issue 976.)
                    // The text is made visible first; only lantern's own line control is raw.
                    let shown = crate::diag::visible_lines(&text).replace('\n', "\r\n");
                    std::print!("\r\x1b[2K{shown}> ");
                    let _ = std::io::Write::flush(&mut std::io::stdout());
                } else {
                    print!("{text}");
                }
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
        let words_of_line: Vec<&str> = line.split_whitespace().collect();
        match words_of_line[0] {
            "quit" | "exit" => break,
            "reload" => {
                print!("{}", reload(&mut live, &words, flavor));
                continue;
            }
            "devcard" if options.dev => {
                let result = words_of_line
                    .get(1)
                    .ok_or_else(|| crate::Error::from("`devcard` needs a card"))
                    .and_then(|c| {
                        find_id(&live.game().content().cards, c, home(live.game()), "card")
                    })
                    .and_then(|card| live.game_mut().dev_card(&card));
                match result {
                    Ok(()) => println!("{}", hazard_text(live.game()).unwrap_or_default()),
                    Err(e) => println!("error: {e}"),
                }
                continue;
            }
            "restart" => {
                restart(&mut live, words_of_line.get(1).copied(), &words, flavor);
                continue;
            }
            "load" => {
                let Some(path) = words_of_line.get(1) else {
                    println!("error: `load` needs a file");
                    continue;
                };
                match live.load_save(Path::new(path)) {
                    Ok(notes) => {
                        print_problems(&notes);
                        println!("loaded {path}");
                    }
                    Err(e) => println!("error: {e}"),
                }
                continue;
            }
            _ => {}
        }
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
    ExitCode::SUCCESS
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

/// Feeds lines to the main loop: with a line editor at a terminal, plainly from a pipe.
fn read_lines(
    tx: mpsc::Sender<Msg>,
    interactive: bool,
    words: Arc<Mutex<Vec<String>>>,
    done: mpsc::Receiver<()>,
) {
    std::thread::spawn(move || {
        if interactive {
            if let Ok(mut editor) =
                rustyline::Editor::<Completion, rustyline::history::DefaultHistory>::new()
            {
                editor.set_helper(Some(Completion { words }));
                while let Ok(line) = editor.readline("> ") {
                    let _ = editor.add_history_entry(line.as_str());
                    // A paste of several commands (bracketed paste keeps them in one line) runs
                    // them one after another.
                    for command in line.split('\n') {
                        if tx.send(Msg::Line(command.to_string())).is_err() {
                            return;
                        }
                        // Wait until the command's output is printed before going on.
                        if done.recv().is_err() {
                            return;
                        }
                    }
                }
                let _ = tx.send(Msg::End);
                return;
            }
        }
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(Msg::Line(line)).is_err() {
                return;
            }
        }
        let _ = tx.send(Msg::End);
    });
}

/// Commands and every ID of the content, for tab completion.
fn completion_words(game: &Game, flavor: &Flavor) -> Vec<String> {
    let c = game.content();
    let mut words: Vec<String> = COMMANDS
        .iter()
        .chain(flavor.commands)
        .flat_map(|c| c.names.iter().map(|n| n.to_string()))
        .collect();
    words.extend(c.items.keys().map(|k| k.to_string()));
    words.extend(c.creatures.keys().map(|k| k.to_string()));
    words.extend(c.quests.keys().map(|k| k.to_string()));
    words.extend(c.trigger_ids.keys().map(|k| k.to_string()));
    words.extend(c.events.names().map(str::to_string));
    words.extend(c.declared.verbs.keys().cloned());
    words.sort();
    words.dedup();
    words
}

struct Completion {
    words: Arc<Mutex<Vec<String>>>,
}

impl rustyline::completion::Completer for Completion {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let start = line[..pos].rfind(char::is_whitespace).map_or(0, |i| i + 1);
        let prefix = &line[start..pos];
        let words = self.words.lock().map(|w| w.clone()).unwrap_or_default();
        let matches = words
            .into_iter()
            .filter(|w| {
                w.starts_with(prefix) || w.split(':').nth(1).is_some_and(|n| n.starts_with(prefix))
            })
            .collect();
        Ok((start, matches))
    }
}

impl rustyline::hint::Hinter for Completion {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Completion {}
impl rustyline::validate::Validator for Completion {}
impl rustyline::Helper for Completion {}

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

/// What a verb's outcome adds to its messages (nothing: the game has said it).
fn outcome(o: Outcome) -> String {
    match o {
        Outcome::Done => String::new(),
        // The game has said how it ended; the loop adds the ending's summary.
        Outcome::RunOver => String::new(),
    }
}

/// The namespace a bare ID typed at the console belongs to: the game's home mod's.
fn home(game: &Game) -> &str {
    game.content().declared.home()
}

fn command(game: &mut Game, line: &str, flavor: &Flavor) -> Result<String, crate::Error> {
    // Profiled from the first command on, and again once a reload, a restart or a load brought
    // new scripts: `profile` shows each handler's cost.
    game.profile_scripts(true);
    let content = game.content().clone();
    let home = home(game).to_string();
    let home = home.as_str();
    let words: Vec<&str> = line.split_whitespace().collect();
    if let Some(done) = (flavor.run)(game, &words) {
        return done;
    }
    if content.declared.verbs.contains_key(words[0]) {
        return verb(game, &words, flavor);
    }
    // A console command this game leaves out (`spawn` without creatures) is not one here.
    if COMMANDS
        .iter()
        .any(|c| c.names.contains(&words[0]) && !console_has(game, flavor, c))
    {
        return Err(format!("unknown command `{}`; `help` lists the commands", words[0]).into());
    }
    let arg = |i: usize| {
        words
            .get(i)
            .copied()
            .ok_or_else(|| format!("`{}` needs an argument; see `help`", words[0]))
    };
    match words[0] {
        "help" => Ok(help(flavor, game)),
        "status" => Ok(super::status::status(game)),
        "quests" => Ok(quests(game)),
        "deck" => Ok(deck(game)),
        "hazard" | "h" => Ok(hazard_text(game).unwrap_or_else(|| "there is no hazard here".into())),
        "route" => {
            let route = match arg(1)? {
                "safe" | "top" => crate::hazard::Route::Safe,
                "risk" | "bottom" => crate::hazard::Route::Risk,
                other => return Err(format!("`{other}` is not a route: `safe` or `risk`").into()),
            };
            let progress = words
                .get(2)
                .map(|p| find_id(&content.progress_types, p, home, "progress type"))
                .transpose()?;
            game.choose_route(route, progress.as_ref()).map(|o| {
                format!(
                    "{}{}",
                    outcome(o),
                    hazard_round_text(game).unwrap_or_default()
                )
            })
        }
        "play" | "p" => {
            let n = arg(1)?
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not a card number", words[1]))?;
            let side = match words.get(2).copied().unwrap_or("top") {
                "top" | "t" => crate::hazard::Side::Top,
                "bottom" | "b" => crate::hazard::Side::Bottom,
                other => return Err(format!("`{other}` is not a side: `top` or `bottom`").into()),
            };
            game.play_card(n.saturating_sub(1), side).map(|o| {
                format!(
                    "{}{}",
                    outcome(o),
                    hazard_round_text(game).unwrap_or_default()
                )
            })
        }
        "end" => game.end_hazard_round().map(|o| {
            format!(
                "{}{}",
                outcome(o),
                hazard_round_text(game).unwrap_or_default()
            )
        }),
        "encounter" => Ok(encounter_text(game, flavor.stuck)
            .unwrap_or_else(|| "there is no encounter here".into())),
        "choose" | "c" => {
            let n = arg(1)?
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not an option number", words[1]))?;
            game.choose(n).map(outcome)
        }
        "spawn" => {
            let def = find_id(&content.creatures, arg(1)?, home, "creature")?;
            let r = game.spawn(&def)?;
            Ok(format!("spawned {} as {r}", def))
        }
        "give" => {
            let item = find_id(&content.items, arg(1)?, home, "item")?;
            let count = words
                .get(2)
                .map(|c| {
                    c.parse::<u32>()
                        .map_err(|_| format!("`{c}` is not a count"))
                })
                .transpose()?
                .unwrap_or(1);
            let entry = crate::content::ActionEntry {
                action: crate::content::Action::GiveItem {
                    item: item.clone(),
                    count,
                    target: crate::content::Who::Player,
                },
                span: crate::diag::Span::file_start(crate::diag::FileId(0)),
            };
            // The game says what was given, and what a full stack left behind.
            game.command_action(entry, "give").map(outcome)
        }
        "start" => {
            let quest = find_id(&content.quests, arg(1)?, home, "quest")?;
            let entry = crate::content::ActionEntry {
                action: crate::content::Action::StartQuest { quest },
                span: crate::diag::Span::file_start(crate::diag::FileId(0)),
            };
            game.command_action(entry, "start").map(outcome)
        }
        "emit" => emit(game, &words[1..]).map(outcome),
        "why" => Ok(game.explain(arg(1)?)?),
        "log" => {
            let n = words
                .get(1)
                .map(|n| {
                    n.parse::<usize>()
                        .map_err(|_| format!("`{n}` is not a count"))
                })
                .transpose()?
                .unwrap_or(10);
            let all: Vec<_> = game.log().collect();
            let lines: Vec<String> = all[all.len().saturating_sub(n)..]
                .iter()
                .map(|h| describe_event(game, &h.event))
                .collect();
            Ok(lines.join("\n"))
        }
        "save" => game
            .save(Path::new(arg(1)?))
            .map(|_| format!("saved to {}", arg(1).unwrap_or_default())),
        "lang" => language(game, words.get(1).copied()),
        "settings" | "set" => super::settings::command(game, &words),
        "profile" => Ok(super::profile::profile(game)),
        "seed" => Ok(game.seed().to_string()),
        "hash" => Ok(game.state_hash()),
        other => Err(format!("unknown command `{other}`; `help` lists the commands").into()),
    }
}

/// `lang`: the game's language and the ones the mods have; `lang de` switches to German.
fn language(game: &mut Game, lang: Option<&str>) -> Result<String, crate::Error> {
    let Some(lang) = lang else {
        let now = game.language().unwrap_or("each mod's own");
        let known = game.content().languages().join(", ");
        return Ok(format!("language: {now} (the mods have {known})"));
    };
    super::language_syntax(lang)?;
    game.set_language(lang);
    Ok(match super::language_unknown(game.content(), lang) {
        None => format!("language: {lang}"),
        Some(warning) => format!("language: {lang}; {warning}"),
    })
}

/// One of the game's declared verbs, its words as arguments (a whole number as a number, any
/// other word as text, which the verb's parameters check and resolve as IDs); then the open
/// encounter or hazard round, if the verb opened or moved one.
fn verb(game: &mut Game, words: &[&str], flavor: &Flavor) -> Result<String, crate::Error> {
    let args: Vec<Value> = words[1..]
        .iter()
        .map(|w| w.parse().map_or_else(|_| Value::str(w), Value::Int))
        .collect();
    game.verb(words[0], &args)?;
    Ok(encounter_text(game, flavor.stuck)
        .or_else(|| hazard_round_text(game))
        .unwrap_or_default())
}

fn emit(game: &mut Game, words: &[&str]) -> Result<Outcome, crate::Error> {
    let content = game.content().clone();
    let home = home(game).to_string();
    let name = words.first().ok_or("`emit` needs an event name")?;
    let kind = content.events.lookup(name).ok_or_else(|| {
        let help = crate::diag::did_you_mean(name, content.events.names()).unwrap_or_default();
        format!("unknown event `{name}` {help}")
            .trim_end()
            .to_string()
    })?;
    let def = content.events.get(kind).clone();
    let mut target = None;
    let mut payload = Vec::new();
    for w in &words[1..] {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("`{w}` is not key=value"))?;
        if k == "target" {
            target = Some(v);
            continue;
        }
        let (index, ty) = def.field(k).ok_or_else(|| {
            let help =
                crate::diag::did_you_mean_suffix(k, def.payload.iter().map(|(n, _)| n.as_str()));
            format!("event `{}` has no field `{k}`{help}", def.name)
        })?;
        let value = match ty {
            crate::content::vocab::FieldType::Int => {
                Value::Int(v.parse().map_err(|_| format!("`{k}` must be an integer"))?)
            }
            crate::content::vocab::FieldType::Float => {
                Value::Float(v.parse().map_err(|_| format!("`{k}` must be a number"))?)
            }
            crate::content::vocab::FieldType::Bool => Value::Bool(
                v.parse()
                    .map_err(|_| format!("`{k}` must be true or false"))?,
            ),
            crate::content::vocab::FieldType::String
            | crate::content::vocab::FieldType::DamageType => Value::str(v),
            _ => Value::id(&Id::parse(v, &home).ok_or_else(|| format!("`{v}` is not an ID"))?),
        };
        payload.push((index, value));
    }
    // The target last, once the rest is known good: naming a creature spawns one.
    let target = match target.map(|v| (v, v.parse::<usize>())) {
        None => None,
        Some(("player", _)) => Some(CreatureRef::Player),
        // Whether the enemy is there is the game's to say (`emit_command`).
        Some((_, Ok(n))) => Some(
            n.checked_sub(1)
                .map(CreatureRef::Enemy)
                .ok_or("there is no enemy 0")?,
        ),
        Some((v, Err(_))) => {
            let c = find_id(&content.creatures, v, &home, "creature")?;
            Some(game.spawn(&c)?)
        }
    };
    game.emit_command(kind, target, &payload)
}

#[cfg(test)]
mod tests {
    use super::{help, Flavor, Game, COMMANDS, PLAIN};

    /// A game of the bundled `core` alone: a modder's own mods beside it in `mods/` (the
    /// README's `new rats`) are not this test's to read.
    fn game() -> Game {
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mods");
        let only = ["core".to_string()];
        crate::load::load_world_of(
            &[mods],
            Some(&only),
            crate::lua::Limits::default(),
            &crate::test_rules(),
        )
        .start(1)
    }

    fn flavors() -> Vec<&'static Flavor> {
        #[cfg(feature = "roguelike")]
        return vec![&PLAIN, &super::super::rogue::FLAVOR];
        #[cfg(not(feature = "roguelike"))]
        vec![&PLAIN]
    }

    #[test]
    fn help_lists_every_command_of_the_tables_once() {
        let game = game();
        for flavor in flavors() {
            let text = help(flavor, &game);
            let usages: Vec<String> = flavor
                .commands
                .iter()
                .chain(
                    COMMANDS
                        .iter()
                        .filter(|c| super::console_has(&game, flavor, c)),
                )
                .map(|c| c.usage.to_string())
                .chain(super::verbs(&game, flavor).into_iter().map(|(u, _)| u))
                .collect();
            for usage in &usages {
                let listed =
                    |l: &&str| *l == format!("  {usage}") || l.starts_with(&format!("  {usage} "));
                assert_eq!(text.lines().filter(listed).count(), 1, "{usage}");
            }
            assert_eq!(text.lines().count(), usages.len() + 1);
        }
    }

    #[test]
    fn every_command_of_the_tables_runs() {
        // These the play loop answers itself, before `command`.
        let in_the_loop = ["quit", "restart", "load", "reload"];
        for flavor in flavors() {
            let mut game = game();
            let names = COMMANDS
                .iter()
                .chain(flavor.commands)
                .flat_map(|c| c.names.iter());
            for name in names {
                if in_the_loop.contains(name) {
                    continue;
                }
                if let Err(e) = super::command(&mut game, name, flavor) {
                    assert!(!e.to_string().contains("unknown command"), "{name}: {e}");
                }
            }
        }
    }
}
