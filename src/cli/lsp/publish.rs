//! `lantern check`'s diagnostics as the editor shows them: at the same spans, with the same codes
//! and help, the places a label names as related information, and a "did you mean" as a quick
//! fix that writes the name meant.

use super::analysis::Analysis;
use super::position::{uri_of, Lines};
use crate::diag::{Diagnostic as Problem, Severity};
use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity,
    NumberOrString, Range, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::{BTreeMap, HashMap};

/// Each file's diagnostics, by the text of the file's URI.
pub(super) type ByFile = BTreeMap<String, (Uri, Vec<Diagnostic>)>;

/// Every file's diagnostics, in the order `check` reports them, and the problems that concern no
/// file.
pub(super) fn diagnostics(a: &Analysis) -> (ByFile, Vec<String>) {
    let mut by_file = ByFile::new();
    let mut placeless = Vec::new();
    let mut lines: HashMap<crate::diag::FileId, Lines<'_>> = HashMap::new();
    for problem in &a.diagnostics {
        let place = problem.span.and_then(|s| Some((s, a.paths.get(&s.file)?)));
        let Some((span, path)) = place else {
            placeless.push(problem.to_string());
            continue;
        };
        let Some(uri) = uri_of(path) else { continue };
        let text = a.sources.get(span.file).text();
        let l = lines.entry(span.file).or_insert_with(|| Lines::new(text));
        let range = l.range(span.start as usize..span.end as usize);
        let fix = fix(problem, text, span.start as usize..span.end as usize)
            .map(|(bytes, meant)| serde_json::json!({ "range": l.range(bytes), "text": meant }));
        let related: Vec<DiagnosticRelatedInformation> = problem
            .labels
            .iter()
            .filter_map(|label| {
                let location = a.location(label.span)?;
                Some(DiagnosticRelatedInformation {
                    location,
                    message: crate::diag::visible(&label.message).into_owned(),
                })
            })
            .collect();
        // A message may quote what a mod wrote: shown escaped, as `check` shows it.
        let mut message = crate::diag::visible(&problem.message).into_owned();
        if let Some(help) = &problem.help {
            message.push_str(&format!("\nhelp: {}", crate::diag::visible(help)));
        }
        let diagnostic = Diagnostic {
            range,
            severity: Some(match problem.severity {
                Severity::Error => DiagnosticSeverity::ERROR,
                Severity::Warning => DiagnosticSeverity::WARNING,
            }),
            code: Some(NumberOrString::String(problem.code.as_str().to_string())),
            source: Some("lantern".to_string()),
            message,
            related_information: (!related.is_empty()).then_some(related),
            data: fix,
            ..Default::default()
        };
        by_file
            .entry(uri.as_str().to_string())
            .or_insert_with(|| (uri.clone(), Vec::new()))
            .1
            .push(diagnostic);
    }
    (by_file, placeless)
}

/// A "did you mean" as an edit: the bytes to replace (a quoted name's contents, or the span)
/// and the name meant.
fn fix(
    problem: &Problem,
    text: &str,
    span: std::ops::Range<usize>,
) -> Option<(std::ops::Range<usize>, String)> {
    let help = problem.help.as_deref()?;
    let meant = help
        .split("did you mean `")
        .nth(1)?
        .split('`')
        .next()?
        .to_string();
    let written = text.get(span.clone())?;
    let quoted = written.len() >= 2
        && (written.starts_with('"') && written.ends_with('"')
            || written.starts_with('\'') && written.ends_with('\''));
    let bytes = if quoted {
        span.start + 1..span.end - 1
    } else {
        span
    };
    (!meant.is_empty() && !meant.contains('\n')).then_some((bytes, meant))
}

/// The quick fixes of the diagnostics the editor sends back (each carries its fix in `data`).
pub(super) fn quick_fixes(uri: &Uri, diagnostics: &[Diagnostic]) -> Vec<CodeAction> {
    diagnostics
        .iter()
        .filter_map(|d| {
            let data = d.data.as_ref()?;
            let range: Range = serde_json::from_value(data.get("range")?.clone()).ok()?;
            let meant = data.get("text")?.as_str()?.to_string();
            let edit = TextEdit {
                range,
                new_text: meant.clone(),
            };
            Some(CodeAction {
                title: format!("Change to `{meant}`"),
                kind: Some(CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![d.clone()]),
                edit: Some(WorkspaceEdit {
                    changes: Some(std::collections::HashMap::from([(uri.clone(), vec![edit])])),
                    ..Default::default()
                }),
                is_preferred: Some(true),
                ..Default::default()
            })
        })
        .collect()
}
