//! `lantern check`: load every mod (data and scripts), print every diagnostic and a summary, exit 1 on errors.

use crate::diag::{render_all, render_json, summary_line};
use crate::host::Rules;
use crate::load::check_game;
use crate::lua::Limits;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum Format {
    Human,
    Json,
}

pub(super) fn run(roots: &[PathBuf], rules: &Rules, format: Format, limits: Limits) -> ExitCode {
    let loaded = check_game(roots, rules, limits);
    let mods = loaded.content.mods.len();
    match format {
        Format::Human => {
            if !loaded.diagnostics.is_empty() {
                eprintln!("{}", render_all(&loaded.diagnostics, &loaded.sources));
            }
            for o in &loaded.content.overrides {
                println!(
                    "override: {} `{}` by mod `{}` at {} (replacing {})",
                    o.kind,
                    o.id,
                    o.by_mod,
                    loaded.sources.location(o.span),
                    loaded.sources.location(o.replaced)
                );
            }
            println!("{}", summary_line(&loaded.diagnostics, mods));
        }
        Format::Json => {
            let json = serde_json::json!({
                "diagnostics": render_json(&loaded.diagnostics, &loaded.sources),
                "overrides": loaded.content.overrides.iter().map(|o| serde_json::json!({
                    "kind": o.kind, "id": o.id.as_str(), "by_mod": o.by_mod, "at": loaded.sources.location(o.span),
                    "replaces": loaded.sources.location(o.replaced),
                })).collect::<Vec<_>>(),
                "summary": summary_line(&loaded.diagnostics, mods),
                "mods": loaded.content.mods.iter().map(|m| m.id.clone()).collect::<Vec<_>>(),
                "translations": loaded.content.coverage().iter().map(|c| serde_json::json!({
                    "mod": c.mod_id, "language": c.language, "texts": c.texts,
                    "translated": c.translated, "missing": c.missing,
                })).collect::<Vec<_>>(),
            });
            println!(
                "{}",
                serde_json::to_string_pretty(&json).unwrap_or_default()
            );
        }
    }
    let code = if loaded.has_errors() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    };
    // Freeing a large mod set takes a tenth of a check; the process may end before it is done.
    crate::content::drop_aside(loaded);
    code
}
