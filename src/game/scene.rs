//! The scene a game is in: its number (which the encounters and hazards opened in it name their
//! streams after), the creatures beside the player, a fight among them, and the end of a turn that
//! settles it.
//!
//! These are the creature-and-inventory vocabulary's calls for a game's own code. The reference
//! roguelike's verbs (`crate::roguelike`) are built on them and on the rest of `Game`'s public
//! API, and on nothing the `game` module keeps to itself: what they need, any game can use.

use super::apply::ev;
use super::{Creature, CreatureRef, Event, Game, Outcome};
use crate::content::Value;
use crate::diag::{Code, Diagnostic};
use crate::id::Id;

impl Game {
    /// Begins a new scene (the roguelike's next room): the encounters and hazards opened from now
    /// on draw from streams of their own, named after its number, so what one scene draws does not
    /// move another's.
    pub fn begin_scene(&mut self) {
        self.state.scene += 1;
        // An encounter or hazard set aside in a reload belongs to the scene it was open in.
        let aside = &mut self.state.set_aside;
        let left = [
            aside
                .encounter
                .take()
                .map(|(e, _)| format!("encounter `{e}`")),
            aside
                .hazard
                .take()
                .map(|(h, _)| format!("hazard `{}`", h.hazard)),
        ];
        for what in left.into_iter().flatten() {
            self.report(Diagnostic::warning(
                Code::Reconciled,
                format!("{what}, set aside when its definition disappeared, stays behind with its scene"),
            ));
        }
    }

    /// The number of scenes begun (0 before the first).
    pub fn scene(&self) -> u64 {
        self.state.scene
    }

    /// An error when the run is over (the player died); a verb checks it before anything else.
    pub fn ready(&self) -> Result<(), crate::Error> {
        if self.state.over {
            return Err("the run is over; `load` a save or start again".into());
        }
        Ok(())
    }

    /// Puts a creature into the scene beside the player, as an enemy; returns who it is. A fight
    /// starts with [`start_combat`](Self::start_combat).
    pub fn add_enemy(&mut self, creature: Creature) -> CreatureRef {
        self.state.enemies.push(creature);
        CreatureRef::Enemy(self.state.enemies.len() - 1)
    }

    /// Takes every enemy out of the scene, living or dead, and ends the fight without a word or an
    /// event (a verb that ends it says how, with `combat_ended`).
    pub fn clear_enemies(&mut self) {
        self.state.enemies.clear();
        self.state.combat = false;
    }

    /// Starts a fight with the enemies in the scene, unless one is on: names them and raises
    /// `combat_started`. The turn that ends with no enemy alive settles it ([`end_turn`]).
    ///
    /// [`end_turn`]: Self::end_turn
    pub fn start_combat(&mut self) {
        if !self.state.combat {
            self.state.combat = true;
            let names: Vec<String> = self
                .enemies()
                .map(|(r, c)| format!("{} ({})", c.name, self.creature_ref_text(r)))
                .collect();
            let line = self.text("fight", &[("foes", names.join(", ").into())]);
            self.say(line);
            self.push(
                Event::new(ev::COMBAT_STARTED, CreatureRef::Player, None, Vec::new()),
                None,
            );
        }
    }

    /// Takes up to `count` of an item from a creature without a word (an item used up); returns
    /// how many it had to give. Items given and taken by content go through actions instead.
    pub fn consume(&mut self, who: CreatureRef, item: &Id, count: u32) -> u32 {
        let Some(c) = self.creature_mut(who) else {
            return 0;
        };
        let taken = c.count(item).min(count);
        c.take(item, taken);
        taken
    }

    /// Queues an event by name, as [`raise`](Self::raise) does, with its source and target
    /// creatures: `attack_hit` from the attacker at the creature hit.
    pub fn raise_from(
        &mut self,
        source: CreatureRef,
        target: Option<CreatureRef>,
        event: &str,
        payload: &[(&str, Value)],
    ) -> Result<(), crate::Error> {
        self.raise_at(source, target, event, payload, None)
            .map_err(crate::Error::Refused)
    }

    /// Ends the turn: handles the queue, settles a fight whose enemies are all dead (`The fight
    /// is won.`, `combat_ended` with `victory`), and reports the run's end when the player died.
    pub fn end_turn(&mut self) -> Outcome {
        self.drain();
        if self.state.combat && !self.state.over && !self.in_combat() {
            self.clear_enemies();
            let line = self.text("fight_won", &[]);
            self.say(line);
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
        self.events.open = false;
        if !self.events.in_turn {
            self.flush_world();
        }
        if self.state.over {
            let line = self.text("you_die", &[]);
            self.say(line);
            Outcome::RunOver
        } else {
            Outcome::Done
        }
    }
}
