-- Counts uses of the altar in the mod's storage; every third use completes a ritual.
lantern.on("item_used", function(ev)
  if ev.item ~= "ritual:altar" then return end
  lantern.storage.uses = (lantern.storage.uses or 0) + 1
  if lantern.storage.uses % 3 == 0 then
    lantern.emit_event("ritual_done", { power = lantern.storage.uses // 3, altar = "portable" })
    lantern.log("the ritual is complete")
  end
end)

-- `ritual:bless` in TOML: heals the player by `amount`.
lantern.register_action("bless", function(ctx, args)
  lantern.apply({ action = "heal", amount = args.amount or 5, target = "player" })
end)
