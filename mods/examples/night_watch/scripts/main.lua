-- Night falls on every fourth turn; `night_watch:is_night` asks about it from TOML.
lantern.register_check("is_night", function(ctx, args)
  return lantern.game.turn % 4 == 0
end)
