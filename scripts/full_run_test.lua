-- A scenario across mods: the whole reference run with every bundled mod, played by a simple policy.
describe("a full run", function()
  it("reaches the end of the cellar, or dies trying, the same way every time", function()
    local function play(seed)
      local g = lantern.test.game{ seed = seed }
      for _ = 1, 20 do
        local ok = pcall(function() g:next() end)
        if not ok then break end
        if g:encounter() then g:choose(#g:encounter().options) end
        local turns = 0
        while #g:enemies() > 0 and turns < 50 do
          if g.player.health < 12 and g.player:count("core:potion") > 0 then g:use("core:potion") else g:attack() end
          turns = turns + 1
        end
        if not g.player.alive then break end
      end
      return g:hash(), g.player.alive
    end
    local hash, alive = play(11)
    expect(play(11)).to_be(hash)
    expect(type(alive)).to_be("boolean")
  end)

  it("runs every example mod's handlers without a problem", function()
    local g = lantern.test.game{ seed = 5 }
    for _ = 1, 4 do
      pcall(function() g:next() end)
      while #g:enemies() > 0 do g:attack() end
    end
    expect(g:problems()).to_equal({})
  end)
end)
