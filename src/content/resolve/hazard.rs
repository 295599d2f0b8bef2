//! Resolving the hazard game's definitions: progress types, hazards and cards.

use super::fields::{Entry, MOST};
use super::vocabulary::{action, actions, no_actions};
use super::{Cx, RefKind};
use crate::content::raw::{RawCard, RawEntry, RawHazard, RawMeter};
use crate::content::raw_defs::Src;
use crate::content::spanned::Spanned;
use crate::content::*;
use crate::diag::Code;
use crate::diag::{Diagnostic, Span};
use crate::id::Id;

pub(super) const EFFECTS: &[&str] = &[
    "progress",
    "focus",
    "draw",
    "reroll",
    "treat_x",
    "exhaust_x",
    "refresh",
    "preserve",
];

fn meter(cx: &mut Cx, raw: &Spanned<RawMeter>, rounds: u32) -> Option<Meter> {
    let m = raw.get_ref();
    let progress = cx.reference(RefKind::ProgressType, &m.progress);
    let thresholds = m.thresholds.get_ref().clone();
    if thresholds.len() != rounds as usize {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                format!(
                    "`thresholds` has {} entries but the hazard has {rounds} rounds",
                    thresholds.len()
                ),
            )
            .at(cx.span(m.thresholds.span()))
            .with_help("give one threshold per round; the last is the final round's"),
        );
        return None;
    }
    if let Some(bad) = thresholds.iter().find(|t| !(0..=MOST).contains(*t)) {
        cx.diags.push(
            super::fields::out_of_range("thresholds", "", 0, MOST, *bad)
                .at(cx.span(m.thresholds.span())),
        );
    }
    let (last, rest) = thresholds.split_last()?;
    if let Some(highest) = rest.iter().max().filter(|h| *h > last) {
        cx.diags.push(
            Diagnostic::warning(Code::ContentRule, format!(
                "the final round's threshold ({last}) is lower than an earlier round's ({highest}); the final round should be elevated"
            ))
            .at(cx.span(m.thresholds.span()))
            .with_help("make the last threshold higher than every earlier round's: the final round is the hardest"),
        );
    }
    progress.map(|progress| Meter {
        progress,
        thresholds,
    })
}

pub(super) fn hazard(cx: &mut Cx, id: &Id, src: &Src<RawHazard>) -> Option<Hazard> {
    let r = &src.raw;
    let span = Span::new(src.file, r.id.span());
    let rounds = match *r.rounds.get_ref() {
        n if (1..=20).contains(&n) => n as u32,
        n => {
            cx.diags.push(
                Diagnostic::error(
                    Code::OutOfRange,
                    format!("`rounds` must be between 1 and 20, found {n}"),
                )
                .at(cx.span(r.rounds.span())),
            );
            return None;
        }
    };
    let safe = meter(cx, &r.safe, rounds);
    let risk: Vec<Meter> = r
        .risk
        .get_ref()
        .iter()
        .filter_map(|m| meter(cx, m, rounds))
        .collect();
    check_routes(cx, r, rounds, safe.as_ref(), &risk);
    let choose_progress = r
        .choose_progress
        .iter()
        .filter_map(|p| cx.reference(RefKind::ProgressType, p))
        .collect();
    let outcomes = outcomes(cx, id, r, span);
    let hazard = Hazard {
        id: id.clone(),
        name: r
            .name
            .clone()
            .unwrap_or_else(|| id.name().to_string())
            .into(),
        text: r.text.clone(),
        rounds,
        safe: safe?,
        risk,
        choose_progress,
        penalty: r
            .penalty
            .as_ref()
            .map(|a| actions(cx, a))
            .unwrap_or_else(|| no_actions(src.span)),
        final_penalty: r
            .final_penalty
            .as_ref()
            .map(|a| actions(cx, a))
            .unwrap_or_else(|| no_actions(src.span)),
        outcomes,
        span,
    };
    (hazard.risk.len() == 2).then_some(hazard)
}

