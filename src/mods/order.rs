//! The load order: a deterministic topological order of the mods by their dependencies, ties by id.
//!
//! Missing dependencies, version mismatches, conflicts and cycles are diagnostics; a mod that has one
//! is left out, and so is every mod that needs it.

use super::ModFolder;
use crate::diag::Code;
use crate::diag::{did_you_mean, Diagnostic};
use std::collections::{BTreeMap, BTreeSet};

/// Orders the mods so that each comes after everything it depends on.
pub(crate) fn load_order(mods: Vec<ModFolder>, diags: &mut Vec<Diagnostic>) -> Vec<ModFolder> {
    let by_id: BTreeMap<String, ModFolder> =
        mods.into_iter().map(|m| (m.id().to_string(), m)).collect();
    let broken: BTreeSet<String> = (by_id.values())
        .filter(|m| !dependencies_hold(m, &by_id, diags))
        .map(|m| m.id().to_string())
        .collect();
    let (order, waiting) = sorted(&by_id);
    report_cycles(&by_id, &waiting, diags);
    leave_out_broken(order, by_id, &broken, diags)
}

/// Whether every dependency of `m` is present at a version it takes, every optional one present
/// is at such a version, and no mod it conflicts with is present; each that fails is reported.
fn dependencies_hold(
    m: &ModFolder,
    by_id: &BTreeMap<String, ModFolder>,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    let mut ok = true;
    for dep in &m.manifest.depends {
        match by_id.get(&dep.id) {
            None => {
                diags.push(
                    Diagnostic::error(
                        Code::Dependency,
                        format!(
                            "mod `{}` depends on `{}`, which is not in the mods directory",
                            m.id(),
                            dep.id
                        ),
                    )
                    .at(dep.span)
                    .with_help_opt(did_you_mean(&dep.id, by_id.keys().map(String::as_str))),
                );
                ok = false;
            }
            Some(found) => {
                if let Some(req) = &dep.requirement {
                    if !req.matches(&found.manifest.version) {
                        diags.push(
                            Diagnostic::error(
                                Code::Dependency,
                                format!(
                                    "mod `{}` needs `{} {req}`, but `{}` is version {}",
                                    m.id(),
                                    dep.id,
                                    dep.id,
                                    found.manifest.version
                                ),
                            )
                            .at(dep.span)
                            .with_label(found.manifest.id_span, "that version is declared here"),
                        );
                        ok = false;
                    }
                }
            }
        }
    }
    for dep in &m.manifest.optional {
        if let (Some(found), Some(req)) = (by_id.get(&dep.id), &dep.requirement) {
            if !req.matches(&found.manifest.version) {
                diags.push(
                    Diagnostic::error(
                        Code::Dependency,
                        format!(
                            "mod `{}` can use `{} {req}`, but `{}` is version {}",
                            m.id(),
                            dep.id,
                            dep.id,
                            found.manifest.version
                        ),
                    )
                    .at(dep.span),
                );
                ok = false;
            }
        }
    }
    for conflict in &m.manifest.conflicts {
        if let Some(other) = by_id.get(&conflict.id) {
            diags.push(
                Diagnostic::error(
                    Code::Dependency,
                    format!(
                        "mod `{}` conflicts with `{}`, and both are present",
                        m.id(),
                        conflict.id
                    ),
                )
                .at(conflict.span)
                .with_label(other.manifest.id_span, "the conflicting mod")
                .with_help(format!(
                    "remove one of the two mods; `{}` is left out",
                    m.id()
                )),
            );
            ok = false;
        }
    }
    ok
}

