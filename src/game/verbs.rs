//! The reference game's verbs: enter the next room, attack, flee, use an item, talk, and the
//! debugging verbs of the play session (give, start, spawn, emit). Each is one turn: it goes through
//! the one door, then the queue is drained and the end of a fight is settled.

use super::apply::ev;
use super::{Creature, CreatureRef, Ctx, Event, Game};
#[cfg(feature = "roguelike")]
use crate::content::{Action, AiAct, RoomKind};
use crate::content::{ActionEntry, Value};
use crate::id::Id;

/// What a verb did, beyond its messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The verb was done.
    Done,
    /// The player died or the run is complete.
    RunOver,
}

type VerbResult = Result<Outcome, crate::Error>;

impl Game {
    /// The room the run is in, if any.
    pub fn current_room(&self) -> Option<Id> {
        let floor = self.content.run.get(self.state.position.floor)?;
        let room = self.state.position.room?;
        self.content.floors.get(floor)?.rooms.get(room).cloned()
    }

    fn ready(&self) -> Result<(), String> {
        if self.state.over {
            return Err("the run is over; `load` a save or start again".into());
        }
        Ok(())
    }

    /// Ends the turn: handles the queue, settles a fight that is over, reports the run's end.
    pub(super) fn end_turn(&mut self) -> Outcome {
        self.drain();
        if self.state.combat && !self.state.over && !self.in_combat() {
            self.state.combat = false;
            self.state.enemies.clear();
            self.say("The fight is won.");
            self.push(
                Event::new(
                    ev::COMBAT_ENDED,
                    CreatureRef::Player,
                    None,
                    vec![Some(Value::str("victory"))],
                ),
                None,
            );
            self.drain();
        }
        if self.state.over {
            self.say("You die.");
            Outcome::RunOver
        } else {
            Outcome::Done
        }
    }

