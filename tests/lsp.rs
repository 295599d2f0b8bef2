//! `lantern lsp` driven through the protocol as an editor drives it: the real binary over stdio,
//! a real mod folder on disk, unsaved edits, and the answers a modder sees.

mod common;
#[path = "common/lsp.rs"]
mod lsp;

use lsp::Client;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

const MANIFEST: &str = "id = \"rats\"\nname = \"Rats\"\nversion = \"0.1.0\"\n";

const DATA: &str = r#"[[items]]
id = "coin"
name = "Rat coin"

[[creatures]]
id = "rat"
name = "Rat"
health = 3
items = [{ item = "coin", count = 1 }]

[[triggers]]
on = "creature_died"
actions = [{ action = "give_item", item = "coin" }]
"#;

const SCRIPT: &str = r#"lantern.on("damage_taken", function(ev)
  lantern.log("hit for " .. ev.amount)
end)
"#;

/// A folder with `mods/rats` (data and a script), the workspace an editor opens.
fn workspace() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let m = dir.path().join("mods/rats");
    std::fs::create_dir_all(m.join("data")).unwrap();
    std::fs::create_dir_all(m.join("scripts")).unwrap();
    std::fs::write(m.join("mod.toml"), MANIFEST).unwrap();
    std::fs::write(m.join("data/rats.toml"), DATA).unwrap();
    std::fs::write(m.join("scripts/main.lua"), SCRIPT).unwrap();
    let data = m.join("data/rats.toml");
    let script = m.join("scripts/main.lua");
    (dir, data, script)
}

fn start(dir: &Path) -> Client {
    let (client, init) = Client::start(Path::new(env!("CARGO_BIN_EXE_lantern")), &[], dir);
    let caps = &init["capabilities"];
    for cap in [
        "completionProvider",
        "definitionProvider",
        "referencesProvider",
        "hoverProvider",
        "codeActionProvider",
        "documentSymbolProvider",
        "workspaceSymbolProvider",
    ] {
        assert!(!caps[cap].is_null(), "the server offers {cap}: {caps}");
    }
    client
}

/// A second mod, `rich`, whose data names the first's coin (`rats:coin`); its data file.
fn rich_mod(dir: &Path) -> PathBuf {
    let other = dir.join("mods/rich");
    std::fs::create_dir_all(other.join("data")).unwrap();
    std::fs::write(
        other.join("mod.toml"),
        "id = \"rich\"\nname = \"Rich\"\nversion = \"0.1.0\"\ndepends = [\"rats\"]\n",
    )
    .unwrap();
    let rich = other.join("data/rich.toml");
    std::fs::write(&rich, "[[triggers]]\non = \"turn_started\"\nactions = [{ action = \"give_item\", item = \"rats:coin\" }]\n").unwrap();
    rich
}

/// The labels of a completion answer.
fn labels(answer: &Value) -> Vec<String> {
    let items = answer.get("items").unwrap_or(answer);
    items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap().to_string())
        .collect()
}

/// The file and first line of each location of an answer, in its order.
fn places(answer: &Value) -> Vec<(String, u64)> {
    (answer
        .as_array()
        .unwrap_or_else(|| panic!("{answer}"))
        .iter())
    .map(|l| {
        (
            l["uri"].as_str().unwrap().to_string(),
            l["range"]["start"]["line"].as_u64().unwrap(),
        )
    })
    .collect()
}

/// The line and UTF-16 column just after the first `needle` on a line of `text`.
fn after(text: &str, needle: &str) -> (u32, u32) {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("`{needle}` in the text"))
        + needle.len();
    let line = text[..at].matches('\n').count();
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (line as u32, text[start..at].encode_utf16().count() as u32)
}

