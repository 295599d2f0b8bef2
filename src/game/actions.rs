//! What each built-in action does to the state: damage and healing, items given and taken (by
//! name or at random), quests started, events emitted, the hazard's deck and dice changed, and
//! the game's and the scripts' own actions called. [`Game::apply_entry`] is the one place an
//! action takes effect; the list it belongs to (`apply.rs`) undoes it when a later one fails.

use super::apply::ev;
use super::{CreatureRef, Ctx, Event, Game};
use crate::content::{Action, ActionEntry, Value};
use crate::id::Id;

/// Whether items came or went; loot is picked up rather than received.
#[derive(Clone, Copy)]
enum Gain {
    Got(bool),
    Lost,
}

impl Game {
    /// What a creature got or lost, in the player's words: "You receive 50 Gold.", "Rat loses 1
    /// Rat Tail.", the same item counted together.
    fn say_items(&mut self, who: CreatureRef, gain: Gain, items: &[(Id, u32)]) {
        if items.is_empty() {
            return;
        }
        let mut counted: Vec<(&Id, u32)> = Vec::new();
        for (id, n) in items {
            match counted.iter_mut().find(|(c, _)| *c == id) {
                Some((_, total)) => *total = total.saturating_add(*n),
                None => counted.push((id, *n)),
            }
        }
        let list: Vec<String> = counted
            .iter()
            .map(|(id, n)| {
                let name = self
                    .content
                    .items
                    .get(*id)
                    .map_or_else(|| id.to_string().into(), |i| i.name.clone());
                self.text(
                    "item_count",
                    &[("count", (*n).into()), ("item", name.into())],
                )
            })
            .collect();
        let items = ("items", list.join(", ").into());
        let player = who == CreatureRef::Player;
        let key = match (gain, player) {
            (Gain::Got(true), true) => "you_pick_up",
            (Gain::Got(_), true) => "you_receive",
            (Gain::Lost, true) => "you_lose",
            (Gain::Got(_), false) => "receives",
            (Gain::Lost, false) => "loses",
        };
        let line = if player {
            self.text(key, &[items])
        } else {
            let name = self
                .creature(who)
                .map_or_else(|| who.to_string().into(), |c| c.name.clone());
            self.text(key, &[("who", name.into()), items])
        };
        self.say(line);
    }

    fn who(&self, who: crate::content::Who, ctx: &Ctx) -> Result<CreatureRef, String> {
        match self.resolve_who(who, ctx) {
            Some(r) if self.creature(r).is_some_and(|c| c.alive()) => Ok(r),
            Some(r) => Err(format!("`{}` ({r}) is not a living creature", who.as_str())),
            None => Err(format!("there is no `{}` here", who.as_str())),
        }
    }

    /// Applies one action: its effect on the state, and the events and lines it raises.
    pub(super) fn apply_entry(
        &mut self,
        entry: &ActionEntry,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        match &entry.action {
            Action::Damage {
                amount,
                damage_type,
                target,
            } => {
                let victim = self.who(*target, ctx)?;
                let dealer = if victim == ctx.bearer {
                    ctx.target
                } else {
                    Some(ctx.bearer)
                };
                self.deal_damage(victim, dealer, *amount, damage_type);
            }
            Action::Heal { amount, target } => {
                let who = self.who(*target, ctx)?;
                let max = self.attribute(who, "max_health", None);
                if let Some(c) = self.creature_mut(who) {
                    c.health = c
                        .health
                        .saturating_add(*amount.max(&0))
                        .min(max.max(c.health));
                }
            }
            Action::GiveItem {
                item,
                count,
                target,
            } => self.give_item(item, *count, self.who(*target, ctx)?, ctx),
            Action::TakeItem {
                item,
                count,
                target,
            } => self.take_item(item, *count, self.who(*target, ctx)?)?,
            Action::GiveRandomItems {
                tag,
                count,
                min_rarity,
                max_rarity,
                target,
            } => {
                let who = self.who(*target, ctx)?;
                self.give_random_items(tag, *count, (min_rarity, max_rarity), who, ctx)?
            }
            Action::TakeRandomItems {
                tag,
                rarity,
                count,
                target,
            } => self.take_random_items(tag, rarity, *count, self.who(*target, ctx)?, ctx)?,
            Action::DamageRandomItems {
                tag,
                property,
                amount,
                count,
                target,
            } => {
                let who = self.who(*target, ctx)?;
                self.damage_random_items(tag, property, *amount, *count, who, ctx)
            }
            a @ (Action::UnlockCard { .. } | Action::SetDie { .. }) => self.apply_to_deck(a)?,
            Action::StartQuest { quest } => self.start_quest(quest, ctx),
            Action::EmitEvent {
                event,
                payload,
                target,
            } => {
                let target = match target {
                    Some(w) => Some(self.who(*w, ctx)?),
                    None => None,
                };
                self.emit(*event, ctx.bearer, target, payload, Some(ctx.cause.into()))?;
            }
            Action::Game { args, index, .. } => {
                let run = self.code.actions[*index].clone();
                return run(self, args, ctx).map_err(crate::Error::Refused);
            }
            Action::Custom { id, args } => return self.custom_action(id, args, ctx),
        }
        Ok(())
    }

