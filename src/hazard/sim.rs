//! `lantern sim`: thousands of seeded runs of a hazard with a built-in policy, and the seed's
//! success metrics: clear rate per route, the final-round mana crisis rate, flat rounds, X-die
//! interaction appearance, and the score distribution.
//!
//! Runs are independent: run `i` draws from a ChaCha8 stream seeded by hashing (seed, i), so the
//! table is the same for the same seed however the runs are split across threads.

use super::engine::{starter_deck, Face, HazardRun, Phase, Rolls, Route, Side};
use crate::content::Content;
use crate::content::{Card, CardClass, CardEffect, Hazard};
use crate::id::Id;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;
use std::collections::BTreeMap;

struct Fast(ChaCha8Rng);

impl Rolls for Fast {
    fn shuffle(&mut self, n: usize) -> usize {
        ((self.0.next_u32() as u64 * n as u64) >> 32) as usize
    }
    fn die(&mut self, n: usize) -> usize {
        ((self.0.next_u32() as u64 * n as u64) >> 32) as usize
    }
}

/// The policies a simulation can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[non_exhaustive]
pub enum Policy {
    /// Each step, play the card action worth most toward the unmet meters; stop when nothing helps.
    Greedy,
    /// Play only free top actions, first to last.
    TopOnly,
}

/// One route's figures.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RouteStats {
    /// Runs played.
    pub runs: u64,
    /// Runs with a score above zero.
    pub(crate) cleared: u64,
    /// Runs that entered the final round with at most one available die.
    pub(crate) final_crisis: u64,
    /// Rounds in which only progress cards were played.
    pub(crate) flat_rounds: u64,
    /// Runs whose roll showed two or more X dice.
    pub(crate) many_x: u64,
    /// Of those, runs in which an X-interaction card was in hand.
    pub(crate) many_x_with_answer: u64,
    /// Score to number of runs.
    pub scores: BTreeMap<i64, u64>,
}

impl RouteStats {
    fn merge(&mut self, o: &RouteStats) {
        self.runs += o.runs;
        self.cleared += o.cleared;
        self.final_crisis += o.final_crisis;
        self.flat_rounds += o.flat_rounds;
        self.many_x += o.many_x;
        self.many_x_with_answer += o.many_x_with_answer;
        for (s, n) in &o.scores {
            *self.scores.entry(*s).or_default() += n;
        }
    }

    fn rate(n: u64, of: u64) -> f64 {
        if of == 0 {
            0.0
        } else {
            n as f64 / of as f64
        }
    }

    /// The share of runs cleared (a score above zero).
    pub(crate) fn clear_rate(&self) -> f64 {
        Self::rate(self.cleared, self.runs)
    }
    /// The share of runs that entered the final round with at most one available die.
    pub(crate) fn crisis_rate(&self) -> f64 {
        Self::rate(self.final_crisis, self.runs)
    }
    /// Rounds with only progress cards played, per run.
    pub(crate) fn flat_per_run(&self) -> f64 {
        Self::rate(self.flat_rounds, self.runs)
    }
    /// Of the runs whose roll showed two or more X dice, the share with an X-interaction card in hand.
    pub(crate) fn x_answer_rate(&self) -> f64 {
        Self::rate(self.many_x_with_answer, self.many_x)
    }
}

/// What a simulation found, per route: what `lantern sim hazard` prints (and writes as JSON).
#[derive(Debug, Clone, Serialize)]
pub struct SimReport {
    /// The hazard simulated.
    pub hazard: String,
    /// The seed its runs were drawn from.
    pub seed: u64,
    /// The policy that played: a built-in one's name, or a Lua policy's file.
    pub policy: String,
    /// The figures of each route simulated, by its name.
    pub routes: BTreeMap<String, RouteStats>,
}

/// Picks the next play of a run, or `None` to end the round.
pub trait Chooser {
    /// The next play (a card of the hand by index, and its side), or `None` to end the round.
    fn choose(
        &mut self,
        content: &Content,
        hazard: &Hazard,
        run: &HazardRun,
    ) -> Result<Option<(usize, Side)>, String>;
}

struct Builtin(Policy);

impl Chooser for Builtin {
    fn choose(
        &mut self,
        content: &Content,
        hazard: &Hazard,
        run: &HazardRun,
    ) -> Result<Option<(usize, Side)>, String> {
        Ok(choose(content, hazard, run, self.0))
    }
}

/// Makes a chooser for each simulation thread (a Lua policy needs a Lua state per thread).
pub type ChooserFactory<'a> = &'a (dyn Fn() -> Result<Box<dyn Chooser>, String> + Sync);

