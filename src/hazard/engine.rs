//! One hazard as a state machine: `start`, `choose_route`, `play`, `end_round`.
//!
//! Randomness comes through [`Rolls`], so the game can use named streams and the simulator a
//! single fast generator. Every card is always in exactly one place: the draw pile, the hand, the
//! discard pile or the enchantment zone (seed 002's NFR-03); a property test checks it.

use crate::content::{ActionEntry, Content};
use crate::content::{Card, CardClass, CardEffect, Color, DieState, Hazard};
use crate::id::Id;
use serde::{Deserialize, Serialize};

/// Cards drawn at the start of each round and before the route is chosen.
pub const HAND: usize = 5;
/// Mana dice rolled when the route is chosen.
pub const DICE: usize = 4;
/// A die's six faces: the four colors and two blank X faces.
pub const FACES: [Face; 6] = [
    Face::Color(Color::Red),
    Face::Color(Color::Blue),
    Face::Color(Color::Purple),
    Face::Color(Color::Gold),
    Face::X,
    Face::X,
];

/// What a mana die shows: a color, or X (progress, or a color once a card turns it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// A color, which pays a bottom action's mana cost.
    Color(Color),
    /// X: pays progress on the route instead of mana.
    X,
}

/// One of the four persistent mana dice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Die {
    /// What it shows.
    pub face: Face,
    /// Whether it can pay.
    pub state: DieState,
}

/// How the hazard is faced, chosen once at reveal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Route {
    /// The safe route: one progress meter; X dice used for progress come back the next round.
    Safe,
    /// The risk route: a meter for each of the hazard's risk progress types; X dice used for
    /// progress do not come back.
    Risk,
}

impl Route {
    /// The route's name (`safe`, `risk`).
    pub fn name(self) -> &'static str {
        match self {
            Route::Safe => "safe",
            Route::Risk => "risk",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
/// Where a hazard is.
pub enum Phase {
    /// The hazard is revealed and the hand drawn; the route is not chosen yet.
    Reveal,
    /// A route is chosen; cards are played and rounds ended.
    Playing,
    /// The last round ended; the outcome was applied.
    Done,
}

/// Which half of a card is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// Its top action (progress).
    Top,
    /// Its bottom action, paid with mana dice.
    Bottom,
}

/// What randomness the engine needs.
pub trait Rolls {
    /// A shuffle step: an index in `[0, n)`.
    fn shuffle(&mut self, n: usize) -> usize;
    /// A die roll: an index in `[0, n)`.
    fn die(&mut self, n: usize) -> usize;
}

/// A hazard in progress.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HazardRun {
    /// The hazard being played.
    pub hazard: Id,
    /// Where it is.
    pub phase: Phase,
    /// The route, once chosen.
    pub route: Option<Route>,
    /// The safe route's progress type (the hazard's, or the one chosen at reveal).
    pub(crate) safe_type: Id,
    /// Zero-based.
    pub round: u32,
    /// The four mana dice.
    pub dice: Vec<Die>,
    /// The draw pile; its last card is on top.
    pub deck: Vec<Id>,
    /// The cards in hand.
    pub hand: Vec<Id>,
    /// The discard pile.
    pub discard: Vec<Id>,
    /// The enchantment zone: cards whose effect lasts.
    pub enchanted: Vec<Id>,
    /// Progress this round, one entry per meter of the route.
    pub meters: Vec<i64>,
    /// Focus, which some cards spend and give.
    pub focus: i64,
    /// O (true) or X (false) for every finished round.
    pub(crate) marks: Vec<bool>,
    /// Actions of played cards, waiting for the game to apply them.
    #[serde(skip)]
    pub(crate) pending: Vec<ActionEntry>,
    /// Classes of the cards played this round (for the simulator's flat-round metric).
    #[serde(skip)]
    pub(crate) played: Vec<CardClass>,
    /// Dice that bottom actions will not spend, this round (`preserve`).
    #[serde(default)]
    pub(crate) preserved: u32,
}

/// The result of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct RoundEnd {
    /// One-based.
    pub round: u32,
    /// Whether every meter reached its threshold.
    pub success: bool,
    /// Whether it was the last round.
    pub(crate) last: bool,
}

impl HazardRun {
    /// Reveals a hazard: shuffles the personal deck and draws the opening hand.
    pub fn start(hazard: &Hazard, deck: &[Id], rolls: &mut impl Rolls) -> HazardRun {
        let mut run = HazardRun {
            hazard: hazard.id.clone(),
            phase: Phase::Reveal,
            route: None,
            safe_type: hazard.safe.progress.clone(),
            round: 0,
            dice: Vec::new(),
            deck: deck.to_vec(),
            hand: Vec::with_capacity(HAND + 4),
            discard: Vec::new(),
            enchanted: Vec::new(),
            meters: Vec::new(),
            focus: 0,
            marks: Vec::new(),
            pending: Vec::new(),
            played: Vec::new(),
            preserved: 0,
        };
        shuffle(&mut run.deck, rolls);
        run.draw(HAND, rolls);
        run
    }

