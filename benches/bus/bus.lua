-- The events bench's baseline in Lua: a plain event bus doing the work of the bench's hot event
-- (benches/events.rs) by hand, for LuaJIT and stock Lua to run beside lantern's engine.
--
-- Fifteen listeners (the bench's ten triggers and five quests) on the hot event, each comparing
-- the payload's `n` with 1 and counting the player's gold against a million (the player holds
-- nothing, as in the bench, so every test fails); a thousand more on fifty other events. Events are
-- raised fifty a turn into a queue, each a new table, and handled first in, first out.
--
--   luajit benches/bus/bus.lua [events]      prints events per second
--
-- Counted by instructions as the bench is (docs/performance.md, the nineteenth session): run it
-- under `valgrind --tool=cachegrind` for 20,000 and 220,000 events and divide the difference by
-- 200,000.
local N = tonumber(arg and arg[1]) or 1000000
local BATCH = 50

local listeners = {}
local function on(kind, f)
  local list = listeners[kind]
  if not list then
    list = {}
    listeners[kind] = list
  end
  list[#list + 1] = f
end

local player = { inventory = {} }
local function held(who, item)
  local n = 0
  for _, stack in ipairs(who.inventory) do
    if stack.item == item then
      n = n + stack.count
    end
  end
  return n
end

local fired = 0
for _ = 1, 15 do
  on("hot", function(ev)
    if ev.n ~= 1 then
      return
    end
    if held(player, "gold") >= 1000000 then
      fired = fired + 1
    end
  end)
end
for k = 0, 49 do
  for _ = 1, 20 do
    on("cold" .. k, function(ev)
      if ev.n == 1 then
        fired = fired + 1
      end
    end)
  end
end

local queue, head, tail = {}, 1, 0
local start = os.clock()
local sent = 0
while sent < N do
  for _ = 1, BATCH do
    tail = tail + 1
    queue[tail] = { kind = "hot", n = 1 }
  end
  while head <= tail do
    local ev = queue[head]
    queue[head] = nil
    head = head + 1
    local list = listeners[ev.kind]
    if list then
      for j = 1, #list do
        list[j](ev)
      end
    end
  end
  sent = sent + BATCH
end
local elapsed = os.clock() - start
assert(fired == 0)
print(string.format("%.0f", sent / elapsed))