#[test]
fn an_unsaved_mistake_is_reported_where_check_puts_it_and_fixed_by_its_quick_fix() {
    let (dir, data, _) = workspace();
    let mut c = start(dir.path());
    c.open(&data);
    c.sync();
    assert_eq!(c.published(&data), None, "a clean mod has nothing to say");

    // A typo, not saved: the server checks the buffer, the file on disk stays as it was.
    let typo = DATA.replace(
        "action = \"give_item\", item = \"coin\"",
        "action = \"give_item\", item = \"cion\"",
    );
    c.change(&data, 2, &typo);
    c.sync();
    let diags = c.published(&data).expect("diagnostics for the edited file");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    let d = &diags[0];
    assert_eq!(d["source"], "lantern");
    assert_eq!(d["severity"], 1);
    assert!(d["message"].as_str().unwrap().contains("cion"), "{d}");
    let (line, col) = after(&typo, "item = \"cion");
    assert_eq!(d["range"]["start"]["line"], line);
    assert_eq!(
        std::fs::read_to_string(&data).unwrap(),
        DATA,
        "nothing is written to disk"
    );
    let check = common::lantern(&["check", "--mods", "mods"], dir.path());
    assert!(check.status.success(), "the saved mod is still clean");

    // The same message as `lantern check` gives for the saved typo.
    std::fs::write(&data, &typo).unwrap();
    let check = common::lantern(&["check", "--mods", "mods", "--format", "json"], dir.path());
    let json: Value = serde_json::from_slice(&check.stdout).unwrap();
    let from_check = &json["diagnostics"][0];
    assert_eq!(d["code"], from_check["code"]);
    assert!(d["message"]
        .as_str()
        .unwrap()
        .starts_with(from_check["message"].as_str().unwrap()));
    std::fs::write(&data, DATA).unwrap();

    // The quick fix writes the name meant, inside the quotes.
    let actions = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": { "uri": lsp::uri(&data) },
            "range": d["range"],
            "context": { "diagnostics": [d] },
        }),
    );
    let action = &actions[0];
    assert_eq!(action["kind"], "quickfix");
    let edit = &action["edit"]["changes"][lsp::uri(&data)][0];
    assert_eq!(edit["newText"], "rats:coin", "{action}");
    assert_eq!(
        edit["range"]["start"],
        json!({ "line": line, "character": col - 4 })
    );
    assert_eq!(
        edit["range"]["end"],
        json!({ "line": line, "character": col })
    );

    // Mended in the buffer: the file's diagnostics are cleared.
    c.change(&data, 3, DATA);
    c.sync();
    assert_eq!(c.published(&data), Some(Vec::new()));
    assert!(c.stop().success());
}

#[test]
fn a_script_error_in_an_unsaved_buffer_is_at_its_line() {
    let (dir, _, script) = workspace();
    let mut c = start(dir.path());
    c.open(&script);
    c.change(
        &script,
        2,
        "lantern.on(\"damage_taken\", function(ev)\n  local x = = 1\nend)\n",
    );
    c.sync();
    let diags = c.published(&script).expect("diagnostics for the script");
    assert!(
        diags.iter().any(|d| d["range"]["start"]["line"] == 1),
        "{diags:#?}"
    );
    assert!(c.stop().success());
}

