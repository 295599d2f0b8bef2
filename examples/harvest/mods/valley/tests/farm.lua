-- The valley's tests, driven with the game's own verbs.
describe("the valley", function()
  it("pays a bonus for every pumpkin harvest", function()
    local g = lantern.test.game({ seed = 1 })
    g:verb("plant", "pumpkin")
    expect(g:state().money).to_be(22)
    g:verb("sleep")
    g:verb("sleep")
    local farm = g:state()
    expect(farm.barn["valley:pumpkin"]).to_be(1)
    expect(farm.money).to_be(22 + 1 + 5) -- a visitor's coin on the morning it grew, the bonus
  end)

  it("lets children pay to see a pumpkin while it grows", function()
    local g = lantern.test.game({ seed = 1 })
    g:plant("pumpkin") -- a verb is a method too: g:verb("plant", "pumpkin")
    g:sleep()
    expect(g:state().money).to_be(23)
    expect(g:why("valley:pumpkin_visitors")).to_contain("fired")
  end)

  it("rewards three harvests once the quest has started", function()
    local g = lantern.test.game({ seed = 1 })
    g:verb("sleep") -- day 2: the quest starts
    for _ = 1, 3 do
      g:verb("plant", "wheat")
    end
    g:verb("sleep")
    expect(g:quest("valley:first_harvests").done).to_be(true)
    expect(g:state().barn["valley:wheat"]).to_be(3)
    expect(g:state().reputation).to_be(1) -- the game's own handler of quest_completed
  end)

  it("rolls a failed purchase back, the farm's money included", function()
    local g = lantern.test.game({ seed = 1 })
    g:verb("plant", "pumpkin")
    g:verb("plant", "pumpkin")
    g:verb("plant", "pumpkin")
    expect(g:state().money).to_be(6)
    local ok, err = pcall(function() g:verb("plant", "pumpkin") end)
    expect(ok).to_be(false)
    expect(tostring(err)).to_contain("the farm has 6 coins, not 8")
    expect(g:state().money).to_be(6)
  end)

  it("meets the merchant on the third morning", function()
    local g = lantern.test.game({ seed = 1 })
    g:verb("plant", "wheat")
    g:verb("plant", "wheat")
    g:verb("sleep")
    g:verb("sleep")
    local e = g:encounter()
    expect(e.id).to_be("valley:merchant")
    g:verb("choose", 2)
    expect(g:state().barn["valley:wheat"]).to_be(0)
    expect(g:state().money).to_be(26 + 8 + 8)
  end)
end)

describe("the hailstorm", function()
  it("comes on the fourth morning and costs the farm's coins when it is not weathered", function()
    local g = lantern.test.game({ seed = 1 })
    g:verb("sleep")
    g:verb("sleep")
    g:verb("choose", 3) -- the merchant on the third morning: wave him on
    g:verb("sleep")
    expect(g:hazard().id).to_be("valley:hailstorm")
    expect(function() g:verb("sleep") end).to_fail_with("the storm is not over")
    g:verb("route", "safe")
    for _ = 1, 3 do
      g:verb("end_round")
    end
    expect(g:hazard()).to_be(nil)
    -- every failed round costs 3 coins, and a failed final round 5 more
    expect(g:state().money).to_be(30 - 3 * 3 - 5)
  end)
end)

describe("the valley's settings", function()
  it("gets as much help from the neighbours as the player set", function()
    local function poor_morning(help)
      local g = lantern.test.game({ seed = 1, settings = { ["valley:neighbours_help"] = help } })
      for _ = 1, 3 do
        g:verb("plant", "pumpkin")
      end
      g:verb("sleep")
      return g:state().money
    end
    expect(poor_morning(15) - poor_morning(0)).to_be(15)
  end)
end)
