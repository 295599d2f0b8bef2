-- Triggers, quests and the event queue over the bundled core.

local function rat(g)
  return g:spawn("core:rat")
end

describe("Rattenplage", function()
  ---@type lantern.TestGame
  local g
  before_each(function()
    g = lantern.test.game{ seed = 7, mods = { "core" } }
  end)

  it("counts nothing before start_quest", function()
    g:emit("creature_died", { target = rat(g) })
    g:emit("creature_died", { target = rat(g) })
    expect(g:quest("core:rattenplage")).to_equal({ count = 0, done = false, state = "not_started" })
  end)

  it("pays 50 gold and completes after five rats", function()
    local before = g.player:count("core:gold")
    g:start("core:rattenplage")
    for _ = 1, 4 do g:emit("creature_died", { target = rat(g) }) end
    expect(g:quest("core:rattenplage")).to_equal({ count = 4, done = false, state = "active" })
    g:emit("creature_died", { target = rat(g) })
    expect(g:quest("core:rattenplage").done).to_be(true)
    expect(g.player:count("core:gold")).to_be(before + 50)
  end)

  it("does not count the player's own death", function()
    g:start("core:rattenplage")
    g:emit("creature_died", { target = "player" })
    expect(g:quest("core:rattenplage").count).to_be(0)
  end)

  it("chains into Der Keller through quest_completed", function()
    g:start("core:rattenplage")
    for _ = 1, 5 do g:emit("creature_died", { target = rat(g) }) end
    expect(g:quest("core:keller").state).to_be("active")
  end)
end)

describe("the thorn armour", function()
  it("reflects fire onto the undead only", function()
    local g = lantern.test.game{ seed = 7, mods = { "core" } }
    g:give("core:thorn_armor")
    local skeleton = g:spawn("core:skeleton")
    local hp = skeleton.health
    g:emit("damage_taken", { target = skeleton, amount = 2, damage_type = "physical" })
    expect(skeleton.health).to_be(hp)
    expect(g:why("core:thorn_armor_reflect")).to_contain("wanted \"fire\"")
    g:emit("damage_taken", { target = skeleton, amount = 2, damage_type = "fire" })
    expect(skeleton.health).to_be(hp - 3)
  end)
end)

describe("the flaming sword's 20 % burn", function()
  local function swing(roll)
    local g = lantern.test.game{ seed = 7, mods = { "core" } }
    g:apply({ action = "take_item", item = "core:dagger" })
    g:give("core:flaming_sword")
    g:spawn("core:skeleton")
    g:stub_rng(roll, "trigger:core:flaming_sword_burn")
    g:attack()
    local fire = 0
    for _, e in ipairs(g:events()) do
      if e.name == "damage_taken" and e.damage_type == "fire" then fire = fire + 1 end
    end
    return fire
  end

  it("burns on a roll below 0.2", function()
    expect(swing(0.1)).to_be(1)
  end)

  it("does not burn on a roll of 0.5", function()
    expect(swing(0.5)).to_be(0)
  end)
end)

describe("the event queue", function()
  it("handles an event raised by a trigger after the events already waiting", function()
    local g = lantern.test.game{ seed = 7, mods = { "core" } }
    g:apply({ action = "take_item", item = "core:dagger" })
    g:give("core:flaming_sword")
    g:spawn("core:skeleton")
    g:stub_rng(0.0)
    g:attack()
    local order = {}
    for _, e in ipairs(g:events()) do
      if e.name == "damage_taken" and e.source ~= "player" then order[#order + 1] = e.damage_type end
    end
    expect(order[1]).to_be("physical")
    expect(order[2]).to_be("fire")
  end)

  it("refuses a command that is not possible, and says why", function()
    local g = lantern.test.game{ seed = 7, mods = { "core" }, lang = "en" }
    expect(function() g:attack() end).to_fail_with("nothing to attack")
  end)
end)

describe("the run", function()
  it("is where the rooms say, as lantern.game.position reads it", function()
    local g = lantern.test.game{ seed = 1, mods = { "core" } }
    expect(g:field("position")).to_equal({ floor = 1, sequence = 0 })
    g:next()
    g:next()
    expect(g:field("position")).to_equal({ floor = 1, room = 2, sequence = 2, room_id = "core:miner_camp" })
    expect(function() g:field("positon") end).to_fail_with("did you mean `position`?")
  end)
end)
