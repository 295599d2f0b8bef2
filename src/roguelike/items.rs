//! Using an item the player carries, and talking to the room's NPC: each runs content's action
//! list (the item's `use`, the NPC's `talk`) through the door.

use super::world;
use super::world::Room;
use super::VerbResult;
use crate::content::Value;
use crate::game::{CreatureRef, Ctx, Game};
use crate::id::Id;

/// Uses an item the player carries: its `use` actions, then one is used up if it is consumable.
pub(crate) fn use_item(g: &mut Game, item: &Id) -> VerbResult {
    g.ready()?;
    let content = g.content().clone();
    let Some(def) = content.items.get(item) else {
        return Err(crate::Error::Refused(format!("there is no item `{item}`")));
    };
    if g.state().player.count(item) == 0 {
        return Err(crate::Error::Refused(format!("you have no {}", def.name)));
    }
    let Some(actions) = &def.on_use else {
        return Err(crate::Error::Refused(format!(
            "{} cannot be used",
            def.name
        )));
    };
    g.begin_turn();
    let target = g.enemies().next().map(|(r, _)| r);
    let (cause, stream) = (format!("use {item}"), format!("use:{item}"));
    let ctx = Ctx {
        target,
        ..Ctx::player(&cause, &stream)
    };
    g.apply_list(actions, &ctx).map_err(|d| d.message)?;
    if def.consumable {
        g.consume(CreatureRef::Player, item, 1);
    }
    world::say(g, "you_use", &[("item", (&def.name).into())]);
    g.raise("item_used", &[("item", Value::id(item))])?;
    super::combat::enemies_answer(g);
    Ok(g.end_turn())
}

/// Talks to the room's NPC: `npc_talked`, then the NPC's `talk` actions.
pub(crate) fn talk(g: &mut Game) -> VerbResult {
    g.ready()?;
    let content = g.content().clone();
    let npc = super::rooms::current_room(g)
        .and_then(|r| content.entry::<Room>("room", &r))
        .and_then(|r| r.npc.as_deref().and_then(Id::qualified))
        .ok_or_else(|| world::text(g, "nobody_to_talk_to", &[]))?;
    let def = content.creatures.get(&npc).ok_or("the NPC is gone")?;
    g.begin_turn();
    world::say(g, "you_talk_to", &[("npc", (&def.name).into())]);
    if let Some(talk) = &def.talk {
        let (cause, stream) = (format!("talk {npc}"), format!("talk:{npc}"));
        let ctx = Ctx::player(&cause, &stream);
        g.apply_list(talk, &ctx).map_err(|d| d.message)?;
    }
    g.raise("npc_talked", &[("npc", Value::id(&npc))])?;
    Ok(g.end_turn())
}