#[test]
fn completion_knows_keys_arguments_events_and_every_id() {
    let (dir, data, script) = workspace();
    let mut c = start(dir.path());
    c.open(&data);

    // An item ID where an action names an item.
    let text = DATA.replace("item = \"coin\" }]\n\"#", "");
    let (line, col) = after(DATA, "action = \"give_item\", item = \"");
    let got = labels(&c.at("textDocument/completion", &data, line, col, json!({})));
    assert!(
        got.contains(&"rats:coin".to_string()) && got.contains(&"coin".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"rats:rat".to_string()),
        "a creature is no item: {got:?}"
    );
    let _ = text;

    // An action's own arguments once its name is written.
    let edited = DATA.replace("item = \"coin\" }]\n", "item = \"coin\", c }]\n");
    c.change(&data, 2, &edited);
    let (line, col) = after(&edited, "item = \"coin\", c");
    let got = labels(&c.at("textDocument/completion", &data, line, col, json!({})));
    assert!(got.contains(&"count".to_string()), "{got:?}");

    // Event names after `on = "`.
    let (line, col) = after(&edited, "on = \"");
    let got = labels(&c.at("textDocument/completion", &data, line, col, json!({})));
    assert!(
        got.contains(&"damage_taken".to_string()) && got.contains(&"creature_died".to_string()),
        "{got:?}"
    );

    // A trigger's `when` holds its event's payload fields.
    let when = format!("{edited}\n[[triggers]]\non = \"damage_taken\"\nwhen = {{ am");
    c.change(&data, 3, &when);
    let (line, col) = after(&when, "when = { am");
    let got = labels(&c.at("textDocument/completion", &data, line, col, json!({})));
    assert_eq!(
        got,
        ["amount", "damage_type"],
        "the fields holding `am`, no trigger keys"
    );
    c.change(&data, 4, &edited);

    // A creature's keys, with their help.
    let answer = c.at("textDocument/completion", &data, 8, 0, json!({}));
    let health = answer["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["label"] == "health")
        .cloned();
    assert_eq!(
        health.expect("health offered")["detail"],
        "maximum and starting health"
    );

    // In Lua: the API after `lantern.`, the payload after the handler's `ev.`.
    c.open(&script);
    let lua = "lantern.on(\"damage_taken\", function(ev)\n  lantern.\n  local n = ev.\nend)\n";
    c.change(&script, 2, lua);
    let got = labels(&c.at("textDocument/completion", &script, 1, 10, json!({})));
    assert!(
        got.contains(&"on".to_string()) && got.contains(&"emit_event".to_string()),
        "{got:?}"
    );
    let got = labels(&c.at("textDocument/completion", &script, 2, 15, json!({})));
    assert!(
        got.contains(&"amount".to_string()) && got.contains(&"damage_type".to_string()),
        "{got:?}"
    );
    assert!(c.stop().success());
}

#[test]
fn definition_references_and_hover_follow_an_id_across_files() {
    let (dir, data, script) = workspace();
    // A second mod names the first's coin from its own data.
    let rich = rich_mod(dir.path());
    let mut c = start(dir.path());
    c.open(&data);
    c.open(&script);

    let (line, col) = after(DATA, "action = \"give_item\", item = \"co");
    let defs = c.at("textDocument/definition", &data, line, col, json!({}));
    assert_eq!(defs.as_array().unwrap().len(), 1, "{defs}");
    assert_eq!(defs[0]["uri"], lsp::uri(&data));
    assert_eq!(defs[0]["range"]["start"]["line"], 1, "the item's `id`");

    let refs = c.at(
        "textDocument/references",
        &data,
        line,
        col,
        json!({ "context": { "includeDeclaration": false } }),
    );
    assert_eq!(
        places(&refs),
        [
            (lsp::uri(&data), 8),
            (lsp::uri(&data), 12),
            (lsp::uri(&rich), 2)
        ],
        "the creature's item, the trigger's and the other mod's, bare and whole"
    );
    let with = c.at(
        "textDocument/references",
        &data,
        line,
        col,
        json!({ "context": { "includeDeclaration": true } }),
    );
    assert_eq!(with.as_array().unwrap().len(), 4);

    let hover = c.at("textDocument/hover", &data, line, col, json!({}));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("**item** `rats:coin`") && shown.contains("name = \"Rat coin\""),
        "{shown}"
    );

    let hover = c.at("textDocument/hover", &data, 7, 2, json!({}));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("maximum and starting health"),
        "{hover}"
    );

    let hover = c.at("textDocument/hover", &script, 0, 14, json!({}));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        shown.contains("**event** `damage_taken`") && shown.contains("`amount`: int"),
        "{shown}"
    );
    let hover = c.at("textDocument/hover", &script, 0, 9, json!({}));
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("lantern.on("),
        "{hover}"
    );
    assert!(c.stop().success());
}

#[test]
fn a_games_tools_serve_its_own_tables_events_and_actions() {
    let dir = tempfile::tempdir().unwrap();
    common::fs::copy_dir(&common::harvest_mods(), &dir.path().join("mods"));
    let crops = dir.path().join("mods/valley/data/crops.toml");
    let text = std::fs::read_to_string(&crops).unwrap();
    let exe = common::harvest_exe();
    let (mut c, _) = Client::start(&exe, &["--mods", "mods"], dir.path());
    c.open(&crops);

    // A crop's companions are crops.
    let (line, col) = after(&text, "companions = [\"");
    let got = labels(&c.at("textDocument/completion", &crops, line, col, json!({})));
    assert!(
        got.contains(&"valley:wheat".to_string()) && got.contains(&"pumpkin".to_string()),
        "{got:?}"
    );
    // The game's events and actions where a trigger names them.
    let (line, col) = after(&text, "on = \"");
    let got = labels(&c.at("textDocument/completion", &crops, line, col, json!({})));
    assert!(got.contains(&"day_started".to_string()), "{got:?}");
    let (line, col) = after(&text, "actions = [ { action = \"");
    let got = labels(&c.at("textDocument/completion", &crops, line, col, json!({})));
    assert!(got.contains(&"farm:earn".to_string()), "{got:?}");
    // The keys of the game's own type, and a misspelt crop checked as `check` does.
    let typo = text.replace("companions = [\"wheat\"]", "companions = [\"wheet\"]");
    c.change(&crops, 2, &typo);
    c.sync();
    let diags = c.published(&crops).expect("the misspelt crop is reported");
    assert!(
        diags[0]["message"].as_str().unwrap().contains("wheet"),
        "{diags:?}"
    );
    assert_eq!(diags[0]["data"]["text"], "valley:wheat");
    let got = labels(&c.at("textDocument/completion", &crops, 3, 0, json!({})));
    assert!(got.contains(&"seed_price".to_string()), "{got:?}");
    assert!(c.stop().success());
}

