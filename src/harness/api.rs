//! The test files' API: `describe`, `it` (or `test`), `xit` and `pending`, `before_each`, `expect`
//! with `to_be`, `to_equal` (deep), `to_be_near`, `to_contain`, `to_fail_with`; and running one file.

use super::matchers::{self, failure};
use super::{Harness, Status, TestFile, TestResult};
use crate::lua::budget::Budget;
use crate::lua::sandbox;
use atomic_refcell::AtomicRefCell;
use mlua::{Function, Lua, Table, Value};
use std::sync::Arc;
use std::time::Duration;

struct Case {
    name: String,
    func: Option<Function>,
    hooks: Vec<Function>,
}

#[derive(Default)]
struct Collector {
    names: Vec<String>,
    hooks: Vec<Vec<Function>>,
    cases: Vec<Case>,
    /// The test running now, once the file has been read: `it`, `describe` and `before_each`
    /// called inside it would register what never runs.
    running: Option<String>,
}

impl Collector {
    /// Fails when a test is running: what `what` registers there would never run.
    fn collecting(&self, lua: &Lua, what: &str) -> mlua::Result<()> {
        match &self.running {
            None => Ok(()),
            Some(test) => Err(failure(
                lua,
                format!("`{what}` inside the test `{test}` is never run: write it beside that test, inside a `describe`"),
            )),
        }
    }
}

/// Runs one test file; a file that fails to load is one failed result at its line.
pub(crate) fn run_file(
    h: &std::sync::Arc<Harness>,
    file: &TestFile,
    filter: Option<&str>,
) -> Vec<TestResult> {
    match run_file_inner(h, file, filter) {
        Ok(results) => results,
        Err(e) => {
            let name = "(loading the file)";
            if filter.is_some_and(|f| !format!("{} > {name}", file.display).contains(f)) {
                return Vec::new();
            }
            vec![failed(file, name, &e, Duration::ZERO, Vec::new())]
        }
    }
}

fn failed(
    file: &TestFile,
    name: &str,
    e: &mlua::Error,
    duration: Duration,
    output: Vec<String>,
) -> TestResult {
    let (text, frames) = crate::lua::describe(e);
    let (message, mut location) = split_location(&text, &file.display);
    // A harness method's error names no place itself: the innermost frame of the test file is the
    // line that called it.
    if location.is_none() {
        let prefix = format!("{}:", file.display);
        location = frames.into_iter().find(|f| f.starts_with(&prefix));
    }
    TestResult {
        file: file.display.clone(),
        name: name.to_string(),
        status: Status::Failed { message, location },
        duration,
        output,
    }
}

/// `core/tests/a.lua:12: expected 3, got 4` into the message and `core/tests/a.lua:12`.
fn split_location(text: &str, display: &str) -> (String, Option<String>) {
    let needle = format!("{display}:");
    if let Some(at) = text.find(&needle) {
        let rest = &text[at + needle.len()..];
        let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
        if !digits.is_empty() {
            let after = rest[digits.len()..].trim_start_matches(':').trim();
            let message = format!("{}{after}", &text[..at]);
            return (message, Some(format!("{display}:{digits}")));
        }
    }
    (text.to_string(), None)
}

/// The most bytes one test's printed output keeps.
const MOST_OUTPUT: usize = crate::lua::api::MOST_OUTPUT;

