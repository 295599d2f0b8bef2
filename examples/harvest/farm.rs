//! Harvest's world, declared to lantern: the farm's state, its crops table, its events, actions,
//! checks, Lua functions and verbs. `main.rs` plays it; `tests/harvest.rs` runs its mods' tests.
//!
//! The game owns all of it. lantern validates the mods against it (a misspelt crop, a missing
//! `amount`), runs their triggers, quests, encounters and Lua over the game's events, and keeps the
//! farm inside its door: an action list that fails rolls the farm back, and saves, the state hash
//! and hot reload carry it.

use lantern::content::{TextArg, Value};
use lantern::game::Game;
use lantern::host::{Effects, Param, Problem, Rules, Vocabulary};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// How many plots the farm has.
pub(crate) const PLOTS: usize = 4;

/// The farm: the game's whole state. Plain data, with `BTreeMap`s so its JSON (and the state
/// hash) is the same in every process.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Farm {
    pub day: i64,
    pub money: i64,
    /// What grows on each plot: a crop's ID and the day it was planted.
    pub plots: Vec<Plot>,
    /// Harvested crops by ID.
    pub barn: BTreeMap<String, i64>,
    /// How the valley sees the farm: one point for every quest done.
    #[serde(default)]
    pub reputation: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Plot {
    pub crop: String,
    pub planted: i64,
}

/// A crop, as mods write it in `[[crops]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Crop {
    pub name: String,
    /// What a seed costs.
    pub seed_price: i64,
    /// What one harvested crop sells for.
    pub sell_price: i64,
    /// Days from planting to harvest.
    pub days: i64,
    /// Crops one plot gives.
    #[serde(default = "one")]
    pub harvest: i64,
    /// Crops that help it grow: while one of them grows on another plot, this one gives one more
    /// at harvest. IDs of crops, checked by lantern (`refers` below), full by the time Harvest
    /// reads them (`valley:wheat`).
    #[serde(default)]
    pub companions: Vec<String>,
}

fn one() -> i64 {
    1
}

/// The farm a new game starts with.
pub(crate) fn new_farm() -> Farm {
    Farm {
        day: 1,
        money: 30,
        ..Farm::default()
    }
}

