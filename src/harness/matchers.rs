//! The matchers of `expect(x)`: `to_be`, `to_equal` (deep), `to_be_near`, `to_contain` and
//! `to_fail_with`, each failing at the test's line with what it expected and what it got.
//!
//! A test compares what it built, and some tests are hostile: every walk over a value is charged
//! to the test's budget entry by entry and goes at most [`DEEPEST`] tables down (a comparison of
//! two 200,000-deep tables overflowed the native stack and killed the run), and what a failure
//! shows is cut before it is made (`shown`).

use super::shown::{excerpt, quoted, seen_through, show, ENTRY};
use mlua::{Lua, Table, Value};

/// How deep into tables `to_equal` and `to_contain` compare. Tables that hold themselves compare
/// at any depth: a pair met again on the way down is taken as equal.
pub(super) const DEEPEST: usize = 100;

fn arg(args: &mlua::MultiValue, i: usize) -> Value {
    args.get(i).cloned().unwrap_or(Value::Nil)
}

pub(super) fn to_be(lua: &Lua, actual: &Value, args: mlua::MultiValue) -> mlua::Result<()> {
    let expected = arg(&args, 0);
    if same(actual, &expected) {
        Ok(())
    } else if let (Value::Table(_), Value::Table(_)) = (actual, &expected) {
        // Two tables are never the same one here: what was meant is their contents.
        Err(failure(
            lua,
            format!(
                "to_be asks whether two values are the same one, and these are two tables \
                 ({} and {}); compare their contents with to_equal",
                show(lua, &expected)?,
                show(lua, actual)?
            ),
        ))
    } else {
        Err(failure(
            lua,
            format!(
                "expected {}, got {}",
                show(lua, &expected)?,
                show(lua, actual)?
            ),
        ))
    }
}

pub(super) fn to_equal(lua: &Lua, actual: &Value, args: mlua::MultiValue) -> mlua::Result<()> {
    let expected = arg(&args, 0);
    if deep_equal(lua, actual, &expected)? {
        Ok(())
    } else {
        Err(failure(
            lua,
            format!(
                "expected {}, got {}",
                show(lua, &expected)?,
                show(lua, actual)?
            ),
        ))
    }
}

fn number(v: &Value) -> Option<f64> {
    v.as_number().or(v.as_integer().map(|i| i as f64))
}

pub(super) fn to_be_near(lua: &Lua, actual: &Value, args: mlua::MultiValue) -> mlua::Result<()> {
    let expected =
        number(&arg(&args, 0)).ok_or_else(|| failure(lua, "to_be_near needs a number".into()))?;
    let tolerance = number(&arg(&args, 1)).unwrap_or(1e-9);
    match number(actual) {
        Some(a) if (a - expected).abs() <= tolerance => Ok(()),
        _ => Err(failure(
            lua,
            format!(
                "expected {expected} (within {tolerance}), got {}",
                show(lua, actual)?
            ),
        )),
    }
}

pub(super) fn to_contain(lua: &Lua, actual: &Value, args: mlua::MultiValue) -> mlua::Result<()> {
    let needle = arg(&args, 0);
    let actual = &seen_through(actual);
    let found = match (actual, &needle) {
        (Value::String(hay), Value::String(n)) => {
            let (hay, n) = (hay.as_bytes(), n.as_bytes());
            crate::lua::price::charge_bytes(lua, hay.len() + n.len())?;
            memchr::memmem::find(&hay, &n).is_some()
        }
        (Value::Table(t), n) => {
            let mut found = false;
            for pair in t.clone().pairs::<Value, Value>() {
                crate::lua::price::charge(lua, ENTRY)?;
                let Ok((_, v)) = pair else { continue };
                if deep_equal(lua, &v, n)? {
                    found = true;
                    break;
                }
            }
            found
        }
        _ => false,
    };
    if found {
        Ok(())
    } else {
        Err(failure(
            lua,
            format!(
                "expected {} to contain {}",
                show(lua, actual)?,
                show(lua, &needle)?
            ),
        ))
    }
}

