//! The quick reader against `toml`: whatever it reads, `toml` reads to the same tree (values and
//! spans); what it gives up on is listed; generated documents hold both to that.

use super::{parse, Entries, Item, Value};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use std::fmt::Write;
use toml::de::{DeTable, DeValue};

/// One line a value: its path, span and value, keys sorted as `toml` keeps them.
fn dump_quick(entries: &Entries<'_>, path: &str, out: &mut String) {
    let mut sorted: Vec<_> = entries.iter().collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    for (key, item) in sorted {
        dump_quick_item(item, &format!("{path}.{key:?}"), out);
    }
}

fn dump_quick_item(item: &Item<'_>, path: &str, out: &mut String) {
    let span = format!("{}..{}", item.start, item.end);
    match &item.value {
        Value::Str(s) => writeln!(out, "{path} {span} str {s:?}"),
        Value::Int(i) => writeln!(out, "{path} {span} int {i}"),
        Value::Float(f) => writeln!(out, "{path} {span} float {f:?}"),
        Value::Bool(b) => writeln!(out, "{path} {span} bool {b}"),
        Value::Array { items, .. } => {
            let _ = writeln!(out, "{path} {span} array");
            for (i, item) in items.iter().enumerate() {
                dump_quick_item(item, &format!("{path}[{i}]"), out);
            }
            Ok(())
        }
        Value::Table { entries, .. } => {
            let _ = writeln!(out, "{path} {span} table");
            dump_quick(entries, path, out);
            Ok(())
        }
    }
    .unwrap();
}

fn dump_toml(table: &DeTable<'_>, path: &str, out: &mut String) {
    for (key, value) in table {
        dump_toml_item(value, &format!("{path}.{:?}", key.get_ref()), out);
    }
}

fn dump_toml_item(value: &toml::Spanned<DeValue<'_>>, path: &str, out: &mut String) {
    let span = format!("{}..{}", value.span().start, value.span().end);
    match value.get_ref() {
        DeValue::String(s) => writeln!(out, "{path} {span} str {s:?}"),
        DeValue::Integer(i) => {
            let n = i64::from_str_radix(i.as_str(), i.radix()).expect("an i64");
            writeln!(out, "{path} {span} int {n}")
        }
        DeValue::Float(f) => {
            let n: f64 = f.as_str().replace('_', "").parse().expect("a float");
            writeln!(out, "{path} {span} float {n:?}")
        }
        DeValue::Boolean(b) => writeln!(out, "{path} {span} bool {b}"),
        DeValue::Datetime(d) => writeln!(out, "{path} {span} datetime {d}"),
        DeValue::Array(items) => {
            let _ = writeln!(out, "{path} {span} array");
            for (i, item) in items.iter().enumerate() {
                dump_toml_item(item, &format!("{path}[{i}]"), out);
            }
            Ok(())
        }
        DeValue::Table(t) => {
            let _ = writeln!(out, "{path} {span} table");
            dump_toml(t, path, out);
            Ok(())
        }
    }
    .unwrap();
}

/// Reads `text` both ways. `None` when the quick reader gave up; otherwise its tree, after
/// asserting `toml` read the same.
fn both(text: &str) -> Option<String> {
    let quick = parse(text).ok()?;
    let mut mine = String::new();
    dump_quick(&quick, "", &mut mine);
    let doc = DeTable::parse(text)
        .unwrap_or_else(|e| panic!("the quick reader took what toml refuses: {text:?}: {e}"));
    let mut theirs = String::new();
    dump_toml(doc.get_ref(), "", &mut theirs);
    assert_eq!(mine, theirs, "read differently: {text:?}");
    Some(mine)
}

#[track_caller]
fn check(text: &str, expected: &str) {
    let got = both(text).unwrap_or_else(|| panic!("gave up on {text:?}"));
    assert_eq!(got.trim(), expected.trim(), "{text:?}");
}

