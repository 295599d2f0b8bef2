-- What differs when stock Lua is built instead of lantern's: the order `pairs` visits string keys
-- in (stock Lua seeds its string hash from the clock and addresses), and how far a loop runs
-- under a small instruction budget (stock Lua charges every instruction, lantern's where code
-- repeats). Both end up in lantern.storage, so in the state hash.
local t = {}
for _, k in ipairs({ "zeta", "alpha", "mid", "omega", "beta", "kappa", "delta", "iota" }) do
  t[k] = #k
end

lantern.on("turn_started", function()
  local order = {}
  for k in pairs(t) do order[#order + 1] = k end
  lantern.storage.order = table.concat(order, ",")
  lantern.storage.roll = math.random(1, 1000000)
end)

lantern.on("combat_started", function()
  local n = 0
  while true do
    n = n + 1
    lantern.storage.n = n
  end
end)
