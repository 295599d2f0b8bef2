//! Entering the next room (and the next floor when this one is done): its loot, its enemies, its
//! NPC, its encounter or its hazard.

use super::world::{self, Room, RoomKind, Run};
use super::VerbResult;
use crate::content::{Action, ActionEntry, ActionList, Value, Who};
use crate::diag::{Code, Diagnostic, Span};
use crate::game::{Creature, Ctx, Game};
use crate::id::Id;

/// Where the run is (the roguelike's state).
pub(crate) fn position(g: &Game) -> Run {
    g.host_state::<Run>().cloned().unwrap_or_default()
}

/// The room the run is in, if any.
pub(crate) fn current_room(g: &Game) -> Option<Id> {
    g.host_state::<Run>().and_then(|r| r.room_id.clone())
}

/// Enters the next room (and the next floor when this one is done).
pub(crate) fn enter_next_room(g: &mut Game) -> VerbResult {
    g.ready()?;
    if g.in_combat() {
        return Err(world::text(g, "leave_during_fight", &[]).into());
    }
    if let Some(e) = g.encounter() {
        if e.options.iter().any(|o| o.blocked.is_none()) {
            return Err(world::text(g, "choose_first", &[]).into());
        }
        // Every option is blocked: the player moves on instead of being trapped.
        g.leave_encounter()?;
    }
    if g.hazard().is_some() {
        return Err(world::text(g, "hazard_not_over", &[]).into());
    }
    let content = g.content().clone();
    let floors = world::floors(&content);
    let run = position(g);
    let (mut floor, mut room) = (run.floor, run.room.map_or(0, |r| r + 1));
    let entering_floor =
        run.room.is_none() || floors.get(floor).is_none_or(|(_, f)| room >= f.rooms.len());
    if run.room.is_some() && entering_floor {
        floor += 1;
        room = 0;
    }
    let Some(&(floor_id, floor_def)) = floors.get(floor) else {
        return Err(world::text(g, "run_complete", &[]).into());
    };
    let Some(room_id) = floor_def.rooms.get(room).and_then(|r| Id::qualified(r)) else {
        return Err(crate::Error::Refused(format!(
            "floor `{floor_id}` has no rooms"
        )));
    };
    g.begin_turn();
    g.begin_scene();
    let place = [
        ("floor", Value::Int(floor as i64)),
        ("room", Value::Int(room as i64)),
    ];
    g.perform("roguelike:enter", &place, "enter")?;
    if entering_floor {
        let floor = world::floor_name(&content, floor_id, floor_def);
        world::say(g, "you_descend", &[("floor", floor.into())]);
        g.raise(
            "floor_entered",
            &[
                ("floor", Value::id(floor_id)),
                ("depth", Value::Int(floor_def.depth)),
            ],
        )?;
    }
    let room_def = content.entry::<Room>("room", &room_id);
    let room_name = room_def.map_or_else(
        || room_id.to_string().into(),
        |r| world::room_name(&content, &room_id, r),
    );
    world::say(g, "you_enter", &[("room", room_name.into())]);
    if let Some(r) = room_def.filter(|r| !r.description.is_empty()) {
        g.say(world::room_description(&content, &room_id, r));
    }
    g.raise("room_entered", &[("prefab", Value::id(&room_id))])?;
    if let Some(room_def) = room_def {
        fill_room(g, &room_id, room_def, (floor, room));
    }
    Ok(g.end_turn())
}

/// What a room holds, as the run enters it.
fn fill_room(g: &mut Game, id: &Id, room: &Room, (floor, at): (usize, usize)) {
    let content = g.content().clone();
    let span = content
        .entry_span("room", id)
        .unwrap_or_else(|| Span::new(crate::diag::FileId(0), 0..0));
    for loot in &room.loot {
        let Some(item) = Id::qualified(&loot.item) else {
            continue;
        };
        let list = ActionList {
            actions: vec![ActionEntry {
                action: Action::GiveItem {
                    item,
                    count: loot.count as u32,
                    target: Who::Player,
                },
                span,
            }],
            span,
        };
        // Says "You pick up ..." itself; a full pack is no reason to stop entering the room.
        let _ = g.apply_list(&list, &Ctx::command("loot"));
    }
    if room.kind == RoomKind::Combat && !room.enemies.is_empty() {
        for e in room.enemies.iter().filter_map(|e| Id::qualified(e)) {
            if let Some(c) = Creature::spawn(&content, &e) {
                g.add_enemy(c);
            }
        }
        g.start_combat();
    }
    if let Some(npc) = room.npc.as_deref().and_then(Id::qualified) {
        let name = content
            .creatures
            .get(&npc)
            .map(|c| c.name.clone())
            .unwrap_or_default();
        world::say(g, "npc_here", &[("npc", name.into())]);
    }
    match room.kind {
        RoomKind::Encounter => {
            let chosen = match room.encounter.as_deref() {
                Some(fixed) => Id::qualified(fixed),
                None => {
                    let scene = g.scene();
                    g.draw_encounter(&format!("encounter:select:{scene}:{floor}/{at}"))
                }
            };
            match chosen {
                Some(e) => {
                    let _ = g.open_encounter(&e);
                }
                None => {
                    let why = if content.encounters.is_empty() {
                        "no_encounters"
                    } else {
                        "no_eligible_encounter"
                    };
                    quiet_room(g, format!("encounter room `{id}`"), why);
                }
            }
        }
        RoomKind::Hazard => {
            let chosen = match room.hazard.as_deref() {
                Some(fixed) => Id::qualified(fixed),
                None if content.hazards.is_empty() => None,
                None => {
                    let ids: Vec<&Id> = content.hazards.keys().collect();
                    let stream = format!("hazard:select:{}", g.scene());
                    Some(ids[g.draw_below(&stream, ids.len())].clone())
                }
            };
            match chosen {
                Some(h) => {
                    let _ = g.open_hazard(&h);
                }
                None => {
                    let why = "no_hazards";
                    quiet_room(g, format!("hazard room `{id}`"), why);
                }
            }
        }
        RoomKind::Combat | RoomKind::Empty => {}
    }
}

/// A room whose encounter or hazard there is none of: it completes empty, with a warning.
fn quiet_room(g: &mut Game, room: String, why_key: &str) {
    let why = g.text(&format!("core:{why_key}"), &[]);
    world::say(g, "quiet_room", &[("why", why.into())]);
    // The modder's message stays in English, as every diagnostic does.
    let problem = format!(
        "{room}: {}",
        match why_key {
            "no_encounters" => "no encounters are defined",
            "no_eligible_encounter" => "no encounter is eligible here",
            _ => "no hazards are defined",
        }
    );
    g.report(Diagnostic::warning(
        Code::EmptyRoom,
        format!("{problem}; the room completes empty"),
    ));
}