/// The mods in load order (ready ones first, ties by ID) and, for each mod left waiting (on or
/// behind a cycle), the dependencies it still waits for.
fn sorted(
    by_id: &BTreeMap<String, ModFolder>,
) -> (Vec<String>, BTreeMap<String, BTreeSet<String>>) {
    // Edges: a mod waits for its required and present optional dependencies.
    let needs = |m: &ModFolder| -> Vec<String> {
        m.manifest
            .depends
            .iter()
            .chain(m.manifest.optional.iter())
            .map(|d| d.id.clone())
            .filter(|id| by_id.contains_key(id))
            .collect()
    };
    let mut waiting: BTreeMap<String, BTreeSet<String>> = by_id
        .values()
        .map(|m| (m.id().to_string(), needs(m).into_iter().collect()))
        .collect();

    let mut order: Vec<String> = Vec::new();
    let mut ready: BTreeSet<String> = waiting
        .iter()
        .filter(|(_, w)| w.is_empty())
        .map(|(id, _)| id.clone())
        .collect();
    while let Some(id) = ready.pop_first() {
        waiting.remove(&id);
        for (other, w) in waiting.iter_mut() {
            if w.remove(&id) && w.is_empty() {
                ready.insert(other.clone());
            }
        }
        order.push(id);
    }

    (order, waiting)
}

/// Reports each cycle among the mods still waiting once, and each mod behind one.
fn report_cycles(
    by_id: &BTreeMap<String, ModFolder>,
    waiting: &BTreeMap<String, BTreeSet<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    // Whatever still waits is on or behind a cycle.
    let stuck: BTreeSet<String> = waiting.keys().cloned().collect();
    let mut reported: BTreeSet<String> = BTreeSet::new();
    for start in &stuck {
        if reported.contains(start) {
            continue;
        }
        if let Some(cycle) = find_cycle(start, waiting) {
            reported.extend(cycle.iter().cloned());
            let first = &by_id[&cycle[0]];
            let span = first
                .manifest
                .depends
                .iter()
                .chain(first.manifest.optional.iter())
                .find(|d| d.id == cycle[1])
                .map(|d| d.span);
            let chain = cycle.join(" -> ");
            let mut d = Diagnostic::error(Code::Dependency, format!("dependency cycle: {chain}"))
                .with_help(
                "a mod cannot depend on itself through others; remove one of these dependencies",
            );
            if let Some(span) = span {
                d = d.at(span);
            }
            diags.push(d);
        }
    }
    for id in &stuck {
        if !reported.contains(id) {
            diags.push(
                Diagnostic::error(
                    Code::Dependency,
                    format!("mod `{id}` is left out because it depends on a dependency cycle"),
                )
                .at(by_id[id].manifest.id_span),
            );
        }
    }
}

/// The ordered mods without the broken ones and, transitively, those that need them.
fn leave_out_broken(
    order: Vec<String>,
    mut by_id: BTreeMap<String, ModFolder>,
    broken: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) -> Vec<ModFolder> {
    let mut left_out: BTreeSet<String> = broken.clone();
    let mut result = Vec::new();
    for id in order {
        let m = by_id.remove(&id).expect("ordered ids come from the map");
        if let Some(bad) = m.manifest.depends.iter().find(|d| left_out.contains(&d.id)) {
            if !broken.contains(&id) {
                diags.push(
                    Diagnostic::error(
                        Code::Dependency,
                        format!(
                        "mod `{id}` is left out because its dependency `{}` could not be loaded",
                        bad.id
                    ),
                    )
                    .at(bad.span),
                );
            }
            left_out.insert(id);
            continue;
        }
        if left_out.contains(&id) {
            continue;
        }
        result.push(m);
    }
    result
}

/// A cycle through `start` in the waiting graph, returned as `[a, b, c, a]`.
fn find_cycle(start: &str, waiting: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    // Walk the first unfinished dependency until a node repeats; the repeat closes the cycle.
    let mut path: Vec<String> = vec![start.to_string()];
    loop {
        let last = path.last().expect("path is never empty");
        let next = waiting.get(last)?.iter().next()?.clone();
        if let Some(pos) = path.iter().position(|p| *p == next) {
            // Start the cycle at its smallest id, so the message is the same whichever member was found first.
            let mut cycle = path[pos..].to_vec();
            let min = cycle
                .iter()
                .enumerate()
                .min_by(|a, b| a.1.cmp(b.1))
                .map(|(i, _)| i)
                .unwrap_or(0);
            cycle.rotate_left(min);
            cycle.push(cycle[0].clone());
            return Some(cycle);
        }
        path.push(next);
    }
}