/// The routes' rules: the risk route has exactly two meters of two different progress types,
/// and (with more than one round) each route's final round is elevated.
fn check_routes(cx: &mut Cx, r: &RawHazard, rounds: u32, safe: Option<&Meter>, risk: &[Meter]) {
    // FR-07: each route's final round is elevated: above every earlier round on at least one of
    // its meters (a meter that drops is warned about above).
    let elevated = |ms: &[&Meter]| {
        ms.iter().any(|m| match m.thresholds.split_last() {
            Some((last, rest)) => rest.iter().all(|t| t < last),
            None => true,
        })
    };
    if r.risk.get_ref().len() != 2 {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                format!(
                    "the risk route has {} meter(s); it needs exactly two (both required)",
                    r.risk.get_ref().len()
                ),
            )
            .at(cx.span(r.risk.span())),
        );
    } else if risk.len() == 2 && risk[0].progress == risk[1].progress {
        cx.diags.push(
            Diagnostic::error(Code::ContentRule, format!(
                "both meters of the risk route ask for `{}`; they must be two different progress types",
                risk[0].progress
            ))
            .at(cx.span(r.risk.span()))
            .with_help("the risk route asks for two kinds of progress in the same round; give the second meter another progress type"),
        );
    }
    if rounds > 1 {
        let routes: [(&str, Vec<&Meter>, Span); 2] = [
            ("safe", safe.into_iter().collect(), cx.span(r.safe.span())),
            ("risk", risk.iter().collect(), cx.span(r.risk.span())),
        ];
        for (route, meters, at) in routes {
            if !meters.is_empty() && !elevated(&meters) {
                cx.diags.push(
                    Diagnostic::warning(Code::ContentRule, format!(
                        "the {route} route's final round is not elevated: no threshold of it is above every earlier round's"
                    ))
                    .at(at)
                    .with_help("make the last threshold higher than every earlier round's: the final round is the hardest"),
                );
            }
        }
    }
}

/// The hazard's outcomes, highest `at_least` first; none at all is a warning.
fn outcomes(
    cx: &mut Cx,
    id: &Id,
    r: &RawHazard,
    span: Span,
) -> Vec<(i64, crate::content::ActionList)> {
    let mut outcomes: Vec<(i64, crate::content::ActionList)> = r
        .outcomes
        .iter()
        .map(|o| {
            let at_least = Spanned::new(o.span(), o.get_ref().at_least);
            let at_least =
                super::fields::within(cx, "at_least", "an outcome", &at_least, -MOST, MOST);
            (at_least, actions(cx, &o.get_ref().actions))
        })
        .collect();
    outcomes.sort_by_key(|o| std::cmp::Reverse(o.0));
    if outcomes.is_empty() {
        cx.diags.push(
            Diagnostic::warning(
                Code::ContentRule,
                format!("hazard `{id}` has no `outcomes`; its score changes nothing"),
            )
            .at(span)
            .with_help("add `[[hazards.outcomes]]` with `at_least = 1` and the actions for a win"),
        );
    }
    outcomes
}

fn effects(cx: &mut Cx, list: &[RawEntry]) -> Vec<CardEffect> {
    list.iter().filter_map(|e| effect(cx, e)).collect()
}

