//! `lantern play`: the reference game in the terminal, one command per line.
//!
//! Reads from the keyboard with a line editor (history, completion of commands and IDs), or line by
//! line from a pipe (plain text, each command echoed), so a session can be scripted and its
//! transcript tested. Unless `--no-watch`, the mods directory is watched and a change is reloaded
//! between two commands, never during one.

use super::shown;
use super::views::{
    deck, describe_event, encounter_text, hazard_round_text, hazard_text, inventory, look, map,
    quests, status,
};
use crate::content::{find_id, Value};
use crate::diag::render_all;
use crate::game::{CreatureRef, Game, Outcome};
use crate::id::Id;
use crate::lua::Limits;
use crate::reload::Live;
use crate::roguelike;
use std::io::{BufRead, IsTerminal};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{mpsc, Arc, Mutex};

pub(super) struct Options {
    pub mods: Vec<PathBuf>,
    pub seed: u64,
    pub load: Option<PathBuf>,
    /// Watch the mods directory and reload on changes.
    pub watch: bool,
    pub limits: Limits,
    /// Developer commands: `devcard CARD` adds a card straight to the hazard hand.
    pub dev: bool,
}

/// One console command as `help` shows it and completion offers it: the names it answers to
/// (besides its one-letter aliases), how it is written, and what it does. `command` and the play
/// loop run them; a test holds every name to a command that runs.
struct Command {
    names: &'static [&'static str],
    usage: &'static str,
    help: &'static str,
}

