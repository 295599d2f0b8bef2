//! Randomness: named ChaCha streams derived from the run seed and a context by hashing.
//!
//! Every random outcome draws from a stream named after what it decides (`trigger:core:flaming_sword_burn`,
//! `encounter:select:3:7`). A stream's seed is a hash of the run seed and the name, never a sum, so
//! distinct contexts never collide the way `seed + event + option` does (event 1 option 2 = event 2 option 1).
//! Streams remember how far they have been drawn, so a saved game continues the same sequence.
//! Tests replace rolls with a fixed value or a sequence (the seeds' `mockFixedRng`, `mockSequentialRng`).

use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A 64-bit FNV-1a hash: small, fixed, and the same in every process and on every platform.
pub fn stable_hash(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The 32-byte ChaCha seed of the stream `name` under `run_seed`.
pub fn derive_seed(run_seed: u64, name: &str) -> [u8; 32] {
    let mut bytes = Vec::with_capacity(8 + name.len() + 8);
    bytes.extend_from_slice(&run_seed.to_le_bytes());
    bytes.extend_from_slice(&(name.len() as u64).to_le_bytes());
    bytes.extend_from_slice(name.as_bytes());
    let mut state = stable_hash(&bytes);
    let mut seed = [0u8; 32];
    for chunk in seed.chunks_mut(8) {
        chunk.copy_from_slice(&splitmix(&mut state).to_le_bytes());
    }
    seed
}

/// A replacement for real rolls, for tests: every roll returns the value, or the values in turn (then the last again).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Stub {
    /// Every roll is this value (in `0.0..1.0`).
    Fixed(f64),
    /// The rolls are these values in turn, then the last one again.
    Sequence {
        /// The values, in the order they are rolled.
        values: Vec<f64>,
        /// The index of the next one.
        next: usize,
    },
}

impl Stub {
    fn next(&mut self) -> f64 {
        match self {
            Stub::Fixed(v) => *v,
            Stub::Sequence { values, next } => {
                let v = values.get(*next).or(values.last()).copied().unwrap_or(0.0);
                *next += 1;
                v
            }
        }
    }
}