    /// Draws cards; an empty draw pile is refilled by shuffling the discard pile.
    pub(crate) fn draw(&mut self, count: usize, rolls: &mut impl Rolls) {
        for _ in 0..count {
            if self.deck.is_empty() {
                if self.discard.is_empty() {
                    return;
                }
                self.deck.append(&mut self.discard);
                shuffle(&mut self.deck, rolls);
            }
            if let Some(card) = self.deck.pop() {
                self.hand.push(card);
            }
        }
    }

    /// The binding route choice; `progress` picks the safe route's type where the hazard allows it.
    /// Rolls the four mana dice.
    pub fn choose_route(
        &mut self,
        hazard: &Hazard,
        route: Route,
        progress: Option<&Id>,
        rolls: &mut impl Rolls,
    ) -> Result<(), crate::Error> {
        if self.phase != Phase::Reveal {
            return Err("the route is already chosen; it is binding".into());
        }
        if let Some(p) = progress {
            if route != Route::Safe || !hazard.choose_progress.contains(p) {
                let choices: Vec<&str> = hazard.choose_progress.iter().map(Id::as_str).collect();
                return Err(if choices.is_empty() {
                    format!("{} has no choice of progress type", hazard.name)
                } else {
                    format!(
                        "the safe route's progress type is one of: {}",
                        choices.join(", ")
                    )
                }
                .into());
            }
            self.safe_type = p.clone();
        }
        self.route = Some(route);
        self.meters = vec![0; if route == Route::Safe { 1 } else { 2 }];
        self.dice = (0..DICE)
            .map(|_| Die {
                face: FACES[rolls.die(FACES.len())],
                state: DieState::Available,
            })
            .collect();
        self.phase = Phase::Playing;
        Ok(())
    }

    /// The progress types of the route's meters, in meter order.
    pub(crate) fn meter_types<'a>(&'a self, hazard: &'a Hazard) -> Vec<&'a Id> {
        match self.route {
            Some(Route::Safe) => vec![&self.safe_type],
            Some(Route::Risk) => hazard.risk.iter().map(|m| &m.progress).collect(),
            None => Vec::new(),
        }
    }

    /// The thresholds of this round, in meter order.
    pub fn thresholds(&self, hazard: &Hazard) -> Vec<i64> {
        // Past the last round (a run that does not fit its content any more), the last round's.
        let at = |thresholds: &[i64]| {
            let r = (self.round as usize).min(thresholds.len().saturating_sub(1));
            thresholds.get(r).copied().unwrap_or(0)
        };
        match self.route {
            Some(Route::Safe) => vec![at(&hazard.safe.thresholds)],
            Some(Route::Risk) => hazard.risk.iter().map(|m| at(&m.thresholds)).collect(),
            None => Vec::new(),
        }
    }

    /// How many available dice show `face`.
    pub fn available(&self, face: Face) -> usize {
        self.dice
            .iter()
            .filter(|d| d.state == DieState::Available && d.face == face)
            .count()
    }

    /// Dice that can pay: available and showing a color.
    pub fn mana(&self) -> usize {
        self.dice
            .iter()
            .filter(|d| d.state == DieState::Available && d.face != Face::X)
            .count()
    }

    /// Whether a card's bottom action can be paid now.
    pub fn can_pay(&self, card: &Card) -> bool {
        card.bottom
            .as_ref()
            .is_some_and(|b| self.mana() >= b.cost as usize)
    }

