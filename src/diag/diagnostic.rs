//! The [`Diagnostic`] type: severity, message, primary span, secondary labels and a help line.

use super::Span;

/// How bad a diagnostic is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
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
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it says there.
    pub message: String,
}

/// One problem found in a modder's files or raised while running them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
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
    pub follows: bool,
}

impl Diagnostic {
    /// An error with its message; place it with [`at`](Self::at).
    pub fn error(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span: None,
            labels: Vec::new(),
            help: None,
            follows: false,
        }
    }

    /// A warning with its message.
    pub fn warning(message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message)
        }
    }

    /// Marks it as following from a problem reported before it.
    pub fn following(mut self) -> Diagnostic {
        self.follows = true;
        self
    }

    /// Places it at `span`.
    pub fn at(mut self, span: Span) -> Diagnostic {
        self.span = Some(span);
        self
    }

    /// Adds a secondary place with its own message.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Diagnostic {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds the help line.
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the help line only when there is one.
    pub fn with_help_opt(mut self, help: Option<String>) -> Diagnostic {
        if help.is_some() {
            self.help = help;
        }
        self
    }

    /// Whether it is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The message with its help, on one line: for a log or an error chain. [`render`](super::render)
/// shows it with its file, line and caret.
impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.severity.as_str(), self.message)?;
        if let Some(help) = &self.help {
            write!(f, " (help: {help})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}
