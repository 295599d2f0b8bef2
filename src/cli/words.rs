//! Actions and card effects in the player's words: "deals 3 fire damage to the target",
//! "+3 Force", for what the game shows (a hazard's penalties, a card's actions, what a rule did).
//! Plain functions from content to text; nothing here changes the game.

use crate::content::CardEffect;
use crate::content::{Action, ActionList, Content, Who};
use crate::id::Id;

fn item_name(content: &Content, id: &Id) -> String {
    content
        .items
        .get(id)
        .map_or_else(|| id.to_string(), |i| i.name.clone())
}

fn progress_name(content: &Content, id: &Id) -> String {
    content
        .progress_types
        .get(id)
        .map_or_else(|| id.to_string(), |p| p.name.clone())
}

fn whom(who: Who) -> &'static str {
    match who {
        Who::Bearer => "you",
        Who::Target => "the target",
        Who::Player => "you",
        Who::Source => "the source",
    }
}

/// One action, as the player reads it.
pub(super) fn action(content: &Content, action: &Action) -> String {
    match action {
        Action::Damage {
            amount,
            damage_type,
            target,
        } => format!("{amount} {damage_type} damage to {}", whom(*target)),
        Action::Heal { amount, target } => match target {
            Who::Bearer | Who::Player => format!("heals {amount}"),
            other => format!("heals {} {amount}", whom(*other)),
        },
        Action::GiveItem { item, count, .. } => format!("+{count} {}", item_name(content, item)),
        Action::TakeItem { item, count, .. } => format!("-{count} {}", item_name(content, item)),
        Action::GiveRandomItems { tag, count, .. } => {
            format!("+{count} random {}", tag_name(content, tag))
        }
        Action::TakeRandomItems { tag, count, .. } => {
            format!("-{count} random {}", tag_name(content, tag))
        }
        Action::DamageRandomItems {
            tag,
            property,
            amount,
            count,
            ..
        } => format!("-{amount} {property} to {count} {}", tag_name(content, tag)),
        Action::StartQuest { quest } => format!(
            "starts the quest {}",
            content
                .quests
                .get(quest)
                .map_or_else(|| quest.to_string(), |q| q.name.clone())
        ),
        Action::EmitEvent { event, .. } => format!("raises {}", content.events.get(*event).name),
        Action::UnlockCard { card, count } => {
            let name = content
                .cards
                .get(card)
                .map_or_else(|| card.to_string(), |c| c.name.clone());
            if *count == 1 {
                format!("{name} joins your deck")
            } else {
                format!("{count} {name} join your deck")
            }
        }
        Action::SetDie { die, face, state } => {
            let mut parts = Vec::new();
            if let Some(face) = face {
                parts.push(face.map_or("X".to_string(), |c| c.name().to_string()));
            }
            if let Some(state) = state {
                parts.push(state.name().to_string());
            }
            format!("die {die} becomes {}", parts.join(" and "))
        }
        Action::Custom { id, .. } | Action::Game { id, .. } => id.to_string(),
    }
}

fn tag_name(content: &Content, tag: &Id) -> String {
    content
        .tags
        .get(tag)
        .map_or_else(|| tag.to_string(), |t| t.name.clone())
}

/// An action list, joined: "2 physical damage to you, -5 Gold"; "nothing" when empty.
pub(super) fn actions(content: &Content, list: &ActionList) -> String {
    if list.actions.is_empty() {
        return "nothing".into();
    }
    list.actions
        .iter()
        .map(|e| action(content, &e.action))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One card effect: "+3 Force", "focus +1", "draw 1".
pub(super) fn effect(content: &Content, effect: &CardEffect) -> String {
    match effect {
        CardEffect::Progress { kind, amount } => {
            format!("+{amount} {}", progress_name(content, kind))
        }
        CardEffect::Focus { amount } => format!("focus +{amount}"),
        CardEffect::Draw { count } => format!("draw {count}"),
        CardEffect::Reroll { count } => format!("reroll {count}"),
        CardEffect::TreatX { color } => format!("an X die becomes {}", color.name()),
        CardEffect::ExhaustX { kind, amount } => format!(
            "burn an X die for +{amount} {}",
            progress_name(content, kind)
        ),
        CardEffect::Refresh { count } => format!("refresh {count}"),
        CardEffect::Preserve { count } => format!("the next {count} dice you pay are kept"),
        CardEffect::Action(entry) => action(content, &entry.action),
    }
}

/// A card's effects, joined: "+1 Force, draw 1"; "nothing" when there are none.
pub(super) fn effects(content: &Content, list: &[CardEffect]) -> String {
    if list.is_empty() {
        return "nothing".into();
    }
    list.iter()
        .map(|e| effect(content, e))
        .collect::<Vec<_>>()
        .join(", ")
}
