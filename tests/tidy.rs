//! The written invariants, turned into failures (rust-analyzer's `tidy.rs` is the model): every
//! module says what it is, only `reload` names the file watcher, only `cli` prints, every `unsafe`
//! says why it is sound, functions stay short, the runtime does not name the reference game, and
//! the lower floors (`content` and what it stands on) import nothing above them.
//!
//! Where the code does not hold a rule yet, the places that break it are listed below with what
//! they are allowed today; the lists may only shrink (a listed place that now keeps the rule, or
//! keeps it better, fails this test until its entry goes or tightens), so a new offence fails at
//! once and an old one is never quietly made worse.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The crate's sources as (path relative to the root, text).
fn sources() -> Vec<(String, String)> {
    rust_files(&root().join("src"))
        .into_iter()
        .map(|p| {
            let rel = p
                .strip_prefix(root())
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (rel, std::fs::read_to_string(&p).unwrap())
        })
        .collect()
}

/// The code of a file without its unit tests (a `#[cfg(test)]` module ends each file that has
/// one) and without comments: what runs.
fn code_lines(text: &str) -> Vec<(usize, String)> {
    let code = text.split("\n#[cfg(test)]").next().unwrap_or(text);
    code.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("//") {
                return None;
            }
            Some((i + 1, line.split(" // ").next().unwrap_or(line).to_string()))
        })
        .collect()
}

#[test]
fn every_module_says_what_it_is() {
    let missing = undescribed(sources());
    assert!(
        missing.is_empty(),
        "modules without a `//!` paragraph: {missing:?}"
    );
    let bare = vec![("src/game/x.rs".to_string(), "fn f() {}\n".to_string())];
    assert_eq!(undescribed(bare), ["src/game/x.rs"]);
}

fn undescribed(sources: Vec<(String, String)>) -> Vec<String> {
    sources
        .into_iter()
        .filter(|(_, text)| !text.lines().take(3).any(|l| l.starts_with("//!")))
        .map(|(path, _)| path)
        .collect()
}

/// A made-up file of `src/` holding `code`: what each rule is proven to catch.
fn offence(path: &str, code: &str) -> Vec<(String, String)> {
    vec![(path.to_string(), format!("//! A module.\n\n{code}\n"))]
}

#[test]
fn only_reload_touches_the_file_watcher() {
    assert!(
        watcher_outside_reload(sources()).is_empty(),
        "the watcher outside reload"
    );
    let caught = watcher_outside_reload(offence("src/game/x.rs", "use notify::Watcher;"));
    assert_eq!(caught, ["src/game/x.rs:3"]);
}

fn watcher_outside_reload(sources: Vec<(String, String)>) -> Vec<String> {
    sources
        .into_iter()
        .filter(|(path, _)| !path.starts_with("src/reload/"))
        .flat_map(|(path, text)| {
            code_lines(&text)
                .into_iter()
                .filter(|(_, l)| l.contains("notify::") || l.contains("use notify"))
                .map(move |(n, _)| format!("{path}:{n}"))
        })
        .collect()
}

#[test]
fn only_the_command_line_prints() {
    let offending = printing_outside_cli(sources());
    assert!(offending.is_empty(), "printing outside cli: {offending:?}");
    let caught = printing_outside_cli(offence("src/lua/x.rs", "fn f() { eprintln!(\"x\"); }"));
    assert_eq!(caught, ["src/lua/x.rs:3"]);
}

fn printing_outside_cli(sources: Vec<(String, String)>) -> Vec<String> {
    let printing = [
        "println!",
        "print!(",
        "eprintln!",
        "eprint!(",
        "stdout()",
        "stderr()",
        "dbg!(",
    ];
    sources
        .into_iter()
        .filter(|(path, _)| !path.starts_with("src/cli/") && path != "src/main.rs")
        .flat_map(|(path, text)| {
            code_lines(&text)
                .into_iter()
                .filter(|(_, l)| printing.iter().any(|p| l.contains(p)))
                .map(move |(n, _)| format!("{path}:{n}"))
        })
        .collect()
}

