-- The fair's coin, measured against the same days without the fair.
describe("the harvest fair", function()
  it("pays a coin for the fifth crop", function()
    local function two_days(mods)
      local g = lantern.test.game({ seed = 1, mods = mods })
      for _ = 1, 4 do
        g:verb("plant", "wheat")
      end
      g:verb("sleep")
      g:verb("plant", "wheat")
      g:verb("sleep")
      return g:state().money, g:storage("valley").harvested
    end
    local with_fair, crops = two_days({ "valley", "fair" })
    local without = two_days({ "valley" })
    expect(crops).to_be(5)
    expect(with_fair - without).to_be(1)
  end)
end)
