//! A test game's methods for the card-and-dice hazard game: `g:start_hazard`, `g:route`,
//! `g:play`, `g:end_round`, `g:dev_card` drive it and `g:hazard()` reads it, as the hazard
//! chapter of the guide shows them.

use super::test_game::{check, driving, id, known, reading, TestGame};
use mlua::{UserDataMethods, Value};

/// Adds the hazard game's methods to a test game.
pub(super) fn hazard_methods<M: UserDataMethods<TestGame>>(methods: &mut M) {
    methods.add_method_mut(
        "start_hazard",
        driving(|lua, this, h: String| {
            let h = known(lua, this, |c| &c.hazards, &h, "hazard")?;
            let r = this.game.start_hazard(&h);
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "route",
        driving(|lua, this, (route, progress): (String, Option<String>)| {
            let route = match route.as_str() {
                "safe" => crate::hazard::Route::Safe,
                "risk" => crate::hazard::Route::Risk,
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "`{other}` is not a route: `safe` or `risk`"
                    )))
                }
            };
            let progress = progress.map(|p| id(&p, &this.home)).transpose()?;
            let r = this.game.choose_route(route, progress.as_ref());
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "play",
        driving(|lua, this, (n, side): (usize, Option<String>)| {
            let side = match side.as_deref().unwrap_or("top") {
                "top" => crate::hazard::Side::Top,
                "bottom" => crate::hazard::Side::Bottom,
                other => {
                    return Err(mlua::Error::runtime(format!(
                        "`{other}` is not a side: `top` or `bottom`"
                    )))
                }
            };
            let r = this.game.play_card(n.saturating_sub(1), side);
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "end_round",
        driving(|lua, this, ()| {
            let r = this.game.end_hazard_round();
            this.flush();
            check(lua, r)
        }),
    );
    methods.add_method_mut(
        "dev_card",
        driving(|_, this, card: String| {
            this.game
                .dev_card(&id(&card, &this.home)?)
                .map_err(mlua::Error::runtime)
        }),
    );
    methods.add_method(
        "hazard",
        reading(|lua, this: &TestGame, ()| match this.game.hazard() {
            Some(run) => hazard_table(lua, run).map(Value::Table),
            None => Ok(Value::Nil),
        }),
    );
}

/// `g:hazard()`'s table: the run's hazard, round, route, hand, deck and discard sizes, enchanted
/// cards, meters, focus, marks and dice, as the hazard chapter of the guide reads them.
fn hazard_table(lua: &mlua::Lua, run: &crate::hazard::HazardRun) -> mlua::Result<mlua::Table> {
    let t = lua.create_table()?;
    t.raw_set("id", run.hazard.to_string())?;
    t.raw_set("round", run.round + 1)?;
    t.raw_set("route", run.route.map(|r| r.name()))?;
    t.raw_set(
        "hand",
        lua.create_sequence_from(run.hand.iter().map(|c| c.to_string()))?,
    )?;
    t.raw_set("deck", run.deck.len())?;
    t.raw_set("discard", run.discard.len())?;
    t.raw_set(
        "enchanted",
        lua.create_sequence_from(run.enchanted.iter().map(|c| c.to_string()))?,
    )?;
    t.raw_set(
        "meters",
        lua.create_sequence_from(run.meters.iter().copied())?,
    )?;
    t.raw_set("focus", run.focus)?;
    t.raw_set(
        "marks",
        run.marks
            .iter()
            .map(|m| if *m { 'O' } else { 'X' })
            .collect::<String>(),
    )?;
    t.raw_set("dice", crate::lua::api::dice_table(lua, &run.dice)?)?;
    Ok(t)
}
