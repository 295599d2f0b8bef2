//! A creature of a test game as a test holds it: `g.player`, or what `g:spawn` returned, with
//! its fields (`ref`, `health`, `name`, `alive`) and methods (`count`, `attribute`, `property`).

use super::test_game::{known, located, reading, reading_field, TestGame};
use crate::game::CreatureRef;
use crate::lua::bridge::ref_name;
use mlua::{
    AnyUserData, FromLuaMulti, Lua, MultiValue, ObjectLike, UserData, UserDataFields,
    UserDataMethods, Value,
};

/// A creature of a test game: `g.player`, or what `g:spawn` returned.
pub(super) struct Creature {
    pub(super) owner: AnyUserData,
    pub(super) r: CreatureRef,
}

/// `g:spawn(creature)`: a creature in the room, as a handle; in a game without creatures, the
/// game's own verb `spawn` ([`verb_without_creatures`]).
pub(super) fn spawn_creature(
    lua: &Lua,
    (this, args): (AnyUserData, MultiValue),
) -> mlua::Result<Value> {
    if let Some(done) = verb_without_creatures(lua, &this, "spawn", args.clone())? {
        return Ok(done);
    }
    let creature = String::from_lua_multi(args, lua)?;
    let r = {
        let mut g = this.borrow_mut::<TestGame>()?;
        let creature = known(lua, &g, |c| &c.creatures, &creature, "creature")?;
        let r = g
            .game
            .spawn(&creature)
            .map_err(|e| located(lua, e.into()))?;
        g.flush();
        r
    };
    lua.create_userdata(Creature { owner: this, r })
        .map(Value::UserData)
}

impl UserData for Creature {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get(
            "ref",
            reading_field(|_, this: &Creature| Ok(ref_name(this.r))),
        );
        fields.add_field_method_get(
            "health",
            reading_field(|_, this: &Creature| {
                this.owner
                    .borrow::<TestGame>()
                    .map(|g| g.game.creature(this.r).map(|c| c.health))
            }),
        );
        fields.add_field_method_get(
            "name",
            reading_field(|_, this: &Creature| {
                this.owner.borrow::<TestGame>().map(|g| {
                    g.game
                        .creature(this.r)
                        .map(|c| c.name.unescaped().to_string())
                })
            }),
        );
        fields.add_field_method_get(
            "alive",
            reading_field(|_, this: &Creature| {
                this.owner
                    .borrow::<TestGame>()
                    .map(|g| g.game.creature(this.r).is_some_and(|c| c.alive()))
            }),
        );
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method(
            "count",
            reading(|lua, this: &Creature, item: String| {
                let g = this.owner.borrow::<TestGame>()?;
                let item = known(lua, &g, |c| &c.items, &item, "item")?;
                Ok(g.game.creature(this.r).map_or(0, |c| c.count(&item)))
            }),
        );
        methods.add_method(
            "attribute",
            reading(|lua, this: &Creature, name: String| {
                crate::content::vocab::known_attribute(&name).map_err(|e| located(lua, e))?;
                this.owner
                    .borrow::<TestGame>()
                    .map(|g| g.game.attribute(this.r, &name, None))
            }),
        );
        methods.add_method(
            "property",
            reading(|lua, this: &Creature, (item, property): (String, String)| {
                let g = this.owner.borrow::<TestGame>()?;
                let item = known(lua, &g, |c| &c.items, &item, "item")?;
                Ok(g.game.creature(this.r).and_then(|c| {
                    c.inventory
                        .iter()
                        .find(|s| s.item == item)
                        .and_then(|s| s.properties.get(&property).copied())
                }))
            }),
        );
        methods.add_meta_method("__tostring", |_, this, ()| Ok(ref_name(this.r)));
    }
}

/// A test game's creature call (`g:spawn`) in a game without creatures: the game's own verb of
/// that name, when it declares one (a tower defense's `spawn` of a wave), else an error that
/// says there are no creatures. `None` in a game with creatures: the test game's own call runs.
fn verb_without_creatures(
    lua: &Lua,
    this: &AnyUserData,
    name: &str,
    args: MultiValue,
) -> mlua::Result<Option<Value>> {
    let (without, declared) = {
        let g = this.borrow::<TestGame>()?;
        let d = &g.game.content().declared;
        (d.without_creatures, d.verbs.contains_key(name))
    };
    match (without, declared) {
        (false, _) => Ok(None),
        (true, true) => {
            let mut forwarded = MultiValue::new();
            forwarded.push_back(Value::String(lua.create_string(name)?));
            forwarded.extend(args);
            this.call_method::<()>("verb", forwarded)?;
            Ok(Some(Value::Nil))
        }
        (true, false) => Err(located(
            lua,
            format!("g:{name}: this game has no creatures, and declares no verb `{name}`"),
        )),
    }
}
