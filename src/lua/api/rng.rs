//! `lantern.rng(name)` and the mod's `math.random`: named streams seeded from the run seed.

use super::{Api, ModCx};
use crate::lua::bridge::with_game_mut;

/// The most named streams one mod may draw from in a run: streams live in the game, outside the
/// scripts' memory, and a save keeps each one's position.
pub const MOST_STREAMS: usize = 256;

/// The longest name of a stream.
pub const LONGEST_NAME: usize = 100;

/// Draws like Lua's `math.random`: no bounds, a float in [0, 1); `(m)`, an integer in [1, m]; `(m, n)`, in [m, n].
pub fn random(stream: &str, m: Option<i64>, n: Option<i64>) -> mlua::Result<mlua::Value> {
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

pub fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "rng",
        &[("name", "string")],
        Some("lantern.Rng"),
        "A named random stream of this mod (`lua:<mod>:<name>`), seeded from the run seed: the same seed and commands draw the same numbers in every process. `rng:int(a, b)` draws an integer in [a, b]; `rng:float()` one in [0, 1).",
        move |lua, name: String| {
            if name.len() > LONGEST_NAME {
                return Err(mlua::Error::runtime(format!(
                    "lantern.rng: a stream's name is at most {LONGEST_NAME} bytes, and this one has {}",
                    name.len()
                )));
            }
            let stream = format!("lua:{}:{name}", c.mod_id);
            let t = lua.create_table()?;
            let s = stream.clone();
            let m = c.mod_id.clone();
            t.raw_set("int", lua.create_function(move |_, (_self, a, b): (mlua::Value, i64, i64)| {
                room_for(&m, &s)?;
                random(&s, Some(a), Some(b))
            })?)?;
            let s = stream.clone();
            let m = c.mod_id.clone();
            t.raw_set("float", lua.create_function(move |_, _self: mlua::Value| {
                room_for(&m, &s)?;
                random(&s, None, None)
            })?)?;
            t.raw_set("name", stream)?;
            Ok(t)
        },
    )
}