/// What to simulate.
#[derive(Debug, Clone)]
pub struct Spec {
    /// The routes to play, each `runs` times.
    pub routes: Vec<Route>,
    /// Runs per route.
    pub runs: u64,
    /// The seed the runs draw from (each run's stream is named after its index).
    pub seed: u64,
    /// The built-in policy, for runs without a chooser of their own.
    pub policy: Policy,
    /// Threads to play on (at least one).
    pub threads: usize,
}

/// Plays `spec.runs` runs of each route on `spec.threads` threads; `progress` hears how many are done.
pub fn simulate(
    content: &Content,
    hazard: &Id,
    spec: &Spec,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport, crate::Error> {
    simulate_with(content, hazard, spec, progress, None, None)
}

/// As [`simulate`], with the choices made by `custom` (named `custom_name` in the report) instead of
/// the built-in policy.
pub fn simulate_with(
    content: &Content,
    hazard: &Id,
    spec: &Spec,
    progress: &(dyn Fn(u64) + Sync),
    custom: Option<ChooserFactory>,
    custom_name: Option<&str>,
) -> Result<SimReport, crate::Error> {
    let Spec {
        routes,
        runs,
        seed,
        policy,
        threads,
    } = spec.clone();
    let h = content.hazards.get(hazard).ok_or_else(|| {
        let help =
            crate::diag::did_you_mean(hazard.as_str(), content.hazards.keys().map(Id::as_str))
                .unwrap_or_default();
        format!("there is no hazard `{hazard}` {help}")
            .trim_end()
            .to_string()
    })?;
    let deck = starter_deck(content);
    if deck.is_empty() {
        return Err("the starting deck is empty: give some cards `starter = N`".into());
    }
    let mut report = SimReport {
        hazard: hazard.to_string(),
        seed,
        policy: custom_name
            .map(str::to_string)
            .unwrap_or_else(|| format!("{policy:?}").to_lowercase()),
        routes: BTreeMap::new(),
    };
    let done = std::sync::atomic::AtomicU64::new(0);
    for &route in &routes {
        let threads = threads.max(1) as u64;
        let chunk = runs.div_ceil(threads);
        let parts: Vec<Result<RouteStats, String>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (deck, done) = (&deck, &done);
                    s.spawn(move || {
                        // IDs share their text through reference counts; a thread of its own copies
                        // keeps the two cores from fighting over the same counters on every draw.
                        let deck: Vec<Id> = deck
                            .iter()
                            .map(|c| Id::new(c.namespace(), c.name()))
                            .collect();
                        let deck = &deck;
                        let mut chooser: Box<dyn Chooser> = match custom {
                            Some(make) => make()?,
                            None => Box::new(Builtin(policy)),
                        };
                        let mut stats = RouteStats::default();
                        let (from, to) = (t * chunk, ((t + 1) * chunk).min(runs));
                        for i in from..to {
                            play_one(
                                content,
                                h,
                                deck,
                                route,
                                chooser.as_mut(),
                                run_seed(seed, route, i),
                                &mut stats,
                            )?;
                            if i % 4096 == 0 {
                                progress(
                                    done.fetch_add(4096, std::sync::atomic::Ordering::Relaxed)
                                        + 4096,
                                );
                            }
                        }
                        Ok::<RouteStats, String>(stats)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("a simulation thread panicked".into()))
                })
                .collect::<Vec<_>>()
        });
        let mut total = RouteStats::default();
        for p in parts {
            total.merge(&p?);
        }
        report.routes.insert(route.name().to_string(), total);
    }
    Ok(report)
}

fn run_seed(seed: u64, route: Route, i: u64) -> [u8; 32] {
    let mut bytes = [0u8; 17];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&i.to_le_bytes());
    bytes[16] = route as u8;
    let h = crate::rng::stable_hash(&bytes);
    crate::rng::derive_seed(h, "sim")
}