#[test]
fn hostile_positions_edits_names_and_requests_leave_the_server_answering() {
    let (dir, data, _) = workspace();
    // A name a mod controls, with a terminal escape and a bidirectional control in it.
    let hostile = DATA.replace("name = \"Rat coin\"", "name = \"Rat coin\u{202e}\"");
    std::fs::write(&data, &hostile).unwrap();
    let mut c = start(dir.path());
    c.open(&data);

    // Far past the end, inside a surrogate pair, in a document never opened, of no file.
    for (line, character) in [(10_000, 10_000), (1, 10_000), (0, 3)] {
        for method in [
            "textDocument/completion",
            "textDocument/hover",
            "textDocument/definition",
        ] {
            c.at(method, &data, line, character, json!({}));
        }
    }
    let emoji = dir.path().join("mods/rats/data/emoji.toml");
    std::fs::write(&emoji, "[[tags]]\nid = \"😀x\"\n").unwrap();
    c.open(&emoji);
    c.at("textDocument/hover", &emoji, 1, 7, json!({}));
    c.at(
        "textDocument/completion",
        &dir.path().join("mods/rats/data/never.toml"),
        0,
        0,
        json!({}),
    );
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": "untitled:Untitled-1", "languageId": "toml", "version": 1, "text": "[[items]]\nid = \"" } }),
    );
    let untitled = json!({ "textDocument": { "uri": "untitled:Untitled-1" }, "position": { "line": 1, "character": 6 } });
    c.request("textDocument/completion", untitled);

    // Edits with a range past the end (put at the end) and one backwards (refused).
    let past =
        json!({ "start": { "line": 900, "character": 0 }, "end": { "line": 901, "character": 0 } });
    let backwards =
        json!({ "start": { "line": 2, "character": 0 }, "end": { "line": 1, "character": 0 } });
    for range in [past, backwards] {
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": lsp::uri(&data), "version": 5 }, "contentChanges": [ { "range": range, "text": "x" } ] }),
        );
    }
    c.sync();
    assert!(
        c.published(&data).is_some(),
        "the `x` put at the end is a mistake, reported"
    );
    c.change(&data, 6, &hostile);
    c.sync();

    // The hostile name reaches the editor escaped.
    let (line, col) = after(&hostile, "action = \"give_item\", item = \"co");
    let hover = c.at("textDocument/hover", &data, line, col, json!({}));
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        !shown.contains('\u{1b}') && !shown.contains('\u{202e}'),
        "{shown:?}"
    );

    // A file deleted while open, and a request the server does not know.
    std::fs::remove_file(&emoji).unwrap();
    c.notify("workspace/didChangeWatchedFiles", json!({ "changes": [] }));
    c.sync();
    let unknown = c.answer(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": lsp::uri(&emoji) }, "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert!(unknown.unwrap_err().contains("does not answer"));
    let garbage = c.answer("textDocument/completion", json!({ "nonsense": true }));
    assert!(garbage.unwrap_err().contains("bad parameters"));
    assert!(
        c.stop().success(),
        "the server ends cleanly after all of it"
    );
}

#[test]
fn no_editor_or_a_garbled_one_is_told_plainly() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let run = |input: &[u8]| {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_lantern"))
            .arg("lsp")
            .current_dir(dir.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, said) = run(b"");
    assert_eq!(code, Some(1));
    assert!(
        said.contains("before an editor said `initialize`"),
        "{said}"
    );
    let (code, said) = run(b"Content-Length: 5\r\n\r\nhello");
    assert_eq!(code, Some(1));
    assert!(
        said.contains("the editor's messages could not be read"),
        "{said}"
    );
    // A `Content-Length` of a terabyte made the server ask for a terabyte and abort: a header is
    // checked before anything is allocated, and the server ends with a word.
    let (code, said) = run(b"Content-Length: 1099511627776\r\n\r\n{");
    assert_eq!(code, Some(1));
    assert_eq!(
        said,
        "error: the editor's messages could not be read: a message of 1099511627776 bytes is \
         larger than lantern reads (64 MiB)\n"
    );
}

