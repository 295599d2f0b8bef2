//! Draining the queue: each event goes to the triggers that listen to it, then quests, then scripts.
//!
//! Order, for one event (documented in the guide):
//! 1. triggers borne by the event's source: the creature's own, then those of its items in inventory order;
//! 2. top-level triggers, in load order;
//! 3. the current room's triggers;
//! 4. active quests that count this event, in ID order;
//! 5. script handlers (the [`Host`](super::Host)).
//!
//! Borne triggers see `self` = their bearer and `target` = the event's target. Top-level triggers, room
//! triggers and quests watch the whole world for the player: `self` is the player and `target` the other
//! side as the player sees it: the event's source, or its target when the source is the player himself.

use super::apply::ev;
use super::trace::{Trace, TraceStep};
use super::{CreatureRef, Ctx, Event, Game, Handled, EVENT_CAP};
use crate::content::TriggerRef;
use crate::diag::Diagnostic;

impl Game {
    /// Starts a turn: the event cap counts from here. Verbs call it; so do tools that inject events.
    pub fn begin_turn(&mut self) {
        self.turn_start = self.handled;
        self.state.turn += 1;
    }

    /// Handles queued events, first in first out, until the queue is empty or the cap is reached.
    pub fn drain(&mut self) {
        while let Some((event, cause, parent)) = self.queue.pop_front() {
            if self.handled - self.turn_start >= EVENT_CAP {
                self.queue.clear();
                self.report_loop();
                break;
            }
            if self.log.len() == super::LOG_KEEP {
                self.log.pop_front();
            }
            self.log.push_back(Handled {
                event: event.clone(),
                cause,
                parent,
            });
            self.current = Some(self.handled);
            self.handled += 1;
            self.dispatch(&event);
            self.current = None;
        }
        if let Some(mut host) = self.host.take() {
            host.settle(self);
            self.host = Some(host);
        }
    }

    fn dispatch(&mut self, event: &Event) {
        let content = self.content.clone();
        let kind = event.kind;
        let borne = Ctx {
            bearer: event.source,
            target: event.target,
            cause: "",
            stream: "",
        };
        if let Some(c) = self.creature(event.source) {
            let mut listening: Vec<TriggerRef> = Vec::new();
            if let Some(def) = content.creatures.get(&c.def) {
                listening.extend(
                    def.triggers
                        .iter()
                        .copied()
                        .filter(|r| content.trigger(*r).on == kind),
                );
            }
            for stack in &c.inventory {
                let Some(def) = content.items.get(&stack.item) else {
                    continue;
                };
                if def.slot.is_some() && !stack.equipped {
                    continue;
                }
                listening.extend(
                    def.triggers
                        .iter()
                        .copied()
                        .filter(|r| content.trigger(*r).on == kind),
                );
            }
            for r in listening {
                self.run_trigger(&content, r, event, &borne);
            }
        }
        let world_target = if event.source == CreatureRef::Player {
            event.target
        } else {
            Some(event.source)
        };
        let world = Ctx {
            bearer: CreatureRef::Player,
            target: world_target,
            cause: "",
            stream: "",
        };
        for &r in &content.top_level[kind.0 as usize] {
            self.run_trigger(&content, r, event, &world);
        }
        if !self.room_triggers.is_empty() {
            let listening: Vec<TriggerRef> = self
                .room_triggers
                .iter()
                .copied()
                .filter(|r| content.trigger(*r).on == kind)
                .collect();
            for r in listening {
                self.run_trigger(&content, r, event, &world);
            }
        }
        for &quest in &content.quests_by_event[kind.0 as usize] {
            self.count_quest(&content, quest, event, &world);
        }
        if let Some(mut host) = self.host.take() {
            host.on_event(self, event);
            self.host = Some(host);
        }
    }

    fn when_differs(
        &self,
        when: &[(usize, crate::content::Value)],
        event: &Event,
    ) -> Option<TraceStep> {
        when.iter()
            .position(|(i, wanted)| event.field(*i) != Some(wanted))
            .map(|index| TraceStep::WhenDiffered {
                index,
                got: event.field(when[index].0).cloned(),
            })
    }

