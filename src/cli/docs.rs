//! `lantern docs`: editor support files, generated from the running code so they cannot drift.
//! They are written as saves are (`crate::write`): whole, never through a symlink.

use std::path::Path;
use std::process::ExitCode;

pub(super) fn run(
    rules: &crate::host::Rules,
    lua_defs: Option<&Path>,
    schema: Option<&Path>,
) -> ExitCode {
    if lua_defs.is_none() && schema.is_none() {
        eprintln!("error: say what to write: `lantern docs --lua-defs lantern.d.lua` or `lantern docs --schema schema`");
        return ExitCode::from(2);
    }
    if let Some(path) = lua_defs {
        let text = match crate::lua::defs::generate_for(rules) {
            Ok(text) => text,
            Err(e) => {
                eprintln!("error: cannot start Lua to read the API: {e}");
                return ExitCode::from(1);
            }
        };
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Err(code) = folder.map_or(Ok(()), make_folder) {
            return code;
        }
        // The test API beside it: `lantern.d.lua` and `lantern-test.d.lua`.
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("lantern");
        let stem = stem.strip_suffix(".d").unwrap_or(stem);
        let tests = path.with_file_name(format!("{stem}-test.d.lua"));
        for (path, text) in [
            (path.to_path_buf(), text),
            (tests, crate::harness::defs::lua_defs(rules)),
        ] {
            if let Err(e) = crate::write::replacing(&path, text.as_bytes(), "editor files") {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
            println!("wrote {}", path.display());
        }
    }
    if let Some(dir) = schema {
        let files = crate::content::schema::editor_schemas(rules.defs());
        if let Err(code) = make_folder(dir) {
            return code;
        }
        for (name, value) in files {
            let path = dir.join(name);
            let text = serde_json::to_string_pretty(&value).unwrap_or_default();
            if let Err(e) = crate::write::replacing(&path, text.as_bytes(), "editor files") {
                eprintln!("error: {e}");
                return ExitCode::from(1);
            }
            println!("wrote {}", path.display());
        }
    }
    ExitCode::SUCCESS
}

/// Creates the folder the files go to when it is missing (`lantern docs --schema .vscode/schemas`
/// in a fresh mod).
fn make_folder(dir: &Path) -> Result<(), ExitCode> {
    std::fs::create_dir_all(dir).map_err(|e| {
        eprintln!("error: cannot create the folder {}: {e}", dir.display());
        ExitCode::from(1)
    })
}
