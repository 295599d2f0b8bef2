//! `lantern.on`, `lantern.emit_event` and `lantern.on_reload`.

use super::{call_site, while_loading, Api, ModCx};
use crate::lua::bridge::{from_lua, with_game_mut, Creature};
use crate::lua::Handler;
use mlua::{AnyUserData, Function, Table, Value as LuaValue};

pub fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    let c = cx.clone();
    api.function(
        "on",
        &[("event", "string"), ("handler", "fun(ev: lantern.Event)")],
        None,
        "Calls `handler` for every event of that name (an engine event such as `creature_died`, or a declared custom event; a bare name means this mod's). Handlers run after the native triggers and quests of the event, in mod load order, then registration order. Only while the mod loads.",
        move |lua, (event, func): (String, Function)| {
            while_loading(&c, "lantern.on")?;
            let site = call_site(lua);
            c.shared.borrow_mut().handlers.push(Handler::new(&c.mod_id, event, func, site));
            Ok(())
        },
    )?;
    let c = cx.clone();
    api.function(
        "on_reload",
        &[("handler", "fun(old_storage: table): table|nil")],
        None,
        "Called once after a hot reload replaced this mod's scripts, with the storage kept from before; return a table to replace the storage (a migration). Only while the mod loads.",
        move |_, func: Function| {
            while_loading(&c, "lantern.on_reload")?;
            c.shared.borrow_mut().on_reload.push((c.mod_id.clone(), func));
            Ok(())
        },
    )?;
    let c = cx.clone();
    // What the event log and the loop report name as the cause of events this mod emits.
    let cause: std::rc::Rc<str> = format!("lua:{}", cx.mod_id).into();
    // A bare name is looked up as this mod's: `<mod>:` is written here once and the name appended
    // per call, so emitting allocates no text.
    let qualified = std::cell::RefCell::new(format!("{}:", cx.mod_id));
    let prefix = qualified.borrow().len();
    api.function(
        "emit_event",
        &[("event", "string"), ("payload", "table?"), ("opts", "{source: lantern.Creature?, target: lantern.Creature?}?")],
        None,
        "Queues an event on the same first-in-first-out queue as engine events (it counts against the same cap of 100 per turn). The payload is checked against the event's `[[event_types]]` declaration. The source is the player unless `opts.source` says otherwise.",
        move |_lua, (event, payload, opts): (mlua::String, Option<Table>, Option<Table>)| {
            // Names are read in place from the Lua strings, not copied.
            let event = event.to_str()?;
            let event: &str = &event;
            let (kind, values) = {
                let shared = c.shared.borrow();
                let content = shared.content.as_ref().ok_or_else(|| mlua::Error::runtime("lantern.emit_event works only while the game runs"))?;
                let kind = content
                    .events
                    .lookup(event)
                    .or_else(|| {
                        (!event.contains(':')).then(|| {
                            let mut name = qualified.borrow_mut();
                            name.truncate(prefix);
                            name.push_str(event);
                            content.events.lookup(&name)
                        }).flatten()
                    })
                    .ok_or_else(|| {
                        let help = crate::diag::did_you_mean(event, content.events.names()).unwrap_or_else(|| "declare it with [[event_types]]".into());
                        mlua::Error::runtime(format!("lantern.emit_event: unknown event `{event}`; {help}"))
                    })?;
                let def = content.events.get(kind);
                let mut values = Vec::new();
                if let Some(payload) = payload {
                    // `for_each` walks the table with the key left on the stack; `pairs` made a
                    // reference to each key as well, a fifth of the call.
                    payload.for_each(|key: mlua::String, value: LuaValue| {
                        // Compared as bytes: checking the key is UTF-8 first cost more than the
                        // comparison; a key that matches no field is named in the error.
                        let key = key.as_bytes();
                        let key_text = || String::from_utf8_lossy(&key).into_owned();
                        let index = def.payload.iter().position(|(n, _)| n.as_bytes() == &key[..]).ok_or_else(|| {
                            let names: Vec<&str> = def.payload.iter().map(|(n, _)| n.as_str()).collect();
                            mlua::Error::runtime(format!("lantern.emit_event: event `{}` has no payload field `{}` (it has: {})", def.name, key_text(), names.join(", ")))
                        })?;
                        let ty = def.payload[index].1;
                        let v = from_lua(&value)
                            .filter(|v| v.fits(ty))
                            .ok_or_else(|| mlua::Error::runtime(format!("lantern.emit_event: `{}` of `{}` must be of type `{}`, not `{}`", key_text(), def.name, ty.name(), value.type_name())))?;
                        values.push((index, v));
                        Ok(())
                    })?;
                }
                (kind, values)
            };
            let handle = |name: &str| -> mlua::Result<Option<crate::game::CreatureRef>> {
                match opts.as_ref().map(|o| o.raw_get::<LuaValue>(name)).transpose()? {
                    Some(LuaValue::UserData(ud)) => Ok(Some(handle_of(&ud)?)),
                    None | Some(LuaValue::Nil) => Ok(None),
                    Some(_) => Err(mlua::Error::runtime(format!("opts.{name} must be a creature handle such as ev.source"))),
                }
            };
            let source = handle("source")?.unwrap_or(crate::game::CreatureRef::Player);
            let target = handle("target")?;
            with_game_mut(|g| g.emit(kind, source, target, &values, Some(cause.clone())))?.map_err(mlua::Error::runtime)
        },
    )?;
    Ok(())
}

pub fn handle_of(ud: &AnyUserData) -> mlua::Result<crate::game::CreatureRef> {
    ud.borrow::<Creature>()
        .map(|h| h.0)
        .map_err(|_| mlua::Error::runtime("expected a creature handle"))
}
