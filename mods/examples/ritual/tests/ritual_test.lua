-- The ritual example end to end: three uses of the altar emit `ritual:ritual_done` from Lua, and the
-- TOML quest counts two of them and pays through the Lua action `ritual:bless`.
describe("the altar", function()
  it("completes the quest after six uses", function()
    local g = lantern.test.game{ seed = 3, mods = { "core", "ritual" } }
    g:next()
    for _ = 1, 5 do g:use("ritual:altar") end
    expect(g:quest("ritual:two_rituals").count).to_be(1)
    g:use("ritual:altar")
    expect(g:quest("ritual:two_rituals").done).to_be(true)
    expect(g:storage("ritual").uses).to_be(6)
    expect(g:messages()).to_contain("[ritual] the ritual is complete")
  end)
end)
