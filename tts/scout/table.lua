-- Scout's table script (module scout.table, loaded by the Global script as GAME): the "Setup", "Show",
-- "Scout", "Scout & Show" and "Turn my hand" controls of tts/scout/ui.xml.j2. A thin TTS layer:
-- scout.setup decides the deal (removal, shuffle, orientation, chips, first player) and scout.engine
-- referees the rounds (docs/rules/scout.md); this file reads what the players did and moves the objects.
--
-- A card's orientation in TTS is which value is up: a card upright to its holder shows `top`; turned
-- 180 degrees about y it shows `bottom` (scout.setup's `flipped`).
local ScoutSetup, ScoutEngine = use("scout.setup"), use("scout.engine")
local Api, Seating, Setup, Table, Turns = use("lib.api"), use("lib.seating"), use("lib.setup"), use("lib.table"),
  use("lib.turns")

local M = {}

M.get_ready = false  -- no generic Get ready! button: "Setup" replaces it

M.HAND_STEP = 0.9           -- between two cards laid into a hand
M.CHIP_PLACE = {6.5, 4.0}   -- seat-local (x, d) of a player's Scout & Show chip
M.MARKER_PLACE = {-6.5, 4.0}  -- seat-local (x, d) of the first-player marker
M.ASIDE_STEP = 0.05         -- height between cards set aside on one pile

M.ACTIVE_DZ = 5.0           -- the active set lies this far (+z) from where the deck is gathered
M.ACTIVE_STEP = 2.2         -- between two cards of the active set
M.ZONE = {x = 9.0, z = 2.5}  -- the play area: cards within this of the active set's middle
M.WON_PLACE = {0, 4.0}      -- seat-local (x, d) of a player's pile of cards won, face down
M.TOKEN_PLACE = {3.2, 4.0}  -- seat-local (x, d) of a player's Scout tokens

local round = ScoutSetup.new_round()  -- who has turned their hand this round (by colour)
local pending = nil   -- a Scout & Show under way: {player = k, scout = {side, position, turn}}
local guid_of = {}    -- the GUID of each card id (the engine names cards by id: each is one of a kind)
local id_of = {}      -- and back

-- The turn line: the round and whose turn it is, or that the round or the game is over.
local function turn_line(game)
  if game.game_over then return "Game over" end
  if game.round_over then return "Round " .. game.round .. " is over: Setup" end
  local text = "Round " .. game.round .. ": " .. game.seats[game.turn] .. "'s turn"
  if pending ~= nil then text = text .. " (Scout & Show)" end
  return text
end

-- The referee of the turns (lib.turns over scout.engine): the engine decides, this layer reads what the
-- players did and moves the objects.
local referee = Turns.referee(ScoutEngine, {turn_id = "scout_turn", idle = "Setup to start", line = turn_line,
                                            first = "Setup first: the table referees the rounds it dealt"})
M.state, M.show_turn = referee.state, referee.show_turn

local note, say, warn, take = Setup.field, Table.say, Table.warn, Table.take
local upright = Table.upright

-- Is a card at y rotation `rot_y` turned (bottom up) for the holder of `color`'s hand?
function M.is_turned(color, rot_y)
  local diff = (rot_y - upright(color)) % 360
  return diff > 90 and diff < 270
end

local function seat_place(color, local_xd)
  return Seating.place(Api.data(), color, local_xd[1], local_xd[2]), {0, Seating.facing(Api.data(), color), 0}
end

local tagged = Table.tagged  -- sorted by GUID (the same order every time)

local function card_object(id)
  return guid_of[id] and getObjectFromGUID(guid_of[id])
end

-- Lay `color`'s hand out in the engine's order, each card turned as the engine says; `hand` the cards.
local function lay_hand(color, hand)
  local width = Player[color].getHandTransform().scale.x  -- a long hand closes up to stay in the zone
  local step = math.min(M.HAND_STEP, (width - 1) / math.max(1, #hand - 1))
  local place = Table.hand_places(color, #hand, step)
  for i, card in ipairs(hand) do
    local obj = card_object(card.id)
    if obj ~= nil then
      local position, rotation = place(i)
      obj.setPosition(position)
      obj.setRotation({0, (rotation[2] + (card.flipped and 180 or 0)) % 360, 0})
    end
  end
end


-- "Setup": a new round. Gather the cards, take out those this player count removes, shuffle with a
-- random orientation per card, deal, and hand out the chips and the first-player marker; finish(state)
-- once every card is there (finish() when there is no round to set up).
function M.setup(color, finish)
  local seats = Api.seated()
  if ScoutSetup.rules(Api.data()).deal[#seats] == nil then
    local players = Api.data().game.players
    warn("Scout is for " .. players.min .. " to " .. players.max .. " players; " .. #seats
         .. " seated at a colour with a hand")
    return finish()
  end
  Api.gather_main_deck(function(deck, problem)
    if deck == nil then warn(problem) return finish() end
    M.setup_from(deck, seats, color, finish)
  end)
end

-- Setup's moves once the deck holds every card: the next round of the game under way (the engine deals
-- it) when the same players sit, else a new game.
function M.setup_from(deck, seats, color, finish)
  local cards = {}
  guid_of, id_of = {}, {}
  for i, entry in ipairs(deck.getObjects()) do
    local id = Setup.card_id(entry.gm_notes)
    cards[i] = {id = id, top = note(entry.gm_notes, "top"), bottom = note(entry.gm_notes, "bottom")}
    guid_of[id] = entry.guid
    id_of[entry.guid] = id
  end
  local game = referee.state()
  local next_round = game ~= nil and game.round_over and not game.game_over and #game.seats == #seats
  for k, seat in ipairs(next_round and game.seats or {}) do next_round = next_round and seats[k] == seat end
  local state, refusal
  if next_round then
    state, refusal = ScoutEngine.play(game, Seating.index(seats, color) and color or seats[1], {deal = true})
  else
    state, refusal = ScoutEngine.setup(Api.data(), seats, {seed = math.random(1, 2147483646), cards = cards})
    if state ~= nil then
      for _, seat in ipairs(seats) do Api.set_score(seat, 0) end
    end
  end
  if state == nil then warn("Setup: " .. Turns.refusal_text(refusal)) return finish() end
  pending = nil
  referee.start(state)

  local j = Table.join(function()  -- every card has arrived: lay the hands out in the engine's order
    for k, seat in ipairs(seats) do lay_hand(seat, state.hands[k]) end
    finish(state)
  end)
  local aside = Api.data().layout.aside
  for k, id in ipairs(state.removed) do
    take(deck, guid_of[id], {aside[1], aside[2] + k * M.ASIDE_STEP, aside[3]}, {0, 180, 180}, j.add())
  end
  for k, seat in ipairs(seats) do
    local hand = state.hands[k]
    local place = Table.hand_places(seat, #hand, M.HAND_STEP)
    for i, card in ipairs(hand) do
      local position, rotation = place(i)
      take(deck, guid_of[card.id], position, {0, (rotation[2] + (card.flipped and 180 or 0)) % 360, 0}, j.add())
    end
  end

  local chips = j.add()
  Table.lay_pieces("chips", #seats, function(p) return seat_place(seats[p], M.CHIP_PLACE) end,
                   function(placed, spare)
    for k, chip in ipairs(spare) do  -- chips nobody needs this round: stacked by the set-aside cards
      chip.setPosition({aside[1], aside[2] + k * 0.3, aside[3] - 3})
      chip.setRotation({0, 180, 0})
    end
    if placed < #seats then warn("only " .. placed .. " Scout & Show chips on the table for " .. #seats .. " players") end
    chips()
  end)
  local first = seats[state.first_player]
  local marker = tagged("first-player")[1]
  if marker ~= nil then
    local position, rotation = seat_place(first, M.MARKER_PLACE)
    marker.setPosition(position)
    marker.setRotation(rotation)
  end

  round = ScoutSetup.new_round()
  local function cards_of(n) return n .. (n == 1 and " card" or " cards") end
  local removed = #state.removed > 0 and (cards_of(#state.removed) .. " set aside, ") or ""
  local unused = #state.out > 0 and (", " .. cards_of(#state.out) .. " stay face down in the middle") or ""
  local why = state.explanation
  if state.round > 1 then why = "the marker passes on, clockwise." end
  say("Setup: round " .. state.round .. " of " .. state.rounds .. ": " .. removed .. cards_of(state.deal_count)
      .. " to each of " .. #seats .. " players" .. unused .. ". " .. first .. " gets the first-player marker: " .. why)
  say("Don't rearrange your cards. Each player may turn their whole hand once this round: Turn my hand.")
  M.lay_tokens(j.add())
  j.start()
end

-- "Turn my hand": rotate every card of `color`'s hand 180 degrees and reverse their order, once per round.
function M.turn_hand(color)
  local allowed, why = ScoutSetup.can_flip(round, color)
  local game, after = referee.state(), nil  -- the engine turns the hand of a player of its round
  if allowed and game ~= nil and not game.round_over and Seating.index(game.seats, color) then
    local refusal
    after, refusal = ScoutEngine.play(game, color, {turn_hand = true})
    if after == nil then allowed, why = false, refusal.text end
  end
  if not allowed then
    broadcastToColor(why, color, Table.WARNING)
    return false, why
  end
  if Player[color].getHandTransform() == nil then
    warn(color .. " has no hand at this table") return false
  end
  local objects, hand, by_id, count = {}, {}, {}, 0
  for _, obj in ipairs(Player[color].getHandObjects()) do
    if obj.type == "Card" and note(obj.getGMNotes(), "top") ~= nil then
      count = count + 1
      objects[count] = obj
    end
  end
  if #objects == 0 then
    broadcastToColor("You have no cards in hand to turn.", color, Table.WARNING)
    return false
  end
  local h = Player[color].getHandTransform()
  local function along(obj)
    local p = obj.getPosition()
    return (p.x - h.position.x) * h.right.x + (p.z - h.position.z) * h.right.z
  end
  table.sort(objects, function(a, b) return along(a) < along(b) end)  -- left to right
  local places = {}
  for k, obj in ipairs(objects) do
    local notes = obj.getGMNotes()
    local id = Setup.card_id(notes)
    hand[k] = {id = id, top = note(notes, "top"), bottom = note(notes, "bottom"),
               flipped = M.is_turned(color, obj.getRotation().y)}
    by_id[id] = obj
    local p = obj.getPosition()
    places[k] = {p.x, p.y, p.z}
  end
  local turned = ScoutSetup.turn_hand(round, color, hand)
  round = turned.state
  if after ~= nil then referee.start(after) end
  local up = upright(color)
  for k, card in ipairs(turned.hand) do
    local obj = by_id[card.id]
    obj.setPosition(places[k])
    obj.setRotation({0, (up + (card.flipped and 180 or 0)) % 360, 0})
  end
  say(color .. " turned their hand.")
  return turned.hand
end

-- --- Refereeing the play: the engine decides, this layer reads the table and moves the cards -------

-- The middle of the active set (the play area): in front of where the deck is gathered.
local function active_spot()
  local home = Api.data().layout.home
  return {home[1], home[2], home[3] + M.ACTIVE_DZ}
end

local function in_zone(obj)
  local p, spot = obj.getPosition(), active_spot()
  return math.abs(p.x - spot[1]) <= M.ZONE.x and math.abs(p.z - spot[3]) <= M.ZONE.z
end

-- The active set, face up, left to right, reading as its cards count for the player whose turn it is
-- (so a card they scout keeps its orientation unless they turn it).
local function lay_active(game)
  if not game.active then return end
  local spot, n = active_spot(), #game.active.cards
  local reader = game.seats[game.turn]
  local up = upright(reader)
  local right = Player[reader].getHandTransform().right
  for i, card in ipairs(game.active.cards) do
    local obj = card_object(card.id)
    if obj ~= nil then
      local x = (i - (n + 1) / 2) * M.ACTIVE_STEP
      obj.setPosition({spot[1] + right.x * x, spot[2] + 0.1, spot[3] + right.z * x})
      obj.setRotation({0, (up + (card.flipped and 180 or 0)) % 360, 0})
    end
  end
end

-- Every player's cards won, face down on a pile in front of them.
local function lay_won(game)
  for k, color in ipairs(game.seats) do
    local position, rotation = seat_place(color, M.WON_PLACE)
    for i, card in ipairs(game.won[k]) do
      local obj = card_object(card.id)
      if obj ~= nil then
        obj.setPosition({position[1], position[2] + i * M.ASIDE_STEP, position[3]})
        obj.setRotation({0, rotation[2], 180})
      end
    end
  end
end

-- The Scout tokens the players hold this round, in front of each (done() once they are there).
function M.lay_tokens(done)
  local game, owners, count = referee.state(), {}, 0
  if game ~= nil and not game.round_over then
    for k = 1, game.seat_count do
      for _ = 1, game.tokens[k] do
        count = count + 1
        owners[count] = game.seats[k]
      end
    end
  end
  local aside = Api.data().layout.aside
  Table.lay_pieces("scout-tokens", #owners, function(t)
    local position, rotation = seat_place(owners[t], M.TOKEN_PLACE)
    return {position[1], position[2] + t * 0.2, position[3]}, rotation
  end, function(_, spare)
    for i, token in ipairs(spare) do  -- tokens nobody holds: beside the set-aside cards
      token.setPosition({aside[1] + 3, aside[2] + i * 0.2, aside[3]})
    end
    done()
  end)
end

-- The chip of `color`, in front of them, or nil.
local function chip_of(color)
  local place = seat_place(color, M.CHIP_PLACE)
  for _, chip in ipairs(tagged("chips")) do
    local p = chip.getPosition()
    if math.abs(p.x - place[1]) < 0.5 and math.abs(p.z - place[3]) < 0.5 then return chip end
  end
  return nil
end

-- Put the table back as the engine's state says (after a refused move): hands, the active set.
local function restore(game, done)
  for k, color in ipairs(game.seats) do lay_hand(color, game.hands[k]) end
  lay_active(game)
  pending = nil
  M.show_turn()
  done()
  return true
end

-- What an event means besides its text: the chip given up, the round's scores, the winners.
local function tell(event)
  local game = referee.state()
  say(event.text)
  if event.what == "chip" then
    local chip = chip_of(event.seat)
    local aside = Api.data().layout.aside
    if chip ~= nil then chip.setPosition({aside[1], aside[2] + 0.3, aside[3] - 3}) end
  elseif event.what == "round_over" then
    for k, color in ipairs(game.seats) do
      local score = event.scores[k]
      say(string.format("%s: %d won, %d Scout tokens, %d in hand%s: %+d; %d stars in all.", color, score.won,
        score.tokens, score.hand, score.exempt and " (ended the round: not counted)" or "", score.points,
        game.stars[k]))
      Api.set_score(color, game.stars[k])
    end
    if not game.game_over then say("Press Setup for round " .. (game.round + 1) .. ".") end
  elseif event.what == "game_over" then
    local points = ScoutEngine.scores(game)
    say(table.concat(event.winners, " and ") .. (#event.winners > 1 and " win" or " wins") .. " with "
        .. points[event.winners[1]] .. " stars!")
  end
end

-- The engine's state is ahead of the table: lay out what changed; done() once it is there.
local function carry_out(_, game, _, done)
  for k, color in ipairs(game.seats) do lay_hand(color, game.hands[k]) end
  lay_active(game)
  lay_won(game)
  local j = Table.join(done)
  M.lay_tokens(j.add())
  j.start()
end

-- The card of the active set `color` (player k) has taken into their hand: scout = {side, position,
-- turn}, or nil and the refusal.
local function read_scout(game, color, k)
  local function refuse(text) return nil, {clause = 15, rule = "Scout", text = text} end
  if not game.active then return refuse("there is no active set to scout from") end
  local taken, index, count = {}, {}, 0
  for i, card in ipairs(game.active.cards) do index[card.id] = i end
  local objects = Player[color].getHandObjects()
  for _, obj in ipairs(objects) do
    if index[id_of[obj.getGUID()]] ~= nil then
      count = count + 1
      taken[count] = obj
    end
  end
  if #taken ~= 1 then return refuse("take one card of the active set into your hand") end
  local obj, i = taken[1], index[id_of[taken[1].getGUID()]]
  local side = (i == 1 and "left") or (i == #game.active.cards and "right") or nil
  if side == nil then return refuse("take the leftmost or the rightmost card of the set") end
  local h = Player[color].getHandTransform()
  local function along(o)
    local p = o.getPosition()
    return (p.x - h.position.x) * h.right.x + (p.z - h.position.z) * h.right.z
  end
  local mine = {}
  for _, card in ipairs(game.hands[k]) do mine[card.id] = true end
  local position = 1
  for _, other in ipairs(objects) do
    if mine[id_of[other.getGUID()]] and along(other) < along(obj) then position = position + 1 end
  end
  local turned = M.is_turned(color, obj.getRotation().y) ~= game.active.cards[i].flipped
  return {side = side, position = position, turn = turned}
end

-- The cards of `hand` that are on the play area: {first, last}, or nil and the refusal.
local function read_show(hand)
  local first, last, count = nil, nil, 0
  for i, card in ipairs(hand) do
    local obj = card_object(card.id)
    if obj ~= nil and in_zone(obj) then
      first = first or i
      last = i
      count = count + 1
    end
  end
  local function refuse(text) return nil, {clause = 11, rule = "Show", text = text} end
  if count == 0 then return refuse("put the cards you show on the play area, in front of the set") end
  if last - first + 1 ~= count then return refuse("the cards shown are adjacent cards of your hand") end
  return {first = first, last = last}
end

-- The player number of `color` whose turn it is, or nil and the engine's refusal (turn order, the
-- round or the game over, not playing).
local function acting(game, color)
  local k = Seating.index(game.seats, color)
  if k == nil or k ~= game.turn or game.round_over or game.game_over then
    return nil, select(2, ScoutEngine.check(game, color, {show = {first = 1, last = 1}}))
  end
  return k
end

-- One move of `color`: read(game, k) -> move | nil, refusal, back, once `color` may move; on a
-- refusal the cards go back as the engine's state has them (unless read says `back` is false: nothing
-- to put back, and a Scout & Show under way stays).
local function move(color, finish, read)
  local back = false
  referee.move(color, finish, {
    read = function(game)
      local k, refusal = acting(game, color)
      if k == nil then return nil, refusal end
      local found
      found, refusal, back = read(game, k)
      if back == nil then back = true end
      if found ~= nil then pending = nil end  -- a Scout & Show's scout is in the move now
      return found, refusal
    end,
    put_back = function(game, done)
      if not back then return done() end
      return restore(game, done)
    end,
    say = tell,
    carry_out = carry_out})
end

-- "Show": the adjacent cards of the hand the player put on the play area (after a Scout & Show's
-- scout, the hand with the scouted card).
function M.show(color, finish)
  move(color, finish, function(game, k)
    local scout = pending ~= nil and pending.player == k and pending.scout or nil
    local hand = game.hands[k]
    if scout ~= nil then hand = ScoutEngine.scouted_hand(game, color, scout) end
    local show, refusal = read_show(hand)
    if show == nil then return nil, refusal, false end
    return {scout = scout, show = show}
  end)
end

-- "Scout": the end card of the active set the player took into their hand, where they put it, turned
-- or not.
function M.scout(color, finish)
  move(color, finish, function(game, k)
    local scout, refusal = read_scout(game, color, k)
    if scout == nil then return nil, refusal end
    return {scout = scout}
  end)
end

-- "Scout & Show", first half: the scout, checked and kept until the player's Show (no move yet).
function M.scout_show(color, finish)
  local game = referee.state()
  if game == nil then warn("Setup first: the table referees the rounds it dealt") return finish() end
  local k, refusal = acting(game, color)
  local scout, hand
  if k ~= nil and game.chips[k] < 1 then
    refusal = {clause = 16, rule = "Scout & Show", text = "you have used your Scout & Show chip this round"}
  elseif k ~= nil then
    scout, refusal = read_scout(game, color, k)
    if scout ~= nil then hand, refusal = ScoutEngine.scouted_hand(game, color, scout) end
  end
  if hand == nil then
    warn(color .. ": " .. Turns.refusal_text(refusal) .. (k ~= nil and ". The cards go back." or ""))
    if k ~= nil then restore(game, finish) else finish() end
    return
  end
  pending = {player = k, scout = scout}
  lay_hand(color, hand)
  say(color .. " scouts, and shows next: put the cards you show on the play area and press Show.")
  M.show_turn()
  finish()
end

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Saved with the game (lib.turns): the engine's state, and the round's turned hands, a Scout & Show under
-- way and the cards' GUIDs; a reloaded table goes on where it was.
-- Where players put cards, by name (`deckpress test`'s scenarios): the play area, where the active set
-- lies (its middle half: the help cards lie at its far edge), and each seat's pile of cards won ("won of
-- White").
function M.places()
  local spot = active_spot()
  local out = {["play area"] = {x = spot[1], y = spot[2], z = spot[3], dx = M.ZONE.x, dz = M.ZONE.z / 2}}
  for _, color in ipairs(Api.data().seats) do
    local p = seat_place(color, M.WON_PLACE)
    out["won of " .. color] = {x = p[1], y = p[2], z = p[3]}
  end
  return out
end

function M.save()
  return referee.save({round = round, pending = pending, guid_of = guid_of})
end

function M.load(text)
  local saved = referee.load(text)
  round = type(saved.round) == "table" and saved.round or ScoutSetup.new_round()
  pending, guid_of = saved.pending, type(saved.guid_of) == "table" and saved.guid_of or {}
  id_of = {}
  for id, guid in pairs(guid_of) do id_of[guid] = id end
  M.show_turn()
end

-- --- XmlUI handlers (tts/scout/ui.xml.j2) -------------------------------------------------------------

Turns.buttons({
  {"uiScoutSetup", "Setup", M.setup},
  {"uiScoutShow", "Show", M.show},
  {"uiScoutScout", "Scout", M.scout},
  {"uiScoutScoutShow", "Scout & Show", M.scout_show},
  {"uiScoutTurnHand", "Turn my hand", M.turn_hand, true},
})

return M