    #[cfg(feature = "roguelike")]
    /// Enters the next room (and the next floor when this one is done).
    pub fn enter_next_room(&mut self) -> VerbResult {
        self.ready()?;
        if self.in_combat() {
            return Err("you cannot leave during a fight; `attack` or `flee`".into());
        }
        if self.state.encounter.is_some() {
            return Err("choose an option of the encounter first (`choose N`)".into());
        }
        if self.state.hazard.is_some() {
            return Err(
                "the hazard is not over: choose a route, `play` cards and `end` rounds".into(),
            );
        }
        let content = self.content.clone();
        let pos = self.state.position.clone();
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
        self.state.position = super::Position {
            floor,
            room: Some(room),
            sequence: pos.sequence + 1,
        };
        self.locate_room();
        if entering_floor {
            self.say(format!("You descend to {}.", floor_def.name));
            self.push(
                Event::new(
                    ev::FLOOR_ENTERED,
                    CreatureRef::Player,
                    None,
                    vec![
                        Some(Value::id(&floor_def.id)),
                        Some(Value::Int(floor_def.depth)),
                    ],
                ),
                None,
            );
        }
        let room_def = content.rooms.get(&room_id).cloned();
        self.say(format!(
            "You enter {}.",
            room_def
                .as_ref()
                .map(|r| r.name.as_str())
                .unwrap_or(room_id.as_str())
        ));
        self.push(
            Event::new(
                ev::ROOM_ENTERED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(&room_id))],
            ),
            None,
        );
        if let Some(room_def) = room_def {
            for (item, count) in &room_def.loot {
                let entry = ActionEntry {
                    action: Action::GiveItem {
                        item: item.clone(),
                        count: *count,
                        target: crate::content::Who::Player,
                    },
                    span: room_def.span,
                };
                // Says "You pick up ..." itself; a full pack is no reason to stop entering the room.
                let _ = self.apply(&entry, &Ctx::command("loot"));
            }
            if room_def.kind == RoomKind::Combat && !room_def.enemies.is_empty() {
                for e in &room_def.enemies {
                    if let Some(c) = Creature::spawn(&content, e) {
                        self.state.enemies.push(c);
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

    fn start_combat(&mut self) {
        if !self.state.combat {
            self.state.combat = true;
            let names: Vec<String> = self
                .enemies()
                .map(|(r, c)| format!("{} ({r})", c.name))
                .collect();
            self.say(format!("A fight! {}", names.join(", ")));
            self.push(
                Event::new(ev::COMBAT_STARTED, CreatureRef::Player, None, Vec::new()),
                None,
            );
        }
    }

    #[cfg(feature = "roguelike")]
    /// Attacks an enemy (the first living one by default); then the enemies act.
    pub fn attack(&mut self, enemy: Option<usize>) -> VerbResult {
        self.ready()?;
        let target = match enemy {
            Some(i) => CreatureRef::Enemy(i),
            None => self
                .enemies()
                .next()
                .map(|(r, _)| r)
                .ok_or("there is nothing to attack")?,
        };
        if !self.creature(target).is_some_and(Creature::alive) {
            return Err(crate::Error::Refused(format!(
                "there is no living {target}"
            )));
        }
        self.begin_turn();
        self.push(
            Event::new(ev::TURN_STARTED, CreatureRef::Player, None, Vec::new()),
            None,
        );
        self.strike(CreatureRef::Player, target);
        self.drain();
        self.enemies_act();
        Ok(self.end_turn())
    }

    #[cfg(feature = "roguelike")]
    /// One blow: `attack_hit` at the attacker, then the damage.
    fn strike(&mut self, attacker: CreatureRef, victim: CreatureRef) {
        let Some(c) = self.creature(attacker) else {
            return;
        };
        let weapon = c.inventory.iter().filter(|s| s.equipped).find_map(|s| {
            self.content
                .items
                .get(&s.item)
                .filter(|d| d.slot.as_deref() == Some("weapon"))
                .map(|d| (Some(d.id.clone()), d.damage, d.damage_type.clone()))
        });
        let (weapon, damage, damage_type) = weapon.unwrap_or_else(|| {
            let def = self.content.creatures.get(&c.def);
            (
                None,
                def.map_or(1, |d| d.damage.max(1)),
                def.map_or("physical".to_string(), |d| d.damage_type.clone()),
            )
        });
        let amount = damage.saturating_add(self.attribute(attacker, "attack", Some(victim)));
        let name = c.name.clone();
        let victim_name = self
            .creature(victim)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        self.say(format!("{name} hits {victim_name}."));
        self.push(
            Event::new(
                ev::ATTACK_HIT,
                attacker,
                Some(victim),
                vec![
                    weapon.as_ref().map(Value::id),
                    Some(Value::str(&damage_type)),
                ],
            ),
            None,
        );
        self.deal_damage(victim, Some(attacker), amount, &damage_type);
    }

    #[cfg(feature = "roguelike")]
    /// Every living enemy takes its turn: the first AI rule whose condition holds, else an attack.
    fn enemies_act(&mut self) {
        let content = self.content.clone();
        let count = self.state.enemies.len();
        for i in 0..count {
            if self.state.over {
                break;
            }
            let me = CreatureRef::Enemy(i);
            let Some(def) = self
                .creature(me)
                .filter(|c| c.alive())
                .and_then(|c| content.creatures.get(&c.def))
            else {
                continue;
            };
            let stream = format!("ai:{}", def.id);
            let ctx = Ctx {
                bearer: me,
                target: Some(CreatureRef::Player),
                source: None,
                cause: def.id.as_str(),
                stream: &stream,
            };
            let rule = def
                .ai
                .iter()
                .find(|rule| self.conditions_hold(&rule.condition, &ctx).is_ok());
            match rule.map(|r| &r.act) {
                None | Some(AiAct::Attack) => self.strike(me, CreatureRef::Player),
                Some(AiAct::Wait) => {
                    let name = def.name.clone();
                    self.say(format!("{name} waits."));
                }
                Some(AiAct::Actions(list)) => {
                    if let Err(d) = self.apply_list(list, &ctx) {
                        self.problems.push(d);
                    }
                }
            }
            self.drain();
        }
    }

    #[cfg(feature = "roguelike")]
    /// Leaves the fight: `combat_ended` with `fled`, the enemies stay behind.
    pub fn flee(&mut self) -> VerbResult {
        self.ready()?;
        if !self.in_combat() {
            return Err("there is nothing to flee from".into());
        }
        self.begin_turn();
        self.state.enemies.clear();
        self.state.combat = false;
        self.say("You flee.");
        self.push(
            Event::new(
                ev::COMBAT_ENDED,
                CreatureRef::Player,
                None,
                vec![Some(Value::str("fled"))],
            ),
            None,
        );
        Ok(self.end_turn())
    }

    #[cfg(feature = "roguelike")]
    /// Uses an item the player carries: its `use` actions, then one is used up if it is consumable.
    pub fn use_item(&mut self, item: &Id) -> VerbResult {
        self.ready()?;
        let content = self.content.clone();
        let Some(def) = content.items.get(item) else {
            return Err(crate::Error::Refused(format!("there is no item `{item}`")));
        };
        if self.state.player.count(item) == 0 {
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
            bearer: CreatureRef::Player,
            target,
            source: None,
            cause: &cause,
            stream: &stream,
        };
        self.apply_list(actions, &ctx).map_err(|d| d.message)?;
        if def.consumable {
            self.state.player.take(item, 1);
        }
        self.say(format!("You use {}.", def.name));
        self.push(
            Event::new(
                ev::ITEM_USED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(item))],
            ),
            None,
        );
        if self.in_combat() {
            self.drain();
            self.enemies_act();
        }
        Ok(self.end_turn())
    }

    #[cfg(feature = "roguelike")]
    /// Talks to the room's NPC: `npc_talked`, then the NPC's `talk` actions.
    pub fn talk(&mut self) -> VerbResult {
        self.ready()?;
        let content = self.content.clone();
        let npc = self
            .current_room()
            .and_then(|r| content.rooms.get(&r))
            .and_then(|r| r.npc.clone())
            .ok_or("there is nobody to talk to")?;
        let def = content.creatures.get(&npc).ok_or("the NPC is gone")?;
        self.begin_turn();
        self.say(format!("You talk to {}.", def.name));
        if let Some(talk) = &def.talk {
            let (cause, stream) = (format!("talk {npc}"), format!("talk:{npc}"));
            let ctx = Ctx {
                bearer: CreatureRef::Player,
                target: None,
                source: None,
                cause: &cause,
                stream: &stream,
            };
            self.apply_list(talk, &ctx).map_err(|d| d.message)?;
        }
        self.push(
            Event::new(
                ev::NPC_TALKED,
                CreatureRef::Player,
                None,
                vec![Some(Value::id(&npc))],
            ),
            None,
        );
        Ok(self.end_turn())
    }

    /// Applies one action for a command (`give`, `start`) and ends the turn.
    pub fn command_action(&mut self, entry: ActionEntry, name: &str) -> VerbResult {
        self.ready()?;
        self.begin_turn();
        self.apply(&entry, &Ctx::command(name))?;
        Ok(self.end_turn())
    }

    /// Adds an enemy of a definition to the current room; starts a fight.
    pub fn spawn(&mut self, def: &Id) -> Result<CreatureRef, crate::Error> {
        let c = Creature::spawn(&self.content, def)
            .ok_or_else(|| format!("there is no creature `{def}`"))?;
        self.state.enemies.push(c);
        let r = CreatureRef::Enemy(self.state.enemies.len() - 1);
        self.begin_turn();
        self.start_combat();
        self.end_turn();
        Ok(r)
    }

    /// Queues any event with a payload (checked) and handles it as one turn.
    pub fn emit_command(
        &mut self,
        kind: crate::content::EventKey,
        target: Option<CreatureRef>,
        payload: &[(usize, Value)],
    ) -> VerbResult {
        self.ready()?;
        if let Some(t) = target.filter(|t| self.creature(*t).is_none()) {
            return Err(match t {
                CreatureRef::Enemy(i) => format!("there is no enemy {}", i + 1),
                CreatureRef::Player => "there is no player".to_string(),
            }
            .into());
        }
        self.begin_turn();
        let source = match (kind, target) {
            // An injected death is the target's own.
            (ev::CREATURE_DIED, Some(t)) => t,
            _ => CreatureRef::Player,
        };
        let target = if source == CreatureRef::Player {
            target
        } else {
            None
        };
        if kind == ev::CREATURE_DIED && source != CreatureRef::Player {
            if let Some(c) = self.creature_mut(source) {
                c.health = 0;
            }
        }
        self.emit(kind, source, target, payload, None)?;
        Ok(self.end_turn())
    }
}