/// JSON-RPC as the protocol says: a method the server does not know is `MethodNotFound`, a request
/// after `shutdown` is `InvalidRequest`, and `exit` ends with 0 after `shutdown` and 1 without it.
#[test]
fn the_protocol_is_answered_as_its_specification_says() {
    let dir = tempfile::tempdir().unwrap();
    let exe = std::path::Path::new(env!("CARGO_BIN_EXE_lantern"));
    let (mut c, _) = Client::start(exe, &[], dir.path());
    let unknown = c.answer_coded("workspace/noSuchThing", json!({}));
    assert_eq!(
        unknown,
        Err((
            -32601,
            "lantern's language server does not answer `workspace/noSuchThing`".to_string()
        ))
    );
    c.request("shutdown", Value::Null);
    let late = c.answer_coded("textDocument/hover", json!({}));
    assert_eq!(
        late,
        Err((
            -32600,
            "`textDocument/hover` after `shutdown`: the server is shutting down".to_string()
        ))
    );
    assert_eq!(c.exit_at_once().code(), Some(0), "exit after shutdown");
    let (c, _) = Client::start(exe, &[], dir.path());
    assert_eq!(c.exit_at_once().code(), Some(1), "exit without shutdown");
}

/// Structure-aware fuzzing of the language server: random edits by range (pieces of TOML and Lua,
/// line breaks of every kind, wide characters, deletions across lines) to an open data file and
/// script, with random position requests among them. Every request is answered (an answer or a
/// protocol error, never silence), and the server ends cleanly. Seeded and bounded:
/// `LANTERN_FUZZ_CASES` runs more edits.
#[test]
fn random_edits_and_requests_are_all_answered() {
    let (dir, data, script) = workspace();
    let mut c = start(dir.path());
    c.open(&data);
    c.open(&script);
    let mut texts = [DATA.to_string(), SCRIPT.to_string()];
    // Seeded, so every run makes the same cases.
    let mut rng = <rand_chacha::ChaCha8Rng as rand_core::SeedableRng>::seed_from_u64(23);
    let mut next = |n: usize| (rand_core::RngCore::next_u64(&mut rng) % n.max(1) as u64) as usize;
    let pieces = [
        "",
        "[[items]]\n",
        "id = \"",
        "\"",
        " = ",
        "{ ",
        " }",
        "[",
        "]",
        "\n",
        "\r\n",
        "\r",
        "赌😀",
        "lantern.",
        "ev.",
        "core:",
        "function(ev)\n",
        "end\n",
        "--",
        "{{",
        "\"\"\"",
    ];
    // Where a byte offset is, as the editor counts it (lines; UTF-16 columns).
    let position = |text: &str, offset: usize| {
        let before = &text[..offset];
        let line = before.matches('\n').count() + before.matches('\r').count()
            - before.matches("\r\n").count();
        let start = before.rfind(['\n', '\r']).map_or(0, |i| i + 1);
        json!({ "line": line, "character": before[start..].encode_utf16().count() })
    };
    let cases = common::fuzz_cases(120);
    for i in 0..cases {
        let which = next(2);
        let path = if which == 0 { &data } else { &script };
        let text = &mut texts[which];
        let boundary = |text: &str, mut at: usize| {
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let mut a = boundary(text, next(text.len() + 1));
        let mut b = boundary(text, next(text.len() + 1));
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        if next(3) == 0 {
            b = a;
        }
        // A `\r\n` split by an edit's end is counted by the editor as two breaks: keep edits
        // off its middle, as an editor's are.
        if text[..a].ends_with('\r') && text[a..].starts_with('\n') {
            a -= 1;
        }
        if text[..b].ends_with('\r') && text[b..].starts_with('\n') {
            b += 1;
        }
        let piece = pieces[next(pieces.len())];
        let range = json!({ "start": position(text, a), "end": position(text, b) });
        text.replace_range(a..b, piece);
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": lsp::uri(path), "version": i + 2 },
                "contentChanges": [ { "range": range, "text": piece } ]
            }),
        );
        if next(4) == 0 {
            let text = &texts[which];
            let at = boundary(text, next(text.len() + 1));
            let method = [
                "textDocument/completion",
                "textDocument/hover",
                "textDocument/definition",
                "textDocument/references",
            ][next(4)];
            let mut params = json!({
                "textDocument": { "uri": lsp::uri(path) },
                "position": position(text, at),
            });
            if method == "textDocument/references" {
                params["context"] = json!({ "includeDeclaration": true });
            }
            let answer = c.answer_coded(method, params);
            assert!(answer.is_ok(), "{method} after {i} edits: {answer:?}");
        }
    }
    assert!(c.stop().success(), "the server ends cleanly");
}

