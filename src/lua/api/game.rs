//! `lantern.game`: a read-only view of the running game, looked up again on every access: lantern's
//! own fields, then the fields the hosting game adds (`Vocabulary::game_field`).

use super::{Api, ModCx};
use crate::game::CreatureRef;
use crate::lua::bridge::{handle, with_game};
use crate::lua::price::{charge, charged};
use mlua::{Lua, UserData, UserDataFields, UserDataMethods};

/// The view; it holds nothing, so it never outlives a reload.
pub(super) struct GameView;

/// What each entry of a list a field builds (a stack of the inventory, a quest) costs the script.
const PER_ENTRY: usize = 16;

/// A field of `lantern.game`, charged to the script that reads it like any of lantern's functions.
fn get<F, R>(
    fields: &mut F,
    name: &'static str,
    f: impl Fn(&Lua) -> mlua::Result<R> + Send + 'static,
) where
    F: UserDataFields<GameView>,
    R: mlua::IntoLua,
{
    fields.add_field_function_get(name, move |lua, _| charged(lua, || f(lua)));
}

impl UserData for GameView {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        get(fields, "player", |lua| {
            creatures("player")?;
            handle(lua, CreatureRef::Player)
        });
        get(fields, "enemies", |lua| {
            creatures("enemies")?;
            let refs: Vec<CreatureRef> = with_game(|g| g.enemies().map(|(r, _)| r).collect())?;
            let list = lua.create_table_with_capacity(refs.len(), 0)?;
            for (i, r) in refs.into_iter().enumerate() {
                list.raw_set(i + 1, handle(lua, r)?)?;
            }
            Ok(list)
        });
        get(fields, "inventory", |lua| {
            creatures("inventory")?;
            let stacks = with_game(|g| g.state().player.inventory.clone())?;
            charge(lua, PER_ENTRY * stacks.len())?;
            let list = lua.create_table()?;
            for (i, s) in stacks.iter().enumerate() {
                let t = lua.create_table()?;
                t.raw_set("item", s.item.to_string())?;
                t.raw_set("count", s.count)?;
                t.raw_set("equipped", s.equipped)?;
                let props = lua.create_table()?;
                for (k, v) in &s.properties {
                    props.raw_set(k.as_str(), *v)?;
                }
                t.raw_set("properties", props)?;
                list.raw_set(i + 1, t)?;
            }
            Ok(list)
        });
        get(fields, "quests", |lua| {
            let quests = with_game(|g| g.state().quests.clone())?;
            charge(lua, PER_ENTRY * quests.len())?;
            let t = lua.create_table()?;
            for (id, p) in quests {
                let q = lua.create_table()?;
                q.raw_set("count", p.count)?;
                q.raw_set("done", p.done)?;
                t.raw_set(id.as_str(), q)?;
            }
            Ok(t)
        });
        get(fields, "turn", |_| with_game(|g| g.state().turn));
        get(fields, "seed", |_| with_game(|g| g.seed()));
        get(fields, "in_combat", |_| with_game(|g| g.in_combat()));
        get(fields, "deck", |lua| {
            let deck: Vec<String> =
                with_game(|g| g.state().deck.iter().map(|c| c.to_string()).collect())?;
            charge(lua, PER_ENTRY * deck.len())?;
            lua.create_sequence_from(deck)
        });
        get(fields, "hazard", |lua| {
            let Some(run) = with_game(|g| g.hazard().cloned())? else {
                return Ok(mlua::Value::Nil);
            };
            let t = lua.create_table()?;
            t.raw_set("hazard", run.hazard.to_string())?;
            t.raw_set("round", run.round + 1)?;
            t.raw_set("route", run.route.map(|r| r.name()))?;
            t.raw_set("focus", run.focus)?;
            t.raw_set("dice", dice_table(lua, &run.dice)?)?;
            t.raw_set(
                "meters",
                lua.create_sequence_from(run.meters.iter().copied())?,
            )?;
            let ids =
                |v: &[crate::id::Id]| lua.create_sequence_from(v.iter().map(|c| c.to_string()));
            t.raw_set("hand", ids(&run.hand)?)?;
            t.raw_set("enchanted", ids(&run.enchanted)?)?;
            Ok(mlua::Value::Table(t))
        });
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        // Asked only for a name none of the fields above has: the game's own fields.
        methods.add_meta_function(
            mlua::MetaMethod::Index,
            |lua, (_, key): (mlua::Value, mlua::Value)| {
                charged(lua, || {
                    let Some(name) = key
                        .as_string()
                        .and_then(|s| s.to_str().ok().map(|s| s.to_string()))
                    else {
                        return Ok(mlua::Value::Nil);
                    };
                    let got = with_game(|g| {
                        let declared = &g.content().declared;
                        let at = declared.fields.iter().position(|f| f.name == name)?;
                        Some((g.code().fields[at])(g))
                    })?;
                    match got {
                        None => Ok(mlua::Value::Nil),
                        Some(Ok(json)) => {
                            // The copy is the script's, charged by its size before it is made.
                            charge(lua, crate::lua::storage::copy_cost(&json))?;
                            crate::lua::storage::from_json(lua, &json)
                        }
                        Some(Err(e)) => {
                            Err(mlua::Error::runtime(format!("lantern.game.{name}: {e}")))
                        }
                    }
                })
            },
        );
    }
}