/// A mod's names print escaped (`content::Name`'s `Display`); the console never reaches for
/// the text as written, so a name with a line break cannot forge a line of lantern's. The
/// language server is exempt: it answers in JSON, which escapes on its own.
#[test]
fn the_console_shows_names_only_escaped() {
    let offending = unescaped_in_console(sources());
    assert!(
        offending.is_empty(),
        "a name's unescaped text in the console: {offending:?}"
    );
    let caught = unescaped_in_console(offence("src/cli/x.rs", "let shown = name.unescaped();"));
    assert_eq!(caught, ["src/cli/x.rs:3"]);
}

fn unescaped_in_console(sources: Vec<(String, String)>) -> Vec<String> {
    sources
        .into_iter()
        .filter(|(path, _)| path.starts_with("src/cli/") && !path.starts_with("src/cli/lsp/"))
        .flat_map(|(path, text)| {
            code_lines(&text)
                .into_iter()
                .filter(|(_, l)| l.contains(".unescaped()"))
                .map(move |(n, _)| format!("{path}:{n}"))
        })
        .collect()
}

#[test]
fn every_unsafe_says_why_it_is_sound() {
    let offending = unsafe_unexplained(sources());
    assert!(
        offending.is_empty(),
        "`unsafe` without a `SAFETY:` line: {offending:?}"
    );
    let caught = unsafe_unexplained(offence("src/lua/x.rs", "fn f() {\n    unsafe { g() }\n}"));
    // The made-up file's two lines of module doc come first.
    assert_eq!(
        caught,
        ["src/lua/x.rs:4"],
        "a bare `unsafe` block is caught"
    );
    let said = "fn f() {\n    // SAFETY: g has no precondition.\n    unsafe { g() }\n}";
    assert!(unsafe_unexplained(offence("src/lua/x.rs", said)).is_empty());
    let declared = unsafe_unexplained(offence("src/lua/x.rs", "pub unsafe fn g() {}"));
    assert_eq!(
        declared,
        ["src/lua/x.rs:3"],
        "an `unsafe fn` without its promise"
    );
}

/// Each `unsafe` block, impl or function with no `SAFETY:` (or `# Safety`) near it, as
/// `path:line`.
fn unsafe_unexplained(sources: Vec<(String, String)>) -> Vec<String> {
    let mut offending = Vec::new();
    for (path, text) in sources {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = line.split("//").next().unwrap_or(line);
            let opens = code.contains("unsafe {") || code.contains("unsafe impl");
            let declares = code.contains("unsafe fn ") || code.contains("unsafe extern \"C");
            if !opens && !declares {
                continue;
            }
            // A `SAFETY:` comment on the line or above it within its function (a function whose
            // blocks share one reason says it once: `SAFETY (every block)`); an `unsafe fn` says
            // what its callers promise in a `# Safety` section of its documentation, or right
            // below its signature.
            let start = (0..i)
                .rev()
                .find(|&j| {
                    let t = lines[j].trim_start();
                    t.starts_with("fn ") || t.contains(" fn ") && !t.starts_with("//")
                })
                .unwrap_or(0);
            let above = &lines[start.min(i.saturating_sub(8))..=i];
            let below = &lines[i..(i + 3).min(lines.len())];
            let said = above
                .iter()
                .any(|l| l.contains("SAFETY") || l.contains("# Safety"))
                || (declares && below.iter().any(|l| l.contains("SAFETY")))
                || (declares && above.iter().any(|l| l.trim_start().starts_with("///")));
            if !said {
                offending.push(format!("{path}:{}", i + 1));
            }
        }
    }
    offending
}

/// The longest a function may be, in lines.
const LONGEST_FUNCTION: usize = 100;