#[test]
fn completion_offers_the_settings_a_condition_may_read() {
    let (dir, data, _) = workspace();
    let manifest = dir.path().join("mods/rats/mod.toml");
    let declared = format!(
        "{MANIFEST}\n[settings.rat_health]\ntype = \"int\"\ndefault = 10\nmin = 1\nmax = 100\nname = \"Rat health\"\n"
    );
    std::fs::write(&manifest, declared).unwrap();
    let mut c = start(dir.path());
    c.open(&data);
    let edited = format!(
        "{DATA}\n[[triggers]]\non = \"turn_started\"\ncondition = [ {{ check = \"setting\", setting = \"rat\" }} ]\n"
    );
    c.change(&data, 2, &edited);
    let (line, col) = after(&edited, "setting = \"rat");
    let answer = c.at("textDocument/completion", &data, line, col, json!({}));
    let got = labels(&answer);
    assert_eq!(got, ["rats:rat_health", "rat_health"], "{answer}");
    assert_eq!(answer["items"][0]["detail"], "int setting: 1 to 100");
    // In the mod's script, after `lantern.settings.`, the mod's own settings.
    let script = dir.path().join("mods/rats/scripts/main.lua");
    c.open(&script);
    let lua = "lantern.on(\"turn_started\", function()\n  local hp = lantern.settings.ra\nend)\n";
    c.change(&script, 2, lua);
    let got = labels(&c.at("textDocument/completion", &script, 1, 32, json!({})));
    assert_eq!(got, ["rat_health"]);
    assert!(c.stop().success());
}

/// `lantern.text("` completes the mod's text keys (its own bare, every mod's as `mod:key`), each
/// with its text; go to definition leads to the key's line in every language's locale file; and
/// IDs complete by their letters in order, as editors filter (`rats:cn` offers `rats:coin`).
#[test]
fn text_keys_complete_and_lead_to_their_locale_lines() {
    let (dir, data, script) = workspace();
    let locale = dir.path().join("mods/rats/locale");
    std::fs::create_dir_all(&locale).unwrap();
    std::fs::write(
        locale.join("en.toml"),
        "rats_left = \"{count} rats remain\"\nrat_fled = \"The rat flees.\"\n",
    )
    .unwrap();
    std::fs::write(
        locale.join("de.toml"),
        "rats_left = \"{count} Ratten bleiben\"\n",
    )
    .unwrap();
    let mut c = start(dir.path());
    c.open(&script);
    let lua =
        "lantern.on(\"damage_taken\", function(ev)\n  lantern.log(lantern.text(\"rats_\"))\nend)\n";
    c.change(&script, 2, lua);
    let (line, col) = after(lua, "lantern.text(\"rats_");
    let answer = c.at("textDocument/completion", &script, line, col, json!({}));
    let got = labels(&answer);
    assert!(
        got.contains(&"rats_left".to_string()) && got.contains(&"rats:rats_left".to_string()),
        "{got:?}"
    );
    assert!(
        !got.contains(&"rat_fled".to_string()),
        "not `rats_`: {got:?}"
    );
    let item = &answer["items"][got.iter().position(|l| l == "rats_left").unwrap()];
    assert_eq!(item["detail"], "{count} rats remain", "{item}");

    let lua = lua.replace("\"rats_\"", "\"rats_left\"");
    c.change(&script, 3, &lua);
    let defs = c.at("textDocument/definition", &script, line, col - 2, json!({}));
    let mut found = places(&defs);
    found.sort();
    assert_eq!(
        found,
        [
            (lsp::uri(&locale.join("de.toml")), 0),
            (lsp::uri(&locale.join("en.toml")), 0)
        ]
    );

    c.open(&data);
    let typed = DATA.replace(
        "action = \"give_item\", item = \"coin\"",
        "action = \"give_item\", item = \"rats:cn\"",
    );
    assert_ne!(typed, DATA);
    c.change(&data, 2, &typed);
    let (line, col) = after(&typed, "item = \"rats:cn");
    let got = labels(&c.at("textDocument/completion", &data, line, col, json!({})));
    assert!(got.contains(&"rats:coin".to_string()), "{got:?}");
    assert!(c.stop().success());
}

