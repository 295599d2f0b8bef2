//! Diagnostics: what went wrong in a modder's files, where, and what was meant.
//!
//! A [`Diagnostic`] is data, created where the span is known (the loader, the resolver, the rules engine
//! at run time) and rendered only at the edges (the command line, the play session, tests).
//! This module knows nothing about mods, content or Lua; it only knows files, byte spans and messages.

mod bound;
mod diagnostic;
mod escape;
mod problems;
mod render;
mod size;
mod source_map;
mod suggest;

pub(crate) use bound::bound;
pub use bound::{MOST_PER_FILE, MOST_PER_RUN};
pub use diagnostic::{Code, Diagnostic, Label, Severity};
pub use escape::{needs_escape, visible, visible_lines};
pub use problems::Problems;
#[cfg(feature = "cli")]
pub(crate) use render::summary_line;
pub use render::{render, render_all, render_json};
pub(crate) use size::bytes;
pub(crate) use source_map::{fingerprint, lines_at};
pub use source_map::{FileId, SourceFile, SourceMap, Span};
pub(crate) use suggest::{did_you_mean, did_you_mean_suffix, shown, shown_bytes, suggest};
