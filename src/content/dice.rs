//! The hazard game's dice in content's words: the mana colors a die shows and whether a die can
//! pay, which cards and actions (`set_die`) name.

/// A mana color; a die shows one of them or a blank X.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// Red.
    Red,
    /// Blue.
    Blue,
    /// Purple.
    Purple,
    /// Gold.
    Gold,
}

impl Color {
    /// Every color, in order.
    pub(crate) const ALL: [Color; 4] = [Color::Red, Color::Blue, Color::Purple, Color::Gold];
    /// Their names, in order.
    pub(crate) const NAMES: &'static [&'static str] = &["red", "blue", "purple", "gold"];

    /// A color by its name.
    pub(crate) fn parse(s: &str) -> Option<Color> {
        Color::NAMES
            .iter()
            .position(|n| *n == s)
            .map(|i| Color::ALL[i])
    }

    /// The color's name.
    pub fn name(self) -> &'static str {
        Color::NAMES[self as usize]
    }
}

/// Whether a die can pay this round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DieState {
    /// It can pay.
    Available,
    /// Paid for a bottom action: stays spent until a card refreshes it (no auto-refresh).
    Spent,
    /// An X die used for progress: available again next round on the safe route, not on the risk route.
    Exhausted,
}

impl DieState {
    /// The states by name, as Lua and the console write them.
    pub(crate) const NAMES: &'static [&'static str] = &["available", "spent", "exhausted"];

    /// A state by its name.
    pub(crate) fn parse(s: &str) -> Option<DieState> {
        match s {
            "available" => Some(DieState::Available),
            "spent" => Some(DieState::Spent),
            "exhausted" => Some(DieState::Exhausted),
            _ => None,
        }
    }

    /// The state's name.
    pub fn name(self) -> &'static str {
        DieState::NAMES[self as usize]
    }
}
