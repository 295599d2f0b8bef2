-- The settlement's tests, driven by the colony's own systems: `g:tick(n)` runs the calendar and
-- the work on a small colony of the test game's own (30 founders, 500 food), and `g:world()`
-- reads that colony back as the game saves it.
describe("the settlement", function()
  it("starts its growth quest on the first day", function()
    local g = lantern.test.game({ seed = 1 })
    expect(g:quest("settlement:growth").state).to_be("not_started")
    g:tick(10)
    expect(g:quest("settlement:growth").state).to_be("active")
  end)

  it("takes in newcomers on a day the roll allows", function()
    local g = lantern.test.game({ seed = 1 })
    g:stub_rng(0.0) -- every chance passes
    g:tick(10)
    expect(#g:world().colonists).to_be(35)
    expect(g:quest("settlement:growth").count).to_be(1)
  end)

  it("keeps a small colony's festival to the script and its feast to a large one", function()
    local g = lantern.test.game({ seed = 1 })
    g:stub_rng(0.99) -- no newcomers (a chance of 0.5 fails): the colony stays at 30
    g:tick(30) -- day 3: the script raises the festival
    expect(g:why("settlement:festival_feast")):to_contain("colony:population_at_least")
    -- 10 farmers (+2), 10 miners (-2), 10 cooks (+1) bring in 10 food a tick, and no feast.
    expect(g:world().stores.food).to_be(500 + 30 * 10)
  end)

  it("counts itself every tenth day through the game's functions", function()
    local g = lantern.test.game({ seed = 1 })
    g:stub_rng(0.99)
    -- A day at a time: the colony raises `ticked` every tick, and a turn holds 100 events.
    for _ = 1, 10 do g:tick(10) end
    expect(g:messages()).to_contain("[settlement] day 10: 30 colonists (10 farmers, the first no. 0), 1500 food")
  end)

  it("moves a colonist named by the number its row gives", function()
    local g = lantern.test.game({ seed = 1 })
    -- The save lists colonists by number, in order: founders are farmer 0, miner 1, cook 2, ...
    local function miners()
      local found = {}
      for _, row in ipairs(g:world().colonists) do
        if row[2].job == "settlement:miner" then table.insert(found, row[1]) end
      end
      return found
    end
    expect(miners()[1]).to_be(1)
    g:apply({ action = "colony:assign", colonist = 1, job = "settlement:cook" })
    expect(#miners()).to_be(9)
    expect(g:world().colonists[2]).to_equal({ 1, { job = "settlement:cook" } })
    local ok, err = pcall(function()
      g:apply({ action = "colony:assign", colonist = 99, job = "settlement:cook" })
    end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("there is no entity numbered 99")
  end)

  it("cannot give out food the stores do not hold", function()
    local g = lantern.test.game({ seed = 1 })
    g:set_food(5)
    g:apply({ action = "colony:add_food", amount = -5 })
    expect(g:world().stores.food).to_be(0)
    local ok, err = pcall(function() g:apply({ action = "colony:add_food", amount = -1 }) end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the stores hold less than 1")
    expect(g:world().stores.food).to_be(0)
  end)
end)