/// The outline of a data file (its definitions, in order) and of a script (the events it handles,
/// the actions and checks it registers), and every definition of the mod set by its letters.
#[test]
fn documents_and_the_workspace_have_their_symbols() {
    let (dir, data, script) = workspace();
    let mut c = start(dir.path());
    c.open(&data);
    c.open(&script);
    let names = |answer: &Value| -> Vec<(String, String)> {
        answer
            .as_array()
            .unwrap_or_else(|| panic!("{answer}"))
            .iter()
            .map(|s| {
                let detail = s["detail"].as_str().or(s["containerName"].as_str());
                (
                    s["name"].as_str().unwrap().to_string(),
                    detail.unwrap().to_string(),
                )
            })
            .collect()
    };
    let outline = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": lsp::uri(&data) } }),
    );
    assert_eq!(
        names(&outline),
        [
            ("rats:coin".to_string(), "item".to_string()),
            ("rats:rat".to_string(), "creature".to_string())
        ],
        "{outline}"
    );
    assert_eq!(outline[1]["range"]["start"]["line"], 5, "{outline}");

    let lua = "lantern.on(\"damage_taken\", function(ev) end)\n\
               lantern.register_action(\"bless\", function(ctx, args) end)\n\
               lantern.register_check(\"blessed\", function(ctx, args) return true end)\n";
    c.change(&script, 2, lua);
    let outline = c.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": lsp::uri(&script) } }),
    );
    assert_eq!(
        names(&outline),
        [
            ("damage_taken".to_string(), "handles".to_string()),
            ("bless".to_string(), "action".to_string()),
            ("blessed".to_string(), "check".to_string())
        ],
        "{outline}"
    );
    assert_eq!(outline[2]["range"]["start"]["line"], 2, "{outline}");

    let found = c.request("workspace/symbol", json!({ "query": "rtcn" }));
    assert_eq!(
        names(&found),
        [("rats:coin".to_string(), "item".to_string())],
        "{found}"
    );
    assert_eq!(found[0]["location"]["uri"], lsp::uri(&data));
    assert!(c.stop().success());
}

/// Renaming an ID edits every place the mod set writes it, each as written: the definition and
/// the bare names of its own mod, `rats:coin` in another mod's data, the mod's tests, and the keys
/// of its texts in every locale file (a header, a dotted key, a translation mod's `[made_from]`).
/// A new name that is not one, or in another namespace, is refused with why.
#[test]
fn a_rename_edits_every_place_an_id_is_written() {
    let (dir, data, _script) = workspace();
    let rich = rich_mod(dir.path());
    let test = dir.path().join("mods/rats/tests/coin_test.lua");
    std::fs::create_dir_all(test.parent().unwrap()).unwrap();
    std::fs::write(
        &test,
        "it('gives a coin', function()\n  local g = lantern.test.game{}\n  g:give('coin')\nend)\n",
    )
    .unwrap();
    let de = dir.path().join("mods/rats/locale/de.toml");
    std::fs::create_dir_all(de.parent().unwrap()).unwrap();
    std::fs::write(&de, "[items.coin]\nname = \"Rattenmünze\"\n").unwrap();
    let fr = dir.path().join("mods/rich/locale/rats/fr.toml");
    std::fs::create_dir_all(fr.parent().unwrap()).unwrap();
    let french = "items.coin.name = \"Pièce\"\n\n[made_from]\n\"items.coin.name\" = \"Rat coin\"\n";
    std::fs::write(&fr, french).unwrap();
    let mut c = start(dir.path());
    c.open(&data);
    let (line, col) = after(DATA, "id = \"co");
    let at = |name: &str| {
        json!({
            "textDocument": { "uri": lsp::uri(&data) },
            "position": { "line": line, "character": col },
            "newName": name,
        })
    };
    let edit = c.request("textDocument/rename", at("doubloon"));
    let changes = &edit["changes"];
    let edits = |path: &Path| -> Vec<(u64, String)> {
        let mut e: Vec<(u64, String)> = changes[lsp::uri(path)]
            .as_array()
            .unwrap_or_else(|| panic!("edits of {}: {edit}", path.display()))
            .iter()
            .map(|e| {
                (
                    e["range"]["start"]["line"].as_u64().unwrap(),
                    e["newText"].as_str().unwrap().to_string(),
                )
            })
            .collect();
        e.sort();
        e
    };
    let d = "doubloon".to_string();
    assert_eq!(
        edits(&data),
        [(1, d.clone()), (8, d.clone()), (12, d.clone())]
    );
    assert_eq!(edits(&rich), [(2, "rats:doubloon".to_string())]);
    assert_eq!(edits(&test), [(2, d.clone())]);
    assert_eq!(edits(&de), [(0, d.clone())]);
    assert_eq!(
        edits(&fr),
        [(0, d), (3, "\"items.doubloon.name\"".to_string())]
    );
    // Each edit covers the name alone: `coin` of `[items.coin]`, of `items.coin.name`.
    for (path, col) in [(&de, 7), (&fr, 6)] {
        let e = &changes[lsp::uri(path)][0]["range"];
        assert_eq!(
            (
                e["start"]["character"].as_u64(),
                e["end"]["character"].as_u64()
            ),
            (Some(col), Some(col + 4)),
            "{e}"
        );
    }

    let refused = c.answer("textDocument/rename", at("Dou bloon"));
    assert!(refused.unwrap_err().contains("is not a name"));
    let refused = c.answer("textDocument/rename", at("rich:coin"));
    assert!(refused.unwrap_err().contains("keeps the namespace `rats`"));
    assert!(c.stop().success());
}