/// Every function of a file with its length in lines: from its `fn` line to the brace that
/// closes its body (strings, characters and comments skipped).
fn functions(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let Some(at) = trimmed.find("fn ") else {
            continue;
        };
        let before = &trimmed[..at];
        let is_item = before.split_whitespace().all(|w| {
            [
                "pub",
                "pub(crate)",
                "pub(super)",
                "const",
                "async",
                "unsafe",
                "extern",
                "\"C\"",
                "\"C-unwind\"",
            ]
            .contains(&w)
        });
        if !is_item || trimmed.starts_with("//") {
            continue;
        }
        let name: String = trimmed[at + 3..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut depth = 0i32;
        let mut started = false;
        let mut end = None;
        'lines: for (j, l) in lines.iter().enumerate().skip(i) {
            let mut chars = l.chars().peekable();
            let mut in_str = false;
            while let Some(c) = chars.next() {
                match c {
                    '\\' if in_str => {
                        chars.next();
                    }
                    '"' => in_str = !in_str,
                    '/' if !in_str && chars.peek() == Some(&'/') => break,
                    '\'' if !in_str => {
                        // A character literal ('{', '\'') or a lifetime ('a): skip a literal.
                        let ahead: String = chars.clone().take(3).collect();
                        if ahead.starts_with('\\') {
                            chars.nth(2);
                        } else if ahead.chars().nth(1) == Some('\'') {
                            chars.nth(1);
                        }
                    }
                    '{' if !in_str => {
                        depth += 1;
                        started = true;
                    }
                    '}' if !in_str => {
                        depth -= 1;
                        if started && depth == 0 {
                            end = Some(j);
                            break 'lines;
                        }
                    }
                    ';' if !in_str && !started && depth == 0 => break 'lines,
                    _ => {}
                }
            }
        }
        if let Some(end) = end {
            out.push((name, end - i + 1));
        }
    }
    out
}

#[test]
fn functions_stay_short() {
    let offending = too_long(sources());
    assert!(offending.is_empty(), "{offending:#?}");
    let body = |lines: usize| format!("fn big() {{\n{}}}\n", "    let x = 1;\n".repeat(lines - 2));
    let caught = too_long(offence("src/game/x.rs", &body(LONGEST_FUNCTION + 1)));
    let said = format!(
        "src/game/x.rs: `big` has {} lines (at most {LONGEST_FUNCTION}): split it where its logic divides",
        LONGEST_FUNCTION + 1
    );
    assert_eq!(caught, [said]);
    let caught = too_long(offence("src/game/x.rs", &body(LONGEST_FUNCTION)));
    assert!(caught.is_empty(), "{caught:?}");
}

/// The functions longer than [`LONGEST_FUNCTION`], each said once (functions of one name in a
/// file, two types' `add_methods`, count by the longest).
fn too_long(sources: Vec<(String, String)>) -> Vec<String> {
    let mut offending = Vec::new();
    for (path, text) in sources {
        let mut longest: Vec<(String, usize)> = Vec::new();
        for (name, len) in functions(&text) {
            match longest.iter_mut().find(|(n, _)| *n == name) {
                Some(entry) => entry.1 = entry.1.max(len),
                None => longest.push((name, len)),
            }
        }
        for (name, len) in longest
            .into_iter()
            .filter(|(_, len)| *len > LONGEST_FUNCTION)
        {
            offending.push(format!(
                "{path}: `{name}` has {len} lines (at most {LONGEST_FUNCTION}): split it where its logic divides"
            ));
        }
    }
    offending
}

#[test]
fn the_runtime_does_not_name_the_reference_game() {
    let found = reference_game_named(sources());
    assert!(
        found.is_empty(),
        "code outside src/roguelike and src/cli names the reference game or `core` (its home mod comes from `Vocabulary::home`, its player from `Vocabulary::player`): {found:#?}"
    );
    let caught = reference_game_named(offence(
        "src/load/mod.rs",
        "fn rules() -> Rules { crate::roguelike::rules() }",
    ));
    assert_eq!(caught.len(), 1, "{caught:?}");
    let home = reference_game_named(offence("src/game/x.rs", "const HOME: &str = \"core\";"));
    assert_eq!(home.len(), 1, "{home:?}");
}

