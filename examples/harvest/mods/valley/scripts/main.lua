-- A Lua handler on the game's events, reading the farm through the game's own functions and
-- changing it only through the game's actions (lantern.apply goes through the door).
lantern.on("crop_harvested", function(ev)
  lantern.storage.harvested = (lantern.storage.harvested or 0) + ev.amount
  if lantern.storage.harvested % 5 == 0 then
    lantern.log("the valley has brought in " .. lantern.storage.harvested .. " crops")
  end
end)

lantern.on("day_started", function(ev)
  -- A poor farm gets a little help from the neighbours, as much as the player set.
  local help = lantern.settings.neighbours_help
  if help > 0 and lantern.farm.money() < help then
    lantern.apply({ action = "farm:earn", amount = help })
  end
end)

-- A check of the mod's own, usable beside the game's.
lantern.register_check("barn_full", function(ctx, args)
  return lantern.farm.barn("wheat") + lantern.farm.barn("pumpkin") >= (args.at_least or 10)
end)

-- What the valley has brought in, for the mods built on it (the fair).
lantern.expose("harvested", function()
  return lantern.storage.harvested or 0
end)
