-- The hazard game through the harness, with stubbed dice and draws.
-- A stub of 0 makes every die red and every shuffle keep the deck's order; 0.7 makes every die X.

local function game()
  return lantern.test.game{ seed = 3, mods = { "core" } }
end

describe("hazards", function()
  it("draws five before the route and rolls four dice after it", function()
    local g = game()
    g:start_hazard("core:rockslide")
    expect(#g:hazard().hand).to_be(5)
    expect(#g:hazard().dice).to_be(0)
    g:stub_rng(0)
    g:route("safe")
    expect(#g:hazard().dice).to_be(4)
    expect(g:hazard().dice[1].face).to_be("red")
  end)

  it("refuses a bottom action when no die shows a color", function()
    local g = game()
    g:start_hazard("core:rockslide")
    g:stub_rng(0.7) -- every die shows X
    g:route("safe")
    expect(function() g:play(1, "bottom") end).to_fail_with("showing a color; 0 available")
  end)

  it("keeps the route binding", function()
    local g = game()
    g:start_hazard("core:rockslide")
    g:route("risk")
    expect(function() g:route("safe") end).to_fail_with("binding")
  end)

  it("scores an X for a round below its threshold and applies the penalty", function()
    local g = game()
    local hp = g.player.health
    g:start_hazard("core:rockslide")
    g:route("safe")
    g:end_round()
    expect(g:hazard().marks).to_be("X")
    expect(g.player.health).to_be(hp - 2) -- 3 physical, less the hero's 1 armour
  end)

  it("ends after the final round with the score and its outcome", function()
    local g = game()
    g:start_hazard("core:rockslide")
    g:route("risk")
    g:end_round() g:end_round() g:end_round()
    expect(g:hazard()).to_be(nil)
    local last = g:events()[#g:events()]
    expect(last.name).to_be("hazard_ended")
    expect(last.score).to_be(-3)
    expect(last.route).to_be("risk")
  end)

  it("adds a card to the hand in dev mode without touching the deck", function()
    local g = game()
    g:start_hazard("core:rockslide")
    local deck = g:hazard().deck
    g:dev_card("core:golden_idol")
    expect(g:hazard().hand).to_contain("core:golden_idol")
    expect(g:hazard().deck).to_be(deck)
  end)
end)