fn reference_game_named(sources: Vec<(String, String)>) -> Vec<String> {
    let allowed_anywhere = ["src/roguelike/", "src/cli/", "src/main.rs"];
    let mut found = Vec::new();
    for (path, text) in sources {
        if allowed_anywhere.iter().any(|a| path.starts_with(a)) {
            continue;
        }
        for (line, code) in code_lines(&text) {
            // The crate's root declares the module behind its feature, and nothing else of it:
            // every loader takes the game's rules, and only the binary names the reference's.
            let declaration = ["#[cfg(feature = \"roguelike\")]", "pub mod roguelike;"];
            if path == "src/lib.rs" && declaration.contains(&code.trim()) {
                continue;
            }
            if code.contains("roguelike")
                || code.contains("\"core\"")
                || code.contains("\"core:")
                || code.contains("core:{")
            {
                found.push(format!("{path}:{line}: {}", code.trim()));
            }
        }
    }
    found
}

/// The floors of the house, lowest first (ARCHITECTURE.md draws them): a module imports only
/// modules on its own floor or below. `host` stands above `game`: the engine runs a game's code
/// by its type (`game::code`), never by the vocabulary that builds it.
const FLOORS: &[&[&str]] = &[
    &["id", "diag", "rng"],
    &["error", "write", "toml_file", "quick_toml", "json_tree"],
    &["mods"],
    &["content"],
    &["game", "hazard"],
    &["host"],
    &["lua"],
    &["load", "roguelike", "mod_set"],
    &["reload", "harness"],
    &["cli"],
];

/// The top-level modules a line of `path` (its module path: `["game", "apply"]`) imports: each
/// `crate::<m>`, and each `super::` chain that climbs to the crate's root and names `<m>`.
fn imports(module_path: &[&str], code: &str) -> Vec<String> {
    let name_at = |rest: &str| -> String {
        rest.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out: Vec<String> = code
        .match_indices("crate::")
        .map(|(at, _)| name_at(&code[at + "crate::".len()..]))
        .collect();
    let mut at = 0;
    while let Some(found) = code[at..].find("super::") {
        let start = at + found;
        let preceded = code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':');
        let mut rest = &code[start..];
        let mut climbs = 0;
        while let Some(r) = rest.strip_prefix("super::") {
            climbs += 1;
            rest = r;
        }
        at = start + "super::".len() * climbs;
        // `src/game/apply.rs` is `game::apply`: one `super` is `game`, two are the root.
        if !preceded && climbs >= module_path.len() {
            out.push(name_at(rest));
        }
    }
    out
}

#[test]
fn no_module_imports_a_floor_above_its_own() {
    let up = arrows_up(sources());
    assert!(up.is_empty(), "arrows back up the floors: {up:#?}");
    // The engine knowing Lua, by a path and by `super::` chains climbing to the root.
    let caught = arrows_up(offence("src/game/x.rs", "use crate::lua::Limits;"));
    assert_eq!(caught, ["src/game/x.rs:3: `game` imports `lua`"]);
    let climbing = arrows_up(offence(
        "src/lua/api/x.rs",
        "use super::super::super::load::World;",
    ));
    assert_eq!(climbing, ["src/lua/api/x.rs:3: `lua` imports `load`"]);
}

fn arrows_up(sources: Vec<(String, String)>) -> Vec<String> {
    let floor_of = |module: &str| FLOORS.iter().position(|f| f.contains(&module));
    let mut up = Vec::new();
    for (path, text) in sources {
        let rel = path.trim_start_matches("src/").trim_end_matches(".rs");
        let mut module_path: Vec<&str> = rel.split('/').collect();
        if module_path.last() == Some(&"mod") {
            module_path.pop();
        }
        let module = module_path[0].to_string();
        let Some(own) = floor_of(&module) else {
            continue;
        };
        for (line, code) in code_lines(&text) {
            for named in imports(&module_path, &code) {
                assert!(
                    !named.is_empty(),
                    "{path}:{line}: write `crate::module::...` so this test can read the import"
                );
                // `crate::Error` is the `error` module's, re-exported at the root.
                let named = if named == "Error" {
                    "error".into()
                } else {
                    named
                };
                match floor_of(&named) {
                    Some(floor) if floor <= own => {}
                    _ => up.push(format!("{path}:{line}: `{module}` imports `{named}`")),
                }
            }
        }
    }
    up
}

