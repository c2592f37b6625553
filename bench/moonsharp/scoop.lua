-- Scoop through its buttons (as tests/test_scoop_table.py plays it): six players, the most piles, two whole
-- games, each ended by Count. The players SCOOP and SWITCH when they can (the piles grow and move most).
local SEATS = {"White", "Red", "Yellow", "Green", "Blue", "Purple"}
local engine, piles = use("scoop.engine"), use("scoop.piles")
Bench.start(SEATS)

local function holder(guid)
  local found = getObjectFromGUID(guid)
  if found ~= nil then return found end
  for _, obj in ipairs(Fake.objects()) do
    if obj.type == "Deck" then
      for _, entry in ipairs(obj.getObjects()) do
        if entry.guid == guid then return obj end
      end
    end
  end
  error("no object holds " .. guid)
end

local function drop(guid, color, pile, k)
  holder(guid).setPosition(piles.place(DATA.seats, DATA.layout.seat_radius, color, pile, 1.0 + 0.5 * (k or 1)))
end

local function act(s, move)
  local me, drawn = s.turn, s.drawn.id
  if move.place then
    drop(drawn, me, move.place)
    return Bench.click("Place", "uiScoopPlace", me, nil, "scoop_place")
  elseif move.scoop then
    local sc = move.scoop
    drop(drawn, sc.to.player, sc.to.pile)
    local list = s.players[sc.from.player][sc.from.pile]
    local count = sc.count or 1
    for k = 1, count do drop(list[#list - count + k].id, sc.to.player, sc.to.pile, k + 1) end
    return Bench.click("SCOOP", "uiScoopScoop", me, nil, "scoop_scoop")
  end
  local sw = move.switch
  drop(drawn, me, sw.own)
  local top = s.players[sw.with.player][sw.with.pile]
  drop(top[#top].id, me, sw.own, 2)  -- the pile switched with, marked: its top card on the drawn one
  return Bench.click("SWITCH", "uiScoopSwitch", me, nil, "scoop_switch")
end

for _ = 1, 2 do
  Bench.click("New game", "uiScoopNewGame", "White", nil, "scoop_new_game")
  while not GAME.state().over do
    local turn = GAME.state().turn
    Bench.click("Draw", "uiScoopDraw", turn, nil, "scoop_draw")
    local s = GAME.state()
    local moves = Bench.time("engine.legal_moves", engine.legal_moves, s, turn)
    local special = {}
    for _, m in ipairs(moves) do
      if m.place == nil then special[#special + 1] = m end  -- bench code, short lists
    end
    local move = (#special > 0 and Bench.random() < 0.8) and Bench.pick(special) or Bench.pick(moves)
    local expected = Bench.time("engine.play", engine.play, s, turn, move)
    local said = act(s, move)
    if not Bench.same(GAME.state(), expected) then
      error("the table and the engine differ: " .. table.concat(said, " / "))
    end
  end
  Bench.click("Count", "uiScoopCount", "White", nil, "scoop_count")
end
Bench.time("onSave (the last state)", onSave)
