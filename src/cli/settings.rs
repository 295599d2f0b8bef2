//! The mods' settings in the console and on the command line: `settings` lists them with their
//! ranges and values, `set ID VALUE` changes one (`run` and `player` scopes during play), and
//! `--set ID=VALUE` is a player's choice for `play`, `test` and `sim`.

use crate::content::Scope;
use crate::game::Game;
use std::process::ExitCode;

/// `--set rats:rat_health=20`, split at the first `=`; a usage error otherwise.
pub(super) fn parse_flags(flags: &[String]) -> Result<Vec<(String, String)>, ExitCode> {
    flags
        .iter()
        .map(|f| match f.split_once('=') {
            Some((id, value)) if !id.trim().is_empty() => {
                Ok((id.trim().to_string(), value.trim().to_string()))
            }
            _ => {
                eprintln!(
                    "error: `--set {}` needs a setting and a value\n  = help: write `--set rats:rat_health=20` (`lantern play` lists the settings with `settings`)",
                    crate::diag::visible(f)
                );
                Err(ExitCode::from(2))
            }
        })
        .collect()
}

/// A usage error (exit 2) when a load said a `--set` is wrong: a mistake in the command, not in
/// the mods, said before anything the mods said.
pub(super) fn typed_wrong(diagnostics: &[crate::diag::Diagnostic]) -> Option<ExitCode> {
    let typed: Vec<_> = (diagnostics.iter())
        .filter(|d| d.code == crate::diag::Code::Setting)
        .collect();
    for d in &typed {
        eprintln!("error: {}", crate::diag::visible(&d.message));
    }
    (!typed.is_empty()).then(|| ExitCode::from(2))
}

/// Sets each `--set` on a game: a usage error naming the flag when one is unknown or out of
/// range. `over_save` allows a `startup` setting past the first turn, saying it changed.
pub(super) fn apply_flags(
    game: &mut Game,
    chosen: &[(String, String)],
    over_save: bool,
) -> Result<(), ExitCode> {
    for (id, value) in chosen {
        let set = if over_save {
            game.override_setting(id, value)
        } else {
            game.set_setting_text(id, value)
        };
        if let Err(e) = set {
            eprintln!(
                "error: --set {}={}: {}",
                crate::diag::visible(id),
                crate::diag::visible(value),
                e.message()
            );
            return Err(ExitCode::from(2));
        }
    }
    Ok(())
}

/// `settings` and `set ID VALUE`.
pub(super) fn command(game: &mut Game, words: &[&str]) -> Result<String, crate::Error> {
    match words {
        ["settings"] => Ok(list(game)),
        ["set", id, value @ ..] if !value.is_empty() => {
            game.set_setting_text(id, &value.join(" "))?;
            let setting = crate::game::find_setting(game.content(), id)?;
            let now = game.setting(setting.id.as_str()).cloned();
            Ok(format!(
                "{} = {}",
                setting.id,
                now.map(|v| v.to_string()).unwrap_or_default()
            ))
        }
        _ => Err(
            "`set` needs a setting and a value: `set rats:rat_health 20` (`settings` lists them)"
                .into(),
        ),
    }
}

/// Every setting with its value, name, type, range and scope: what a settings menu would show.
pub(super) fn list(game: &Game) -> String {
    let settings: Vec<_> = game.settings().collect();
    if settings.is_empty() {
        return "no mod declares settings".into();
    }
    let mut out = String::from("settings:");
    for (s, value) in settings {
        let when = match s.scope {
            Scope::Startup => "startup: fixed for a run",
            Scope::Run => "run",
            _ => "player",
        };
        out.push_str(&format!(
            "\n  {} = {}    {} ({}, {}; {when})",
            s.id,
            value,
            s.name,
            s.kind.type_name(),
            s.kind.range(),
        ));
        if !s.description.is_empty() {
            out.push_str(&format!("\n      {}", crate::diag::visible(&s.description)));
        }
    }
    out
}