    fn run_trigger(
        &mut self,
        content: &crate::content::Content,
        r: TriggerRef,
        event: &Event,
        base: &Ctx,
    ) {
        let t = content.trigger(r);
        let mut trace = Trace {
            event: event.kind,
            turn: self.state.turn,
            steps: Default::default(),
        };
        let ctx = Ctx {
            bearer: base.bearer,
            target: base.target,
            cause: &t.key,
            stream: &t.stream,
        };
        let fired = self.evaluate(&t.when, &t.condition, t.chance, event, &ctx, &mut trace);
        if fired {
            match self.apply_list(&t.actions, &ctx) {
                Ok(()) => trace.steps.push(TraceStep::Fired),
                Err(d) => {
                    trace.steps.push(TraceStep::ActionsFailed {
                        message: d.message.clone(),
                    });
                    self.problems.push(d);
                }
            }
        }
        self.traces.set_trigger(r, trace);
    }

    /// `when`, conditions and chance; true when the actions should run.
    fn evaluate(
        &mut self,
        when: &[(usize, crate::content::Value)],
        condition: &[crate::content::Condition],
        chance: Option<f64>,
        event: &Event,
        ctx: &Ctx,
        trace: &mut Trace,
    ) -> bool {
        if let Some(step) = self.when_differs(when, event) {
            trace.steps.push(step);
            return false;
        }
        if let Err(f) = self.conditions_hold(condition, ctx) {
            trace.steps.push(TraceStep::ConditionFailed {
                index: f.index,
                saw: f.saw,
            });
            return false;
        }
        if let Some(chance) = chance {
            let roll = self.rng.roll(ctx.stream);
            let success = roll < chance;
            trace.steps.push(TraceStep::Rolled {
                roll,
                chance,
                success,
            });
            return success;
        }
        true
    }

    fn count_quest(
        &mut self,
        content: &crate::content::Content,
        ordinal: u32,
        event: &Event,
        world: &Ctx,
    ) {
        let Some(q) = content.quest_defs.get(ordinal as usize) else {
            return;
        };
        let id = &q.id;
        let mut trace = Trace {
            event: event.kind,
            turn: self.state.turn,
            steps: Default::default(),
        };
        let progress = self.state.quests.get(id).copied();
        let Some(progress) = progress.filter(|p| !p.done) else {
            trace.steps.push(TraceStep::QuestNotActive {
                done: progress.is_some(),
            });
            self.traces.set_quest(ordinal, trace);
            return;
        };
        let ctx = Ctx {
            bearer: world.bearer,
            target: world.target,
            cause: id.as_str(),
            stream: &q.stream,
        };
        if self.evaluate(&q.when, &q.condition, None, event, &ctx, &mut trace) {
            let count = progress.count + 1;
            trace.steps.push(TraceStep::Counted { count });
            if count >= q.count {
                match self.apply_list(&q.actions, &ctx) {
                    Ok(()) => {
                        self.state
                            .quests
                            .insert(id.clone(), super::QuestProgress { count, done: true });
                        self.say(format!("Quest completed: {}", q.name));
                        self.push(
                            Event::new(
                                ev::QUEST_COMPLETED,
                                CreatureRef::Player,
                                None,
                                vec![Some(crate::content::Value::id(id))],
                            ),
                            Some(id.to_string()),
                        );
                        trace.steps.push(TraceStep::Fired);
                    }
                    Err(d) => {
                        trace.steps.push(TraceStep::ActionsFailed {
                            message: d.message.clone(),
                        });
                        self.problems.push(d);
                    }
                }
            } else {
                self.state
                    .quests
                    .insert(id.clone(), super::QuestProgress { count, done: false });
            }
        }
        self.traces.set_quest(ordinal, trace);
    }

    /// The cap was reached: name the chain of triggers that led to the last event.
    fn report_loop(&mut self) {
        let mut chain: Vec<String> = Vec::new();
        let mut at = self.handled.checked_sub(1);
        while let Some(h) = at.and_then(|n| self.handled_at(n)) {
            if let Some(cause) = &h.cause {
                if chain.last() != Some(cause) {
                    chain.push(cause.clone());
                }
            }
            at = h.parent;
            if chain.len() > 12 {
                break;
            }
        }
        chain.reverse();
        let text = if chain.is_empty() {
            "no trigger (the events came from one command)".to_string()
        } else {
            chain.join(" -> ")
        };
        let mut d = Diagnostic::error(format!("more than {EVENT_CAP} events in one turn; the turn was stopped. The chain that looped: {text}"))
            .with_help("a trigger's actions raise an event that sets it (or another) off again; add a `when`, a condition or a `chance`");
        if let Some(span) = chain
            .last()
            .and_then(|k| self.content.find_trigger(k))
            .map(|r| self.content.trigger(r).span)
        {
            d = d.at(span);
        }
        self.say("The turn was stopped: too many events (see the problems).");
        self.problems.push(d);
    }
}
