//! The [`Diagnostic`] type: severity, message, primary span, secondary labels and a help line.

use super::Span;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Severity {
    /// The mod (or this part of it) cannot load; the game does not start or reload with it.
    Error,
    /// Worth knowing; nothing is refused.
    Warning,
}

impl Severity {
    /// `error` or `warning`.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// A secondary place that explains the primary one ("first defined here").
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it says there.
    pub message: String,
}

/// What kind of problem a diagnostic is: a stable name a game can match on (to sort, filter,
/// translate or link its own help), written in `lantern check --format json` as `code`. The
/// names never change meaning; new kinds are added as lantern grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Code {
    /// A data file or manifest is not valid TOML.
    TomlSyntax,
    /// A data file holds an array lantern (or the game) does not know.
    UnknownTable,
    /// A table has a key nothing reads.
    UnknownKey,
    /// A table lacks a key it needs.
    MissingKey,
    /// A value has the wrong type (text where a number goes).
    WrongType,
    /// A number is outside its allowed range.
    OutOfRange,
    /// Text that should be an ID is not one (`Rat!`).
    InvalidId,
    /// A reference to something that does not exist: an ID, an event, an action, a check, a
    /// payload field, a word of the engine's vocabulary.
    UnknownReference,
    /// A problem that follows from one reported before it (a reference to a definition that could
    /// not be read): listed after the causes.
    Follows,
    /// The same ID defined twice.
    Duplicate,
    /// A definition in another mod's namespace without depending on that mod.
    ForeignNamespace,
    /// An override of something that does not exist (a warning).
    Override,
    /// Content that reads but breaks a rule of the game (a hazard's thresholds, an encounter with
    /// no options, a modifier that depends on itself).
    ContentRule,
    /// A manifest (`mod.toml`) that is wrong.
    Manifest,
    /// Dependencies: missing, the wrong version, a conflict, a cycle, a mod left out for them.
    Dependency,
    /// The layout of the mods folder: no mods, a folder without a manifest, a misnamed folder.
    ModLayout,
    /// A file lantern refused to read (outside its mod, not a file, too large, not UTF-8).
    FileRefused,
    /// A script that failed: a Lua error, a runaway, a memory limit, a function switched off.
    Script,
    /// What `lantern check` finds reading the scripts without running them.
    ScriptCheck,
    /// Starting Lua itself (a build that links stock Lua, a state that cannot be set up).
    Lua,
    /// An action list that failed and was rolled back, or a game's handler that failed.
    ActionFailed,
    /// A turn that passed the event cap and was stopped.
    EventCap,
    /// What a reload or a loaded save dropped or changed to fit the content.
    Reconciled,
    /// A room of the roguelike that completed empty (no encounter or hazard could be drawn).
    EmptyRoom,
    /// A mistake in the hosting game's own vocabulary.
    Vocabulary,
    /// Problems left out of a report, counted: past the most shown of one file or one load.
    Elided,
    /// A translation mistake: a text key defined nowhere, missing in a language or never used, an
    /// argument a text needs and is not given, a malformed plural.
    Locale,
    /// A setting a player chose that no mod declares or that its setting does not take
    /// (`--set rats:rat_health=0`).
    Setting,
}

impl Code {
    /// Every code, in the order of the documentation.
    pub const ALL: &'static [Code] = &[
        Code::TomlSyntax,
        Code::UnknownTable,
        Code::UnknownKey,
        Code::MissingKey,
        Code::WrongType,
        Code::OutOfRange,
        Code::InvalidId,
        Code::UnknownReference,
        Code::Follows,
        Code::Duplicate,
        Code::ForeignNamespace,
        Code::Override,
        Code::ContentRule,
        Code::Manifest,
        Code::Dependency,
        Code::ModLayout,
        Code::FileRefused,
        Code::Script,
        Code::ScriptCheck,
        Code::Lua,
        Code::ActionFailed,
        Code::EventCap,
        Code::Reconciled,
        Code::EmptyRoom,
        Code::Vocabulary,
        Code::Elided,
        Code::Locale,
        Code::Setting,
    ];

    /// The stable name: `unknown-key`, `toml-syntax`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            Code::TomlSyntax => "toml-syntax",
            Code::UnknownTable => "unknown-table",
            Code::UnknownKey => "unknown-key",
            Code::MissingKey => "missing-key",
            Code::WrongType => "wrong-type",
            Code::OutOfRange => "out-of-range",
            Code::InvalidId => "invalid-id",
            Code::UnknownReference => "unknown-reference",
            Code::Follows => "follows",
            Code::Duplicate => "duplicate",
            Code::ForeignNamespace => "foreign-namespace",
            Code::Override => "override",
            Code::ContentRule => "content-rule",
            Code::Manifest => "manifest",
            Code::Dependency => "dependency",
            Code::ModLayout => "mod-layout",
            Code::FileRefused => "file-refused",
            Code::Script => "script",
            Code::ScriptCheck => "script-check",
            Code::Lua => "lua",
            Code::ActionFailed => "action-failed",
            Code::EventCap => "event-cap",
            Code::Reconciled => "reconciled",
            Code::EmptyRoom => "empty-room",
            Code::Vocabulary => "vocabulary",
            Code::Elided => "elided",
            Code::Locale => "locale",
            Code::Setting => "setting",
        }
    }
}