    /// Plays the card at `index` of the hand: the top action is free, the bottom one spends one
    /// available die per point of its cost (FR-05), the card's own color first and then any other
    /// (an X die pays nothing until a card turns it into a color).
    pub fn play(
        &mut self,
        content: &Content,
        index: usize,
        side: Side,
        rolls: &mut impl Rolls,
    ) -> Result<Id, crate::Error> {
        if self.phase != Phase::Playing {
            return Err("choose a route first".into());
        }
        let id = self
            .hand
            .get(index)
            .cloned()
            .ok_or_else(|| format!("there is no card {} in the hand", index + 1))?;
        let card = content
            .cards
            .get(&id)
            .ok_or_else(|| format!("the card `{id}` no longer exists"))?;
        let effects: &[CardEffect] = match side {
            Side::Top => &card.top,
            Side::Bottom => {
                let bottom = card
                    .bottom
                    .as_ref()
                    .ok_or_else(|| format!("{} has no bottom action", card.name))?;
                let face = Face::Color(card.color);
                let have = self.mana();
                if have < bottom.cost as usize {
                    let dice = if bottom.cost == 1 { "die" } else { "dice" };
                    return Err(format!(
                        "{}'s bottom action needs {} {dice} showing a color; {have} available",
                        card.name, bottom.cost
                    )
                    .into());
                }
                // Preserved dice pay without being spent.
                let kept = self.preserved.min(bottom.cost);
                self.preserved -= kept;
                let mut to_pay = bottom.cost - kept;
                // The card's own color first, then any other.
                for own in [true, false] {
                    for d in self.dice.iter_mut().filter(|d| {
                        d.state == DieState::Available
                            && d.face != Face::X
                            && (d.face == face) == own
                    }) {
                        if to_pay == 0 {
                            break;
                        }
                        d.state = DieState::Spent;
                        to_pay -= 1;
                    }
                }
                &bottom.effects
            }
        };
        self.hand.remove(index);
        if side == Side::Bottom && card.enchant {
            self.enchanted.push(id.clone());
        } else {
            self.discard.push(id.clone());
        }
        self.played.push(card.class);
        let hazard = content
            .hazards
            .get(&self.hazard)
            .ok_or("the hazard no longer exists")?;
        let x = card.class == CardClass::XInteraction;
        for effect in effects {
            self.apply(hazard, effect, x, rolls);
        }
        Ok(id)
    }

    fn add_progress(&mut self, hazard: &Hazard, kind: &Id, amount: i64) {
        let value = amount.saturating_add(std::mem::take(&mut self.focus));
        let slot = match self.route {
            Some(Route::Safe) => (self.safe_type == *kind).then_some(0),
            Some(Route::Risk) => hazard.risk.iter().position(|m| m.progress == *kind),
            None => None,
        };
        if let Some(i) = slot {
            if let Some(meter) = self.meters.get_mut(i) {
                *meter = meter.saturating_add(value);
            }
        }
    }

    /// Applies one effect of a card; `x` says whether the card may act on X dice (only
    /// X-interaction cards may: seed 002, FR-10).
    fn apply(&mut self, hazard: &Hazard, effect: &CardEffect, x: bool, rolls: &mut impl Rolls) {
        match effect {
            CardEffect::Progress { kind, amount } => self.add_progress(hazard, kind, *amount),
            CardEffect::Focus { amount } => self.focus = self.focus.saturating_add(*amount),
            CardEffect::Draw { count } => self.draw(*count as usize, rolls),
            CardEffect::Reroll { count } => {
                for _ in 0..*count {
                    let blank = self
                        .dice
                        .iter()
                        .position(|d| d.face == Face::X && d.state == DieState::Available)
                        .filter(|_| x);
                    let pick =
                        blank.or_else(|| self.dice.iter().position(|d| d.state == DieState::Spent));
                    let Some(i) = pick else { break };
                    self.dice[i] = Die {
                        face: FACES[rolls.die(FACES.len())],
                        state: DieState::Available,
                    };
                }
            }
            CardEffect::TreatX { .. } | CardEffect::ExhaustX { .. } if !x => {}
            CardEffect::TreatX { color } => {
                if let Some(d) = self
                    .dice
                    .iter_mut()
                    .find(|d| d.face == Face::X && d.state == DieState::Available)
                {
                    d.face = Face::Color(*color);
                }
            }
            CardEffect::ExhaustX { kind, amount } => {
                if let Some(d) = self
                    .dice
                    .iter_mut()
                    .find(|d| d.face == Face::X && d.state == DieState::Available)
                {
                    d.state = DieState::Exhausted;
                    self.add_progress(hazard, kind, *amount);
                }
            }
            CardEffect::Refresh { count } => {
                for d in self
                    .dice
                    .iter_mut()
                    .filter(|d| d.state == DieState::Spent)
                    .take(*count as usize)
                {
                    d.state = DieState::Available;
                }
            }
            CardEffect::Preserve { count } => {
                self.preserved = self.preserved.saturating_add(*count)
            }
            CardEffect::Action(entry) => self.pending.push(entry.clone()),
        }
    }

