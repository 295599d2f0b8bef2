//! What a reload changed, in one line (`+1 quest, ~2 triggers, -1 item`): definitions compared
//! by their text, those of files that did not change taken as they were.

use crate::content::Content;
use crate::diag::SourceMap;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// `+1 quest, ~2 triggers, -1 item`, or `no changes`.
pub fn describe_changes(old: &Content, new: &Content) -> String {
    describe(old, new, &Unchanged::default())
}

/// The files two loads read with the same text at the same path, each under one number for both
/// loads: a definition read from one of them is the same in both, whatever it holds, and a
/// reload does not format it to compare (at 100,000 definitions, formatting every one of both
/// versions was 0.4 of the reload).
#[derive(Default)]
pub(super) struct Unchanged {
    /// Each file's number, by its ID in the old load and in the new (IDs are dense: the lookup
    /// is made twice for every definition of the pack).
    old: Vec<Option<usize>>,
    new: Vec<Option<usize>>,
}

impl Unchanged {
    pub(super) fn between(old: &SourceMap, new: &SourceMap) -> Unchanged {
        let by_path: HashMap<&str, (crate::diag::FileId, &str)> = old
            .files()
            .map(|(id, f)| (f.path(), (id, f.text())))
            .collect();
        let mut same = Unchanged::default();
        let mut n = 0;
        for (id, f) in new.files() {
            if let Some(&(old_id, text)) = by_path.get(f.path()) {
                // A file taken by its stamp is the old one's text itself: not compared.
                if std::ptr::eq(text, f.text()) || text == f.text() {
                    Unchanged::put(&mut same.old, old_id, n);
                    Unchanged::put(&mut same.new, id, n);
                    n += 1;
                }
            }
        }
        same
    }

    fn put(side: &mut Vec<Option<usize>>, file: crate::diag::FileId, n: usize) {
        let at = file.0 as usize;
        if side.len() <= at {
            side.resize(at + 1, None);
        }
        side[at] = Some(n);
    }

    /// The number of a file that did not change, in the new load's side or the old's.
    fn number(&self, file: crate::diag::FileId, new: bool) -> Option<usize> {
        let side = if new { &self.new } else { &self.old };
        side.get(file.0 as usize).copied().flatten()
    }

    /// Where a definition at `span` stands when its file did not change: the file's number and
    /// the offset, the same in both loads.
    fn at(&self, span: crate::diag::Span, new: bool) -> Option<(usize, u32)> {
        self.number(span.file, new).map(|n| (n, span.start))
    }

    /// What a definition at `span` is compared by when its file did not change: its place.
    fn place(&self, span: crate::diag::Span, new: bool) -> Option<String> {
        self.at(span, new)
            .map(|(n, start)| format!("\u{0}same file {n} at {start}"))
    }
}

/// A definition's place, for [`Unchanged::place`].
trait Placed {
    fn span(&self) -> crate::diag::Span;
}

macro_rules! placed {
    ($($t:ty),*) => {$(
        impl Placed for $t {
            fn span(&self) -> crate::diag::Span {
                self.span
            }
        }
    )*};
}
placed!(
    crate::content::Tag,
    crate::content::Item,
    crate::content::Creature,
    crate::content::Quest,
    crate::content::Encounter,
    crate::content::Hazard,
    crate::content::Card,
    crate::content::ProgressType
);