/// Fails when the hosting game leaves out creatures and inventories
/// (`Vocabulary::without_creatures`): its player is lantern's bookkeeping, not the game's.
fn creatures(field: &str) -> mlua::Result<()> {
    let (left_out, game) = with_game(|g| {
        let declared = &g.content().declared;
        (declared.without_creatures, declared.namespace.clone())
    })?;
    if left_out {
        return Err(mlua::Error::runtime(format!(
            "lantern.game.{field}: the game `{game}` has no creatures or inventories; its own functions are `lantern.{game}.*`"
        )));
    }
    Ok(())
}

/// Where a state keeps the metatable every mod's `lantern.game` shares.
const SHARED_META: &str = "lantern.game";

/// The metatable of `lantern.game`, made once per state and shared by every mod's (charged to
/// lantern): the view, and the table of fields that never change between it and the view. No
/// script reaches it (`__metatable` hides it), so no mod can change another's view.
fn shared_meta(lua: &Lua, cx: &ModCx) -> mlua::Result<mlua::Table> {
    if let Some(meta) = lua.named_registry_value::<Option<mlua::Table>>(SHARED_META)? {
        return Ok(meta);
    }
    let _host = crate::lua::bridge::lantern_owned(lua);
    // `lantern.game` is a read-only table whose fields come from the view: the player's handle,
    // which never changes, is a plain field of it, so `lantern.game.player:count(...)` makes one
    // call into Rust, not two (issue 27: a read of the game at most 3x a bare call).
    let view = lua.create_userdata(GameView)?;
    // The fields that never change (the player's handle) sit in a table between the two, read by
    // the VM without a call; `lantern.game` itself stays empty, so every write reaches
    // `__newindex` and is refused.
    let fixed = lua.create_table()?;
    if !cx.shared.borrow().rules.defs().without_creatures {
        fixed.raw_set("player", handle(lua, CreatureRef::Player)?)?;
    }
    let to_view = lua.create_table()?;
    to_view.raw_set("__index", view)?;
    fixed.set_metatable(Some(to_view))?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", fixed)?;
    meta.raw_set(
        "__newindex",
        crate::lua::price::function(lua, |_, (_, key): (mlua::Value, mlua::Value)| {
            let key = key.to_string().unwrap_or_default();
            Err::<(), _>(mlua::Error::runtime(format!(
                "lantern.game is read-only: `{}` cannot be set",
                crate::diag::shown(&key)
            )))
        })?,
    )?;
    meta.raw_set("__metatable", "lantern.game")?;
    lua.set_named_registry_value(SHARED_META, &meta)?;
    Ok(meta)
}

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    api.field(
        "game",
        "lantern.Game",
        "A read-only view of the running game: `player` and `enemies` (creature handles), `inventory`, `quests` (`{[id] = {count, done}}`), `turn`, `seed`, `in_combat`, `deck` (the personal deck's card IDs), `hazard` (the hazard being played, or nil: `{hazard, round, route, focus, dice = {{face, state}}, meters, hand, enchanted}`, a face being a colour or `\"x\"`; change a die with the action `set_die`), and the fields the hosting game adds (`Vocabulary::game_field`, listed on `lantern.Game`). Every access reads the current state.",
        // Each mod's own empty table (a `rawset` into it reaches no other mod's), over the
        // shared metatable.
        |lua| {
            let game = lua.create_table()?;
            game.set_metatable(Some(shared_meta(lua, cx)?))?;
            Ok(game)
        },
    )
}

/// A hazard run's dice as scripts and tests read them: each its face (a colour, or "x": the names
/// `set_die` takes) and its state, in order.
pub(crate) fn dice_table(lua: &Lua, dice: &[crate::hazard::Die]) -> mlua::Result<mlua::Table> {
    let t = lua.create_table()?;
    for (i, d) in dice.iter().enumerate() {
        let die = lua.create_table()?;
        let face = match d.face {
            crate::hazard::Face::Color(c) => c.name(),
            crate::hazard::Face::X => "x",
        };
        die.raw_set("face", face)?;
        die.raw_set("state", d.state.name())?;
        t.raw_set(i + 1, die)?;
    }
    Ok(t)
}
