//! The hazard game's definitions (seed 002): progress types, hazard cards and action cards.

use super::action::ActionEntry;
use super::ActionList;
use crate::diag::Span;
use crate::id::Id;

/// A mana color; a die shows one of them or a blank X.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    Red,
    Blue,
    Purple,
    Gold,
}

impl Color {
    pub const ALL: [Color; 4] = [Color::Red, Color::Blue, Color::Purple, Color::Gold];
    pub const NAMES: &'static [&'static str] = &["red", "blue", "purple", "gold"];

    pub fn parse(s: &str) -> Option<Color> {
        Color::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Color::ALL[i])
    }

    pub fn name(self) -> &'static str {
        Color::NAMES[self as usize]
    }
}

/// What a card is for; the simulator's flat-round and X-interaction metrics read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardClass {
    Progress,
    Focus,
    Draw,
    Dice,
    XInteraction,
    Enchant,
}

impl CardClass {
    pub const NAMES: &'static [&'static str] = &[
        "progress",
        "focus",
        "draw",
        "dice",
        "x_interaction",
        "enchant",
    ];

    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    pub fn parse(s: &str) -> Option<CardClass> {
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
    pub fn touches_x(&self) -> bool {
        matches!(
            self,
            CardEffect::TreatX { .. } | CardEffect::ExhaustX { .. }
        )
    }
}

/// One effect of a card action.
#[derive(Debug, Clone, PartialEq)]
pub enum CardEffect {
    /// Adds progress of a type (plus any pending focus).
    Progress {
        kind: Id,
        amount: i64,
    },
    /// Adds to the next progress produced this round.
    Focus {
        amount: i64,
    },
    Draw {
        count: u32,
    },
    /// Rerolls dice, X dice first, then spent ones.
    Reroll {
        count: u32,
    },
    /// One X die becomes an available die of the color.
    TreatX {
        color: Color,
    },
    /// Spends an X die for progress.
    ExhaustX {
        kind: Id,
        amount: i64,
    },
    /// Spent dice become available again.
    Refresh {
        count: u32,
    },
    /// The next dice a bottom action would spend this round stay available.
    Preserve {
        count: u32,
    },
    /// Any game action, a Lua-registered one included, applied to the game when the card resolves.
    Action(ActionEntry),
}

#[derive(Debug, Clone)]
pub struct Bottom {
    /// Dice to spend: any showing a color, the card's own first.
    pub cost: u32,
    pub effects: Vec<CardEffect>,
}

#[derive(Debug, Clone)]
pub struct Card {
    pub id: Id,
    pub name: String,
    pub text: String,
    pub color: Color,
    pub rarity: Option<String>,
    pub class: CardClass,
    /// Copies in the starting deck.
    pub starter: u32,
    pub top: Vec<CardEffect>,
    pub bottom: Option<Bottom>,
    pub enchant: bool,
    /// Applied at the start of every round while the card is in the enchantment zone.
    pub ongoing: Vec<CardEffect>,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub struct ProgressType {
    pub id: Id,
    pub name: String,
    pub span: Span,
}

/// A route meter: a progress type and its threshold in each round (the last is the final round's).
#[derive(Debug, Clone)]
pub struct Meter {
    pub progress: Id,
    pub thresholds: Vec<i64>,
}

#[derive(Debug, Clone)]
pub struct Hazard {
    pub id: Id,
    pub name: String,
    pub text: String,
    pub rounds: u32,
    pub safe: Meter,
    /// Both required in the same round.
    pub risk: Vec<Meter>,
    /// The safe route's progress type may be picked from these at reveal (the seed's H07).
    pub choose_progress: Vec<Id>,
    pub penalty: ActionList,
    pub final_penalty: ActionList,
    /// Score thresholds, highest first: the first whose `at_least` the score reaches applies.
    pub outcomes: Vec<(i64, ActionList)>,
    pub span: Span,
}

impl Hazard {
    /// The actions for a final score.
    pub fn outcome(&self, score: i64) -> Option<&ActionList> {
        self.outcomes
            .iter()
            .find(|(at_least, _)| score >= *at_least)
            .map(|(_, a)| a)
    }
}