/// [`describe_changes`], definitions from files that did not change taken as they were.
pub(super) fn describe(old: &Content, new: &Content, same: &Unchanged) -> String {
    let mut parts = Vec::new();
    let mut counted = |name: &str, (added, changed, removed): (usize, usize, usize)| {
        let plural = |n: usize| {
            if n == 1 {
                name.to_string()
            } else {
                format!("{name}s")
            }
        };
        if added > 0 {
            parts.push(format!("+{added} {}", plural(added)));
        }
        if changed > 0 {
            parts.push(format!("~{changed} {}", plural(changed)));
        }
        if removed > 0 {
            parts.push(format!("-{removed} {}", plural(removed)));
        }
    };
    // Two versions of one kind, each by a name and what it holds.
    let by_text = |old: &BTreeMap<String, String>, new: &BTreeMap<String, String>| {
        let added = new.keys().filter(|k| !old.contains_key(*k)).count();
        let removed = old.keys().filter(|k| !new.contains_key(*k)).count();
        let changed = new
            .iter()
            .filter(|(k, v)| old.get(*k).is_some_and(|o| o != *v))
            .count();
        (added, changed, removed)
    };
    // The game's own tables, each kind by the text of its entries.
    let old_tables: BTreeMap<&str, BTreeMap<String, String>> = old.tables.texts().collect();
    for (table, texts) in new.tables.texts() {
        let before = old_tables.get(table).cloned().unwrap_or_default();
        counted(table, by_text(&before, &texts));
    }
    for (table, texts) in &old_tables {
        if new.tables.texts().all(|(t, _)| t != *table) {
            counted(table, by_text(texts, &BTreeMap::new()));
        }
    }
    // Each kind of definition by its ID and what it holds.
    macro_rules! compare {
        ($($name:literal $field:ident),*) => {$(
            counted($name, compared(&old.$field, &new.$field, same));
        )*};
    }
    compare!(
        "tag" tags,
        "item" items,
        "creature" creatures,
        "quest" quests,
        "encounter" encounters,
        "hazard" hazards,
        "card" cards,
        "progress type" progress_types
    );
    let events = |c: &Content| -> BTreeMap<String, String> {
        c.events
            .iter()
            .map(|(_, def)| (def.name.clone(), format!("{:?}", def.payload)))
            .collect()
    };
    counted("event type", by_text(&events(old), &events(new)));
    let (old_triggers, new_triggers) = triggers_compared(old, new, same);
    counted("trigger", by_text(&old_triggers, &new_triggers));
    if parts.is_empty() {
        "no changes".into()
    } else {
        parts.join(", ")
    }
}

/// How many definitions of one kind only `new` has, both have but differ, only `old` has: the
/// two registries walked side by side in ID order, but for the chunks they share (a reload that
/// resolved only the files that changed shares all others). A definition from a file that did not change
/// is the same when it stands at the same place; only the others are formatted to compare.
fn compared<T: std::fmt::Debug + Placed>(
    old: &crate::content::Registry<T>,
    new: &crate::content::Registry<T>,
    same: &Unchanged,
) -> (usize, usize, usize) {
    let differ = |a: &Arc<T>, b: &Arc<T>| {
        if Arc::ptr_eq(a, b) {
            // Shared by a reload that resolved only the files that changed.
            return false;
        }
        let (at, bt) = (a.span(), b.span());
        match (same.number(at.file, false), same.number(bt.file, true)) {
            (Some(x), Some(y)) if x == y && at.start == bt.start => false,
            _ => without_spans(&format!("{a:?}")) != without_spans(&format!("{b:?}")),
        }
    };
    let (mut added, mut changed, mut removed) = (0, 0, 0);
    // The chunks the two share hold the same definitions in both: only the rest is walked.
    let (mut o, mut n) = (
        old.apart_from(new).peekable(),
        new.apart_from(old).peekable(),
    );
    loop {
        match (o.peek(), n.peek()) {
            (Some((a, _)), Some((b, _))) if a == b => {
                let ((_, x), (_, y)) = (o.next().unwrap(), n.next().unwrap());
                changed += usize::from(differ(x, y));
            }
            (Some((a, _)), Some((b, _))) if a < b => {
                o.next();
                removed += 1;
            }
            (Some(_), Some(_)) | (None, Some(_)) => {
                n.next();
                added += 1;
            }
            (Some(_), None) => {
                o.next();
                removed += 1;
            }
            (None, None) => break,
        }
    }
    (added, changed, removed)
}