    /// `give_item`: `count` of `item` to `who`, said and raised as picked up when any was kept.
    fn give_item(&mut self, item: &Id, count: u32, who: CreatureRef, ctx: &Ctx) {
        let content = self.content.clone();

        self.lists.uncapped = true;
        let kept = self
            .creature_mut(who)
            .map(|c| c.receive(&content, item, count))
            .unwrap_or(0);
        if kept > 0 {
            self.say_items(
                who,
                Gain::Got(ctx.cause == "loot"),
                &[(item.clone(), count)],
            );
            self.push(
                Event::new(ev::ITEM_PICKED_UP, who, None, vec![Some(Value::id(item))]),
                Some(ctx.cause.into()),
            );
        }
    }

    /// `take_item`: `count` of `item` from `who`, who must hold them.
    fn take_item(&mut self, item: &Id, count: u32, who: CreatureRef) -> Result<(), crate::Error> {
        let content = self.content.clone();

        let held = self.creature(who).map(|c| c.count(item)).unwrap_or(0);
        if held < count {
            let name = content
                .items
                .get(item)
                .map(|i| i.name.to_string())
                .unwrap_or_else(|| item.to_string());
            return Err(format!("needs {count} {name}, but {who} holds {held}").into());
        }
        if let Some(c) = self.creature_mut(who) {
            c.take(item, count);
        }
        self.say_items(who, Gain::Lost, &[(item.clone(), count)]);
        Ok(())
    }

    /// `start_quest`: the quest started, said and raised, unless it was started before.
    fn start_quest(&mut self, quest: &Id, ctx: &Ctx) {
        let content = self.content.clone();
        if !self.state.quests.contains_key(quest) {
            self.set_quest(
                quest,
                super::QuestProgress {
                    count: 0,
                    done: false,
                },
            );
            let name = content
                .quests
                .get(quest)
                .map(|q| q.name.clone())
                .unwrap_or_default();
            let line = self.text("quest_started", &[("quest", name.into())]);
            self.say(line);
            self.push(
                Event::new(
                    ev::QUEST_STARTED,
                    CreatureRef::Player,
                    None,
                    vec![Some(Value::id(quest))],
                ),
                Some(ctx.cause.into()),
            );
        }
    }

    /// A mod's action by its ID: the game's code's, else the script's that registers it.
    fn custom_action(
        &mut self,
        id: &Id,
        args: &std::collections::BTreeMap<String, Value>,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        if let Some(result) = self.host_action(id, args, ctx) {
            return result.map_err(crate::Error::Refused);
        }
        let busy = self.scripts_busy;
        match self.with_scripts(|host, game| host.action(game, id, args, ctx)) {
            Some(result) => result,
            None if busy => {
                Err(format!("the action `{id}` cannot run inside another script's call").into())
            }
            None => Err(format!("no script registers the action `{id}`").into()),
        }
    }

    /// `give_random_items`: `count` items tagged `tag` within the rarity bounds, each drawn
    /// from the action's stream.
    fn give_random_items(
        &mut self,
        tag: &Id,
        count: u32,
        (min_rarity, max_rarity): (&Option<String>, &Option<String>),
        who: CreatureRef,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        let content = self.content.clone();

        let rank = |r: &Option<String>| r.as_ref().and_then(|r| content.rarity_rank(r));
        let (lo, hi) = (rank(min_rarity), rank(max_rarity));
        let candidates: Vec<&Id> = content
            .items
            .values()
            .filter(|i| i.tags.contains(tag))
            .filter(|i| {
                let r = i.rarity.as_ref().and_then(|r| content.rarity_rank(r));
                lo.is_none_or(|lo| r.is_some_and(|r| r >= lo))
                    && hi.is_none_or(|hi| r.is_some_and(|r| r <= hi))
            })
            .map(|i| &i.id)
            .collect();
        if candidates.is_empty() {
            return Err(format!("no item tagged `{tag}` lies in the rarity range").into());
        }
        let mut got = Vec::new();
        for _ in 0..count {
            let pick = candidates[self.rng.below(ctx.stream, candidates.len())].clone();
            self.lists.uncapped = true;
            if let Some(c) = self.creature_mut(who) {
                c.receive(&content, &pick, 1);
            }
            got.push((pick.clone(), 1));
            self.push(
                Event::new(ev::ITEM_PICKED_UP, who, None, vec![Some(Value::id(&pick))]),
                Some(ctx.cause.into()),
            );
        }
        self.say_items(who, Gain::Got(false), &got);
        Ok(())
    }