/// The engines and runtimes the library's manifest `text` depends on (Bevy, tokio): none may be.
fn engines_named(text: &str) -> Vec<String> {
    text.split("\n[")
        .filter(|section| {
            section.starts_with("dependencies]")
                || section.starts_with("dev-dependencies]")
                || section.starts_with("build-dependencies]")
        })
        .flat_map(str::lines)
        .map(str::trim_start)
        .filter(|line| line.starts_with("bevy") || line.starts_with("tokio"))
        .map(str::to_string)
        .collect()
}

#[test]
fn the_library_does_not_depend_on_an_engine() {
    // Bevy belongs to the crates that bring lantern to it (`crates/lantern-bevy`) and the games
    // built on it (`examples/colony`), tokio to the server that hosts sessions (`examples/arena`),
    // never to the library a game of any engine embeds.
    let manifest = std::fs::read_to_string(root().join("Cargo.toml")).unwrap();
    let named = engines_named(&manifest);
    assert!(
        named.is_empty(),
        "the library's manifest names an engine: {named:?}"
    );
    // The rule catches an offence (its own test).
    let offence = "[package]\nname = \"x\"\n\n[dev-dependencies]\ntokio = \"1\"\n\n[dependencies]\nbevy_ecs = \"0.20\"\n";
    assert_eq!(engines_named(offence).len(), 2);
    let bevy = std::fs::read_to_string(root().join("crates/lantern-bevy/Cargo.toml")).unwrap();
    assert!(bevy.contains("bevy_ecs"), "lantern-bevy is where Bevy is");
    let arena = std::fs::read_to_string(root().join("examples/arena/Cargo.toml")).unwrap();
    assert!(arena.contains("tokio"), "the arena is where tokio is");
}

/// A newcomer's own mods in `mods/` (the README's `lantern new rats`, or `harvest new orchard` in
/// `examples/harvest/mods`) never break the project's tests: a test reads the bundled mods by
/// name (`tests/common`'s `SHIPPED` and `HARVEST_SHIPPED`, `mods/core`), never a whole folder of
/// mods, and a unit test that loads it lists the mods it loads.
#[test]
fn tests_read_only_the_mods_this_repository_ships() {
    let mut files = rust_files(&root().join("tests"));
    files.extend(rust_files(&root().join("src")));
    let mut found = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let whole = line.contains("root().join(\"mods\")")
                || line.contains("CARGO_MANIFEST_DIR\")).join(\"mods\")")
                || (line.contains("join(\"examples/harvest/mods\")") && !line.contains(".join(m)"));
            // The shipped list's loop, and the unit test that loads `core` alone by name.
            let by_name = line.contains(".join(m)") || rel == "src/cli/play/commands.rs";
            // `tests/embed` is a crate of its own, with its own `mods/`.
            let own = rel == "tests/tidy.rs" || rel.starts_with("tests/embed/");
            if whole && !by_name && !own {
                found.push(format!("{rel}:{}: {}", i + 1, line.trim()));
            }
        }
    }
    assert!(found.is_empty(), "{found:#?}");
}