fn play_one(
    content: &Content,
    h: &Hazard,
    deck: &[Id],
    route: Route,
    chooser: &mut dyn Chooser,
    seed: [u8; 32],
    stats: &mut RouteStats,
) -> Result<(), String> {
    let mut rolls = Fast(ChaCha8Rng::from_seed(seed));
    let mut run = HazardRun::start(h, deck, &mut rolls);
    // Where the hazard lets the player pick the safe route's type (H07), pick the one the opening
    // hand makes the most progress in.
    let progress = (route == Route::Safe && !h.choose_progress.is_empty())
        .then(|| {
            let in_hand = |kind: &Id| -> i64 {
                run.hand
                    .iter()
                    .filter_map(|c| content.cards.get(c))
                    .flat_map(|c| {
                        c.top
                            .iter()
                            .chain(c.bottom.iter().flat_map(|b| b.effects.iter()))
                    })
                    .map(|e| match e {
                        CardEffect::Progress { kind: k, amount } if k == kind => *amount,
                        _ => 0,
                    })
                    .sum()
            };
            h.choose_progress
                .iter()
                .max_by_key(|k| (in_hand(k), std::cmp::Reverse(k.as_str().to_string())))
                .cloned()
        })
        .flatten();
    if run
        .choose_route(h, route, progress.as_ref(), &mut rolls)
        .is_err()
    {
        return Ok(());
    }
    let x_dice = run.dice.iter().filter(|d| d.face == Face::X).count();
    let mut answered = false;
    while run.phase == Phase::Playing {
        // Mana in hand is a die that can pay: available and showing a color (an X die pays for
        // nothing until a card turns it into one).
        if run.round + 1 == h.rounds
            && run
                .dice
                .iter()
                .filter(|d| d.state == crate::content::DieState::Available && d.face != Face::X)
                .count()
                <= 1
        {
            stats.final_crisis += 1;
        }
        answered |= run
            .hand
            .iter()
            .filter_map(|c| content.cards.get(c))
            .any(|c| c.class == CardClass::XInteraction);
        let mut classes = Vec::new();
        for _ in 0..32 {
            let Some((i, side)) = chooser.choose(content, h, &run)? else {
                break;
            };
            if let Some(card) = run.hand.get(i).and_then(|c| content.cards.get(c)) {
                classes.push(card.class);
            }
            if run.play(content, i, side, &mut rolls).is_err() {
                break;
            }
            run.pending.clear();
            answered |= run
                .hand
                .iter()
                .filter_map(|c| content.cards.get(c))
                .any(|c| c.class == CardClass::XInteraction);
        }
        if !classes.is_empty() && classes.iter().all(|c| *c == CardClass::Progress) {
            stats.flat_rounds += 1;
        }
        if run.end_round(content, &mut rolls).is_err() {
            break;
        }
    }
    stats.runs += 1;
    let score = run.score();
    if score > 0 {
        stats.cleared += 1;
    }
    *stats.scores.entry(score).or_default() += 1;
    if x_dice >= 2 {
        stats.many_x += 1;
        if answered {
            stats.many_x_with_answer += 1;
        }
    }
    Ok(())
}

/// The policy's next play, or `None` to end the round.
fn choose(content: &Content, h: &Hazard, run: &HazardRun, policy: Policy) -> Option<(usize, Side)> {
    match policy {
        Policy::TopOnly => (!run.hand.is_empty()).then_some((0, Side::Top)),
        Policy::Greedy => {
            let need: Vec<(&Id, i64)> = run
                .meter_types(h)
                .into_iter()
                .zip(run.thresholds(h))
                .zip(&run.meters)
                .map(|((t, need), have)| (t, (need - have).max(0)))
                .collect();
            if need.iter().all(|(_, n)| *n == 0) {
                return None;
            }
            let mut best: Option<(i64, usize, Side)> = None;
            for (i, id) in run.hand.iter().enumerate() {
                let Some(card) = content.cards.get(id) else {
                    continue;
                };
                let top = value(run, card, &card.top, &need);
                if best.is_none_or(|(b, _, _)| top > b) {
                    best = Some((top, i, Side::Top));
                }
                if run.can_pay(card) {
                    if let Some(bottom) = &card.bottom {
                        let mut v =
                            value(run, card, &bottom.effects, &need) - 2 * bottom.cost as i64;
                        if card.enchant && run.round + 1 < h.rounds {
                            v += 4;
                        }
                        if best.is_none_or(|(b, _, _)| v > b) {
                            best = Some((v, i, Side::Bottom));
                        }
                    }
                }
            }
            best.filter(|(v, _, _)| *v > 0).map(|(_, i, s)| (i, s))
        }
    }
}

fn value(run: &HazardRun, card: &Card, effects: &[CardEffect], need: &[(&Id, i64)]) -> i64 {
    let unmet = |kind: &Id| need.iter().find(|(t, _)| *t == kind).map_or(0, |(_, n)| *n);
    // Only X-interaction cards reach X dice (FR-10).
    let x = if card.class == CardClass::XInteraction {
        run.dice
            .iter()
            .filter(|d| d.face == Face::X && d.state == crate::content::DieState::Available)
            .count() as i64
    } else {
        0
    };
    let spent = run
        .dice
        .iter()
        .filter(|d| d.state == crate::content::DieState::Spent)
        .count() as i64;
    let mut v = 0;
    let mut focus = run.focus;
    for e in effects {
        v += match e {
            CardEffect::Progress { kind, amount } => {
                let gain = (amount + std::mem::take(&mut focus)).min(unmet(kind));
                gain * 10
            }
            CardEffect::Focus { amount } => {
                focus += amount;
                if need.iter().any(|(_, n)| *n > 0) {
                    *amount * 4
                } else {
                    0
                }
            }
            CardEffect::Draw { count } => 3 * *count as i64,
            CardEffect::Reroll { count } => {
                4 * x.min(*count as i64) + 2 * spent.min(*count as i64 - x.min(*count as i64))
            }
            CardEffect::TreatX { .. } => 6 * x.min(1),
            CardEffect::ExhaustX { kind, amount } => x.min(1) * amount.min(&unmet(kind)) * 10,
            CardEffect::Refresh { count } => 3 * spent.min(*count as i64),
            CardEffect::Preserve { count } => 2 * *count as i64,
            CardEffect::Action(_) => 1,
        };
    }
    v
}

