//! The debugging verbs of the play session and the test harness: give (an action as a command),
//! spawn and emit. Each is one turn. The reference roguelike's own verbs (enter the next room,
//! attack, flee, use, talk) are in `crate::roguelike`, built on the public API.

use super::apply::ev;
use super::{Creature, CreatureRef, Ctx, Game};
use crate::content::{ActionEntry, Value};
use crate::id::Id;

/// What a verb did, beyond its messages.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The verb was done.
    Done,
    /// The player died or the run is complete.
    RunOver,
}

type VerbResult = Result<Outcome, crate::Error>;

impl Game {
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
        let r = self.add_enemy(c);
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
