-- After each won fight, a seeded roll may find a few coins; the tally lives in the save.
local luck = lantern.rng("bonus")

lantern.on("combat_ended", function(ev)
  if ev.outcome ~= "victory" then return end
  lantern.storage.wins = (lantern.storage.wins or 0) + 1
  if luck:int(1, 6) >= 5 then
    local coins = luck:int(1, 10)
    lantern.apply({ action = "give_item", item = "core:gold", count = coins, target = "player" })
    lantern.log("a lucky find: " .. coins .. " gold (win " .. lantern.storage.wins .. ")")
  end
end)
