//! Using an item the player carries, and talking to the room's NPC: each runs content's action
//! list (the item's `use`, the NPC's `talk`) through the door.

use super::world::Room;
use super::VerbResult;
use crate::content::Value;
use crate::game::{CreatureRef, Ctx, Game};
use crate::id::Id;

impl Game {
    /// Uses an item the player carries: its `use` actions, then one is used up if it is consumable.
    pub fn use_item(&mut self, item: &Id) -> VerbResult {
        self.ready()?;
        let content = self.content().clone();
        let Some(def) = content.items.get(item) else {
            return Err(crate::Error::Refused(format!("there is no item `{item}`")));
        };
        if self.state().player.count(item) == 0 {
            return Err(crate::Error::Refused(format!("you have no {}", def.name)));
        }
        let Some(actions) = &def.on_use else {
            return Err(crate::Error::Refused(format!(
                "{} cannot be used",
                def.name
            )));
        };
        self.begin_turn();
        let target = self.enemies().next().map(|(r, _)| r);
        let (cause, stream) = (format!("use {item}"), format!("use:{item}"));
        let ctx = Ctx {
            target,
            ..Ctx::player(&cause, &stream)
        };
        self.apply_list(actions, &ctx).map_err(|d| d.message)?;
        if def.consumable {
            self.consume(CreatureRef::Player, item, 1);
        }
        self.say(format!("You use {}.", def.name));
        self.raise("item_used", &[("item", Value::id(item))])?;
        self.enemies_answer();
        Ok(self.end_turn())
    }

    /// Talks to the room's NPC: `npc_talked`, then the NPC's `talk` actions.
    pub fn talk(&mut self) -> VerbResult {
        self.ready()?;
        let content = self.content().clone();
        let npc = self
            .current_room()
            .and_then(|r| content.entry::<Room>("room", &r))
            .and_then(|r| r.npc.as_deref().and_then(Id::qualified))
            .ok_or("there is nobody to talk to")?;
        let def = content.creatures.get(&npc).ok_or("the NPC is gone")?;
        self.begin_turn();
        self.say(format!("You talk to {}.", def.name));
        if let Some(talk) = &def.talk {
            let (cause, stream) = (format!("talk {npc}"), format!("talk:{npc}"));
            let ctx = Ctx::player(&cause, &stream);
            self.apply_list(talk, &ctx).map_err(|d| d.message)?;
        }
        self.raise("npc_talked", &[("npc", Value::id(&npc))])?;
        Ok(self.end_turn())
    }
}
