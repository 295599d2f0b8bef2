//! Simulator policies written in Lua: `lantern sim hazard ID --lua-policy FILE`.
//!
//! The file returns a function that gets a read-only snapshot of the run and returns the next play,
//! `{ card = 2, side = "bottom" }`, or `nil` to end the round. It runs in a sandbox of its own (one
//! state per simulation thread) under the usual instruction budget.

use super::budget::Budget;
use super::{describe, sandbox, Limits};
use crate::content::Content;
use crate::content::Hazard;
use crate::hazard::engine::HazardRun;
use crate::hazard::sim::Chooser;
use crate::hazard::{DieState, Side};
use mlua::{Function, Lua, Table, Value};

pub(crate) struct LuaPolicy {
    lua: Lua,
    choose: Function,
    budget: Budget,
    name: String,
}

impl LuaPolicy {
    /// Loads a policy from its source text; `name` is its file, for messages.
    pub(crate) fn new(source: &str, name: &str) -> Result<LuaPolicy, String> {
        let err = |e: mlua::Error| format!("{name}: {}", describe(&e).0);
        let lua = sandbox::new_state().map_err(err)?;
        let budget = Budget::install(&lua, Limits::default()).map_err(err)?;
        let lantern = lua.create_table().map_err(err)?;
        let log = lua
            .create_function(|_, _: mlua::Variadic<Value>| Ok(()))
            .map_err(err)?;
        let env = sandbox::environment(
            &lua,
            &sandbox::ModFiles::nowhere("policy"),
            lantern,
            log,
            Default::default(),
            sandbox::Account::whole(),
            None,
        )
        .map_err(err)?;
        budget.reset(&lua);
        let value: Value = budget
            .settle(
                lua.load(source)
                    .set_name(format!("@{name}"))
                    .set_environment(env)
                    .eval(),
            )
            .map_err(err)?;
        let Value::Function(choose) = value else {
            return Err(format!(
                "{name}: the file must return a function(run) that returns the next play or nil"
            ));
        };
        Ok(LuaPolicy {
            lua,
            choose,
            budget,
            name: name.to_string(),
        })
    }

    fn snapshot(&self, content: &Content, hazard: &Hazard, run: &HazardRun) -> mlua::Result<Table> {
        let lua = &self.lua;
        let t = lua.create_table()?;
        t.raw_set("round", run.round + 1)?;
        t.raw_set("rounds", hazard.rounds)?;
        t.raw_set("route", run.route.map(|r| r.name()))?;
        t.raw_set("focus", run.focus)?;
        let meters = lua.create_table()?;
        for (i, ((kind, need), have)) in run
            .meter_types(hazard)
            .into_iter()
            .zip(run.thresholds(hazard))
            .zip(&run.meters)
            .enumerate()
        {
            let m = lua.create_table()?;
            m.raw_set("type", kind.to_string())?;
            m.raw_set("have", *have)?;
            m.raw_set("need", need)?;
            meters.raw_set(i + 1, m)?;
        }
        t.raw_set("meters", meters)?;
        let hand = lua.create_table()?;
        for (i, id) in run.hand.iter().enumerate() {
            let Some(card) = content.cards.get(id) else {
                continue;
            };
            let c = lua.create_table()?;
            c.raw_set("id", id.to_string())?;
            c.raw_set("color", card.color.name())?;
            c.raw_set(
                "class",
                crate::content::CardClass::NAMES[card.class as usize],
            )?;
            c.raw_set("enchant", card.enchant)?;
            c.raw_set("bottom_cost", card.bottom.as_ref().map(|b| b.cost))?;
            c.raw_set("can_pay", run.can_pay(card))?;
            hand.raw_set(i + 1, c)?;
        }
        t.raw_set("hand", hand)?;
        let dice = lua.create_table()?;
        for (i, d) in run.dice.iter().enumerate() {
            let die = lua.create_table()?;
            die.raw_set("face", crate::game::describe_face(d.face))?;
            die.raw_set(
                "state",
                match d.state {
                    DieState::Available => "available",
                    DieState::Spent => "spent",
                    DieState::Exhausted => "exhausted",
                },
            )?;
            dice.raw_set(i + 1, die)?;
        }
        t.raw_set("dice", dice)?;
        Ok(t)
    }
}

impl Chooser for LuaPolicy {
    fn choose(
        &mut self,
        content: &Content,
        hazard: &Hazard,
        run: &HazardRun,
    ) -> Result<Option<(usize, Side)>, String> {
        let err = |e: mlua::Error| format!("{}: {}", self.name, describe(&e).0);
        let view = self.snapshot(content, hazard, run).map_err(err)?;
        self.budget.reset(&self.lua);
        // A policy that caught its budget's or its memory's error stops the run all the same.
        let answer: Value = self.budget.settle(self.choose.call(view)).map_err(err)?;
        let Value::Table(play) = answer else {
            return Ok(None);
        };
        let card: usize = play.get("card").map_err(err)?;
        let side = match play.get::<Option<String>>("side").map_err(err)?.as_deref() {
            None | Some("top") => Side::Top,
            Some("bottom") => Side::Bottom,
            Some(other) => {
                return Err(format!(
                    "{}: `side` must be \"top\" or \"bottom\", not {other:?}",
                    self.name
                ))
            }
        };
        if card == 0 || card > run.hand.len() {
            return Err(format!(
                "{}: there is no card {card} in a hand of {}",
                self.name,
                run.hand.len()
            ));
        }
        Ok(Some((card - 1, side)))
    }
}