/// A card effect: one of the built-in effects, or any action (`{ effect = "heal", amount = 2 }`,
/// `{ effect = "rats:howl" }`) applied to the game.
fn effect(cx: &mut Cx, raw: &RawEntry) -> Option<CardEffect> {
    let span = cx.span(raw.span());
    let mut head = Entry::new(raw.get_ref(), span, "a card effect".into());
    let name = head.str(cx, "effect")?;
    let mut e = Entry::new(raw.get_ref(), span, format!("effect `{}`", name.get_ref()));
    e.allow(&["effect"]);
    let kind = |cx: &mut Cx, e: &mut Entry| {
        e.str(cx, "type")
            .and_then(|t| cx.reference(RefKind::ProgressType, &t))
    };
    let effect = match name.get_ref().as_str() {
        "progress" => {
            let k = kind(cx, &mut e);
            let amount = e.int(cx, "amount");
            k.zip(amount)
                .map(|(kind, amount)| CardEffect::Progress { kind, amount })
        }
        "focus" => e
            .int(cx, "amount")
            .map(|amount| CardEffect::Focus { amount }),
        "draw" => Some(CardEffect::Draw {
            count: e.count(cx, "count", 1),
        }),
        "reroll" => Some(CardEffect::Reroll {
            count: e.count(cx, "count", 1),
        }),
        "refresh" => Some(CardEffect::Refresh {
            count: e.count(cx, "count", 1),
        }),
        "preserve" => Some(CardEffect::Preserve {
            count: e.count(cx, "count", 1),
        }),
        "treat_x" => e
            .str(cx, "color")
            .and_then(|c| cx.vocabulary("color", &c, Color::NAMES))
            .and_then(|c| Color::parse(&c))
            .map(|color| CardEffect::TreatX { color }),
        "exhaust_x" => {
            let k = kind(cx, &mut e);
            let amount = e.int(cx, "amount");
            k.zip(amount)
                .map(|(kind, amount)| CardEffect::ExhaustX { kind, amount })
        }
        other if !other.contains(':') && !super::vocabulary::ACTIONS.contains(&other) => {
            let known = EFFECTS
                .iter()
                .chain(super::vocabulary::ACTIONS.iter())
                .copied();
            let help = crate::diag::did_you_mean(other, known)
                .unwrap_or_else(|| format!("card effects: {}", EFFECTS.join(", ")));
            cx.diags.push(
                Diagnostic::error(
                    Code::UnknownReference,
                    format!("unknown card effect `{other}`"),
                )
                .at(cx.span(name.span()))
                .with_help(help),
            );
            // Its other keys belong to an effect nobody knows: one message is enough.
            return None;
        }
        _ => {
            // Any other name is an action, built-in or registered by a script.
            // `effect` read as `action` (the last of the two written wins, as for any key).
            let map = raw
                .get_ref()
                .iter()
                .map(|(k, v)| match k.as_str() {
                    "effect" => ("action".to_string(), v.clone()),
                    _ => (k.clone(), v.clone()),
                })
                .collect();
            let entry = Spanned::new(raw.span(), map);
            return action(cx, &entry).map(CardEffect::Action);
        }
    };
    e.finish(cx);
    effect
}

pub(super) fn card(cx: &mut Cx, id: &Id, src: &Src<RawCard>) -> Option<Card> {
    let r = &src.raw;
    let color = cx
        .vocabulary("color", &r.color, Color::NAMES)
        .and_then(|c| Color::parse(&c));
    let class = cx
        .vocabulary("card class", &r.class, CardClass::NAMES)
        .and_then(|c| CardClass::parse(&c));
    let rarity = r.rarity.as_ref().and_then(|x| cx.rarity(x));
    let bottom = r.bottom.as_ref().and_then(|b| {
        let b_span = cx.span(b.span());
        let b = b.get_ref();
        match *b.cost.get_ref() {
            c if (0..=4).contains(&c) => Some(Bottom {
                cost: c as u32,
                effects: effects(cx, &b.effects),
            }),
            c => {
                cx.diags.push(
                    Diagnostic::error(
                        Code::OutOfRange,
                        format!("a bottom action costs 0 to 4 dice, found {c}"),
                    )
                    .at(b_span),
                );
                None
            }
        }
    });
    if r.enchant && r.bottom.is_none() {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                "an ENCHANT card needs a `bottom` action: playing it is what enchants",
            )
            .at(cx.span(r.id.span())),
        );
    }
    if !r.enchant && !r.ongoing.is_empty() {
        cx.diags.push(
            Diagnostic::error(
                Code::ContentRule,
                "only an ENCHANT card (`enchant = true`) has `ongoing` effects",
            )
            .at(cx.span(r.id.span())),
        );
    }
    let starter = r.starter.clamp(0, 10) as u32;
    let top = effects(cx, &r.top);
    let ongoing = effects(cx, &r.ongoing);
    let x_effects = top
        .iter()
        .chain(bottom.iter().flat_map(|b| &b.effects))
        .chain(&ongoing)
        .any(CardEffect::touches_x);
    if x_effects && class.is_some_and(|c| c != CardClass::XInteraction) {
        cx.diags.push(
            Diagnostic::warning(Code::ContentRule, format!(
                "card `{id}` acts on X dice, but only cards of the `x_interaction` class may; its X effects will do nothing"
            ))
            .at(cx.span(r.id.span()))
            .with_help("set `class = \"x_interaction\"`, or remove its `treat_x` and `exhaust_x` effects"),
        );
    }
    Some(Card {
        id: id.clone(),
        name: r
            .name
            .clone()
            .unwrap_or_else(|| id.name().to_string())
            .into(),
        text: r.text.clone(),
        color: color?,
        rarity,
        class: class?,
        starter,
        top,
        bottom,
        enchant: r.enchant,
        ongoing,
        span: Span::new(src.file, r.id.span()),
    })
}
