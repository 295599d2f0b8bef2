//! The error a game gets from lantern's API when something it asked for cannot be done: a verb
//! or event refused, a save that cannot be written or read. Problems in mods are never this type:
//! they are [`Diagnostic`](crate::diag::Diagnostic)s, located at their file and line and
//! collected, never returned one at a time.

use std::fmt;

/// What lantern could not do for the game, with the whole message in words a player or modder
/// reads. Nothing was changed: a refused verb or event leaves the game as it was, and a save that
/// failed leaves the file it would have replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The game's rules refused a verb, an action or an event (a misspelt name, an argument of
    /// the wrong type, an action that failed).
    Refused(String),
    /// A save could not be written, or a file could not be read as a save of this game.
    Save(String),
    /// A mod's code failed (a script's action raised an error) and already said so: its
    /// problem, at the script's file and line, is among the game's problems
    /// ([`Game::take_problems`](crate::game::Game::take_problems)). This is its message again, for
    /// whoever asked; show the located problem rather than this one.
    Reported(String),
    /// A turn raised more events than its cap ([`Game::set_event_cap`]) and was stopped there:
    /// what it did up to the cap stands, the events past it were not handled. The game's
    /// problems say which chain of triggers looped, if one did.
    ///
    /// [`Game::set_event_cap`]: crate::game::Game::set_event_cap
    EventCap {
        /// What happened, as the problem says it.
        message: String,
        /// How many events the turn raised, handled or not.
        raised: usize,
        /// The cap it ran into.
        cap: usize,
    },
    /// The mods could not be loaded, so nothing started or was replaced (a game that did not
    /// start, a restart refused): every problem, with the files it points into.
    Mods {
        /// `the mods have 2 errors`: the whole of it is in `problems`.
        message: String,
        /// The diagnostics, renderable against their own files only.
        problems: crate::diag::Problems,
    },
}

impl Error {
    /// Whether the failure was already reported as a located problem ([`Error::Reported`]).
    pub fn is_reported(&self) -> bool {
        matches!(self, Error::Reported(_))
    }

    /// The message alone.
    pub fn message(&self) -> &str {
        match self {
            Error::Refused(m) | Error::Save(m) | Error::Reported(m) => m,
            Error::Mods { message, .. } | Error::EventCap { message, .. } => message,
        }
    }

    /// The located problems of mods that could not be loaded ([`Error::Mods`]).
    pub fn problems(&self) -> Option<&crate::diag::Problems> {
        match self {
            Error::Mods { problems, .. } => Some(problems),
            _ => None,
        }
    }

    /// Mods that could not be loaded, with every problem found.
    pub(crate) fn mods(problems: crate::diag::Problems) -> Error {
        let n = problems.errors();
        Error::Mods {
            message: format!("the mods have {n} error{}", if n == 1 { "" } else { "s" }),
            problems,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// A game's own closures (actions, verbs) return `Result<_, String>`; lantern's errors turn into
/// their message with `?` there.
impl From<Error> for String {
    fn from(e: Error) -> String {
        match e {
            Error::Refused(m) | Error::Save(m) | Error::Reported(m) => m,
            Error::Mods { message, .. } | Error::EventCap { message, .. } => message,
        }
    }
}

/// lantern's own refusals are written as text where they are found; `?` makes them an error.
impl From<String> for Error {
    fn from(message: String) -> Error {
        Error::Refused(message)
    }
}

impl From<&str> for Error {
    fn from(message: &str) -> Error {
        Error::Refused(message.to_string())
    }
}

/// A problem found while doing what the game asked (an action list that failed): a problem that
/// follows from one reported before it (a script's error at its line) is [`Error::Reported`].
impl From<crate::diag::Diagnostic> for Error {
    fn from(d: crate::diag::Diagnostic) -> Error {
        if d.follows {
            Error::Reported(d.message)
        } else {
            Error::Refused(d.message)
        }
    }
}
