//! The hazard game's definitions (seed 002): progress types, hazard cards and action cards.

use super::action::ActionEntry;
use super::dice::Color;
use super::name::Name;
use super::ActionList;
use crate::diag::Span;
use crate::id::Id;

/// What a card is for; the simulator's flat-round and X-interaction metrics read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardClass {
    /// Progress cards.
    Progress,
    /// Focus cards.
    Focus,
    /// Cards that draw.
    Draw,
    /// Cards that change dice.
    Dice,
    /// Cards that use or turn X dice.
    XInteraction,
    /// Enchantments.
    Enchant,
}

impl CardClass {
    /// Their names, in variant order.
    pub(crate) const NAMES: &'static [&'static str] = &[
        "progress",
        "focus",
        "draw",
        "dice",
        "x_interaction",
        "enchant",
    ];

    /// The class's name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// A class by its name.
    pub(crate) fn parse(s: &str) -> Option<CardClass> {
        let all = [
            CardClass::Progress,
            CardClass::Focus,
            CardClass::Draw,
            CardClass::Dice,
            CardClass::XInteraction,
            CardClass::Enchant,
        ];
        CardClass::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| all[i])
    }
}

impl CardEffect {
    /// Whether it acts on X dice, which only X-interaction cards may do (seed 002, FR-10).
    pub(crate) fn touches_x(&self) -> bool {
        matches!(
            self,
            CardEffect::TreatX { .. } | CardEffect::ExhaustX { .. }
        )
    }
}

/// One effect of a card action.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub(crate) enum CardEffect {
    /// Adds progress of a type (plus any pending focus).
    Progress {
        /// The progress type.
        kind: Id,
        /// How much.
        amount: i64,
    },
    /// Adds to the next progress produced this round.
    Focus {
        /// How much.
        amount: i64,
    },
    /// Draws cards.
    Draw {
        /// How many.
        count: u32,
    },
    /// Rerolls dice, X dice first, then spent ones.
    Reroll {
        /// How many dice.
        count: u32,
    },
    /// One X die becomes an available die of the color.
    TreatX {
        /// The color it becomes.
        color: Color,
    },
    /// Spends an X die for progress.
    ExhaustX {
        /// The progress type.
        kind: Id,
        /// How much.
        amount: i64,
    },
    /// Spent dice become available again.
    Refresh {
        /// How many dice.
        count: u32,
    },
    /// The next dice a bottom action would spend this round stay available.
    Preserve {
        /// How many dice.
        count: u32,
    },
    /// Any game action, a Lua-registered one included, applied to the game when the card resolves.
    Action(ActionEntry),
}

/// A card's bottom action: its mana cost and effects.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Bottom {
    /// Dice to spend: any showing a color, the card's own first.
    pub(crate) cost: u32,
    /// What it does.
    pub(crate) effects: Vec<CardEffect>,
}

/// A card (`[[cards]]`) of the personal deck (seed 002).
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What it says.
    pub text: String,
    /// Its color.
    pub(crate) color: Color,
    /// Its rarity, if any.
    pub rarity: Option<String>,
    /// Its class.
    pub class: CardClass,
    /// Copies in the starting deck.
    pub(crate) starter: u32,
    /// Its top action's effects (paid with nothing).
    pub(crate) top: Vec<CardEffect>,
    /// Its bottom action, if it has one.
    pub(crate) bottom: Option<Bottom>,
    /// Whether it stays in the enchantment zone when played.
    pub(crate) enchant: bool,
    /// Applied at the start of every round while the card is in the enchantment zone.
    pub(crate) ongoing: Vec<CardEffect>,
    /// Where it is defined.
    pub span: Span,
}

/// A kind of hazard progress (`[[progress_types]]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ProgressType {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// Where it is defined.
    pub span: Span,
}

/// A route meter: a progress type and its threshold in each round (the last is the final round's).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Meter {
    /// The progress type it counts.
    pub(crate) progress: Id,
    /// The threshold in each round.
    pub(crate) thresholds: Vec<i64>,
}

/// A hazard (`[[hazards]]`, seed 002).
#[derive(Debug, Clone, PartialEq)]
pub struct Hazard {
    /// Its ID.
    pub id: Id,
    /// Shown to players.
    pub name: Name,
    /// What the player reads.
    pub text: String,
    /// How many rounds it lasts.
    pub(crate) rounds: u32,
    /// The safe route's meter.
    pub(crate) safe: Meter,
    /// Both required in the same round.
    pub(crate) risk: Vec<Meter>,
    /// The safe route's progress type may be picked from these at reveal (the seed's H07).
    pub(crate) choose_progress: Vec<Id>,
    /// Applied when a round fails.
    pub(crate) penalty: ActionList,
    /// Applied when the final round fails.
    pub(crate) final_penalty: ActionList,
    /// Score thresholds, highest first: the first whose `at_least` the score reaches applies.
    pub(crate) outcomes: Vec<(i64, ActionList)>,
    /// Where it is defined.
    pub span: Span,
}

impl Hazard {
    /// The actions for a final score.
    pub(crate) fn outcome(&self, score: i64) -> Option<&ActionList> {
        self.outcomes
            .iter()
            .find(|(at_least, _)| score >= *at_least)
            .map(|(_, a)| a)
    }
}