/// Every command of `lantern play`, in the order `help` lists them.
const COMMANDS: &[Command] = &[
    Command {
        names: &["help"],
        usage: "help",
        help: "these commands",
    },
    Command {
        names: &["status"],
        usage: "status",
        help: "health, position, gold, active quests",
    },
    Command {
        names: &["inventory"],
        usage: "inventory",
        help: "what you carry",
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
        names: &["map"],
        usage: "map",
        help: "the floors and rooms of the run",
    },
    Command {
        names: &["next"],
        usage: "next",
        help: "enter the next room",
    },
    Command {
        names: &["attack"],
        usage: "attack [N]",
        help: "attack enemy N (default: the first)",
    },
    Command {
        names: &["flee"],
        usage: "flee",
        help: "leave a fight",
    },
    Command {
        names: &["use"],
        usage: "use ITEM",
        help: "use an item (`use potion`)",
    },
    Command {
        names: &["talk"],
        usage: "talk",
        help: "talk to the room's NPC",
    },
    Command {
        names: &["look"],
        usage: "look",
        help: "the room you are in, who is here, what is open",
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

/// `help`'s text, from the table.
fn help() -> String {
    let mut out = String::from("commands:");
    for c in COMMANDS {
        let line = match (c.help, c.usage.len()) {
            ("", _) => format!("\n  {}", c.usage),
            (help, n) if n > 20 => format!("\n  {}   {help}", c.usage),
            (help, _) => format!("\n  {:<20} {help}", c.usage),
        };
        out.push_str(&line);
    }
    out
}

enum Msg {
    Line(String),
    End,
    Changed,
}

/// Loads the mods, starts the run and loads the save asked for; what went wrong is printed.
fn start(options: &Options) -> Result<Live, ExitCode> {
    let (mut live, notes) = match Live::start_over(&options.mods, options.seed, options.limits) {
        Ok(started) => started,
        Err(e) => {
            if let Some(problems) = e.problems() {
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
    if let Some(path) = &options.load {
        match live.load_save(path) {
            Ok(notes) => print_problems(&notes),
            Err(e) => {
                eprintln!("error: {e}");
                return Err(ExitCode::from(1));
            }
        }
    }
    Ok(live)
}

pub(super) fn run(options: Options) -> ExitCode {
    let mut live = match start(&options) {
        Ok(live) => live,
        Err(code) => return code,
    };
    let interactive = std::io::stdin().is_terminal();
    let (tx, rx) = mpsc::channel::<Msg>();
    // At a terminal the reader waits for each command's output before it shows the next prompt.
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let words = Arc::new(Mutex::new(completion_words(live.game())));
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
    println!(
        "lantern: {} mods loaded, seed {}. Type `help` for commands, `next` to begin.",
        live.game().content().mods.len(),
        live.game().seed()
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
                let text = reload(&mut live, &words);
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
                print!("{}", reload(&mut live, &words));
                continue;
            }
            "devcard" if options.dev => {
                let result = words_of_line
                    .get(1)
                    .ok_or_else(|| crate::Error::from("`devcard` needs a card"))
                    .and_then(|c| find_id(&live.game().content().cards, c, "core", "card"))
                    .and_then(|card| live.game_mut().dev_card(&card));
                match result {
                    Ok(()) => println!("{}", hazard_text(live.game()).unwrap_or_default()),
                    Err(e) => println!("error: {e}"),
                }
                continue;
            }
            "restart" => {
                let seed = match words_of_line.get(1).map(|s| s.parse::<u64>()) {
                    None => live.game().seed(),
                    Some(Ok(seed)) => seed,
                    Some(Err(_)) => {
                        println!("error: `restart` takes a seed, a whole number");
                        continue;
                    }
                };
                match live.restart(seed) {
                    Ok(notes) => {
                        print_problems(&notes);
                        if let Ok(mut w) = words.lock() {
                            *w = completion_words(live.game());
                        }
                        println!("A new run begins, seed {seed}. `next` to enter the first room.");
                    }
                    Err(e) => {
                        if let Some(problems) = e.problems() {
                            print_problems(problems);
                        }
                        println!("the mods do not load; the run goes on as it was");
                    }
                }
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
        let result = command(live.game_mut(), line);
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
                    println!("{}", ending(game));
                }
            }
            Err(e) => {
                game.take_messages();
                if game.state().over {
                    // Not a mistake of the player's: the run has ended.
                    println!("{}", ending(game));
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
fn reload(live: &mut Live, words: &Arc<Mutex<Vec<String>>>) -> String {
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
            *w = completion_words(live.game());
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
fn completion_words(game: &Game) -> Vec<String> {
    let c = game.content();
    let mut words: Vec<String> = COMMANDS
        .iter()
        .flat_map(|c| c.names.iter().map(|n| n.to_string()))
        .collect();
    words.extend(c.items.keys().map(|k| k.to_string()));
    words.extend(c.creatures.keys().map(|k| k.to_string()));
    words.extend(c.quests.keys().map(|k| k.to_string()));
    words.extend(c.trigger_ids.keys().map(|k| k.to_string()));
    words.extend(c.events.names().map(str::to_string));
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

/// How a run ended, and what can follow it.
fn ending(game: &Game) -> String {
    let s = game.state();
    let done = s.quests.values().filter(|q| q.done).count();
    format!(
        "The run is over: {}, turn {}, {} quests done. `restart` begins a new run (`restart N` with seed N), `load FILE` goes back to a save, `quit` leaves.",
        super::views::whereabouts(game),
        s.turn,
        done
    )
}

fn command(game: &mut Game, line: &str) -> Result<String, crate::Error> {
    let content = game.content().clone();
    let words: Vec<&str> = line.split_whitespace().collect();
    let arg = |i: usize| {
        words
            .get(i)
            .copied()
            .ok_or_else(|| format!("`{}` needs an argument; see `help`", words[0]))
    };
    match words[0] {
        "help" => Ok(help()),
        "status" => Ok(status(game)),
        "inventory" | "inv" | "i" => Ok(inventory(game)),
        "quests" => Ok(quests(game)),
        "deck" => Ok(deck(game)),
        "map" => Ok(map(game)),
        "next" | "n" => roguelike::enter_next_room(game).map(|o| {
            let text = outcome(o);
            match encounter_text(game).or_else(|| hazard_text(game)) {
                Some(e) => format!("{text}{e}"),
                None => text,
            }
        }),
        "hazard" | "h" => Ok(hazard_text(game).unwrap_or_else(|| "there is no hazard here".into())),
        "route" => {
            let route = match arg(1)? {
                "safe" | "top" => crate::hazard::Route::Safe,
                "risk" | "bottom" => crate::hazard::Route::Risk,
                other => return Err(format!("`{other}` is not a route: `safe` or `risk`").into()),
            };
            let progress = words
                .get(2)
                .map(|p| find_id(&content.progress_types, p, "core", "progress type"))
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
        "attack" | "a" => {
            let n = words
                .get(1)
                .map(|n| {
                    n.parse::<usize>()
                        .map_err(|_| format!("`{n}` is not an enemy number"))
                })
                .transpose()?;
            roguelike::attack(game, n.map(|n| n.saturating_sub(1))).map(outcome)
        }
        "flee" => roguelike::flee(game).map(outcome),
        "use" => {
            let item = find_id(&content.items, arg(1)?, "core", "item")?;
            roguelike::use_item(game, &item).map(outcome)
        }
        "talk" => roguelike::talk(game).map(outcome),
        "look" | "l" => Ok(look(game)),
        "encounter" => {
            Ok(encounter_text(game).unwrap_or_else(|| "there is no encounter here".into()))
        }
        "choose" | "c" => {
            let n = arg(1)?
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not an option number", words[1]))?;
            game.choose(n).map(outcome)
        }
        "spawn" => {
            let def = find_id(&content.creatures, arg(1)?, "core", "creature")?;
            let r = game.spawn(&def)?;
            Ok(format!("spawned {} as {r}", def))
        }
        "give" => {
            let item = find_id(&content.items, arg(1)?, "core", "item")?;
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
            let quest = find_id(&content.quests, arg(1)?, "core", "quest")?;
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
        "seed" => Ok(game.seed().to_string()),
        "hash" => Ok(game.state_hash()),
        other => Err(format!("unknown command `{other}`; `help` lists the commands").into()),
    }
}

fn emit(game: &mut Game, words: &[&str]) -> Result<Outcome, crate::Error> {
    let content = game.content().clone();
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
            _ => Value::id(&Id::parse(v, "core").ok_or_else(|| format!("`{v}` is not an ID"))?),
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
            let c = find_id(&content.creatures, v, "core", "creature")?;
            Some(game.spawn(&c)?)
        }
    };
    game.emit_command(kind, target, &payload)
}

#[cfg(test)]
mod tests {
    use super::{help, COMMANDS};

    #[test]
    fn help_lists_every_command_of_the_table_once() {
        let text = help();
        for c in COMMANDS {
            let listed = |l: &&str| {
                *l == format!("  {}", c.usage) || l.starts_with(&format!("  {} ", c.usage))
            };
            assert_eq!(text.lines().filter(listed).count(), 1, "{}", c.usage);
        }
        assert_eq!(text.lines().count(), COMMANDS.len() + 1);
    }

    #[test]
    fn every_command_of_the_table_runs() {
        // These the play loop answers itself, before `command`.
        let in_the_loop = ["quit", "restart", "load", "reload"];
        let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mods");
        let mut world = crate::load::load_world(&mods, crate::lua::Limits::default());
        let mut game = world.start(1);
        for name in COMMANDS.iter().flat_map(|c| c.names.iter()) {
            if in_the_loop.contains(name) {
                continue;
            }
            if let Err(e) = super::command(&mut game, name) {
                assert!(!e.to_string().contains("unknown command"), "{name}: {e}");
            }
        }
    }
}
