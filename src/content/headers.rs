//! Sub-table headers that land elsewhere than they read. In TOML, `[[encounters.options]]` adds
//! an option to the last `[[encounters]]` of the file, however far above it is; written right
//! under an `[[items]]` header, it reads as the item's but is the encounter's. Valid, and seldom
//! meant, so it is a warning at the header. Only files the quick reader gave up on are looked at
//! (it gives up on exactly this), so a plain file costs nothing.

use crate::diag::{Code, Diagnostic, FileId, Span};

/// Warns of each `[[a.b]]` or `[a.b]` header whose nearest header above is another table's
/// while an `[[a]]` stands further up.
pub(super) fn stray(text: &str, file: FileId, diags: &mut Vec<Diagnostic>) {
    // Each table's last header so far (its name and line), and the header just above.
    let mut seen: Vec<(&str, usize, &str)> = Vec::new();
    let mut above: Option<(&str, &str)> = None;
    let mut in_string: Option<&str> = None;
    let mut offset = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let was_in_string = in_string.is_some();
        for quotes in ["\"\"\"", "'''"] {
            if in_string.is_none_or(|q| q == quotes) && line.matches(quotes).count() % 2 == 1 {
                in_string = if in_string.is_some() {
                    None
                } else {
                    Some(quotes)
                };
            }
        }
        let trimmed = line.trim_start();
        if was_in_string || !trimmed.starts_with('[') {
            continue;
        }
        let array = trimmed.starts_with("[[");
        let inner = trimmed.trim_start_matches('[');
        let Some(close) = inner.find(']') else {
            continue;
        };
        let path = inner[..close].trim();
        let root = path.split('.').next().unwrap_or(path).trim();
        let own = &trimmed[..trimmed.len() - inner.len() + close + if array { 2 } else { 1 }];
        if path.contains('.') {
            if let (Some((above_root, above_header)), Some((_, line_no, parent))) =
                (above, seen.iter().find(|(r, _, _)| *r == root))
            {
                if above_root != root {
                    let at = start + (line.len() - trimmed.len());
                    diags.push(
                        Diagnostic::warning(
                            Code::ContentRule,
                            format!(
                                "`{own}` adds to the `{parent}` on line {line_no}, not to the \
                                 `{above_header}` right above it"
                            ),
                        )
                        .at(Span::new(file, at..at + own.len()))
                        .with_help(format!(
                            "move it under its `{parent}`, or move `{above_header}` after it"
                        )),
                    );
                }
            }
        }
        match seen.iter_mut().find(|(r, _, _)| *r == root) {
            Some(s) if !path.contains('.') => *s = (root, n + 1, own),
            None if !path.contains('.') => seen.push((root, n + 1, own)),
            _ => {}
        }
        above = Some((root, own));
    }
}

#[cfg(test)]
mod tests {
    use super::stray;
    use crate::diag::FileId;

    fn said(text: &str) -> Vec<String> {
        let mut diags = Vec::new();
        stray(text, FileId(0), &mut diags);
        diags.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn a_sub_table_under_another_tables_header_is_said() {
        let text = "[[encounters]]\nid = \"a\"\n\n[[items]]\nid = \"b\"\n\n  [[encounters.options]]\ntext = \"x\"\n";
        assert_eq!(
            said(text),
            ["`[[encounters.options]]` adds to the `[[encounters]]` on line 1, not to the `[[items]]` right above it"]
        );
    }

    #[test]
    fn sub_tables_under_their_own_table_and_headers_in_strings_are_not() {
        let text = "[[encounters]]\nid = \"a\"\n[[encounters.options]]\ntext = \"x\"\n\
                    [encounters.extra]\n[[encounters.options]]\n[[items]]\nd = '''\n[[encounters.options]]\n'''\n";
        assert!(said(text).is_empty(), "{:?}", said(text));
    }
}
