//! Fights: the player's attack, the enemies' turns (the first AI rule whose condition holds, else
//! an attack), and fleeing.

use super::world;
use super::VerbResult;
use crate::content::{AiAct, Value};
use crate::game::{CreatureRef, Ctx, Game};

/// Attacks an enemy (the first living one by default); then the enemies act.
pub(crate) fn attack(g: &mut Game, enemy: Option<usize>) -> VerbResult {
    g.ready()?;
    let target = match enemy {
        Some(i) => CreatureRef::Enemy(i),
        None => g
            .enemies()
            .next()
            .map(|(r, _)| r)
            .ok_or_else(|| world::text(g, "nothing_to_attack", &[]))?,
    };
    if !g.creature(target).is_some_and(|c| c.alive()) {
        return Err(crate::Error::Refused(format!(
            "there is no living {target}"
        )));
    }
    g.begin_turn();
    g.raise_from(CreatureRef::Player, None, "turn_started", &[])?;
    strike(g, CreatureRef::Player, target);
    g.drain();
    enemies_act(g);
    Ok(g.end_turn())
}

/// One blow: `attack_hit` at the attacker, then the damage (a `damage` action from the
/// attacker at the victim: armour, resistances, `damage_taken`, `creature_died`).
fn strike(g: &mut Game, attacker: CreatureRef, victim: CreatureRef) {
    let Some(c) = g.creature(attacker) else {
        return;
    };
    let content = g.content().clone();
    let weapon = c.inventory.iter().filter(|s| s.equipped).find_map(|s| {
        content
            .items
            .get(&s.item)
            .filter(|d| d.slot.as_deref() == Some("weapon"))
            .map(|d| (Some(d.id.clone()), d.damage, d.damage_type.clone()))
    });
    let (weapon, damage, damage_type) = weapon.unwrap_or_else(|| {
        let def = content.creatures.get(&c.def);
        (
            None,
            def.map_or(1, |d| d.damage.max(1)),
            def.map_or("physical".to_string(), |d| d.damage_type.clone()),
        )
    });
    let amount = damage.saturating_add(g.attribute(attacker, "attack", Some(victim)));
    let name = c.name.clone();
    let victim_name = g
        .creature(victim)
        .map(|c| c.name.clone())
        .unwrap_or_default();
    world::say(
        g,
        "hits",
        &[("who", name.into()), ("whom", victim_name.into())],
    );
    let mut hit = vec![("damage_type", Value::str(&damage_type))];
    if let Some(w) = &weapon {
        hit.push(("weapon", Value::id(w)));
    }
    // Engine events with their declared payloads: raising them cannot fail.
    let _ = g.raise_from(attacker, Some(victim), "attack_hit", &hit);
    let blow = [
        ("amount", Value::Int(amount)),
        ("damage_type", Value::str(&damage_type)),
        ("target", Value::str("target")),
    ];
    let ctx = Ctx::command("attack").by(attacker).at(victim);
    // The victim is there and the damage type is the content's own: the blow cannot fail.
    let _ = g.perform_in(&ctx, "damage", &blow);
}

/// Every living enemy takes its turn: the first AI rule whose condition holds, else an attack.
fn enemies_act(g: &mut Game) {
    let content = g.content().clone();
    let count = g.state().enemies.len();
    for i in 0..count {
        if g.state().over {
            break;
        }
        let me = CreatureRef::Enemy(i);
        let Some(def) = g
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
            .find(|rule| g.conditions_hold(&rule.condition, &ctx).is_ok());
        match rule.map(|r| &r.act) {
            None | Some(AiAct::Attack) => strike(g, me, CreatureRef::Player),
            Some(AiAct::Wait) => {
                let name = def.name.clone();
                world::say(g, "waits", &[("who", name.into())]);
            }
            Some(AiAct::Actions(list)) => {
                if let Err(d) = g.apply_list(list, &ctx) {
                    g.report(d);
                }
            }
        }
        g.drain();
    }
}

/// Leaves the fight: `combat_ended` with `fled`, the enemies stay behind.
pub(crate) fn flee(g: &mut Game) -> VerbResult {
    g.ready()?;
    if !g.in_combat() {
        return Err(world::text(g, "nothing_to_flee", &[]).into());
    }
    g.begin_turn();
    g.clear_enemies();
    world::say(g, "you_flee", &[]);
    g.raise("combat_ended", &[("outcome", Value::str("fled"))])?;
    Ok(g.end_turn())
}

/// After a player's verb other than an attack (using an item): when a fight is on, the queue
/// is handled and then the enemies take their turn.
pub(super) fn enemies_answer(g: &mut Game) {
    if g.in_combat() {
        g.drain();
        enemies_act(g);
    }
}
