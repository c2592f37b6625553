-- Skorch through its buttons (as tests/test_skorch_table.py plays it): five players, the most prisons and
-- the shortest draw pile, with the Face-off card; games until a winner. Players mostly shed their lowest
-- attack (all copies), else play anything legal, Pick up included.
local SEATS = {"White", "Red", "Yellow", "Green", "Blue"}
local engine = use("skorch.engine")
Bench.start(SEATS)

local function pile_spot()
  local home = DATA.layout.home
  return home[1] + 3.0, home[2], home[3]
end

local function act(color, move)
  if move.pick_up then return Bench.click("Pick up", "uiSkorchPickUp", color, nil, "skorch_pick_up") end
  local cards = {}
  for i, id in ipairs(move.cards) do cards[i] = id end
  for _, key in ipairs({"take", "give", "choose"}) do
    if move[key] then cards[#cards + 1] = move[key] end  -- bench code, at most three
  end
  for _, guid in ipairs(move.reveal or {}) do
    if guid ~= move.choose then  -- the other card revealed: turned face up in its slot
      local card = getObjectFromGUID(guid)
      local r = card.getRotation()
      card.setRotation({r.x, r.y, 0})
    end
  end
  local x, y, z = pile_spot()
  for k, guid in ipairs(cards) do getObjectFromGUID(guid).setPosition({x, y + 0.1 * k, z}) end
  return Bench.click("Play", "uiSkorchPlay", color, nil, "skorch_play")
end

local function cards_by_id(s)
  local out = {}
  local function add(list) for _, c in pairs(list) do if c then out[c.id] = c end end end
  add(s.pile) add(s.draw) add(s.burned)
  for _, player in pairs(s.players) do add(player.hand) add(player.front) add(player.back) end
  return out
end

Bench.click("Face-off card in", "uiSkorchFaceoff", "White")
for _ = 1, 2 do
  Bench.click("Deal", "uiSkorchDeal", "White", nil, "skorch_deal")
  local by_id = cards_by_id(GAME.state())
  for _ = 1, 1500 do
    local s = GAME.state()
    if s.winner then break end
    local moves = Bench.time("engine.legal_moves", engine.legal_moves, s, s.turn)
    local move, lowest = nil, nil
    if Bench.random() < 0.75 then
      for _, m in ipairs(moves) do
        local c = m.cards and by_id[m.cards[1]]
        if c and c.kind == "attack" and m.take == nil and m.give == nil and m.choose == nil and m.reveal == nil
            and (lowest == nil or c.value < lowest or (c.value == lowest and #m.cards > #move.cards)) then
          move, lowest = m, c.value
        end
      end
    end
    move = move or Bench.pick(moves)
    Bench.time("engine.play", engine.play, s, s.turn, move)
    local said = act(s.turn, move)
    if GAME.state().turns ~= s.turns + 1 then error("the table refused: " .. table.concat(said, " / ")) end
  end
end
Bench.time("onSave (the last state)", onSave)
