-- The bundled encounters: how one is drawn, what its options ask and cost, how a roll decides.

local function race(gold, lang)
  local g = lantern.test.game{ seed = 12345, mods = { "core" }, lang = lang }
  g:apply({ action = "take_item", item = "core:gold", count = g.player:count("core:gold") })
  if gold > 0 then g:give("core:gold", gold) end
  g:start_encounter("core:horse_race")
  return g
end

describe("encounters", function()
  it("the same context selects the same encounter", function()
    local function pick()
      local g = lantern.test.game{ seed = 12345, mods = { "core" } }
      for _ = 1, 6 do
        if g:encounter() then break end
        pcall(function() g:next() end)
        while #g:enemies() > 0 do g:attack() end
      end
      local e = g:encounter()
      return e and e.id
    end
    local first = pick()
    expect(type(first)).to_be("string")
    expect(pick()).to_be(first)
  end)

  it("50 gold blocks the 100 gold bet with its reason", function()
    local e = race(50, "en"):encounter()
    expect(e.options[1].blocked).to_be(true)
    expect(e.options[1].reason).to_be("需要至少 100 金币")   -- the seed's own words
    local de = race(50, "de"):encounter()
    expect(de.options[1].reason).to_be("braucht mindestens 100 Gold")
  end)

  it("150 gold makes the bet selectable", function()
    expect(race(150):encounter().options[1].blocked).to_be(false)
  end)

  it("the 100 gold cost is paid on selection", function()
    local g = race(200)
    g:stub_rng(0.99)
    g:choose(1)
    expect(g.player:count("core:gold")).to_be(100)
  end)

  it("a won bet leaves 250", function()
    local g = race(200)
    g:stub_rng(0.1)
    g:choose(1)
    expect(g.player:count("core:gold")).to_be(250)
  end)

  it("a lost bet leaves 100", function()
    local g = race(200)
    g:stub_rng(0.8)
    g:choose(1)
    expect(g.player:count("core:gold")).to_be(100)
  end)

  it("the roll is reproducible", function()
    local function outcome()
      local g = race(200)
      g:choose(1)
      return g.player:count("core:gold")
    end
    expect(outcome()).to_be(outcome())
  end)

  it("exactly two common components satisfy the requirement", function()
    local g = lantern.test.game{ seed = 1, mods = { "core" } }
    g:apply({ action = "take_item", item = "core:cog" })
    g:start_encounter("core:scrap_dealer")
    expect(g:encounter().options[1].blocked).to_be(false)
  end)

  it("a tower loses exactly 20 endurance", function()
    local g = lantern.test.game{ seed = 1, mods = { "core" } }
    g:start_encounter("core:price_and_reward")
    g:choose(1)
    expect(g.player:property("core:arrow_tower", "endurance")).to_be(80)
  end)

  it("the encounter closes after a selection", function()
    local g = race(200)
    g:choose(3)
    expect(g:encounter()).to_be(nil)
    local events = g:events()
    expect(events[#events].name).to_be("encounter_resolved")
  end)

  it("an option out of range is refused and the encounter stays open", function()
    local g = race(200)
    expect(function() g:choose(7) end).to_fail_with("no option 7")
    expect(g:encounter().id).to_be("core:horse_race")
  end)
end)
