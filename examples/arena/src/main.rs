//! `cargo run -p arena -- --sessions 1000`: an authoritative game server in miniature. It loads
//! the bundled mods once as a `ModSet`, runs every session as a task on tokio's workers (each
//! session's players send commands over a channel, from a script of simulated clients), keeps
//! the sessions as save bytes and restores them, upgrades every session to the mods loaded again
//! while they run, and gives one session a hostile mod that its limits hold to that session and
//! that the server's policy, counting problems by mod, switches off in its set.
//!
//! Its last line says what a session cost: `sessions N, per-session K KB, create C ms, restore R
//! ms, upgrade U ms, hash H`, where H is the hash of every session's state hash in order: the
//! same in every run and on any number of workers.

use lantern::game::Game;
use lantern::lua::Limits;
use lantern::mod_set::ModSet;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

#[global_allocator]
static COUNTING: held::Counting = held::Counting;

/// What a session is asked to do: a player's command, or the server's own work on it.
enum Request {
    /// A player's command (a verb of the game, with no arguments).
    Command(&'static str),
    /// Its save, as bytes.
    Save(oneshot::Sender<Vec<u8>>),
    /// Moves it to another version of the mods.
    Upgrade(ModSet, oneshot::Sender<Result<(), String>>),
    /// Its state hash, the problems its mods reported, and how many of them each mod caused.
    Report(oneshot::Sender<Report>),
}

/// What a session says of itself: its state hash, its problems, and its problems by mod.
type Report = (String, usize, BTreeMap<String, usize>);

/// One session: a game and the channel its players and the server reach it through. Each request
/// runs on whichever worker is free; the game moves between them.
fn serve(mut game: Game) -> mpsc::Sender<Request> {
    let (tx, mut rx) = mpsc::channel::<Request>(64);
    tokio::spawn(async move {
        let mut problems = 0;
        let mut by_mod: BTreeMap<String, usize> = BTreeMap::new();
        while let Some(request) = rx.recv().await {
            match request {
                Request::Command(verb) => {
                    // A refused command (no enemy to attack) is the player's, not the server's.
                    let _ = game.verb(verb, &[]);
                }
                Request::Save(reply) => {
                    let _ = reply.send(game.save_bytes().unwrap_or_default());
                }
                Request::Upgrade(set, reply) => {
                    let _ = reply.send(
                        set.upgrade(&mut game)
                            .map(|_| ())
                            .map_err(|e| e.to_string()),
                    );
                }
                Request::Report(reply) => {
                    let hash = game.state_hash().to_string();
                    let _ = reply.send((hash, problems, by_mod.clone()));
                }
            }
            for problem in game.take_problems() {
                problems += 1;
                // Each problem says which mod it is about: the server's policy counts them.
                if let Some(id) = problem.mod_id() {
                    *by_mod.entry(id.to_string()).or_default() += 1;
                }
            }
        }
    });
    tx
}

/// The players' script: what each session's clients send, a round at a time.
const SCRIPT: &[&str] = &["next", "attack", "next", "flee", "next", "talk"];

/// A mod that loops forever each turn: the one session that has it is held to its limits.
fn hostile_mod() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let m = dir.path().join("greedy");
    std::fs::create_dir_all(m.join("scripts")).expect("the mod's folder");
    std::fs::write(m.join("mod.toml"), "id = \"greedy\"\nversion = \"1.0.0\"\n").expect("mod.toml");
    std::fs::write(
        m.join("scripts/main.lua"),
        "lantern.on('room_entered', function() while true do end end)\n",
    )
    .expect("main.lua");
    dir
}

fn args() -> (usize, usize) {
    let mut sessions = 100;
    let mut rounds = 6;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let value = it.next().and_then(|v| v.parse().ok());
        match (a.as_str(), value) {
            ("--sessions", Some(n)) => sessions = n,
            ("--rounds", Some(n)) => rounds = n,
            _ => {
                eprintln!("usage: arena [--sessions N] [--rounds N]");
                std::process::exit(2);
            }
        }
    }
    (sessions, rounds)
}