/// Both versions' triggers, each by its `id` and what it does: their keys may be `file:line` and
/// move with edits, so unnamed ones are paired by what they do (as many of each as both have),
/// and the rest named apart so they count as added and removed.
fn triggers_compared(
    old: &Content,
    new: &Content,
    same: &Unchanged,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    // A trigger both versions share (a reload that resolved only the files that changed) is
    // the same trigger; so are those of files that did not change, which stand at the same
    // places in both versions: all are left out rather than formatted and sorted.
    let shared = |i: usize| {
        let both = old.triggers.get(i).zip(new.triggers.get(i));
        both.is_some_and(|(a, b)| Arc::ptr_eq(a, b))
    };
    let places = |c: &Content, new: bool| -> rustc_hash::FxHashSet<(usize, u32)> {
        c.triggers
            .iter()
            .enumerate()
            .filter(|&(i, _)| !shared(i))
            .filter_map(|(_, t)| same.at(t.span, new))
            .collect()
    };
    let (old_at, new_at) = (places(old, false), places(new, true));
    let kept: rustc_hash::FxHashSet<(usize, u32)> = old_at.intersection(&new_at).copied().collect();
    // Named ones by ID; unnamed ones' shapes, sorted.
    let split = |c: &Content, new: bool| {
        let (mut named, mut unnamed) = (BTreeMap::new(), Vec::new());
        for (i, t) in c.triggers.iter().enumerate() {
            if shared(i) || same.at(t.span, new).is_some_and(|at| kept.contains(&at)) {
                continue;
            }
            let shape = same.place(t.span, new).unwrap_or_else(|| {
                without_spans(&format!(
                    "{:?} {:?} {:?} {:?} {:?} {:?}",
                    t.home, t.on, t.when, t.condition, t.chance, t.actions
                ))
            });
            match &t.id {
                Some(id) => {
                    named.insert(id.to_string(), shape);
                }
                None => unnamed.push(shape),
            }
        }
        unnamed.sort();
        (named, unnamed)
    };
    let (mut old_named, old_unnamed) = split(old, false);
    let (mut new_named, new_unnamed) = split(new, true);
    // What only one side has, by a walk of both sorted lists (a search of one per shape of the
    // other cost the square of the triggers).
    let (mut gone, mut came) = (Vec::new(), Vec::new());
    let (mut o, mut n) = (
        old_unnamed.into_iter().peekable(),
        new_unnamed.into_iter().peekable(),
    );
    loop {
        match (o.peek(), n.peek()) {
            (Some(a), Some(b)) if a == b => {
                o.next();
                n.next();
            }
            (Some(a), Some(b)) if a < b => gone.extend(o.next()),
            (Some(_), Some(_)) | (None, Some(_)) => came.extend(n.next()),
            (Some(_), None) => gone.extend(o.next()),
            (None, None) => break,
        }
    }
    // Paired in order, one changed for each; the rest added or removed.
    let pairs = gone.len().min(came.len());
    for (i, s) in gone.into_iter().enumerate() {
        let key = if i < pairs {
            format!("#u{i}")
        } else {
            format!("#o{i}")
        };
        old_named.insert(key, s);
    }
    for (i, s) in came.into_iter().enumerate() {
        let key = if i < pairs {
            format!("#u{i}")
        } else {
            format!("#n{i}")
        };
        new_named.insert(key, s);
    }
    (old_named, new_named)
}

/// A definition's debug text without its source positions, so moving a line is not a change.
fn without_spans(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("Span {") {
        out.push_str(&rest[..at]);
        match rest[at..].find('}') {
            Some(end) => rest = &rest[at + end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_do_not_count_as_changes() {
        assert_eq!(
            without_spans("A { span: Span { file: FileId(1), start: 3, end: 9 }, x: 1 }"),
            "A { span: , x: 1 }"
        );
    }
}
