//! What a game's own rule finds wrong with one entry of its tables ([`Vocabulary::validate`]):
//! a message, at one of the entry's keys or at the entry, an error or a warning.
//!
//! [`Vocabulary::validate`]: super::Vocabulary::validate

/// A problem with an entry of the game's table, reported where mods load like lantern's own.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub(crate) key: Option<String>,
    pub(crate) message: String,
    pub(crate) warning: bool,
    pub(crate) help: Option<String>,
}

impl Problem {
    /// An error: the load fails, as for a mistake lantern finds.
    pub fn error(message: impl Into<String>) -> Problem {
        Problem {
            key: None,
            message: message.into(),
            warning: false,
            help: None,
        }
    }

    /// A warning: said, and the entry is kept.
    pub fn warning(message: impl Into<String>) -> Problem {
        Problem {
            warning: true,
            ..Problem::error(message)
        }
    }

    /// The same, with a line of help for the modder: what to write instead.
    pub fn help(self, help: impl Into<String>) -> Problem {
        Problem {
            help: Some(help.into()),
            ..self
        }
    }

    /// The same, pointed at the value of the entry's key `key` (at the entry's `id` when it has
    /// none such).
    pub fn at(self, key: impl Into<String>) -> Problem {
        Problem {
            key: Some(key.into()),
            ..self
        }
    }
}