/// Harvest's vocabulary.
pub(crate) fn rules() -> Rules {
    Vocabulary::new("farm", new_farm())
        .version("0.1.0")
        // What Harvest's code says, from the valley mod's locale files.
        .text("valley:farm_loses", &["count"])
        .text("valley:farm_earns", &["count"])
        .text("valley:farm_pays", &["count"])
        .text("valley:you_plant", &["crop"])
        .text("valley:you_sell", &["amount", "count"])
        .text("valley:reputation_up", &[])
        // A farm has no creatures or inventories: mods use the farm's actions and checks instead.
        .without_creatures()
        .table::<Crop>("crops", "crop")
        .refers("crops", "companions", "crop")
        .texts("crops", &["name"])
        .describe(
            "crops",
            &[
                ("name", "shown to players"),
                ("seed_price", "what a seed costs"),
                ("sell_price", "what one harvested crop sells for"),
                ("days", "days from planting to harvest"),
                ("harvest", "crops one plot gives (1 unless said)"),
            ],
        )
        // The farm's own rules about a crop, beyond its keys' types.
        .validate("crops", |crop: &Crop| {
            let mut problems = Vec::new();
            if crop.days < 1 {
                problems.push(Problem::error("a crop grows at least one day").at("days"));
            }
            if crop.sell_price < crop.seed_price {
                problems.push(
                    Problem::warning("it sells for less than its seed costs").at("sell_price"),
                );
            }
            problems
        })
        // A crop's triggers listen while it grows on a plot.
        .triggers("crops", |farm: &Farm| {
            farm.plots
                .iter()
                .filter_map(|p| lantern::id::Id::qualified(&p.crop))
                .collect()
        })
        .event(
            "day_started",
            &[("day", "int")],
            "A new day begins (after the night's harvest).",
        )
        .event(
            "crop_harvested",
            &[("crop", "crop"), ("amount", "int")],
            "A plot was harvested into the barn.",
        )
        .event(
            "crop_sold",
            &[("crop", "crop"), ("amount", "int"), ("money", "int")],
            "Crops were sold from the barn.",
        )
        .action(
            "pay",
            &[Param::int("amount")],
            "The farm pays money; it fails when the farm has too little.",
            |fx, args| pay(fx, args.int("amount")),
        )
        .action(
            "lose",
            &[Param::int("amount")],
            "The farm loses up to `amount` coins (a storm, a fine): never more than it has.",
            |fx, args| {
                let lost = args.int("amount").clamp(0, fx.state().money);
                fx.state_mut().money -= lost;
                say(fx, "farm_loses", &[("count", lost.into())]);
                Ok(())
            },
        )
        .action(
            "earn",
            &[Param::int("amount")],
            "The farm earns money.",
            |fx, args| {
                let amount = args.int("amount").max(0);
                fx.state_mut().money = fx.state().money.saturating_add(amount);
                say(fx, "farm_earns", &[("count", amount.into())]);
                Ok(())
            },
        )
        .action(
            "plant",
            &[Param::id("crop", "crop")],
            "Buys a seed and plants it on a free plot.",
            |fx, args| {
                let crop = args.id("crop").ok_or("no crop")?;
                let (name, price) = {
                    let c: &Crop = fx
                        .content()
                        .entry("crop", &crop)
                        .ok_or_else(|| format!("there is no crop `{crop}`"))?;
                    let name = fx.content().text_of("crops", &crop, "name", &c.name);
                    (name, c.seed_price)
                };
                if fx.state().plots.len() >= PLOTS {
                    return Err(format!("all {PLOTS} plots are planted"));
                }
                pay(fx, price)?;
                let day = fx.state().day;
                fx.state_mut().plots.push(Plot {
                    crop: crop.to_string(),
                    planted: day,
                });
                say(fx, "you_plant", &[("crop", name.into())]);
                Ok(())
            },
        )
        .action(
            "store",
            &[Param::id("crop", "crop"), Param::int("amount")],
            "Puts crops in the barn (a gift, a find).",
            |fx, args| {
                let crop = args.id("crop").ok_or("no crop")?;
                let amount = args.int("amount");
                let held = fx.state_mut().barn.entry(crop.to_string()).or_insert(0);
                *held = held.saturating_add(amount).max(0);
                Ok(())
            },
        )
        .action(
            "sell",
            &[Param::id("crop", "crop"), Param::int("amount").optional()],
            "Sells crops from the barn (all of them when `amount` is left out).",
            |fx, args| {
                let crop = args.id("crop").ok_or("no crop")?;
                let held = fx.state().barn.get(crop.as_str()).copied().unwrap_or(0);
                let amount = args.opt_int("amount").unwrap_or(held);
                if amount <= 0 || amount > held {
                    return Err(format!("the barn holds {held} of `{crop}`, not {amount}"));
                }
                let price = fx
                    .content()
                    .entry::<Crop>("crop", &crop)
                    .map_or(0, |c| c.sell_price);
                let money = price.saturating_mul(amount);
                let farm = fx.state_mut();
                farm.barn.insert(crop.to_string(), held - amount);
                farm.money = farm.money.saturating_add(money);
                say(
                    fx,
                    "you_sell",
                    &[("amount", amount.into()), ("count", money.into())],
                );
                fx.raise(
                    "crop_sold",
                    &[
                        ("crop", Value::id(&crop)),
                        ("amount", Value::Int(amount)),
                        ("money", Value::Int(money)),
                    ],
                )?;
                Ok(())
            },
        )
        // Only the game ends a day (its `sleep` verb): mods are told so if they write it.
        .internal_action(
            "end_day",
            &[],
            "The night: ripe plots are harvested into the barn, and a new day starts.",
            |fx, _| {
                let day = fx.state().day;
                let mut harvested = Vec::new();
                let mut growing = Vec::new();
                let plots = fx.state().plots.clone();
                for (i, plot) in plots.iter().enumerate() {
                    let crop = lantern::id::Id::qualified(&plot.crop);
                    let ripe = crop
                        .as_ref()
                        .and_then(|c| fx.content().entry::<Crop>("crop", c))
                        .map(|c| {
                            // One more for a companion growing on another plot.
                            let helped = plots
                                .iter()
                                .enumerate()
                                .any(|(j, other)| j != i && c.companions.contains(&other.crop));
                            (c.days, c.harvest + i64::from(helped))
                        });
                    match (crop, ripe) {
                        (Some(crop), Some((days, amount))) if day + 1 - plot.planted >= days => {
                            harvested.push((crop, amount))
                        }
                        (Some(_), Some(_)) => growing.push(plot.clone()),
                        // A crop whose definition is gone was cleared by `reconcile`.
                        _ => {}
                    }
                }
                let farm = fx.state_mut();
                farm.plots = growing;
                farm.day = day + 1;
                for (crop, amount) in &harvested {
                    *farm.barn.entry(crop.to_string()).or_insert(0) += amount;
                }
                for (crop, amount) in harvested {
                    fx.raise(
                        "crop_harvested",
                        &[("crop", Value::id(&crop)), ("amount", Value::Int(amount))],
                    )?;
                }
                fx.raise("day_started", &[("day", Value::Int(day + 1))])?;
                Ok(())
            },
        )
        .check(
            "money_at_least",
            &[Param::int("amount")],
            "Whether the farm has at least `amount` coins.",
            |q, args| Ok(q.state().money >= args.int("amount")),
        )
        .check(
            "in_barn",
            &[Param::id("crop", "crop"), Param::int("at_least")],
            "Whether the barn holds at least `at_least` of `crop`.",
            |q, args| {
                let crop = args.id("crop").map(|c| c.to_string()).unwrap_or_default();
                Ok(q.state().barn.get(&crop).copied().unwrap_or(0) >= args.int("at_least"))
            },
        )
        .function("money", &[], "The farm's coins.", |q, _| {
            Ok(Value::Int(q.state().money))
        })
        .function("day", &[], "The day, from 1.", |q, _| {
            Ok(Value::Int(q.state().day))
        })
        .function(
            "barn",
            &[Param::id("crop", "crop")],
            "How many of a crop the barn holds (`wheat` or `valley:wheat`).",
            |q, args| {
                let crop = args.id("crop").map(|c| c.to_string()).unwrap_or_default();
                Ok(Value::Int(q.state().barn.get(&crop).copied().unwrap_or(0)))
            },
        )
        // A handler in Rust: the game's own reaction to an event, beside the mods' triggers.
        .on("quest_completed", |fx, _| {
            fx.state_mut().reputation += 1;
            say(fx, "reputation_up", &[]);
            Ok(())
        })
        .reconcile(|farm, content| {
            // A plot of a crop that no longer exists is cleared; crops of it in the barn are kept
            // (they sell again if the crop comes back).
            let mut notes = Vec::new();
            farm.plots.retain(|plot| {
                let known = lantern::id::Id::qualified(&plot.crop)
                    .is_some_and(|c| content.entry::<Crop>("crop", &c).is_some());
                if !known {
                    notes.push(format!(
                        "crop `{}` no longer exists; its plot was cleared",
                        plot.crop
                    ));
                }
                known
            });
            notes
        })
        .verb(
            "plant",
            &[Param::id("crop", "crop")],
            "plant CROP: buy a seed and plant it.",
            |game, args| {
                storm_over(game)?;
                let crop = args.id("crop").ok_or("no crop")?;
                perform(game, "plant", &[("crop", Value::id(&crop))])
            },
        )
        .verb(
            "sleep",
            &[],
            "Ends the day: ripe crops are harvested, and on every third morning the market opens.",
            |game, _| {
                storm_over(game)?;
                perform(game, "end_day", &[])?;
                // Triggers and handlers of the night run before the market opens.
                game.drain();
                let day = game.host_state::<Farm>().map_or(0, |f| f.day);
                if day % 4 == 0 {
                    // Every fourth morning a storm comes: the hazard game, over the farm's actions.
                    let storm = lantern::id::Id::new("valley", "hailstorm");
                    if game.content().hazards.contains_key(&storm) {
                        game.start_hazard(&storm)?;
                        return Ok(());
                    }
                }
                if day % 3 == 0 {
                    if let Some(id) = game.draw_encounter(&format!("market:{day}")) {
                        game.start_encounter(&id)?;
                    }
                }
                Ok(())
            },
        )
        .verb(
            "sell",
            &[Param::id("crop", "crop"), Param::int("amount").optional()],
            "sell CROP [AMOUNT]: sell from the barn (all of it without AMOUNT).",
            |game, args| {
                let crop = args.id("crop").ok_or("no crop")?;
                let mut with = vec![("crop", Value::id(&crop))];
                if let Some(n) = args.opt_int("amount") {
                    with.push(("amount", Value::Int(n)));
                }
                perform(game, "sell", &with)
            },
        )
        .verb(
            "route",
            &[Param::text("route")],
            "route safe|risk: choose how to face the storm.",
            |game, args| {
                let route = match args.text("route") {
                    "safe" => lantern::hazard::Route::Safe,
                    "risk" => lantern::hazard::Route::Risk,
                    other => return Err(format!("route safe|risk, not `{other}`")),
                };
                game.choose_route(route, None)?;
                Ok(())
            },
        )
        .verb(
            "play",
            &[Param::int("card"), Param::text("side").optional()],
            "play N [top|bottom]: play card N of the hand.",
            |game, args| {
                let side = match args.opt_text("side").unwrap_or("top") {
                    "top" => lantern::hazard::Side::Top,
                    "bottom" => lantern::hazard::Side::Bottom,
                    other => return Err(format!("a card's side is top or bottom, not `{other}`")),
                };
                match args.int("card") {
                    n if n > 0 => {
                        game.play_card(n as usize - 1, side)?;
                        Ok(())
                    }
                    _ => Err("cards are numbered from 1".into()),
                }
            },
        )
        .verb("end_round", &[], "Ends the storm's round.", |game, _| {
            game.end_hazard_round()?;
            Ok(())
        })
        .verb(
            "choose",
            &[Param::int("option")],
            "choose N: answer the open encounter.",
            |game, args| match args.int("option") {
                n if n > 0 => {
                    game.choose(n as usize)?;
                    Ok(())
                }
                _ => Err("options are numbered from 1".into()),
            },
        )
        .rules()
}

fn pay(fx: &mut Effects<'_, Farm>, amount: i64) -> Result<(), String> {
    let has = fx.state().money;
    if amount > has {
        return Err(format!("the farm has {has} coins, not {amount}"));
    }
    fx.state_mut().money = has - amount;
    say(fx, "farm_pays", &[("count", amount.into())]);
    Ok(())
}

/// Says Harvest's line `key` from the valley mod's locale files, in the player's language.
fn say(fx: &mut Effects<'_, Farm>, key: &str, args: &[(&str, TextArg)]) {
    let line = fx.content().text(&format!("valley:{key}"), args);
    fx.say(line);
}

/// The farm's work waits while a storm is being weathered.
fn storm_over(game: &Game) -> Result<(), String> {
    match game.hazard() {
        Some(_) => Err("the storm is not over: `route`, `play` cards and `end_round`".into()),
        None => Ok(()),
    }
}

fn perform(game: &mut Game, action: &str, args: &[(&str, Value)]) -> Result<(), String> {
    Ok(game.perform(action, args, action)?)
}
