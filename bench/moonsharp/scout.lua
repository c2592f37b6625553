-- Scout through its buttons (as tests/test_scout_table.py plays it): three players, the biggest hands
-- (12 dealt), whole games of three rounds. The players scout more often than they show, so that hands grow
-- (legal_moves costs most on the biggest hand); the engine's legal_moves and play are timed on their own.
local SEATS = {"White", "Red", "Yellow"}
local engine = use("scout.engine")
Bench.start(SEATS)

local guids = {}
for _, component in ipairs(DATA.components) do
  if component.id == "deck" then
    for _, card in ipairs(component.cards) do guids[card.id] = card.guids[1] end
  end
end
local function obj(id) return getObjectFromGUID(guids[id]) end

local function along(h, o)
  local p = o.getPosition()
  return (p.x - h.position.x) * h.right.x + (p.z - h.position.z) * h.right.z
end

local function show(k, first, last, hand)
  local home = DATA.layout.home
  local x, y, z = home[1], home[2], home[3] + 5.0
  for i = first, last do
    obj(hand[i].id).setPosition({x - 4 + 1.5 * (i - first), y + 0.5, z - 1.5})
  end
end

local function scout(color, k, sc)
  local s = GAME.state()
  local cards = s.active.cards
  local card = sc.side == "left" and cards[1] or cards[#cards]
  local h = Player[color].getHandTransform()
  local mine = {}
  for i, c in ipairs(s.hands[k]) do mine[i] = along(h, obj(c.id)) end
  table.sort(mine)
  local n = #mine
  local x
  if n == 0 then x = 0.0
  else
    local gap = n > 1 and (mine[n] - mine[1]) / (n - 1) / 2 or 0.5
    if sc.position == 1 then x = mine[1] - gap
    elseif sc.position > n then x = mine[n] + gap
    else x = (mine[sc.position - 1] + mine[sc.position]) / 2 end
  end
  local o = obj(card.id)
  o.setPosition({h.position.x + h.right.x * x, h.position.y, h.position.z + h.right.z * x})
  local r = o.getRotation()
  o.setRotation({r.x, (r.y + (sc.turn and 180 or 0)) % 360, r.z})
end

local function pick(moves)
  local both, shows, scouts = {}, {}, {}
  for _, m in ipairs(moves) do
    if m.turn_hand == nil then
      local list = (m.scout and m.show) and both or (m.show and shows) or scouts
      list[#list + 1] = m  -- bench code, short lists
    end
  end
  local r = Bench.random()
  if #both > 0 and r < 0.15 then return Bench.pick(both) end
  if #shows > 0 and r < 0.45 then
    local best = shows[1]
    for _, m in ipairs(shows) do
      if m.show.last - m.show.first > best.show.last - best.show.first then best = m end
    end
    return best
  end
  if #scouts > 0 then return Bench.pick(scouts) end
  return Bench.pick(shows)
end

local function act(s, move)
  local k = s.turn
  local color = SEATS[k]
  if move.scout then
    scout(color, k, move.scout)
    if not move.show then
      Bench.click("Scout", "uiScoutScout", color, nil, "scout_scout")
      return
    end
    Bench.click("Scout & Show (the scout)", "uiScoutScoutShow", color, nil, "scout_scout_show")
    show(k, move.show.first, move.show.last, engine.scouted_hand(GAME.state(), color, move.scout))
    Bench.click("Show (after Scout & Show)", "uiScoutShow", color, nil, "scout_show")
    return
  end
  show(k, move.show.first, move.show.last, s.hands[k])
  Bench.click("Show", "uiScoutShow", color, nil, "scout_show")
end

local biggest = 0
for _ = 1, 2 do
  Bench.click("Setup (deal a round)", "uiScoutSetup", "White", nil, "scout_setup")
  for _ = 1, 600 do
    local s = GAME.state()
    if s.game_over then break end
    if s.round_over then
      Bench.click("Setup (deal a round)", "uiScoutSetup", "White", nil, "scout_setup")
    else
      local color = SEATS[s.turn]
      if #s.hands[s.turn] > biggest then biggest = #s.hands[s.turn] end
      local moves = Bench.time("engine.legal_moves", engine.legal_moves, s, color)
      local move = pick(moves)
      local expected = Bench.time("engine.play", engine.play, GAME.state(), color, move)
      act(s, move)
      if not Bench.same(GAME.state(), expected) then
        error("the table and the engine differ: " .. table.concat(Fake.broadcasts, " / "))
      end
    end
  end
  Bench.click("New game (Setup after the end)", "uiScoutSetup", "White", nil, "scout_setup")
end
Bench.time("onSave (the last state)", onSave)
print("biggest hand: " .. biggest)
