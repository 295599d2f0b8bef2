//! "Did you mean": the closest known name to a misspelt one.

/// The longest name "did you mean" compares, in bytes. Comparing costs the product of two names'
/// lengths, and a name given by a mod may be a megabyte long: nobody misspells a name that long.
pub(super) const LONGEST_COMPARED: usize = 100;

/// The candidate closest to `wrong`, if one is close enough to be a plausible typo.
///
/// Namespaced IDs are compared whole and by their name part, so `core:glod` finds `core:gold`
/// and a bare `undead` finds `core:undead`. Names longer than `LONGEST_COMPARED` (100) are not
/// compared, so the cost is bounded by the number of candidates whatever the input.
pub(crate) fn suggest<'a, I>(wrong: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    if wrong.len() > LONGEST_COMPARED {
        return None;
    }
    let (wrong_ns, wrong_name) = wrong.rsplit_once(':').unwrap_or(("", wrong));
    let wrong_chars = wrong_name.chars().count();
    let mut best: Option<(f64, &str)> = None;
    for candidate in candidates {
        if candidate.len() > LONGEST_COMPARED {
            continue;
        }
        let (ns, name) = candidate.rsplit_once(':').unwrap_or(("", candidate));
        // Within one namespace only the names count: a shared `core:` would otherwise make any
        // two IDs look alike to Jaro-Winkler, which rewards a common prefix.
        let whole = if ns == wrong_ns {
            0.0
        } else {
            strsim::jaro_winkler(wrong, candidate)
        };
        let score = whole.max(strsim::jaro_winkler(wrong_name, name) - 0.01);
        // One edit apart needs lengths one apart: most candidates are ruled out by that alone.
        let close = score >= 0.8
            || (wrong_chars.abs_diff(name.chars().count()) <= 1
                && strsim::damerau_levenshtein(wrong_name, name) <= 1);
        if close && best.is_none_or(|(s, c)| score > s || (score == s && candidate < c)) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// A name as a message shows it: whole, or its first 60 characters and how long it is, so a
/// megabyte-long name given by a mod makes a message of a line, not of a megabyte.
pub(crate) fn shown(name: &str) -> std::borrow::Cow<'_, str> {
    const KEPT: usize = 60;
    match name.char_indices().nth(KEPT) {
        Some((end, _)) if name.len() > LONGEST_COMPARED => {
            format!("{}… ({} bytes)", &name[..end], name.len()).into()
        }
        _ => name.into(),
    }
}

/// Bytes a script gave as a name, as a message shows them: [`shown`], reading no more of them than
/// that shows (a name of megabytes is not copied whole for a line).
pub(crate) fn shown_bytes(name: &[u8]) -> String {
    const KEPT: usize = 60;
    if name.len() <= LONGEST_COMPARED {
        return String::from_utf8_lossy(name).into_owned();
    }
    let head = String::from_utf8_lossy(&name[..4 * KEPT]);
    let end = head.char_indices().nth(KEPT).map_or(head.len(), |(i, _)| i);
    format!("{}… ({} bytes)", &head[..end], name.len())
}

/// `did you mean `x`?`, ready for a help line.
pub(crate) fn did_you_mean<'a, I>(wrong: &str, candidates: I) -> Option<String>
where
    I: IntoIterator<Item = &'a str>,
{
    suggest(wrong, candidates).map(|s| format!("did you mean `{s}`?"))
}

/// `; did you mean `x`?` to end a one-line message, or nothing when no candidate is close.
pub(crate) fn did_you_mean_suffix<'a, I>(wrong: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a str>,
{
    did_you_mean(wrong, candidates)
        .map(|h| format!("; {h}"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(wrong: &str, candidates: &[&str], expected: Option<&str>) {
        assert_eq!(
            suggest(wrong, candidates.iter().copied()).as_deref(),
            expected,
            "for {wrong}"
        );
    }

    #[test]
    fn finds_typos() {
        check("core:glod", &["core:gold", "core:key"], Some("core:gold"));
        check("undead", &["core:undead", "core:rat"], Some("core:undead"));
        check("itmes", &["items", "tags", "triggers"], Some("items"));
        check("vaule", &["value", "who", "check"], Some("value"));
    }

    #[test]
    fn long_names_are_neither_compared_nor_shown_whole() {
        let long = "core:".to_string() + &"g".repeat(1 << 20);
        check(&long, &["core:gold"], None);
        check("core:glod", &[&long, "core:gold"], Some("core:gold"));
        assert_eq!(shown("core:gold"), "core:gold");
        let s = shown(&long);
        assert!(s.len() < 100 && s.ends_with("… (1048581 bytes)"), "{s}");
    }

    #[test]
    fn stays_quiet_when_nothing_is_close() {
        check("dragon", &["core:gold", "core:key"], None);
        check("x", &[], None);
        check("core:nope", &["core:poison_fog", "core:rockslide"], None);
    }
}