fn run_file_inner(
    h: &std::sync::Arc<Harness>,
    file: &TestFile,
    filter: Option<&str>,
) -> mlua::Result<Vec<TestResult>> {
    let lua = sandbox::new_state()?;
    // A test's own budget is sized for tests (thousands of games in a statistical one); the
    // games' scripts keep the mods' limits.
    let test_limits = h.limits.with_instructions(h.limits.test_instructions);
    let budget = Budget::install(&lua, test_limits)?;
    let collector = Arc::new(AtomicRefCell::new(Collector {
        hooks: vec![Vec::new()],
        ..Default::default()
    }));
    let output: Arc<AtomicRefCell<Vec<String>>> = Arc::new(AtomicRefCell::new(Vec::new()));

    let lantern = lua.create_table()?;
    let test = lua.create_table()?;
    test.raw_set(
        "game",
        super::game::constructor(&lua, h.clone(), output.clone(), file.mod_id.clone())?,
    )?;
    lantern.raw_set("test", test)?;
    let log = test_log(&lua, output.clone())?;
    lantern.raw_set("log", log.clone())?;
    let dir = file
        .path
        .parent()
        .map(|p| p.to_path_buf())
        .unwrap_or_default();
    let shown = file
        .display
        .rsplit_once('/')
        .map_or(String::new(), |(folder, _)| folder.to_string());
    let env = sandbox::environment(
        &lua,
        &sandbox::ModFiles::beside("test", &dir, &shown),
        lantern,
        log,
        Arc::new(AtomicRefCell::new(Vec::new())),
        sandbox::Account::whole(),
        None,
    )?;
    register(&lua, &env, collector.clone())?;

    let text = file_text(file)?;
    budget.reset(&lua);
    let ran = lua
        .load(text)
        .set_mode(mlua::ChunkMode::Text)
        .set_name(format!("@{}", file.display))
        .set_environment(env)
        .exec();
    budget.settle(ran)?;

    let cases = std::mem::take(&mut collector.borrow_mut().cases);
    let mut results = Vec::new();
    for case in cases {
        if filter.is_some_and(|f| !format!("{} > {}", file.display, case.name).contains(f)) {
            continue;
        }
        let Some(func) = case.func else {
            results.push(TestResult {
                file: file.display.clone(),
                name: case.name,
                status: Status::Skipped,
                duration: Duration::ZERO,
                output: Vec::new(),
            });
            continue;
        };
        output.borrow_mut().clear();
        collector.borrow_mut().running = Some(case.name.clone());
        let (result, duration) = super::timed(|| run_case(&lua, &budget, &case.hooks, &func));
        let printed = std::mem::take(&mut *output.borrow_mut());
        results.push(match result {
            Ok(()) => TestResult {
                file: file.display.clone(),
                name: case.name,
                status: Status::Passed,
                duration,
                output: printed,
            },
            Err(e) => {
                let e = match budget.stopped() {
                    Some(_) => over_budget(&lua, &e, h.limits.test_instructions),
                    None => e,
                };
                failed(file, &case.name, &e, duration, printed)
            }
        });
    }
    Ok(results)
}

/// The test's `log`: what a test prints is kept for its report, at most `MOST_OUTPUT` bytes of
/// it, as a mod's.
fn test_log(lua: &Lua, out: Arc<AtomicRefCell<Vec<String>>>) -> mlua::Result<Function> {
    crate::lua::price::function(lua, move |lua, args: mlua::Variadic<Value>| {
        let mut out = out.borrow_mut();
        let kept: usize = out.iter().map(String::len).sum();
        if kept > MOST_OUTPUT {
            return Ok(());
        }
        let text: Vec<String> = args
            .iter()
            .map(|v| {
                v.to_string()
                    .unwrap_or_else(|_| format!("<{}>", v.type_name()))
            })
            .collect();
        let line = text.join("\t");
        crate::lua::price::charge_bytes(lua, line.len())?;
        if kept + line.len() > MOST_OUTPUT {
            out.push(format!(
                "(the test printed more than {}; the rest is left out)",
                crate::diag::bytes(MOST_OUTPUT)
            ));
        } else {
            out.push(line);
        }
        Ok(())
    })
}

/// The test file's text, read inside its mod's folder; refused when it is not UTF-8.
fn file_text(file: &TestFile) -> mlua::Result<String> {
    let bytes = crate::mods::read_inside(&file.root, &file.path)
        .map_err(|refused| mlua::Error::runtime(refused.diagnostic(&file.display).message))?;
    let (text, bad) = crate::mods::decode_utf8(bytes);
    if let Some((offset, _)) = bad {
        return Err(mlua::Error::runtime(format!(
            "{} is not valid UTF-8 (the first invalid byte is at offset {offset})",
            file.display
        )));
    }
    Ok(text)
}