#[test]
fn a_data_file_reads_as_toml_reads_it() {
    check(
        "# items\n[[items]]\nid = \"a\"  # first\ntags = [\"x\", 'm:y',]\n\n[[items]]\nstack = 9\n[items.properties]\np = -2\n[[items.triggers]]\non = \"t\"\n",
        r#"
."items" 8..17 array
."items"[0] 8..17 table
."items"[0]."id" 23..26 str "a"
."items"[0]."tags" 43..56 array
."items"[0]."tags"[0] 44..47 str "x"
."items"[0]."tags"[1] 49..54 str "m:y"
."items"[1] 58..67 table
."items"[1]."properties" 78..96 table
."items"[1]."properties"."p" 101..103 int -2
."items"[1]."stack" 76..77 int 9
."items"[1]."triggers" 104..122 array
."items"[1]."triggers"[0] 104..122 table
."items"[1]."triggers"[0]."on" 128..131 str "t"
"#,
    );
}

#[test]
fn strings_numbers_and_tables_read_as_toml_reads_them() {
    for value in [
        r#""plain""#,
        r#""tab\tquote\" \\ \u00e9 \U0001F600""#,
        "'lit\\eral'",
        "\"\"\"\nline one\nline two\"\"\"",
        "\"\"\"a\\\n    b \\\r\n\n c\"\"\"",
        "\"\"\"quotes \"\" inside\"\"\"\"\"",
        "'''\r\nraw \\n text'''''",
        "\"\"\"\r\nwindows\r\nlines\"\"\"",
        "0",
        "-0",
        "+17",
        "1_000_000",
        "-9223372036854775808",
        "3.25",
        "-0.0",
        "1e3",
        "6.02E+23",
        "1.5e-3",
        "true",
        "false",
        "[]",
        "[ 1, 'two', [3], { four = 4 } ]",
        "[\n  1, # one\n  2,\n]",
        "{}",
        "{ a = 1, \"b c\" = { d = [true] } }",
    ] {
        let text = format!("[[t]]\nk = {value}\n");
        assert!(both(&text).is_some(), "gave up on {value:?}");
    }
}

#[test]
fn what_the_reader_does_not_know_it_gives_up_on() {
    for text in [
        // TOML it leaves to `toml`: dotted keys, implicit tables, dates, other radixes, inf,
        // escapes and inline tables of TOML 1.1, a root key.
        "[[t]]\na.b = 1\n",
        "[a.b]\nk = 1\n",
        "[[t]]\nk = 1979-05-27\n",
        "[[t]]\nk = 07:32:00\n",
        "[[t]]\nk = 0x1F\n",
        "[[t]]\nk = inf\n",
        "[[t]]\nk = 1_0.5\n",
        "[[t]]\nk = \"\\e\"\n",
        "[[t]]\nk = \"\\x41\"\n",
        "[[t]]\nk = { a = 1, }\n",
        "[[t]]\nk = { a = 1,\n b = 2 }\n",
        "[[t]]\nk = 9223372036854775808\n",
        // Mistakes, which `toml` reports.
        "[[t]]\nk = 1\nk = 2\n",
        "[t]\n[t]\n",
        "[[t]]\nk = [1 2]\n",
        "[[t]]\nk = 01\n",
        "[[t]]\nk = 1.\n",
        "[[t]]\nk = \"open\n",
        "[[t]]\nk = 'a\u{7}'\n",
        "[[t]]\nk = 1 2\n",
        "[[t]]\nk = truex\n",
        "[[t]]\nk =\n",
        "[[t]\n",
        "[ [t] ]\n",
        "[[t]]\nk = 1\r\r\n",
        "[[t]]\n# a bell \u{7}\n",
        "[[t]]\nk = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
        "[[t]]\nk = \"\"\"a\"\"\"\"\"\"\n",
        "[t]\nk = 1\n[[t]]\n",
        "[[t]]\nk = [1]\n[[t.k]]\n",
        "[[t]]\nk = { a = 1 }\n[t.k.b]\n",
    ] {
        assert!(parse(text).is_err(), "read {text:?}");
    }
}

