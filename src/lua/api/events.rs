//! `lantern.on`, `lantern.on_reload` and `lantern.on_update` (and `emit_event`, in
//! [`super::emit`]).

use super::{registered_by, while_loading, within, Api, ModCx, MOST_HANDLERS, MOST_REGISTERED};

use crate::lua::Handler;
use mlua::Function;

pub(super) fn register(api: &mut Api, cx: &ModCx) -> mlua::Result<()> {
    api.bound(
        cx,
        "on",
        &[("event", "string"), ("handler", "fun(ev: lantern.Event)")],
        None,
        "Calls `handler` for every event of that name (an engine event such as `creature_died`, or a declared custom event; a bare name means this mod's). Handlers run after the native triggers and quests of the event, in mod load order, then registration order. Only while the mod loads.",
        |lua, c, (event, func): (String, Function)| {
            while_loading(c, "lantern.on")?;
            within(c, "lantern.on", "handlers", MOST_HANDLERS, |s, m| s.handler_counts.get(m).copied().unwrap_or(0))?;
            let site = crate::lua::report::call_site(lua);
            let mut shared = c.shared.borrow_mut();
            *shared.handler_counts.entry(c.mod_id.clone()).or_default() += 1;
            shared.handlers.push(Handler::new(&c.mod_id, c.owner, event, func, site));
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
            within(&c, "lantern.on_reload", "actions, checks and on_reload handlers", MOST_REGISTERED, registered_by)?;
            c.shared.borrow_mut().on_reload.push((c.mod_id.to_string(), func));
            Ok(())
        },
    )?;
    let c = cx.clone();
    api.function(
        "on_update",
        &[("hook", "fun(from: string|nil, to: string)")],
        None,
        "Called once, before any handler, when a save made with another version of this mod is loaded: `from` is the version the save was made with (nil when the mod is new to the save), `to` this one. It may change `lantern.storage` to the new version's shape; what it changed is said in one line. Only while the mod loads.",
        move |_, func: Function| {
            while_loading(&c, "lantern.on_update")?;
            within(&c, "lantern.on_update", "actions, checks, exposed functions and hooks", MOST_REGISTERED, registered_by)?;
            let mut shared = c.shared.borrow_mut();
            if shared.on_update.iter().any(|(m, _)| **m == *c.mod_id) {
                return Err(mlua::Error::runtime("lantern.on_update: a mod registers one update hook"));
            }
            shared.on_update.push((c.mod_id.to_string(), func));
            Ok(())
        },
    )?;
    Ok(())
}
