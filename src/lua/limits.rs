//! The limits every script runs under, which a game sets: instructions per call and per turn,
//! memory per mod, and what the test harness allows a test.

/// The defaults: generous for real handlers, small enough that a runaway loop ends in well under a second.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Limits {
    /// Instructions one call into a script may run.
    pub instructions: u64,
    /// Instructions all of one mod's calls in one turn may run together.
    pub turn_instructions: u64,
    /// Bytes one mod's scripts may hold in the Lua state (for the harness's own state and a Lua
    /// simulator policy, the whole state).
    pub memory: usize,
    /// Instructions one test may run, with its hooks and the games it makes and drives: a
    /// statistical test makes thousands of games (each charged what making it runs), where a
    /// runaway loop still ends within seconds.
    pub test_instructions: u64,
    /// Instructions all mods' calls in one turn of one game may run together: a server's bound
    /// on a session's turn, whatever the number of mods.
    pub game_turn_instructions: u64,
    /// Bytes the game's whole Lua state may hold, all mods together.
    pub game_memory: usize,
    /// The longest a turn's scripts may run, by the clock: past it the running call fails and
    /// the rest of the turn's handlers are skipped. Not deterministic (the clock is not), so a
    /// server's safety valve rather than a rule of the game; `None` for none.
    pub turn_deadline: Option<std::time::Duration>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            instructions: 10_000_000,
            turn_instructions: 50_000_000,
            memory: 64 * 1024 * 1024,
            test_instructions: 250_000_000,
            game_turn_instructions: u64::MAX,
            game_memory: usize::MAX,
            turn_deadline: None,
        }
    }
}

impl Limits {
    /// With `n` instructions for one call into a script.
    pub fn with_instructions(self, n: u64) -> Limits {
        Limits {
            instructions: n,
            ..self
        }
    }

    /// With `n` instructions for all of one mod's calls in one turn.
    pub fn with_turn_instructions(self, n: u64) -> Limits {
        Limits {
            turn_instructions: n,
            ..self
        }
    }

    /// With `n` instructions for one test.
    pub fn with_test_instructions(self, n: u64) -> Limits {
        Limits {
            test_instructions: n,
            ..self
        }
    }

    /// With `bytes` of memory for one mod's scripts.
    pub fn with_memory(self, bytes: usize) -> Limits {
        Limits {
            memory: bytes,
            ..self
        }
    }

    /// With `n` instructions for all mods' calls in one turn of one game.
    pub fn with_game_turn_instructions(self, n: u64) -> Limits {
        Limits {
            game_turn_instructions: n,
            ..self
        }
    }

    /// With `bytes` for the game's whole Lua state.
    pub fn with_game_memory(self, bytes: usize) -> Limits {
        Limits {
            game_memory: bytes,
            ..self
        }
    }

    /// With a deadline, by the clock, for each turn's scripts.
    pub fn with_turn_deadline(self, deadline: std::time::Duration) -> Limits {
        Limits {
            turn_deadline: Some(deadline),
            ..self
        }
    }
}
