-- Every third day is a harvest festival; every tenth, the colony counts itself.
lantern.on("day_started", function(ev)
  if ev.day % 3 == 0 then
    lantern.emit_event("harvest_festival", { day = ev.day })
  end
  if ev.day % 10 == 0 then
    -- `workers` answers with rows: one table per farmer, `{ id = 3, job = "settlement:farmer" }`.
    local farmers = lantern.colony.workers("farmer")
    local first = farmers[1] and ("the first no. " .. farmers[1].id) or "none yet"
    lantern.log("day " .. ev.day .. ": " .. lantern.colony.population() .. " colonists ("
      .. #farmers .. " farmers, " .. first .. "), " .. lantern.colony.food() .. " food")
  end
end)