/// Every named stream of a run, created on first use.
#[derive(Debug, Clone)]
pub struct Streams {
    seed: u64,
    streams: BTreeMap<String, ChaCha8Rng>,
    /// Stubs by stream name; the empty name stubs every stream.
    stubs: BTreeMap<String, Stub>,
    /// For each stub, whether a roll has used it: shared by the copies a transaction keeps, so a
    /// roll made in a list that failed still counts (a test asks, `g:stub_rng`).
    used: BTreeMap<String, std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Streams {
    /// The streams of a run of `seed`, none drawn yet.
    pub fn new(seed: u64) -> Streams {
        Streams {
            seed,
            streams: BTreeMap::new(),
            stubs: BTreeMap::new(),
            used: BTreeMap::new(),
        }
    }

    fn stream(&mut self, name: &str) -> &mut ChaCha8Rng {
        if !self.streams.contains_key(name) {
            let rng = ChaCha8Rng::from_seed(derive_seed(self.seed, name));
            self.streams.insert(name.to_string(), rng);
        }
        self.streams.get_mut(name).expect("inserted above")
    }

    fn stub(&mut self, name: &str) -> Option<f64> {
        let key = if self.stubs.contains_key(name) {
            name
        } else if self.stubs.contains_key("") {
            ""
        } else {
            return None;
        };
        if let Some(used) = self.used.get(key) {
            used.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        self.stubs.get_mut(key).map(Stub::next)
    }

    /// A roll in `[0, 1)`.
    pub(crate) fn roll(&mut self, name: &str) -> f64 {
        if let Some(v) = self.stub(name) {
            return v;
        }
        (self.stream(name).next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// An integer in `[0, n)`; `n` must be at least 1. Stubs map their value onto the range.
    pub(crate) fn below(&mut self, name: &str, n: usize) -> usize {
        debug_assert!(n > 0);
        let r = self.roll(name);
        ((r * n as f64) as usize).min(n - 1)
    }

    /// An integer in `[lo, hi]`, uniform over any range of `i64` (the whole of it has 2^64 values,
    /// which no `usize` holds). `lo` must not be above `hi`.
    ///
    /// A range of up to 2^53 values maps one roll onto it, so stubs reach it and every draw made
    /// before wider ranges were drawn as integers stays the same. A roll is a double with 53 bits,
    /// so a wider range could only be reached in steps of `span / 2^53` (the whole range gave even
    /// numbers only): it is drawn as an integer instead, from 64-bit words, rejecting the few that
    /// would make some values likelier than others.
    pub(crate) fn between(&mut self, name: &str, lo: i64, hi: i64) -> i64 {
        debug_assert!(lo <= hi);
        let last = (i128::from(hi) - i128::from(lo)) as u64;
        if last < (1u64 << 53) || self.stubbed(name) {
            let span = (last as f64) + 1.0;
            let r = self.roll(name);
            let offset = ((r * span) as u64).min(last);
            return lo.wrapping_add(offset as i64);
        }
        let stream = self.stream(name);
        let offset = match last.checked_add(1) {
            None => stream.next_u64(),
            Some(span) => {
                // Lemire's method: the high word of a 128-bit product, rejecting the low words
                // below `2^64 mod span`.
                let floor = span.wrapping_neg() % span;
                loop {
                    let product = u128::from(stream.next_u64()) * u128::from(span);
                    if (product as u64) >= floor {
                        break (product >> 64) as u64;
                    }
                }
            }
        };
        lo.wrapping_add(offset as i64)
    }

    fn stubbed(&self, name: &str) -> bool {
        self.stubs.contains_key(name) || self.stubs.contains_key("")
    }

    /// Whether a stream of that name has been drawn from (or restored) in this run.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.streams.contains_key(name)
    }

    /// How many streams drawn in this run have names that start with `prefix`.
    pub(crate) fn count_starting(&self, prefix: &str) -> usize {
        self.streams
            .range(prefix.to_string()..)
            .take_while(|(k, _)| k.starts_with(prefix))
            .count()
    }

    /// Stubs one stream (or every stream, with `None`); the flag turns true when a roll uses it.
    pub(crate) fn set_stub(
        &mut self,
        stream: Option<&str>,
        stub: Stub,
    ) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        let key = stream.unwrap_or("").to_string();
        let used = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.used.insert(key.clone(), used.clone());
        self.stubs.insert(key, stub);
        used
    }

    /// How far each stream has been drawn: what a save file keeps.
    pub(crate) fn positions(&self) -> BTreeMap<String, u128> {
        self.streams
            .iter()
            .map(|(k, v)| (k.clone(), v.get_word_pos()))
            .collect()
    }

    /// Restores streams to saved positions.
    pub(crate) fn restore(seed: u64, positions: &BTreeMap<String, u128>) -> Streams {
        let mut s = Streams::new(seed);
        for (name, &pos) in positions {
            s.stream(name).set_word_pos(pos);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn golden_first_rolls_are_pinned() {
        // If this changes, every saved game and every recorded test outcome changes with it.
        let mut s = Streams::new(12345);
        let rolls: Vec<String> = (0..3)
            .map(|_| format!("{:.6}", s.roll("encounter:select:3:7")))
            .collect();
        let again: Vec<String> = {
            let mut t = Streams::new(12345);
            (0..3)
                .map(|_| format!("{:.6}", t.roll("encounter:select:3:7")))
                .collect()
        };
        assert_eq!(rolls, again);
        assert_eq!(rolls, ["0.288198", "0.553341", "0.793101"]);
        assert_eq!(stable_hash(b""), 0xcbf2_9ce4_8422_2325);
    }

    #[test]
    fn contexts_do_not_collide_the_additive_way() {
        // Seed 000: seed + event 1 + option 2 == seed + event 2 + option 1. Hashing the name keeps them apart.
        assert_ne!(derive_seed(7, "roll:1:2"), derive_seed(7, "roll:2:1"));
    }

    #[test]
    fn stubs_replace_rolls_and_sequences_repeat_their_last_value() {
        let mut s = Streams::new(1);
        s.set_stub(
            Some("a"),
            Stub::Sequence {
                values: vec![0.1, 0.9],
                next: 0,
            },
        );
        assert_eq!([s.roll("a"), s.roll("a"), s.roll("a")], [0.1, 0.9, 0.9]);
        s.set_stub(None, Stub::Fixed(0.5));
        assert_eq!(s.roll("b"), 0.5);
        assert_eq!(
            s.roll("a"),
            0.9,
            "a stream's own stub wins over the stub for all"
        );
    }

    #[test]
    fn wide_ranges_reach_odd_numbers_and_both_halves() {
        // Through a 53-bit roll, the whole of i64 gave even numbers only.
        let mut s = Streams::new(5);
        let whole: Vec<i64> = (0..64)
            .map(|_| s.between("w", i64::MIN, i64::MAX))
            .collect();
        assert!(whole.iter().any(|v| v % 2 != 0), "{whole:?}");
        assert!(whole.iter().any(|v| *v < 0) && whole.iter().any(|v| *v > 0));
        // A range just past 2^53: every value lands inside, and low bits vary.
        let (lo, hi) = (-3, (1i64 << 53) + 5);
        let near: Vec<i64> = (0..64).map(|_| s.between("n", lo, hi)).collect();
        assert!(near.iter().all(|v| (lo..=hi).contains(v)));
        assert!(near.iter().any(|v| v % 2 != 0) && near.iter().any(|v| v % 2 == 0));
        // An uneven span (2^63 + 2^62 values): the top third is drawn about a third of the time.
        let (lo, hi) = (0, i64::MAX);
        let top = (0..3000)
            .filter(|_| s.between("u", lo - (1i64 << 62), hi) >= (1i64 << 62))
            .count();
        assert!((800..1200).contains(&top), "{top} of 3000 in the top third");
    }

    #[test]
    fn narrow_ranges_draw_what_they_always_drew() {
        // Ranges below 2^53 map one roll, so saved games and recorded outcomes keep their draws.
        let mut s = Streams::new(12345);
        let mut t = Streams::new(12345);
        for _ in 0..100 {
            let r = t.roll("encounter:select:3:7");
            assert_eq!(
                s.between("encounter:select:3:7", 1, 6),
                1 + (r * 6.0) as i64
            );
        }
        s.set_stub(None, Stub::Fixed(0.999));
        // A stub reaches any range, the widest included: 0.999 of the way up.
        let v = s.between("x", i64::MIN, i64::MAX);
        assert!((9_200_000_000_000_000_000..=i64::MAX).contains(&v), "{v}");
    }

    #[test]
    fn positions_restore_the_sequence() {
        let mut s = Streams::new(99);
        s.roll("x");
        let saved = s.positions();
        let next = s.roll("x");
        let mut r = Streams::restore(99, &saved);
        assert_eq!(r.roll("x"), next);
    }
}
