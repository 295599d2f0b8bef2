//! Entering the next room (and the next floor when this one is done): its loot, its enemies, its
//! NPC, its encounter or its hazard.

use super::VerbResult;
use crate::content::{Action, ActionEntry, ActionList, RoomKind, Value, Who};
use crate::game::{Creature, Ctx, Game, Position};

impl Game {
    /// Enters the next room (and the next floor when this one is done).
    pub fn enter_next_room(&mut self) -> VerbResult {
        self.ready()?;
        if self.in_combat() {
            return Err("you cannot leave during a fight; `attack` or `flee`".into());
        }
        if self.encounter().is_some() {
            return Err("choose an option of the encounter first (`choose N`)".into());
        }
        if self.hazard().is_some() {
            return Err(
                "the hazard is not over: choose a route, `play` cards and `end` rounds".into(),
            );
        }
        let content = self.content().clone();
        let pos = self.state().position.clone();
        let (mut floor, mut room) = (pos.floor, pos.room.map_or(0, |r| r + 1));
        let entering_floor = pos.room.is_none()
            || content
                .run
                .get(floor)
                .and_then(|f| content.floors.get(f))
                .is_none_or(|f| room >= f.rooms.len());
        if pos.room.is_some() && entering_floor {
            floor += 1;
            room = 0;
        }
        let Some(floor_def) = content.run.get(floor).and_then(|f| content.floors.get(f)) else {
            return Err("the run is complete: there is no room left".into());
        };
        let Some(room_id) = floor_def.rooms.get(room).cloned() else {
            return Err(crate::Error::Refused(format!(
                "floor `{}` has no rooms",
                floor_def.id
            )));
        };
        self.begin_turn();
        self.set_position(Position {
            floor,
            room: Some(room),
            sequence: pos.sequence + 1,
        });
        if entering_floor {
            self.say(format!("You descend to {}.", floor_def.name));
            self.raise(
                "floor_entered",
                &[
                    ("floor", Value::id(&floor_def.id)),
                    ("depth", Value::Int(floor_def.depth)),
                ],
            )?;
        }
        let room_def = content.rooms.get(&room_id).cloned();
        self.say(format!(
            "You enter {}.",
            room_def
                .as_ref()
                .map(|r| r.name.as_str())
                .unwrap_or(room_id.as_str())
        ));
        self.raise("room_entered", &[("prefab", Value::id(&room_id))])?;
        if let Some(room_def) = room_def {
            for (item, count) in &room_def.loot {
                let list = ActionList {
                    actions: vec![ActionEntry {
                        action: Action::GiveItem {
                            item: item.clone(),
                            count: *count,
                            target: Who::Player,
                        },
                        span: room_def.span,
                    }],
                    span: room_def.span,
                };
                // Says "You pick up ..." itself; a full pack is no reason to stop entering the room.
                let _ = self.apply_list(&list, &Ctx::command("loot"));
            }
            if room_def.kind == RoomKind::Combat && !room_def.enemies.is_empty() {
                for e in &room_def.enemies {
                    if let Some(c) = Creature::spawn(&content, e) {
                        self.add_enemy(c);
                    }
                }
                self.start_combat();
            }
            if let Some(npc) = &room_def.npc {
                let name = content
                    .creatures
                    .get(npc)
                    .map(|c| c.name.clone())
                    .unwrap_or_default();
                self.say(format!("{name} is here; `talk` to them."));
            }
            if room_def.kind == RoomKind::Encounter {
                self.enter_encounter(&room_def);
            }
            if room_def.kind == RoomKind::Hazard {
                self.enter_hazard(&room_def);
            }
        }
        Ok(self.end_turn())
    }
}