/// Runs one test: its `before_each` hooks, then its body, each on a fresh budget; a test that
/// left an expectation unmet (an unmatched stub, an unrolled roll, an event nobody heard) or
/// that caught its budget's or its memory's error has still failed.
fn run_case(lua: &Lua, budget: &Budget, hooks: &[Function], func: &Function) -> mlua::Result<()> {
    unmatched_reset(lua);
    lua.set_app_data(super::test_game::Spent::default());
    lua.set_app_data(super::test_game::Unheard::default());
    for hook in hooks {
        budget.reset(lua);
        budget.settle(hook.call::<()>(()))?;
    }
    budget.reset(lua);
    budget.settle(func.call::<()>(()))?;
    let unheard = lua
        .app_data_ref::<super::test_game::Unheard>()
        .and_then(|u| u.failure());
    match unmatched_failure(lua)
        .or_else(|| super::stubs::unrolled_failure(lua))
        .or(unheard)
    {
        Some(failure) => Err(failure),
        None => Ok(()),
    }
}

/// A test stopped by its budget, said with what it spent: a statistical test's games, or its own
/// code (a runaway loop), and the flag that raises it.
fn over_budget(lua: &Lua, e: &mlua::Error, limit: u64) -> mlua::Error {
    let (text, _) = crate::lua::describe(e);
    let spent = lua
        .app_data_ref::<super::test_game::Spent>()
        .map(|s| *s)
        .unwrap_or_default();
    let millions = |n: u64| format!("{:.1} M", n as f64 / 1e6);
    let at = text
        .find(": instruction budget")
        .map_or("", |i| &text[..i + 2]);
    let games = match spent.games {
        0 => String::new(),
        1 => format!("1 test game cost {} of it, ", millions(spent.units)),
        n => format!("{n} test games cost {} of it, ", millions(spent.units)),
    };
    let own = match (spent.games, spent.units * 2 < limit) {
        (0, _) => "its own code spent it all (an endless loop?)",
        (_, true) => "its own code the rest (an endless loop?)",
        (_, false) => "its own code the rest",
    };
    mlua::Error::runtime(format!(
        "{at}this test ran past its instruction budget of {}: {games}{own}; raise it with \
         `lantern test --test-instructions N`",
        millions(limit)
    ))
}

fn register(lua: &Lua, env: &Table, collector: Arc<AtomicRefCell<Collector>>) -> mlua::Result<()> {
    let c = collector.clone();
    env.raw_set(
        "describe",
        lua.create_function(move |lua, (name, body): (mlua::String, Function)| {
            c.borrow().collecting(lua, "describe")?;
            let name = test_name(lua, &name)?;
            c.borrow_mut().names.push(name);
            c.borrow_mut().hooks.push(Vec::new());
            let result = body.call::<()>(());
            c.borrow_mut().names.pop();
            c.borrow_mut().hooks.pop();
            result
        })?,
    )?;
    let c = collector.clone();
    env.raw_set(
        "before_each",
        lua.create_function(move |lua, hook: Function| {
            c.borrow().collecting(lua, "before_each")?;
            if let Some(layer) = c.borrow_mut().hooks.last_mut() {
                layer.push(hook);
            }
            Ok(())
        })?,
    )?;
    let add = |pending: bool| {
        let c = collector.clone();
        move |lua: &Lua, (name, body): (mlua::String, Option<Function>)| {
            c.borrow()
                .collecting(lua, if pending { "xit" } else { "it" })?;
            let name = test_name(lua, &name)?;
            let mut col = c.borrow_mut();
            let mut path = col.names.clone();
            path.push(name);
            let hooks = col.hooks.iter().flatten().cloned().collect();
            col.cases.push(Case {
                name: path.join(" > "),
                func: if pending { None } else { body },
                hooks,
            });
            Ok(())
        }
    };
    let it = lua.create_function(add(false))?;
    env.raw_set("it", it.clone())?;
    env.raw_set("test", it)?;
    env.raw_set("xit", lua.create_function(add(true))?)?;
    env.raw_set("pending", lua.create_function(add(true))?)?;
    env.raw_set(
        "expect",
        lua.create_function(|lua, value: Value| expectation(lua, value))?,
    )?;
    Ok(())
}

/// A test's or a group's name as reports show it, charged by its length: text that is not UTF-8
/// shows its bad bytes as `\xNN`.
fn test_name(lua: &Lua, name: &mlua::String) -> mlua::Result<String> {
    let bytes = name.as_bytes();
    crate::lua::price::charge_bytes(lua, bytes.len())?;
    let mut shown = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        shown.push_str(chunk.valid());
        for b in chunk.invalid() {
            shown.push_str(&format!("\\x{b:02x}"));
        }
    }
    Ok(shown)
}

