-- The village fair pays a coin for every fifth crop the valley brings in, asking the valley
-- mod through the function it exposes. (It loads after the valley, which it depends on, so the
-- valley has counted the harvest when the fair hears of it.)
lantern.on("crop_harvested", function(ev)
  local crops = lantern.call("valley:harvested")
  if crops % 5 == 0 then
    lantern.apply({ action = "farm:earn", amount = 1 })
    lantern.log("the fair pays a coin for the valley's " .. crops .. " crops")
  end
end)