#[tokio::main]
async fn main() {
    let (n, rounds) = args();
    // The server's loads keep to one thread: its sessions have the workers.
    lantern::load::set_threads(1);
    let mods = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../mods");
    let rules = lantern::roguelike::rules();
    // A session's turn may run 20 million instructions, all mods together, for 200 ms at most.
    let limits = Limits::default()
        .with_game_turn_instructions(20_000_000)
        .with_turn_deadline(Duration::from_millis(200));
    let (set, _) =
        ModSet::load(std::slice::from_ref(&mods), &rules, limits).expect("the bundled mods load");
    let hostile = hostile_mod();
    let (greedy_set, _) = ModSet::load(
        &[mods.clone(), hostile.path().to_path_buf()],
        &rules,
        limits,
    )
    .expect("the hostile mod loads");

    // Sessions, created over the one set (the hostile one's over its own).
    let before = held::held();
    let start = Instant::now();
    let games: Vec<Game> = (0..n)
        .map(|i| {
            let set = if i == 0 { &greedy_set } else { &set };
            set.start(i as u64).expect("a session starts")
        })
        .collect();
    let create_ms = start.elapsed().as_secs_f64() * 1e3 / n as f64;
    let per_session_kb = (held::held().saturating_sub(before)) as f64 / 1024.0 / n as f64;
    let mut sessions: Vec<mpsc::Sender<Request>> = games.into_iter().map(serve).collect();

    play(&sessions, rounds).await;

    // The server's policy: a mod that caused two problems or more in a session is switched off
    // in every session of its set, from their next turn.
    let mut greedy_before = 0;
    for (i, s) in sessions.iter().enumerate() {
        let (tx, rx) = oneshot::channel();
        s.send(Request::Report(tx)).await.expect("the session runs");
        let (_, problems, by_mod) = rx.await.expect("a report");
        if i == 0 {
            greedy_before = problems;
        }
        let set = if i == 0 { &greedy_set } else { &set };
        for (id, n) in by_mod.iter().filter(|(_, n)| **n >= 2) {
            if set.switch_off(id) {
                println!(
                    "the server switched `{id}` off in its set after {n} problems in a session"
                );
            }
        }
    }

    // Every session kept as bytes, the sessions dropped, and restored from the bytes.
    let mut saves = Vec::with_capacity(n);
    for s in &sessions {
        let (tx, rx) = oneshot::channel();
        s.send(Request::Save(tx)).await.expect("the session runs");
        saves.push(rx.await.expect("a save"));
    }
    drop(sessions);
    let start = Instant::now();
    sessions = saves
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let set = if i == 0 { &greedy_set } else { &set };
            let (game, _) = set.restore(bytes.as_slice()).expect("a save restores");
            serve(game)
        })
        .collect();
    let restore_ms = start.elapsed().as_secs_f64() * 1e3 / n as f64;

    play(&sessions, rounds).await;

    // The mods loaded again once, and every session moved to them while the others play.
    let (next, _) =
        ModSet::load(std::slice::from_ref(&mods), &rules, limits).expect("the mods load again");
    let start = Instant::now();
    let mut upgrades = Vec::new();
    for s in sessions.iter().skip(1) {
        let (tx, rx) = oneshot::channel();
        s.send(Request::Upgrade(next.clone(), tx))
            .await
            .expect("the session runs");
        upgrades.push(rx);
    }
    for rx in upgrades {
        rx.await.expect("an answer").expect("the session upgrades");
    }
    let upgrade_ms = start.elapsed().as_secs_f64() * 1e3 / (n.max(2) - 1) as f64;

    play(&sessions, rounds).await;

    // What each session says, in order.
    let mut hashes = String::new();
    let mut greedy_problems = 0;
    for (i, s) in sessions.iter().enumerate() {
        let (tx, rx) = oneshot::channel();
        s.send(Request::Report(tx)).await.expect("the session runs");
        let (hash, problems, _) = rx.await.expect("a report");
        if i == 0 {
            greedy_problems = problems;
        }
        hashes.push_str(&hash);
        hashes.push('\n');
    }
    println!(
        "the hostile mod's session reported {greedy_before} problems, and {greedy_problems} once restored with the mod switched off; the others played on"
    );
    println!(
        "sessions {n}, per-session {per_session_kb:.0} KB, create {create_ms:.3} ms, restore {restore_ms:.3} ms, upgrade {upgrade_ms:.3} ms, hash {:016x}",
        fnv(hashes.as_bytes())
    );
}

/// `rounds` rounds of the players' script, every session's commands sent at once.
async fn play(sessions: &[mpsc::Sender<Request>], rounds: usize) {
    for round in 0..rounds {
        let verb = SCRIPT[round % SCRIPT.len()];
        for s in sessions {
            s.send(Request::Command(verb))
                .await
                .expect("the session runs");
        }
    }
}

/// FNV-1a over the sessions' hashes: one number for the whole server's state.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
    })
}