/// One problem found in a modder's files or raised while running them.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of problem it is.
    pub code: Code,
    /// What is wrong, in one sentence.
    pub message: String,
    /// Where the problem is; `None` for problems that concern no single file (an empty mods directory).
    pub span: Option<Span>,
    /// Other places that explain it.
    pub labels: Vec<Label>,
    /// What to do about it, or what was probably meant.
    pub help: Option<String>,
    /// It follows from another problem reported first (a reference to a definition that could not
    /// be read): listed after every cause.
    pub(crate) follows: bool,
    /// What few diagnostics have, apart: every diagnostic is passed in a `Result`'s error.
    pub(crate) extra: Option<Box<Extra>>,
}

/// The parts of a [`Diagnostic`] most do not have.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Extra {
    /// For a count of problems left out of a report ([`Code::Elided`]): how many errors and
    /// warnings it stands for, which the summary counts.
    pub(crate) stands_for: (u32, u32),
    /// The cause it speaks of, when many places share one (a mod whose `id` changed, named at
    /// every reference): a report keeps the first of each cause ([`once_per`](Diagnostic::once_per)).
    pub(crate) cause: Option<Box<str>>,
    /// The mod it is about: the mod whose file it points into, or whose script failed.
    pub(crate) mod_id: Option<Box<str>>,
}

impl Diagnostic {
    /// An error of a kind with its message; place it with [`at`](Self::at).
    pub(crate) fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            code,
            message: message.into(),
            span: None,
            labels: Vec::new(),
            help: None,
            follows: false,
            extra: None,
        }
    }

    /// A warning of a kind with its message.
    pub(crate) fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, message)
        }
    }

    /// Marks it as one of many places of one `cause`: a report shows the first place only.
    pub(crate) fn once_per(mut self, cause: impl Into<String>) -> Diagnostic {
        self.extra_mut().cause = Some(cause.into().into_boxed_str());
        self
    }

    /// Its rarer parts, made when first set.
    pub(crate) fn extra_mut(&mut self) -> &mut Extra {
        self.extra.get_or_insert_with(Default::default)
    }

    /// The cause it speaks of, when many places share one ([`once_per`](Self::once_per)).
    pub(crate) fn cause(&self) -> Option<&str> {
        self.extra.as_ref()?.cause.as_deref()
    }

    /// For a count of problems left out ([`Code::Elided`]): the errors and warnings it stands for.
    pub(crate) fn stands_for(&self) -> (u32, u32) {
        self.extra.as_ref().map_or((0, 0), |e| e.stands_for)
    }

    /// Marks it as following from a problem reported before it.
    pub(crate) fn following(mut self) -> Diagnostic {
        self.follows = true;
        self
    }

    /// Places it at `span`.
    pub(crate) fn at(mut self, span: Span) -> Diagnostic {
        self.span = Some(span);
        self
    }

    /// Adds a secondary place with its own message.
    pub(crate) fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds the help line.
    pub(crate) fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line only when there is one.
    pub(crate) fn with_help_opt(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The mod it is about, when it is about one: the mod whose file it points into (a load's
    /// problems), or whose script failed, ran out of its budget or was switched off (a game's).
    /// A server's policy reads it to blame a mod, a report to group problems by mod.
    pub fn mod_id(&self) -> Option<&str> {
        self.extra.as_ref()?.mod_id.as_deref()
    }

    /// Says which mod it is about.
    pub(crate) fn of_mod(mut self, id: &str) -> Diagnostic {
        self.extra_mut().mod_id = Some(id.into());
        self
    }
}

/// The message with its help, on one line: for a log or an error chain. [`render`](super::render)
/// shows it with its file, line and caret.
impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}[{}]: {}",
            self.severity.as_str(),
            self.code.as_str(),
            self.message
        )?;
        if let Some(help) = &self.help {
            write!(f, " (help: {help})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_its_own_kebab_case_name() {
        let names: std::collections::BTreeSet<&str> =
            Code::ALL.iter().map(|c| c.as_str()).collect();
        assert_eq!(names.len(), Code::ALL.len(), "two codes share a name");
        for n in names {
            assert!(n.chars().all(|c| c.is_ascii_lowercase() || c == '-'), "{n}");
        }
    }
}
