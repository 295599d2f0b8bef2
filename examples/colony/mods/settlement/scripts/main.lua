-- Every third day is a harvest festival; every tenth, the colony counts itself.
lantern.on("day_started", function(ev)
  if ev.day % 3 == 0 then
    lantern.emit_event("harvest_festival", { day = ev.day })
  end
  if ev.day % 10 == 0 then
    lantern.log("day " .. ev.day .. ": " .. lantern.colony.population() .. " colonists, "
      .. lantern.colony.food() .. " food")
  end
end)
