//! `lantern.rng(name)` and the mod's `math.random`: named streams seeded from the run seed.

use super::{Api, ModCx};
use crate::lua::bridge::with_game_mut;

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
    let span = (hi - lo + 1) as usize;
    let pick = with_game_mut(|g| g.rng_mut().below(stream, span))?;
    Ok(mlua::Value::Integer(lo + pick as i64))
}

pub fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "rng",
        &[("name", "string")],
        Some("lantern.Rng"),
        "A named random stream of this mod (`lua:<mod>:<name>`), seeded from the run seed: the same seed and commands draw the same numbers in every process. `rng:int(a, b)` draws an integer in [a, b]; `rng:float()` one in [0, 1).",
        move |lua, name: String| {
            let stream = format!("lua:{}:{name}", c.mod_id);
            let t = lua.create_table()?;
            let s = stream.clone();
            t.raw_set("int", lua.create_function(move |_, (_self, a, b): (mlua::Value, i64, i64)| random(&s, Some(a), Some(b)))?)?;
            let s = stream.clone();
            t.raw_set("float", lua.create_function(move |_, _self: mlua::Value| random(&s, None, None))?)?;
            t.raw_set("name", stream)?;
            Ok(t)
        },
    )
}
