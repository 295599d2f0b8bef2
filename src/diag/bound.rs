//! Bounding what one load reports: the first problems of each file, the first of the whole load,
//! and a count of the rest.
//!
//! A mod portal runs `lantern check` on anything uploaded to it. Every problem is shown with its
//! source line, so a small file that is one mistake after another made a report thousands of
//! times its size (175 MB from 30 KB). A report keeps the first [`MOST_PER_FILE`] problems of a
//! file and the first [`MOST_PER_RUN`] of a load, in the order they are shown, and says how many
//! it left out where: one mistake's consequences come after it, so the first are the causes. Of
//! the problems that speak of one cause at many places ([`Diagnostic::once_per`]), it keeps the
//! first.

use super::{Code, Diagnostic, FileId, Severity, SourceMap};
use std::collections::BTreeMap;

/// The most problems a report shows of one file.
pub const MOST_PER_FILE: usize = 50;

/// The most problems a report shows of one load.
pub const MOST_PER_RUN: usize = 500;

/// Sorts `diagnostics` as reports show them (causes first, then by file and place) and keeps the
/// first of each file and of the load; what is left out is counted in one problem per file (an
/// error if any it counts is one), and one for the load.
pub(crate) fn bound(diagnostics: &mut Vec<Diagnostic>, sources: &SourceMap) {
    diagnostics.sort_by_key(|d| (d.follows, d.span.map(|s| (s.file, s.start))));
    // One cause, one message: of the places that share one, the first is shown.
    let mut causes = std::collections::BTreeSet::<String>::new();
    diagnostics.retain(|d| d.cause().is_none_or(|c| causes.insert(c.to_string())));
    if diagnostics.len() <= MOST_PER_FILE.min(MOST_PER_RUN) {
        return;
    }
    let mut per_file: BTreeMap<Option<FileId>, usize> = BTreeMap::new();
    let mut left_out: BTreeMap<Option<FileId>, (usize, usize)> = BTreeMap::new();
    let mut over_run = (0usize, 0usize);
    let mut kept = 0usize;
    diagnostics.retain(|d| {
        if d.code == Code::Elided {
            return true; // a count from an earlier pass
        }
        let file = d.span.map(|s| s.file);
        let shown = per_file.entry(file).or_default();
        let count = |tally: &mut (usize, usize)| match d.severity {
            Severity::Error => tally.0 += 1,
            Severity::Warning => tally.1 += 1,
        };
        if *shown >= MOST_PER_FILE {
            count(left_out.entry(file).or_default());
            return false;
        }
        if kept >= MOST_PER_RUN {
            count(&mut over_run);
            return false;
        }
        *shown += 1;
        kept += 1;
        true
    });
    for (file, (errors, warnings)) in left_out {
        let place = match file {
            Some(f) => format!("in `{}`", sources.get(f).path()),
            None => "without a place".to_string(),
        };
        diagnostics.push(note(
            errors,
            warnings,
            format!("{place} are not shown: a report shows the first {MOST_PER_FILE} of a file"),
        ));
    }
    let (errors, warnings) = over_run;
    if errors + warnings > 0 {
        diagnostics.push(note(
            errors,
            warnings,
            format!("are not shown: a report shows the first {MOST_PER_RUN} of a load"),
        ));
    }
}

fn note(errors: usize, warnings: usize, what: String) -> Diagnostic {
    let text = format!(
        "{} more problems ({errors} errors, {warnings} warnings) {what}",
        errors + warnings
    );
    let d = if errors > 0 {
        Diagnostic::error(Code::Elided, text)
    } else {
        Diagnostic::warning(Code::Elided, text)
    };
    // After everything shown, however often the list is sorted again.
    let mut d = d
        .with_help("mend the first ones: the rest often follow from them")
        .following();
    let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    d.extra_mut().stands_for = (count(errors), count(warnings));
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Span;

    #[test]
    fn a_file_of_mistakes_shows_its_first_and_counts_the_rest() {
        let mut sources = SourceMap::new();
        let a = sources.add("evil/data/a.toml", "x\n".repeat(200));
        let b = sources.add("evil/data/b.toml", "x\n");
        let mut ds: Vec<Diagnostic> = (0..120)
            .map(|i| {
                let d = Diagnostic::error(Code::UnknownKey, format!("mistake {i}"));
                let d = if i % 2 == 0 {
                    d
                } else {
                    Diagnostic::warning(Code::UnknownKey, format!("mistake {i}"))
                };
                d.at(Span::new(a, 2 * i..2 * i + 1))
            })
            .collect();
        ds.push(Diagnostic::error(Code::UnknownKey, "in b").at(Span::new(b, 0..1)));
        bound(&mut ds, &sources);
        assert_eq!(ds.len(), MOST_PER_FILE + 2);
        assert_eq!(ds[0].message, "mistake 0");
        assert_eq!(ds[MOST_PER_FILE].message, "in b");
        let last = ds.last().unwrap();
        assert_eq!(last.code, Code::Elided);
        assert_eq!(
            last.message,
            "70 more problems (35 errors, 35 warnings) in `evil/data/a.toml` are not shown: a report shows the first 50 of a file"
        );
    }
}
