//! Problems kept with the files they point into. A reload, a restart or a game that failed to
//! start hands back its diagnostics as [`Problems`], so they are rendered against the source map
//! their spans were made in and no other.

use super::{render_all, render_json, Diagnostic, SourceMap};
use std::fmt;
use std::sync::Arc;

/// Diagnostics and the source map their spans point into, shared (the map of a whole mod set is
/// not copied to make one).
#[derive(Clone, Default)]
pub struct Problems {
    diagnostics: Vec<Diagnostic>,
    sources: Arc<SourceMap>,
}

impl Problems {
    /// `diagnostics`, whose spans point into `sources`.
    pub(crate) fn new(diagnostics: Vec<Diagnostic>, sources: Arc<SourceMap>) -> Problems {
        Problems {
            diagnostics,
            sources,
        }
    }

    /// The diagnostics, causes first.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    /// The files their spans point into.
    pub fn sources(&self) -> &SourceMap {
        &self.sources
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.diagnostics.is_empty()
    }

    /// Whether any is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// How many errors there are.
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }

    /// Every one rendered with its file, line and caret, as a terminal shows them.
    pub fn render(&self) -> String {
        render_all(&self.diagnostics, &self.sources)
    }

    /// Every one as JSON, as `lantern check --format json` writes them.
    pub fn render_json(&self) -> serde_json::Value {
        render_json(&self.diagnostics, &self.sources)
    }
}

/// The diagnostics and how many files they point into (not the files' text: a mod set's).
impl fmt::Debug for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Problems")
            .field("diagnostics", &self.diagnostics)
            .field("files", &self.sources.files().count())
            .finish()
    }
}

/// The rendered diagnostics.
impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.render().trim_end())
    }
}

/// The same diagnostics over the same map.
impl PartialEq for Problems {
    fn eq(&self, other: &Problems) -> bool {
        self.diagnostics == other.diagnostics && Arc::ptr_eq(&self.sources, &other.sources)
    }
}

impl Eq for Problems {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, Span};

    #[test]
    fn problems_render_against_their_own_map() {
        let mut sources = SourceMap::new();
        let file = sources.add("m/data/a.toml", "[[items]]\nid = 3\n".to_string());
        let d = Diagnostic::error(Code::WrongType, "an ID is text").at(Span::new(file, 15..16));
        let problems = Problems::new(vec![d], Arc::new(sources));
        assert!(problems.has_errors());
        assert_eq!(problems.errors(), 1);
        let text = problems.to_string();
        assert!(text.contains("m/data/a.toml:2:6"), "{text}");
        assert!(text.contains("id = 3"), "{text}");
        assert_eq!(problems, problems.clone());
        assert!(Problems::default().is_empty());
    }
}