/// `docs/performance.md` is a reference, not a diary: at most 30 KB, no section per session (the
/// history of a figure is in the commits that moved it), and every bench under `benches/` says
/// there how it is run.
#[test]
fn the_performance_document_stays_a_reference() {
    let path = root().join("docs/performance.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut wrong = Vec::new();
    if text.len() > 30 * 1024 {
        wrong.push(format!("{} bytes, more than 30 KB", text.len()));
    }
    for line in text.lines().filter(|l| l.starts_with('#')) {
        let lower = line.to_lowercase();
        if lower.contains("session") || lower.contains("2026-") {
            wrong.push(format!("a heading of a session's diary: {line}"));
        }
    }
    for bench in std::fs::read_dir(root().join("benches")).unwrap() {
        let name = bench.unwrap().file_name().to_string_lossy().to_string();
        if let Some(stem) = name.strip_suffix(".rs") {
            if !text.contains(&format!("`benches/{name}`")) {
                wrong.push(format!(
                    "the `{stem}` bench is not described (`benches/{name}`)"
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "docs/performance.md:\n{}",
        wrong.join("\n")
    );
}

/// The commit that set the rule: every commit after it has a subject of at most 72 characters and
/// a body that says why (CONTRIBUTING.md).
const COMMITS_RULED_SINCE: &str = "248d618";

/// Every commit since [`COMMITS_RULED_SINCE`] has a subject of at most 72 characters and a body.
/// A checkout without the history (an archive, a shallow clone) has nothing to check.
#[test]
fn commit_messages_have_a_short_subject_and_a_body() {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(root())
            .output()
            .ok()
            .filter(|out| out.status.success())
            .map(|out| String::from_utf8_lossy(&out.stdout).to_string())
    };
    let since = format!("{COMMITS_RULED_SINCE}^{{commit}}");
    if git(&["rev-parse", "--verify", "--quiet", &since]).is_none() {
        eprintln!("no history since {COMMITS_RULED_SINCE} here: nothing to check");
        return;
    }
    let range = format!("{COMMITS_RULED_SINCE}..HEAD");
    // Each commit as its hash, its subject and its body, split by bytes no message holds.
    let log = git(&["log", "--no-merges", "--format=%h%x1f%s%x1f%b%x1e", &range]).unwrap();
    let mut wrong = Vec::new();
    for commit in log.split('\u{1e}').map(str::trim).filter(|c| !c.is_empty()) {
        let mut parts = commit.splitn(3, '\u{1f}');
        let (hash, subject, body) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        if subject.chars().count() > 72 {
            wrong.push(format!(
                "{hash}: a subject of {} characters: {subject}",
                subject.chars().count()
            ));
        }
        if body.trim().is_empty() {
            wrong.push(format!("{hash}: no body saying why: {subject}"));
        }
    }
    assert!(wrong.is_empty(), "commits (CONTRIBUTING.md): {wrong:#?}");
}

/// `ARCHITECTURE.md` is short enough to read in ten minutes (at most 20 KB) and true: every file
/// it names exists (a bare `name.rs` somewhere in the repository, a path with a folder at the root
/// or under `src/`), and so does every folder.
#[test]
fn the_architecture_names_only_what_exists() {
    let text = std::fs::read_to_string(root().join("ARCHITECTURE.md")).unwrap();
    let mut wrong = Vec::new();
    if text.len() > 20 * 1024 {
        wrong.push(format!("{} bytes, more than 20 KB", text.len()));
    }
    // Every Rust file's name and every folder's that holds one: a bare `apply.rs` or `api/` is
    // named where the text says which module it is in.
    let mut names = std::collections::BTreeSet::new();
    for dir in [
        "src",
        "tests",
        "benches",
        "examples",
        "crates",
        "vendor/lantern-lua-src/src",
    ] {
        for file in rust_files(&root().join(dir)) {
            names.insert(file.file_name().unwrap().to_string_lossy().to_string());
            if let Some(folder) = file.parent().and_then(|p| p.file_name()) {
                names.insert(format!("{}/", folder.to_string_lossy()));
            }
        }
    }
    let exists = |path: &str| root().join(path).exists() || root().join("src").join(path).exists();
    for quoted in text.split('`').skip(1).step_by(2) {
        let plain = quoted
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_/.-".contains(c));
        if !plain || quoted == "/" {
            continue;
        }
        let named = if let Some(dir) = quoted.strip_suffix('/') {
            !exists(dir) && !names.contains(quoted)
        } else if quoted.ends_with(".rs") && !quoted.contains('/') {
            !names.contains(quoted)
        } else if quoted.contains('/') && (quoted.ends_with(".rs") || quoted.starts_with("tests/"))
        {
            !exists(quoted)
        } else {
            false
        };
        if named {
            wrong.push(format!("`{quoted}` names nothing in the repository"));
        }
    }
    assert!(wrong.is_empty(), "ARCHITECTURE.md: {wrong:#?}");
}