pub(super) fn to_fail_with(lua: &Lua, actual: &Value, args: mlua::MultiValue) -> mlua::Result<()> {
    let pattern = match arg(&args, 0) {
        Value::String(s) => s,
        other => {
            return Err(failure(
                lua,
                format!("to_fail_with needs a pattern, got {}", show(lua, &other)?),
            ))
        }
    };
    let Value::Function(f) = actual else {
        return Err(failure(
            lua,
            format!("to_fail_with needs a function, got {}", show(lua, actual)?),
        ));
    };
    let shown_pattern = || quoted(&pattern.as_bytes());
    match f.call::<()>(()) {
        Ok(()) => Err(failure(
            lua,
            format!(
                "expected an error matching {}, but it succeeded",
                shown_pattern()
            ),
        )),
        Err(e) => {
            let message = crate::lua::describe(&e).0;
            crate::lua::price::charge_bytes(lua, message.len())?;
            let find: mlua::Function = lua.globals().get::<Table>("string")?.get("find")?;
            let matched: Value = find.call((message.as_str(), pattern.clone()))?;
            if matched.is_nil() {
                Err(failure(
                    lua,
                    format!(
                        "expected an error matching {}, got: {}",
                        shown_pattern(),
                        excerpt(&message)
                    ),
                ))
            } else {
                Ok(())
            }
        }
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Integer(x), Value::Number(y)) | (Value::Number(y), Value::Integer(x)) => {
            (*x as f64) == *y
        }
        (Value::String(x), Value::String(y)) => x.as_bytes() == y.as_bytes(),
        _ => a == b,
    }
}

/// `file:line: message` at the Lua line that called the matcher.
pub(super) fn failure(lua: &Lua, message: String) -> mlua::Error {
    let at = crate::lua::report::call_site(lua)
        .map(|(f, l)| format!("{f}:{l}: "))
        .unwrap_or_default();
    mlua::Error::runtime(format!("{at}{message}"))
}

/// Equality through tables, key by key, at most [`DEEPEST`] tables down (past that, an error at
/// the test's line). Tables that hold themselves compare equal when their shapes do (a pair of
/// tables met again on the way down is taken as equal), and the comparison is charged to the
/// test's budget entry by entry, so a test cannot hang or crash the run by comparing what it
/// built.
pub(super) fn deep_equal(lua: &Lua, a: &Value, b: &Value) -> mlua::Result<bool> {
    let mut path = Vec::new();
    deep_equal_in(lua, a, b, &mut path)
}

fn deep_equal_in(
    lua: &Lua,
    a: &Value,
    b: &Value,
    path: &mut Vec<(usize, usize)>,
) -> mlua::Result<bool> {
    let (a, b) = (seen_through(a), seen_through(b));
    let (Value::Table(x), Value::Table(y)) = (&a, &b) else {
        return Ok(same(&a, &b));
    };
    let pair = (x.to_pointer() as usize, y.to_pointer() as usize);
    if path.contains(&pair) {
        return Ok(true);
    }
    if path.len() >= DEEPEST {
        return Err(failure(
            lua,
            format!(
                "these tables are nested more than {DEEPEST} deep, deeper than a test compares: \
                 compare a part of them"
            ),
        ));
    }
    let mut xs = Vec::new();
    for pair in x.clone().pairs::<Value, Value>() {
        crate::lua::price::charge(lua, ENTRY)?;
        xs.extend(pair.ok());
    }
    let mut ys = 0usize;
    for pair in y.clone().pairs::<Value, Value>() {
        crate::lua::price::charge(lua, ENTRY)?;
        ys += usize::from(pair.is_ok());
    }
    if xs.len() != ys {
        return Ok(false);
    }
    path.push(pair);
    for (k, v) in &xs {
        let w: Value = y.raw_get(k.clone())?;
        if !deep_equal_in(lua, v, &w, path)? {
            path.pop();
            return Ok(false);
        }
    }
    path.pop();
    Ok(true)
}