/// The expectations of the running test that no matcher was called on yet, with where each was
/// made: one left when the test ends checked nothing, and fails the test at its line.
#[derive(Default)]
struct Unmatched {
    next: u64,
    open: Vec<(u64, String)>,
}

/// Forgets the expectations and stubs of the test before.
fn unmatched_reset(lua: &Lua) {
    if let Some(mut u) = lua.app_data_mut::<Unmatched>() {
        u.open.clear();
    }
    super::stubs::forget(lua);
}

/// The first expectation the test made and never matched, as its failure.
fn unmatched_failure(lua: &Lua) -> Option<mlua::Error> {
    let u = lua.app_data_ref::<Unmatched>()?;
    let (_, at) = u.open.first()?;
    Some(mlua::Error::runtime(format!(
        "{at}expect(...) checks nothing without a matcher: call one on it (`to_be`, `to_equal`, \
         `to_be_near`, `to_contain`, `to_fail_with`)"
    )))
}

/// `expect(x)`: a table of matchers bound to `x`, callable as `expect(x).to_be(y)` or `expect(x):to_be(y)`.
fn expectation(lua: &Lua, value: Value) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("__expectation", true)?;
    let at = crate::lua::report::call_site(lua)
        .map(|(f, l)| format!("{f}:{l}: "))
        .unwrap_or_default();
    if lua.app_data_ref::<Unmatched>().is_none() {
        lua.set_app_data(Unmatched::default());
    }
    let id = lua.app_data_mut::<Unmatched>().map_or(0, |mut u| {
        u.next += 1;
        let id = u.next;
        u.open.push((id, at));
        id
    });
    let matcher = |f: fn(&Lua, &Value, mlua::MultiValue) -> mlua::Result<()>| {
        let value = value.clone();
        lua.create_function(move |lua, mut args: mlua::MultiValue| {
            if let Some(mut u) = lua.app_data_mut::<Unmatched>() {
                u.open.retain(|(open, _)| *open != id);
            }
            // Called with `:`, the first argument is the expectation itself.
            if let Some(Value::Table(first)) = args.front() {
                if first.raw_get::<bool>("__expectation").unwrap_or(false) {
                    args.pop_front();
                }
            }
            f(lua, &value, args)
        })
    };
    t.raw_set("to_be", matcher(matchers::to_be)?)?;
    t.raw_set("to_equal", matcher(matchers::to_equal)?)?;
    t.raw_set("to_be_near", matcher(matchers::to_be_near)?)?;
    t.raw_set("to_contain", matcher(matchers::to_contain)?)?;
    t.raw_set("to_fail_with", matcher(matchers::to_fail_with)?)?;
    // A matcher that is not there is a mistake at the test's line, with what was meant.
    let meta = lua.create_table()?;
    meta.raw_set(
        "__index",
        lua.create_function(|lua, (_, key): (Value, Value)| -> mlua::Result<Value> {
            let name = key.to_string().unwrap_or_default();
            crate::lua::price::charge_suggestions(lua, MATCHERS.len())?;
            let help = crate::diag::did_you_mean_suffix(&name, MATCHERS.iter().copied());
            Err(failure(
                lua,
                format!(
                    "expect(...) has no matcher `{}`{help}",
                    crate::diag::visible(&crate::diag::shown(&name))
                ),
            ))
        })?,
    )?;
    t.set_metatable(Some(meta))?;
    Ok(t)
}

/// The matchers of `expect(x)`.
pub(super) const MATCHERS: [&str; 5] = [
    "to_be",
    "to_equal",
    "to_be_near",
    "to_contain",
    "to_fail_with",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_are_split_from_messages() {
        let (m, l) = split_location("core/tests/a.lua:12: expected 3, got 4", "core/tests/a.lua");
        assert_eq!(
            (m.as_str(), l.as_deref()),
            ("expected 3, got 4", Some("core/tests/a.lua:12"))
        );
        let (m, l) = split_location("something else", "x.lua");
        assert_eq!((m.as_str(), l), ("something else", None));
    }
}
