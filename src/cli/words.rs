//! Actions and card effects in the player's words, in the game's language: "3 fire damage to the
//! target", "+3 Force", for what the console shows (a hazard's penalties, a card's effects). Plain
//! functions from content to text; nothing here changes the game. The words are lantern's own
//! texts (`src/content/locale/builtin/`).

use crate::content::CardEffect;
use crate::content::{Action, ActionList, Content, TextArg, Who};
use crate::id::Id;

fn item_name(content: &Content, id: &Id) -> String {
    content
        .items
        .get(id)
        .map_or_else(|| id.to_string(), |i| i.name.to_string())
}

/// A progress type's name, or its ID when it is gone.
pub(super) fn progress_name(content: &Content, id: &Id) -> String {
    content
        .progress_types
        .get(id)
        .map_or_else(|| id.to_string(), |p| p.name.to_string())
}

fn tag_name(content: &Content, tag: &Id) -> String {
    content
        .tags
        .get(tag)
        .map_or_else(|| tag.to_string(), |t| t.name.to_string())
}

fn whom(content: &Content, who: Who) -> String {
    content.text(
        match who {
            Who::Bearer | Who::Player => "you",
            Who::Target => "the_target",
            Who::Source => "the_source",
        },
        &[],
    )
}

/// One action, as the player reads it.
pub(super) fn action(content: &Content, action: &Action) -> String {
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    match action {
        Action::Damage {
            amount,
            damage_type,
            target,
        } => t(
            "damage_to",
            &[
                ("amount", (*amount).into()),
                ("damage_type", content.word(damage_type).into()),
                ("whom", whom(content, *target).into()),
            ],
        ),
        Action::Heal { amount, target } => match target {
            Who::Bearer | Who::Player => t("heals", &[("amount", (*amount).into())]),
            other => t(
                "heals_whom",
                &[
                    ("whom", whom(content, *other).into()),
                    ("amount", (*amount).into()),
                ],
            ),
        },
        Action::GiveItem { item, count, .. } => format!("+{count} {}", item_name(content, item)),
        Action::TakeItem { item, count, .. } => format!("-{count} {}", item_name(content, item)),
        Action::GiveRandomItems { tag, count, .. } | Action::TakeRandomItems { tag, count, .. } => {
            let sign = if matches!(action, Action::GiveRandomItems { .. }) {
                "+"
            } else {
                "-"
            };
            t(
                "random_items",
                &[
                    ("sign", sign.into()),
                    ("count", (*count).into()),
                    ("tag", tag_name(content, tag).into()),
                ],
            )
        }
        Action::DamageRandomItems {
            tag,
            property,
            amount,
            count,
            ..
        } => t(
            "wears_down",
            &[
                ("amount", (*amount).into()),
                ("property", property.as_str().into()),
                ("count", (*count).into()),
                ("tag", tag_name(content, tag).into()),
            ],
        ),
        Action::StartQuest { quest } => {
            let name = content
                .quests
                .get(quest)
                .map_or_else(|| quest.to_string(), |q| q.name.to_string());
            t("starts_quest", &[("quest", name.into())])
        }
        Action::EmitEvent { event, .. } => t(
            "raises",
            &[("event", content.events.get(*event).name.as_str().into())],
        ),
        Action::UnlockCard { card, count } => {
            let name = content
                .cards
                .get(card)
                .map_or_else(|| card.to_string(), |c| c.name.to_string());
            // The same words as the line the action says when it runs, without the full stop.
            let line = t(
                "joins_deck",
                &[("count", (*count).into()), ("card", name.into())],
            );
            line.trim_end_matches('.').to_string()
        }
        Action::SetDie { die, face, state } => {
            let mut parts = Vec::new();
            if let Some(face) = face {
                parts.push(face.map_or("X".to_string(), |c| t(c.name(), &[])));
            }
            if let Some(state) = state {
                parts.push(t(state.name(), &[]));
            }
            let and = format!(" {} ", t("and", &[]));
            t(
                "die_becomes",
                &[("die", (*die).into()), ("what", parts.join(&and).into())],
            )
        }
        Action::Custom { id, .. } | Action::Game { id, .. } => id.to_string(),
    }
}

/// An action list, joined: "2 physical damage to you, -5 Gold"; "nothing" when empty.
pub(super) fn actions(content: &Content, list: &ActionList) -> String {
    if list.actions.is_empty() {
        return content.text("nothing", &[]);
    }
    list.actions
        .iter()
        .map(|e| action(content, &e.action))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One card effect: "+3 Force", "focus +1", "draw 1".
pub(super) fn effect(content: &Content, effect: &CardEffect) -> String {
    let t = |key: &str, args: &[(&str, TextArg)]| content.text(key, args);
    match effect {
        CardEffect::Progress { kind, amount } => {
            format!("+{amount} {}", progress_name(content, kind))
        }
        CardEffect::Focus { amount } => t("focus_plus", &[("amount", (*amount).into())]),
        CardEffect::Draw { count } => t("draw", &[("count", (*count).into())]),
        CardEffect::Reroll { count } => t("reroll", &[("count", (*count).into())]),
        CardEffect::TreatX { color } => t("x_becomes", &[("color", t(color.name(), &[]).into())]),
        CardEffect::ExhaustX { kind, amount } => t(
            "burn_x",
            &[
                ("amount", (*amount).into()),
                ("kind", progress_name(content, kind).into()),
            ],
        ),
        CardEffect::Refresh { count } => t("refresh", &[("count", (*count).into())]),
        CardEffect::Preserve { count } => t("preserve", &[("count", (*count).into())]),
        CardEffect::Action(entry) => action(content, &entry.action),
    }
}

/// A card's effects, joined: "+1 Force, draw 1"; "nothing" when there are none.
pub(super) fn effects(content: &Content, list: &[CardEffect]) -> String {
    if list.is_empty() {
        return content.text("nothing", &[]);
    }
    list.iter()
        .map(|e| effect(content, e))
        .collect::<Vec<_>>()
        .join(", ")
}