    /// Ends the round: O when every meter met its threshold, else X. Then the hand is discarded,
    /// meters reset, exhausted dice come back on the safe route, and the next round draws five and
    /// applies the enchantments. Spent dice stay spent.
    pub fn end_round(
        &mut self,
        content: &Content,
        rolls: &mut impl Rolls,
    ) -> Result<RoundEnd, crate::Error> {
        if self.phase != Phase::Playing {
            return Err("there is no round to end".into());
        }
        let hazard = content
            .hazards
            .get(&self.hazard)
            .ok_or("the hazard no longer exists")?;
        let success = self
            .meters
            .iter()
            .zip(self.thresholds(hazard))
            .all(|(have, need)| *have >= need);
        self.marks.push(success);
        let end = RoundEnd {
            round: self.round.saturating_add(1),
            success,
            last: self.round.saturating_add(1) >= hazard.rounds,
        };
        self.discard.append(&mut self.hand);
        self.meters.iter_mut().for_each(|m| *m = 0);
        self.focus = 0;
        self.preserved = 0;
        self.played.clear();
        if self.route == Some(Route::Safe) {
            for d in self
                .dice
                .iter_mut()
                .filter(|d| d.state == DieState::Exhausted)
            {
                d.state = DieState::Available;
            }
        }
        if end.last {
            self.phase = Phase::Done;
            return Ok(end);
        }
        self.round = self.round.saturating_add(1);
        self.draw(HAND, rolls);
        let ongoing: Vec<(CardEffect, bool)> = self
            .enchanted
            .iter()
            .filter_map(|id| content.cards.get(id))
            .flat_map(|c| {
                let x = c.class == CardClass::XInteraction;
                c.ongoing.iter().map(move |e| (e.clone(), x))
            })
            .collect();
        for (effect, x) in &ongoing {
            self.apply(hazard, effect, *x, rolls);
        }
        Ok(end)
    }

    /// Fits a run that was saved, or started before a reload, to the content now loaded: cards
    /// that no longer exist leave it (each named in the notes returned), dice and meters are
    /// checked against the route. `Err` says why the run cannot go on (its hazard is gone, has
    /// fewer rounds than the run reached, or has other meters now); the caller closes it.
    pub(crate) fn reconcile(&mut self, content: &Content) -> Result<Vec<String>, String> {
        let hazard = content
            .hazards
            .get(&self.hazard)
            .ok_or_else(|| format!("hazard `{}` no longer exists", self.hazard))?;
        let name = &hazard.name;
        if self.round >= hazard.rounds || self.marks.len() > hazard.rounds as usize {
            return Err(format!(
                "{name} has {} rounds now, and the run was in round {}",
                hazard.rounds,
                self.round.saturating_add(1)
            ));
        }
        if self.phase != Phase::Done && self.marks.len() != self.round as usize {
            return Err(format!(
                "{name}'s run has {} finished rounds but is in round {}",
                self.marks.len(),
                self.round.saturating_add(1)
            ));
        }
        let safe_types = std::iter::once(&hazard.safe.progress).chain(&hazard.choose_progress);
        let safe_type_known = safe_types.clone().any(|t| *t == self.safe_type);
        let meters = match self.route {
            None => 0,
            Some(Route::Safe) => 1,
            Some(Route::Risk) => hazard.risk.len(),
        };
        let shape = match self.phase {
            Phase::Reveal => self.route.is_none() && self.meters.is_empty() && self.dice.is_empty(),
            Phase::Playing | Phase::Done => {
                self.route.is_some() && self.meters.len() == meters && self.dice.len() == DICE
            }
        };
        if !shape {
            return Err(format!(
                "{name}'s run does not fit its route any more (its meters or dice changed)"
            ));
        }
        if self.route == Some(Route::Risk) && hazard.risk.len() != 2 {
            return Err(format!("{name}'s risk route has other meters now"));
        }
        let mut notes = Vec::new();
        if !safe_type_known {
            if self.route == Some(Route::Safe) {
                return Err(format!(
                    "{name}'s safe route no longer takes `{}` progress",
                    self.safe_type
                ));
            }
            self.safe_type = hazard.safe.progress.clone();
        }
        for pile in [
            &mut self.deck,
            &mut self.hand,
            &mut self.discard,
            &mut self.enchanted,
        ] {
            pile.retain(|card| {
                let known = content.cards.contains_key(card);
                if !known {
                    notes.push(format!(
                        "card `{card}` no longer exists; it left the hazard"
                    ));
                }
                known
            });
        }
        Ok(notes)
    }

    /// O minus X.
    pub fn score(&self) -> i64 {
        self.marks.iter().map(|&m| if m { 1 } else { -1 }).sum()
    }

    /// Every card the run holds, wherever it is: for the deck-integrity invariant.
    pub fn all_cards(&self) -> Vec<&Id> {
        self.deck
            .iter()
            .chain(&self.hand)
            .chain(&self.discard)
            .chain(&self.enchanted)
            .collect()
    }
}

/// Fisher-Yates.
fn shuffle(cards: &mut [Id], rolls: &mut impl Rolls) {
    for i in (1..cards.len()).rev() {
        let j = rolls.shuffle(i + 1);
        cards.swap(i, j);
    }
}

/// The starting deck: every card's `starter` copies, in ID order.
pub fn starter_deck(content: &Content) -> Vec<Id> {
    content
        .cards
        .values()
        .flat_map(|c| std::iter::repeat_n(c.id.clone(), c.starter as usize))
        .collect()
}
