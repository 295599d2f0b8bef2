-- A simulator policy: play the first card whose color has a free die (its bottom action), else
-- the first card's top action, until every meter is met.
return function(run)
  for _, m in ipairs(run.meters) do
    if m.have < m.need then
      for i, card in ipairs(run.hand) do
        if card.can_pay then return { card = i, side = "bottom" } end
      end
      if #run.hand > 0 then return { card = 1, side = "top" } end
      return nil
    end
  end
  return nil
end