/// The report as the seed's success-metric table.
pub fn table(report: &SimReport, content: &Content) -> String {
    let mut out = String::new();
    let name = Id::qualified(&report.hazard)
        .and_then(|id| content.hazards.get(&id))
        .map(|h| h.name.to_string())
        .unwrap_or_default();
    // A name a mod controls is one line of this table: its line breaks are shown, not obeyed.
    out.push_str(&format!(
        "hazard {} ({name}), policy {}, seed {}\n\n",
        report.hazard,
        crate::diag::visible(&report.policy),
        report.seed
    ));
    out.push_str("| metric | target | ");
    out.push_str(
        &report
            .routes
            .keys()
            .map(|k| crate::diag::visible(k).into_owned())
            .collect::<Vec<_>>()
            .join(" | "),
    );
    out.push_str(" |\n| --- | --- |");
    out.push_str(&" --- |".repeat(report.routes.len()));
    out.push('\n');
    let row = |label: &str, target: &str, f: &dyn Fn(&RouteStats) -> String| {
        let cells: Vec<String> = report.routes.values().map(f).collect();
        format!("| {label} | {target} | {} |\n", cells.join(" | "))
    };
    out.push_str(&row("runs", "", &|s| s.runs.to_string()));
    out.push_str(&row(
        "clear rate (score > 0)",
        "safe 70-80 %, risk 40-60 %",
        &|s| format!("{:.1} %", s.clear_rate() * 100.0),
    ));
    out.push_str(&row(
        "final-round mana crisis (<= 1 usable die)",
        "> 50 %",
        &|s| format!("{:.1} %", s.crisis_rate() * 100.0),
    ));
    out.push_str(&row("flat rounds per run", "< 2", &|s| {
        format!("{:.2}", s.flat_per_run())
    }));
    out.push_str(&row(
        "X-interaction card in hand vs 2+ X dice",
        "> 40 %",
        &|s| format!("{:.1} %", s.x_answer_rate() * 100.0),
    ));
    let scores: std::collections::BTreeSet<i64> = report
        .routes
        .values()
        .flat_map(|s| s.scores.keys().copied())
        .collect();
    for score in scores.iter().rev() {
        out.push_str(&row(&format!("score {score:+}"), "", &|s| {
            format!(
                "{:.1} %",
                RouteStats::rate(s.scores.get(score).copied().unwrap_or(0), s.runs) * 100.0
            )
        }));
    }
    let missed: Vec<String> = report
        .routes
        .iter()
        .flat_map(|(route, s)| {
            missed(route, s)
                .into_iter()
                .map(move |m| format!("{route}: {m}"))
        })
        .collect();
    if missed.is_empty() {
        out.push_str("\nEvery metric is within its target.\n");
    } else {
        out.push_str(&format!("\nMissed: {}.\n", missed.join("; ")));
    }
    out
}

/// The seed's success metrics a route misses, in words.
pub fn missed(route: &str, s: &RouteStats) -> Vec<String> {
    let mut out = Vec::new();
    let (lo, hi) = if route == "safe" {
        (0.70, 0.80)
    } else {
        (0.40, 0.60)
    };
    let clear = s.clear_rate();
    if !(lo..=hi).contains(&clear) {
        out.push(format!(
            "clear rate {:.1} % (target {:.0}-{:.0} %)",
            clear * 100.0,
            lo * 100.0,
            hi * 100.0
        ));
    }
    if s.crisis_rate() <= 0.5 {
        out.push(format!(
            "final-round mana crisis {:.1} % (target over 50 %)",
            s.crisis_rate() * 100.0
        ));
    }
    if s.flat_per_run() >= 2.0 {
        out.push(format!(
            "flat rounds {:.2} per run (target under 2)",
            s.flat_per_run()
        ));
    }
    if s.x_answer_rate() <= 0.4 {
        out.push(format!(
            "X-interaction answer {:.1} % (target over 40 %)",
            s.x_answer_rate() * 100.0
        ));
    }
    out
}