    /// `take_random_items`: `count` units of items tagged `tag` (of a rarity if given), each
    /// drawn from the action's stream without replacement; `who` must hold that many.
    fn take_random_items(
        &mut self,
        tag: &Id,
        rarity: &Option<String>,
        count: u32,
        who: CreatureRef,
        ctx: &Ctx,
    ) -> Result<(), crate::Error> {
        let content = self.content.clone();

        let filter = crate::content::ItemFilter {
            item: None,
            tag: Some(tag.clone()),
            rarity: rarity.clone(),
        };
        let held = self.count_matching(who, &filter);
        if held < count {
            let rarity = rarity
                .as_ref()
                .map(|r| format!(" of rarity {r}"))
                .unwrap_or_default();
            return Err(format!(
                "needs {count} items tagged `{tag}`{rarity}, but {who} holds {held}"
            )
            .into());
        }
        // One entry per unit, in inventory order, then a seeded pick without replacement.
        let content_ref = content.clone();
        let mut units: Vec<Id> = Vec::new();
        if let Some(c) = self.creature(who) {
            for s in c
                .inventory
                .iter()
                .filter(|s| super::check::item_matches(&content_ref, &filter, &s.item))
            {
                units.extend(std::iter::repeat_n(s.item.clone(), s.count as usize));
            }
        }
        let mut lost = Vec::new();
        for _ in 0..count {
            let i = self.rng.below(ctx.stream, units.len());
            let item = units.swap_remove(i);
            if let Some(c) = self.creature_mut(who) {
                c.take(&item, 1);
            }
            lost.push((item, 1));
        }
        self.say_items(who, Gain::Lost, &lost);
        Ok(())
    }

    /// `damage_random_items`: `property` lowered by `amount` (not below zero) on up to `count`
    /// of `who`'s items tagged `tag` that have it, drawn from the action's stream.
    fn damage_random_items(
        &mut self,
        tag: &Id,
        property: &str,
        amount: i64,
        count: u32,
        who: CreatureRef,
        ctx: &Ctx,
    ) {
        let content = self.content.clone();

        if amount <= 0 {
            return;
        }
        let mut candidates: Vec<usize> = self
            .creature(who)
            .map(|c| {
                c.inventory
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| {
                        s.properties.contains_key(property)
                            && content
                                .items
                                .get(&s.item)
                                .is_some_and(|d| d.tags.contains(tag))
                    })
                    .map(|(i, _)| i)
                    .collect()
            })
            .unwrap_or_default();
        for _ in 0..(count as usize).min(candidates.len()) {
            let pick = candidates.swap_remove(self.rng.below(ctx.stream, candidates.len()));
            if let Some(c) = self.creature_mut(who) {
                if let Some(v) = c.inventory[pick].properties.get_mut(property) {
                    *v = v.saturating_sub(amount).max(0);
                }
            }
        }
    }

    /// The actions over the hazard game's deck and dice (`apply_entry` sends only these).
    fn apply_to_deck(&mut self, action: &Action) -> Result<(), crate::Error> {
        let content = self.content.clone();
        match action {
            Action::UnlockCard { card, count } => {
                let name = content
                    .cards
                    .get(card)
                    .map_or_else(|| card.to_string().into(), |c| c.name.clone());
                let room = super::state::MOST_CARDS.saturating_sub(self.state.deck.len());
                let adding = (*count as usize).min(room);
                if adding < *count as usize {
                    return Err(format!(
                        "the deck holds at most {} cards; it has {}",
                        super::state::MOST_CARDS,
                        self.state.deck.len()
                    )
                    .into());
                }
                self.state
                    .deck
                    .extend(std::iter::repeat_n(card.clone(), adding));
                let line = self.text(
                    "joins_deck",
                    &[("count", adding.into()), ("card", name.into())],
                );
                self.say(line);
            }
            Action::SetDie { die, face, state } => {
                let run = self
                    .state
                    .hazard
                    .as_mut()
                    .ok_or("`set_die` needs a hazard in progress")?;
                let count = run.dice.len();
                let d = die
                    .checked_sub(1)
                    .and_then(|i| run.dice.get_mut(i as usize))
                    .ok_or_else(|| format!("there is no die {die}; the hazard has {count}"))?;
                if let Some(face) = face {
                    d.face = match face {
                        Some(color) => crate::hazard::Face::Color(*color),
                        None => crate::hazard::Face::X,
                    };
                }
                if let Some(state) = state {
                    d.state = *state;
                }
            }
            _ => {}
        }
        Ok(())
    }
}