/// Pieces of documents, right and wrong, that generated documents are made of.
const HEADERS: &[&str] = &[
    "[[items]]",
    "[[ items ]]",
    "[[items.triggers]]",
    "[items.properties]",
    "[[items.triggers.actions]]",
    "[quests]",
    "[quests.x]",
    "[\"odd key\"]",
    "[['q'.r]]",
    "[[items]] # c",
    "[a.b]",
    "[[items]",
    "[items]]",
];
const KEYS: &[&str] = &[
    "id",
    "name",
    "tags",
    "k",
    "\"quoted key\"",
    "'lit'",
    "a.b",
    "x-y_z",
    "",
    "\"\"",
];
const VALUES: &[&str] = &[
    "\"s\"",
    "\"esc \\\" \\n \\u0041\"",
    "\"bad \\q\"",
    "'lit'",
    "\"\"\"\nmulti\"\"\"",
    "\"\"\"a\\\n  b\"\"\"",
    "'''raw'''",
    "''''''",
    "\"\"",
    "1",
    "-12",
    "+3",
    "1_0",
    "1__0",
    "_1",
    "00",
    "0.5",
    "1e5",
    "1.e5",
    "-1E-2",
    "nan",
    "0b101",
    "1979-05-27T07:32:00Z",
    "true",
    "fals",
    "[1, 2]",
    "[ \"a\", [ 'b' ], ]",
    "[\n1,\n# c\n2]",
    "[,]",
    "{ a = 1 }",
    "{ a = { b = \"c\" }, d = [] }",
    "{a=1,a=2}",
    "{ a.b = 1 }",
    "{",
    "[",
];
const ENDS: &[&str] = &["\n", "  # comment\n", "\r\n", " x\n", "\n\n", "\t\n"];

#[test]
fn generated_documents_read_as_toml_reads_them_or_not_at_all() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(27);
    let mut below = |n: usize| rng.next_u32() as usize % n;
    let (mut read, total) = (0, 50_000);
    for _ in 0..total {
        let mut text = String::new();
        for _ in 0..1 + below(5) {
            if below(5) < 3 {
                text += HEADERS[below(HEADERS.len())];
                text += ENDS[below(ENDS.len())];
            }
            for _ in 0..below(4) {
                text += KEYS[below(KEYS.len())];
                text += [" = ", "=", " =  "][below(3)];
                text += VALUES[below(VALUES.len())];
                text += ENDS[below(ENDS.len())];
            }
        }
        if both(&text).is_some() {
            read += 1;
        }
    }
    // Enough of them are read for the comparison to mean something.
    assert!(read > total / 50, "read {read} of {total}");
}

#[test]
fn mutated_data_files_read_as_toml_reads_them_or_not_at_all() {
    // The bundled game's data, each with one byte taken out, put in or changed, many times over:
    // whatever the quick reader still reads, `toml` reads to the same tree.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("mods/core/data");
    let mut texts: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    texts.sort();
    let pieces: &[&str] = &[
        "\"", "'", "[", "]", "{", "}", ",", "=", ".", "#", "\n", "\r", "\\", " ", "_", "-", "+",
        "0", "e", "é", "\t", "\u{7}", "\"\"\"", "[[", "]]",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(23);
    let (mut read, mut total) = (0, 0);
    for text in &texts {
        let bytes = text.as_bytes();
        for _ in 0..150 {
            let mut at = rng.next_u32() as usize % bytes.len();
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            let piece = pieces[rng.next_u32() as usize % pieces.len()];
            let next = text[at..].chars().next().map_or(0, char::len_utf8);
            let mutated = match rng.next_u32() % 3 {
                0 => format!("{}{}", &text[..at], &text[at + next..]),
                1 => format!("{}{piece}{}", &text[..at], &text[at..]),
                _ => format!("{}{piece}{}", &text[..at], &text[at + next..]),
            };
            total += 1;
            if both(&mutated).is_some() {
                read += 1;
            }
        }
    }
    assert!(read > total / 4 && read < total, "read {read} of {total}");
}