/// Inside a call to lantern's Lua API, the function's parameters and documentation, with the
/// one the cursor is in; nothing outside a call.
#[test]
fn a_call_to_the_api_shows_its_parameters() {
    let (dir, _data, script) = workspace();
    let mut c = start(dir.path());
    c.open(&script);
    let lua = "lantern.on(\"damage_taken\", function(ev)\n  lantern.emit_event(\"rats:x\", f(1, 2), \nend)\n";
    c.change(&script, 2, lua);
    let (line, col) = after(lua, "f(1, 2), ");
    let help = c.at("textDocument/signatureHelp", &script, line, col, json!({}));
    let label = help["signatures"][0]["label"]
        .as_str()
        .unwrap_or_else(|| panic!("{help}"));
    assert!(label.starts_with("lantern.emit_event("), "{help}");
    assert_eq!(help["activeParameter"], 2, "the third argument: {help}");
    let (line, col) = after(lua, "lantern.emit_event(\"rats");
    let help = c.at("textDocument/signatureHelp", &script, line, col, json!({}));
    assert_eq!(
        help["activeParameter"], 0,
        "inside the first, a string: {help}"
    );
    let help = c.at("textDocument/signatureHelp", &script, 0, 0, json!({}));
    assert!(help.is_null(), "outside a call of the API: {help}");
    assert!(c.stop().success());
}

/// Hover on an action's name shows its arguments with their help; on a word of a key, the key's
/// help and the words it may take.
#[test]
fn hover_explains_actions_and_words() {
    let (dir, data, _script) = workspace();
    let mut c = start(dir.path());
    c.open(&data);
    let (line, col) = after(DATA, "action = \"give_it");
    let hover = c.at("textDocument/hover", &data, line, col, json!({}));
    let shown = hover["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(shown.starts_with("**action** `give_item`"), "{shown}");
    assert!(
        shown.contains("- `item`") && shown.contains("- `count`"),
        "{shown}"
    );
    assert!(!shown.contains("- `action`"), "{shown}");
    let with_slot = DATA.replace(
        "name = \"Rat coin\"",
        "name = \"Rat coin\"\nslot = \"weapon\"",
    );
    c.change(&data, 2, &with_slot);
    let (line, col) = after(&with_slot, "slot = \"wea");
    let hover = c.at("textDocument/hover", &data, line, col, json!({}));
    let shown = hover["contents"]["value"]
        .as_str()
        .unwrap_or_else(|| panic!("{hover}"));
    assert!(shown.starts_with("`weapon`: a word of `slot`"), "{shown}");
    assert!(shown.contains("one of "), "{shown}");
    assert!(c.stop().success());
}

/// A locale file's mistakes as you type, as `lantern check` finds them: a key nothing names, in
/// the unsaved buffer of the locale file, at its line.
#[test]
fn a_locale_files_unused_key_is_reported_as_you_type() {
    let (dir, _data, script) = workspace();
    let locale = dir.path().join("mods/rats/locale/en.toml");
    std::fs::create_dir_all(locale.parent().unwrap()).unwrap();
    std::fs::write(&locale, "rats_left = \"{count} rats remain\"\n").unwrap();
    std::fs::write(
        &script,
        "lantern.on(\"damage_taken\", function(ev)\n  lantern.log(lantern.text(\"rats_left\", { count = 1 }))\nend)\n",
    )
    .unwrap();
    let mut c = start(dir.path());
    c.open(&locale);
    c.sync();
    assert_eq!(c.published(&locale), None, "a clean locale file");
    let typed = "rats_left = \"{count} rats remain\"\nrats_gone = \"No rats.\"\n";
    c.change(&locale, 2, typed);
    c.sync();
    let diags = c
        .published(&locale)
        .expect("diagnostics for the locale file");
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["range"]["start"]["line"], 1, "{diags:#?}");
    assert!(
        diags[0]["message"].as_str().unwrap().contains("rats_gone"),
        "{diags:#?}"
    );
    assert!(c.stop().success());
}
