//! `lantern.rng(name)` and the mod's `math.random`: named streams seeded from the run seed.

use super::{Api, ModCx};
use crate::lua::bridge::with_game_mut;

/// The most named streams one mod may draw from in a run: streams live in the game, outside the
/// scripts' memory, and a save keeps each one's position.
pub(super) const MOST_STREAMS: usize = 256;

/// The longest name of a stream.
pub(super) const LONGEST_NAME: usize = 100;

/// Draws like Lua's `math.random`: no bounds, a float in [0, 1); `(m)`, an integer in [1, m]; `(m, n)`, in [m, n].
pub(crate) fn random(stream: &str, m: Option<i64>, n: Option<i64>) -> mlua::Result<mlua::Value> {
    let (lo, hi) = match (m, n) {
        (None, _) => {
            let r = with_game_mut(|g| g.rng_mut().roll(stream))?;
            return Ok(mlua::Value::Number(r));
        }
        (Some(m), None) => (1, m),
        (Some(m), Some(n)) => (m, n),
    };
    if lo > hi {
        return Err(mlua::Error::runtime(format!(
            "random: the interval [{lo}, {hi}] is empty"
        )));
    }
    let pick = with_game_mut(|g| g.rng_mut().between(stream, lo, hi))?;
    Ok(mlua::Value::Integer(pick))
}

/// Fails when drawing from `stream` would give the mod `mod_id` more than [`MOST_STREAMS`].
fn room_for(mod_id: &str, stream: &str) -> mlua::Result<()> {
    let prefix = format!("lua:{mod_id}:");
    with_game_mut(|g| {
        let streams = g.rng_mut();
        if streams.has(stream) || streams.count_starting(&prefix) < MOST_STREAMS {
            Ok(())
        } else {
            Err(mlua::Error::runtime(format!(
                "lantern.rng: a mod may draw from at most {MOST_STREAMS} named streams in a run, and `{mod_id}` has"
            )))
        }
    })?
}

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function_with(
        "rng",
        &[("name", "string")],
        Some("lantern.Rng"),
        "A named random stream of this mod (`lua:<mod>:<name>`), seeded from the run seed: the same seed and commands draw the same numbers in every process. `rng:int(a, b)` draws an integer in [a, b]; `rng:float()` one in [0, 1).",
        |lua| {
            let meta = handle_meta(lua, &c.mod_id)?;
            Ok(move |lua: &mlua::Lua, name: String| {
                let stream = format!("lua:{}:{}", c.mod_id, checked_name(&name)?);
                let t = lua.create_table_with_capacity(0, 1)?;
                t.raw_set("name", stream)?;
                t.set_metatable(Some(meta.clone()))?;
                Ok(t)
            })
        },
    )
}

/// The metatable of a mod's stream handles: one pair of methods per mod, shared by its handles.
/// A handle is a plain table (its name), so `lantern.rng(name)` in a handler leaves no garbage
/// with a finalizer behind (mlua's functions have one, and Lua's collector frees those a cycle
/// late).
fn handle_meta(lua: &mlua::Lua, mod_id: &str) -> mlua::Result<mlua::Table> {
    let methods = lua.create_table()?;
    let m = mod_id.to_string();
    methods.raw_set(
        "int",
        crate::lua::price::function(lua, move |_, (this, a, b): (mlua::Table, i64, i64)| {
            let stream = stream_of(&m, &this)?;
            room_for(&m, &stream)?;
            random(&stream, Some(a), Some(b))
        })?,
    )?;
    let m = mod_id.to_string();
    methods.raw_set(
        "float",
        crate::lua::price::function(lua, move |_, this: mlua::Table| {
            let stream = stream_of(&m, &this)?;
            room_for(&m, &stream)?;
            random(&stream, None, None)
        })?,
    )?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", methods)?;
    meta.raw_set("__metatable", false)?;
    Ok(meta)
}

/// A stream's name as a script gives it, if it is not too long.
fn checked_name(name: &str) -> mlua::Result<&str> {
    if name.len() > LONGEST_NAME {
        return Err(mlua::Error::runtime(format!(
            "lantern.rng: a stream's name is at most {LONGEST_NAME} bytes, and this one has {}",
            name.len()
        )));
    }
    Ok(name)
}

/// The stream a handle draws from: always one of the mod's own, whatever a script wrote into it.
fn stream_of(mod_id: &str, handle: &mlua::Table) -> mlua::Result<String> {
    let name: String = handle.raw_get("name").unwrap_or_default();
    let own = format!("lua:{mod_id}:");
    match name.strip_prefix(&own) {
        Some(rest) => Ok(format!("{own}{}", checked_name(rest)?)),
        None => Err(mlua::Error::runtime(
            "rng:int and rng:float are called on a stream from lantern.rng(name), with `:`",
        )),
    }
}
