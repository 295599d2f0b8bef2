//! The console's commands: their table (what `help` lists), `help` itself, and each command's
//! run over the game, after the game's own commands and verbs.

use super::{Command, Flavor};
use crate::cli::views::{
    deck, describe_event, encounter_text, hazard_round_text, hazard_text, quests,
};
use crate::content::{find_id, Value};
use crate::game::{CreatureRef, Game, Outcome};
use crate::id::Id;
use std::path::Path;

/// The console's own commands, in the order `help` lists them (after the game's).
pub(super) const COMMANDS: &[Command] = &[
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

/// What a verb's outcome adds to its messages (nothing: the game has said it).
fn outcome_text(o: Outcome) -> String {
    match o {
        Outcome::Done => String::new(),
        // The game has said how it ended; the loop adds the ending's summary.
        Outcome::RunOver => String::new(),
    }
}

/// The namespace a bare ID typed at the console belongs to: the game's home mod's.
pub(super) fn home(game: &Game) -> &str {
    game.content().declared.home()
}

pub(super) fn command(
    game: &mut Game,
    line: &str,
    flavor: &Flavor,
) -> Result<String, crate::Error> {
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
        "status" => Ok(crate::cli::status::status(game)),
        "quests" => Ok(quests(game)),
        "deck" => Ok(deck(game)),
        "hazard" | "h" => Ok(hazard_text(game).unwrap_or_else(|| "there is no hazard here".into())),
        "route" | "play" | "p" | "end" => hazard_command(game, &words, home),
        "encounter" => Ok(encounter_text(game, flavor.stuck)
            .unwrap_or_else(|| "there is no encounter here".into())),
        "choose" | "c" => {
            let n = arg(1)?
                .parse::<usize>()
                .map_err(|_| format!("`{}` is not an option number", words[1]))?;
            game.choose(n).map(outcome_text)
        }
        "spawn" => {
            let def = find_id(&content.creatures, arg(1)?, home, "creature")?;
            let r = game.spawn(&def)?;
            Ok(format!("spawned {} as {r}", def))
        }
        "give" => give(game, &words, home),
        "start" => {
            let quest = find_id(&content.quests, arg(1)?, home, "quest")?;
            command_action(game, crate::content::Action::StartQuest { quest }, "start")
        }
        "emit" => emit(game, &words[1..]).map(outcome_text),
        "why" => Ok(game.explain(arg(1)?)?),
        "log" => log(game, words.get(1).copied()),
        "save" => game
            .save(Path::new(arg(1)?))
            .map(|_| format!("saved to {}", arg(1).unwrap_or_default())),
        "lang" => language(game, words.get(1).copied()),
        "settings" | "set" => crate::cli::settings::command(game, &words),
        "profile" => Ok(crate::cli::profile::profile(game)),
        "seed" => Ok(game.seed().to_string()),
        "hash" => Ok(game.state_hash()),
        other => Err(format!("unknown command `{other}`; `help` lists the commands").into()),
    }
}

/// The hazard's commands: `route safe|risk [PROGRESS]`, `play N [top|bottom]` and `end`, each
/// followed by the round as it stands.
fn hazard_command(game: &mut Game, words: &[&str], home: &str) -> Result<String, crate::Error> {
    let arg = |i: usize| {
        words
            .get(i)
            .copied()
            .ok_or_else(|| format!("`{}` needs an argument; see `help`", words[0]))
    };
    let outcome = match words[0] {
        "route" => {
            let route = match arg(1)? {
                "safe" | "top" => crate::hazard::Route::Safe,
                "risk" | "bottom" => crate::hazard::Route::Risk,
                other => return Err(format!("`{other}` is not a route: `safe` or `risk`").into()),
            };
            let progress = words
                .get(2)
                .map(|p| find_id(&game.content().progress_types, p, home, "progress type"))
                .transpose()?;
            game.choose_route(route, progress.as_ref())?
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
            game.play_card(n.saturating_sub(1), side)?
        }
        _ => game.end_hazard_round()?,
    };
    Ok(format!(
        "{}{}",
        outcome_text(outcome),
        hazard_round_text(game).unwrap_or_default()
    ))
}

/// `give ITEM [COUNT]`: the item given to the player as an action would give it.
fn give(game: &mut Game, words: &[&str], home: &str) -> Result<String, crate::Error> {
    let name = words.get(1).ok_or("`give` needs an argument; see `help`")?;
    let item = find_id(&game.content().items, name, home, "item")?;
    let count = words
        .get(2)
        .map(|c| {
            c.parse::<u32>()
                .map_err(|_| format!("`{c}` is not a count"))
        })
        .transpose()?
        .unwrap_or(1);
    let action = crate::content::Action::GiveItem {
        item,
        count,
        target: crate::content::Who::Player,
    };
    // The game says what was given, and what a full stack left behind.
    command_action(game, action, "give")
}

/// An action typed at the console, performed as content's would be.
fn command_action(
    game: &mut Game,
    action: crate::content::Action,
    command: &str,
) -> Result<String, crate::Error> {
    let entry = crate::content::ActionEntry {
        action,
        span: crate::diag::Span::file_start(crate::diag::FileId(0)),
    };
    game.command_action(entry, command).map(outcome_text)
}

/// `log [N]`: the last `N` events (10 unless said).
fn log(game: &Game, n: Option<&str>) -> Result<String, crate::Error> {
    let n = n
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

/// `lang`: the game's language and the ones the mods have; `lang de` switches to German.
fn language(game: &mut Game, lang: Option<&str>) -> Result<String, crate::Error> {
    let Some(lang) = lang else {
        let now = game.language().unwrap_or("each mod's own");
        let known = game.content().languages().join(", ");
        return Ok(format!("language: {now} (the mods have {known})"));
    };
    crate::cli::language_syntax(lang)?;
    game.set_language(lang);
    Ok(match crate::cli::language_unknown(game.content(), lang) {
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
    use super::{help, Flavor, Game, COMMANDS};
    use crate::cli::play::PLAIN;

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
        return vec![&PLAIN, &crate::cli::rogue::FLAVOR];
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
