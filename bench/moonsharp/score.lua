-- SCORE! through its buttons (as tests/test_score_table.py plays it): Classic! with six players, three
-- rounds of Get ready!, rosters laid from the hands and three SCORE! action turns; then Decking! with every
-- seat of the table taken (a deck each; Keep for each slot), one round.
local FACE_DOWN = 180
local SIX = {"White", "Red", "Yellow", "Green", "Blue", "Purple"}
Bench.start(SIX)

local function hand(color)
  local out = {}
  for _, obj in ipairs(Fake.objects()) do
    if obj.type == "Card" and obj._fake.hand == color then out[#out + 1] = obj end  -- bench code
  end
  table.sort(out, function(a, b) return a.getGUID() < b.getGUID() end)
  return out
end

local function lay(card, color, slot)
  card.setPosition(GAME.slot_position(color, slot))
  card.setRotation({0, 0, FACE_DOWN})
end

local function select_mode(name)
  for _ = 1, 12 do
    if Fake.ui.values.score_mode == name then return end
    Bench.click("Mode >", "scoreModeNext", "White")
  end
  error("mode " .. name .. " not offered")
end

select_mode("Classic!")
for _ = 1, 3 do
  Bench.click("Get ready! (Classic!, 6 players)", "uiGetReady", "White")
  for _, color in ipairs(SIX) do
    for slot, card in ipairs(hand(color)) do
      if slot > 3 then break end
      lay(card, color, slot)
    end
  end
  for _ = 1, 3 do Bench.click("SCORE! (Classic!, 6 players)", "scoreScore", "White") end
  Bench.time("onSave (Classic!, 6 players)", onSave)
end

local all = {}
for i, color in ipairs(DATA.seats) do all[i] = color end
Fake.seated = all
Bench.click("New game", "scoreNewGame", "White")
select_mode("Decking!")
local label = " (Decking!, " .. #all .. " players)"
Bench.click("Get ready!" .. label, "uiGetReady", "White")
for _, color in ipairs(all) do
  for slot = 3, 1, -1 do
    lay(hand(color)[1], color, slot)
    Bench.click("Keep" .. label, "scoreKeep", color)
  end
end
for _ = 1, 3 do Bench.click("SCORE!" .. label, "scoreScore", "White") end
Bench.time("onSave" .. label, onSave)
