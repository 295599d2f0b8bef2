//! `lantern texts MOD`: every text of a mod a player reads, in the mod's own language, as one
//! locale file: the texts of its data (by their keys, `items.rusty_key.name`) and of its
//! `locale/<language>.toml`. The base file a translation platform (Weblate, Crowdin) takes, or a
//! translator copies to `locale/<language>.toml` and translates; `lantern` for lantern's own lines.

use crate::content::locale::Text;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Writes the texts of `mod_id` to `out`, or to standard output.
pub(super) fn run(
    roots: &[PathBuf],
    rules: &crate::host::Rules,
    mod_id: &str,
    out: Option<&Path>,
) -> ExitCode {
    let world = crate::load::check_game(roots, rules, crate::lua::Limits::default());
    if world.has_errors() {
        eprint!(
            "{}",
            crate::diag::render_all(&world.diagnostics, &world.sources)
        );
        return ExitCode::from(1);
    }
    let content = &world.content;
    let Some(space) = content.locales.space(mod_id) else {
        let names = content.locales.spaces().map(|(ns, _)| ns.as_str());
        eprintln!(
            "error: there is no mod `{}` with texts{}",
            crate::diag::visible(mod_id),
            crate::diag::did_you_mean_suffix(mod_id, names)
        );
        return ExitCode::from(2);
    };
    let mut texts: BTreeMap<String, Vec<(Option<&str>, String)>> = BTreeMap::new();
    crate::content::locale::each_text_read(content, |f| {
        // A text that names a key is that key's, which the locale file gives; a field left
        // empty has nothing to translate.
        if f.ns() == mod_id && !f.text.is_empty() && !space.aliases.contains_key(&f.key()) {
            texts.insert(f.key(), vec![(None, f.text.to_string())]);
        }
    });
    for (key, entry) in space.langs.get(&space.default).into_iter().flatten() {
        let forms = match &entry.text {
            Text::One(t) => vec![(None, t.written())],
            Text::Plural(forms) => (forms.iter())
                .map(|(form, t)| (Some(*form), t.written()))
                .collect(),
        };
        texts.insert(key.clone(), forms);
    }
    let file = file_of(mod_id, &space.default, &texts);
    match out {
        None => {
            print!("{file}");
            ExitCode::SUCCESS
        }
        Some(path) => match std::fs::write(path, file) {
            Ok(()) => {
                println!(
                    "wrote {} texts of `{mod_id}` to {}",
                    texts.len(),
                    path.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("error: cannot write {}: {e}", path.display());
                ExitCode::from(1)
            }
        },
    }
}

/// The locale file of `texts`: each by its dotted key, a plural's forms below it.
fn file_of(
    mod_id: &str,
    lang: &str,
    texts: &BTreeMap<String, Vec<(Option<&str>, String)>>,
) -> String {
    let mut file = format!(
        "# Every text of `{mod_id}` a player reads, in its own language (`{lang}`): copy this file\n\
         # to locale/<language>.toml and translate each text, keeping its {{arguments}}.\n"
    );
    for (key, forms) in texts {
        for (form, text) in forms {
            let key = match form {
                Some(form) => format!("{}.{form}", dotted(key)),
                None => dotted(key),
            };
            let _ = writeln!(file, "{key} = {}", quoted(text));
        }
    }
    file
}

/// `key` as TOML's dotted key: each part bare when it may be, quoted when not.
fn dotted(key: &str) -> String {
    key.split('.')
        .map(|part| {
            let bare = !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
            if bare {
                part.to_string()
            } else {
                quoted(part)
            }
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// `text` as a TOML basic string.
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_texts_are_written_as_toml_reads_them() {
        assert_eq!(dotted("items.rusty_key.name"), "items.rusty_key.name");
        assert_eq!(dotted("odd key.x"), "\"odd key\".x");
        assert_eq!(
            quoted("say \"hi\"\\\n\u{1b}"),
            "\"say \\\"hi\\\"\\\\\\n\\u001B\""
        );
        let text: toml::Table = toml::from_str(&format!(
            "{} = {}",
            dotted("a.\"b\""),
            quoted("x\"\\y\u{7}")
        ))
        .unwrap();
        assert_eq!(text["a"]["\"b\""].as_str(), Some("x\"\\y\u{7}"));
    }
}
