-- Scout's table script (module scout.table, loaded by the Global script as GAME): the "Setup", "Show",
-- "Scout", "Scout & Show" and "Turn my hand" controls of tts/scout/ui.xml.j2. A thin TTS layer:
-- scout.setup decides the deal (removal, shuffle, orientation, chips, first player) and scout.engine
-- referees the rounds (docs/rules/scout.md); this file reads what the players did and moves the objects.
--
-- A card's orientation in TTS is which value is up: a card upright to its holder shows `top`; turned
-- 180 degrees about y it shows `bottom` (scout.setup's `flipped`).
local ScoutSetup = use("scout.setup")
local ScoutEngine = use("scout.engine")
local Setup = use("lib.setup")
local Seating = use("lib.seating")
local Table = use("lib.table")
local Api = use("lib.api")
local Saved = use("lib.saved")

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
local game = nil      -- the rules engine's state (scout.engine) since Setup started a game, or nil
local players = {}    -- the colours playing it: player k of the engine is players[k]
local pending = nil   -- a Scout & Show under way: {player = k, scout = {side, position, turn}}
local guid_of = {}    -- the GUID of each card id (the engine names cards by id: each is one of a kind)
local id_of = {}      -- and back

local note, say, warn, take = Setup.field, Table.say, Table.warn, Table.take
local upright = Table.upright

-- Is a card at y rotation `rot_y` turned (bottom up) for the holder of `color`'s hand?
function M.is_turned(color, rot_y)
  local diff = (rot_y - upright(color)) % 360
  return diff > 90 and diff < 270
end

-- Place `k` of `count` cards laid left to right into `color`'s hand.
local function hand_place(color, k, count)
  return (Table.hand_place(color, k, count, M.HAND_STEP))
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
  local up = upright(color)
  local width = Player[color].getHandTransform().scale.x  -- a long hand closes up to stay in the zone
  local step = math.min(M.HAND_STEP, (width - 1) / math.max(1, #hand - 1))
  for i, card in ipairs(hand) do
    local obj = card_object(card.id)
    if obj ~= nil then
      obj.setPosition((Table.hand_place(color, i, #hand, step)))
      obj.setRotation({0, (up + (card.flipped and 180 or 0)) % 360, 0})
    end
  end
end


-- "Setup": a new round. Gather the cards, take out those this player count removes, shuffle with a
-- random orientation per card, deal, and hand out the chips and the first-player marker; finish(plan)
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
    M.setup_from(deck, seats, finish)
  end)
end

-- Setup's moves once the deck holds every card.
function M.setup_from(deck, seats, finish)
  local cards = {}
  guid_of, id_of = {}, {}
  for _, entry in ipairs(deck.getObjects()) do
    local id = Setup.card_id(entry.gm_notes)
    cards[#cards + 1] = {id = id, top = note(entry.gm_notes, "top"), bottom = note(entry.gm_notes, "bottom")}
    guid_of[id] = entry.guid
    id_of[entry.guid] = id
  end
  local ok, plan = pcall(ScoutSetup.setup_plan, #seats, cards, math.random(1, 2147483646),
                           ScoutSetup.rules(Api.data()))
  if not ok then warn("Setup: " .. tostring(plan)) return finish() end
  local next_round = game ~= nil and game.round_over and not game.game_over and #players == #seats
  for k, color in ipairs(players) do next_round = next_round and seats[k] == color end
  if not next_round then
    game = ScoutEngine.new_game(Api.data(), #seats)
    players = seats
    for _, color in ipairs(seats) do Api.set_score(color, 0) end
  end
  game = ScoutEngine.start_round(game, plan)
  pending = nil

  local j = Table.join(function()  -- every card has arrived: lay the hands out in the engine's order (a
    for k, color in ipairs(players) do lay_hand(color, game.hands[k]) end  -- deck's last card comes first)
    finish(plan)
  end)
  local aside = Api.data().layout.aside
  for k, id in ipairs(plan.removed) do
    take(deck, guid_of[id], {aside[1], aside[2] + k * M.ASIDE_STEP, aside[3]}, {0, 180, 180}, j.add())
  end
  for _, move in ipairs(plan.deals) do
    local seat = seats[move.player]
    local rot_y = (upright(seat) + (move.flipped and 180 or 0)) % 360
    take(deck, guid_of[move.id], hand_place(seat, move.position, plan.deal_count), {0, rot_y, 0}, j.add())
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
  local first = seats[game.first_player]
  local marker = tagged("first-player")[1]
  if marker ~= nil then
    local position, rotation = seat_place(first, M.MARKER_PLACE)
    marker.setPosition(position)
    marker.setRotation(rotation)
  end

  round = ScoutSetup.new_round()
  local function cards(n) return n .. (n == 1 and " card" or " cards") end
  local removed = #plan.removed > 0 and (cards(#plan.removed) .. " set aside, ") or ""
  local unused = #plan.unused > 0 and (", " .. cards(#plan.unused) .. " stay face down in the middle") or ""
  local why = string.gsub(plan.explanation, "^Player %d+", first)
  why = string.gsub(why, "player %d+", first)
  if game.round > 1 then why = "the marker passes on, clockwise." end
  say("Setup: round " .. game.round .. " of " .. game.rounds .. ": " .. removed .. cards(plan.deal_count)
      .. " to each of " .. #seats .. " players" .. unused .. ". " .. first .. " gets the first-player marker: " .. why)
  say("Don't rearrange your cards. Each player may turn their whole hand once this round: Turn my hand.")
  M.lay_tokens(j.add())
  M.show_turn()
  j.start()
end

-- "Turn my hand": rotate every card of `color`'s hand 180 degrees and reverse their order, once per round.
function M.turn_hand(color)
  local allowed, why = ScoutSetup.can_flip(round, color)
  local k = game ~= nil and not game.round_over and Seating.index(players, color)
  if allowed and k then
    local turned, message = ScoutEngine.turn_hand(game, k)
    if turned == nil then allowed, why = false, message else game = turned end
  end
  if not allowed then
    broadcastToColor(why, color, {1, 0.4, 0.3})
    return false, why
  end
  if Player[color].getHandTransform() == nil then
    warn(color .. " has no hand at this table") return false
  end
  local objects, hand, by_id = {}, {}, {}
  for _, obj in ipairs(Player[color].getHandObjects()) do
    if obj.type == "Card" and note(obj.getGMNotes(), "top") ~= nil then objects[#objects + 1] = obj end
  end
  if #objects == 0 then
    broadcastToColor("You have no cards in hand to turn.", color, {1, 0.4, 0.3})
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

-- The engine's state (nil before the first Setup): for the tests and for anyone scripting the table.
function M.state()
  return game
end

-- The engine's "player 2" as the colour that plays it.
local function named(text)
  return Seating.name_players(text, players)
end

function M.show_turn()
  local text = "Setup to start"
  if game ~= nil and game.game_over then
    text = "Game over"
  elseif game ~= nil and game.round_over then
    text = "Round " .. game.round .. " is over: Setup"
  elseif game ~= nil then
    text = "Round " .. game.round .. ": " .. players[game.turn] .. "'s turn"
    if pending ~= nil then text = text .. " (Scout & Show)" end
  end
  UI.setValue("scout_turn", text)
end

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
local function lay_active()
  if not game.active then return end
  local spot, n = active_spot(), #game.active.cards
  local reader = players[game.turn]
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
local function lay_won()
  for k, color in ipairs(players) do
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
  local owners = {}
  if game ~= nil and not game.round_over then
    for k = 1, game.seat_count do
      for _ = 1, game.tokens[k] do owners[#owners + 1] = k end
    end
  end
  local aside = Api.data().layout.aside
  Table.lay_pieces("scout-tokens", #owners, function(t)
    local position, rotation = seat_place(players[owners[t]], M.TOKEN_PLACE)
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
local function restore()
  for k, color in ipairs(players) do lay_hand(color, game.hands[k]) end
  lay_active()
end

-- The engine's state is ahead of the table: lay out what `events` changed; done() once it is there.
local function carry_out(events, done)
  for k, color in ipairs(players) do lay_hand(color, game.hands[k]) end
  lay_active()
  lay_won()
  local j = Table.join(done)
  for _, event in ipairs(events) do
    say(named(event.text))
    if event.what == "chip" then
      local chip = chip_of(players[event.player])
      local aside = Api.data().layout.aside
      if chip ~= nil then chip.setPosition({aside[1], aside[2] + 0.3, aside[3] - 3}) end
    elseif event.what == "round_over" then
      for k, color in ipairs(players) do
        local score = event.scores[k]
        say(string.format("%s: %d won, %d Scout tokens, %d in hand%s: %+d; %d stars in all.", color, score.won,
          score.tokens, score.hand, score.exempt and " (ended the round: not counted)" or "", score.points,
          game.stars[k]))
        Api.set_score(color, game.stars[k])
      end
      if not game.game_over then say("Press Setup for round " .. (game.round + 1) .. ".") end
    elseif event.what == "game_over" then
      local names = {}
      for _, k in ipairs(event.winners) do names[#names + 1] = players[k] end
      say(table.concat(names, " and ") .. (#names > 1 and " win" or " wins") .. " with " .. game.stars[event.winners[1]]
          .. " stars!")
    end
  end
  M.lay_tokens(j.add())
  M.show_turn()
  j.start()
end

-- Check that `color` may move now. Returns the player k, or nil (and says why).
local function acting(color)
  if game == nil then warn("Setup first: the table referees the rounds it dealt") return nil end
  local k = Seating.index(players, color)
  if k == nil then warn(color .. " is not playing this game (Setup deals the seated players)") return nil end
  local ok, message = ScoutEngine.check(game, k, {show = {first = 1, last = 1}})
  if not ok and (string.find(message, "^Clause 10 %(turn") or string.find(message, "^Clause 17")
                 or string.find(message, "^Clause 20")) then
    warn(color .. ": " .. named(message))
    return nil
  end
  return k
end

-- The card of the active set `color` has taken into their hand: scout = {side, position, turn}, or
-- nil and the message. `hand_ids` are the cards the engine says they hold.
local function read_scout(color, k)
  if not game.active then return nil, "Clause 15 (Scout): there is no active set to scout from" end
  local taken, index = {}, {}
  for i, card in ipairs(game.active.cards) do index[card.id] = i end
  local objects = Player[color].getHandObjects()
  for _, obj in ipairs(objects) do
    if index[id_of[obj.getGUID()]] ~= nil then taken[#taken + 1] = obj end
  end
  if #taken ~= 1 then return nil, "Clause 15 (Scout): take one card of the active set into your hand" end
  local obj, i = taken[1], index[id_of[taken[1].getGUID()]]
  local side = (i == 1 and "left") or (i == #game.active.cards and "right") or nil
  if side == nil then return nil, "Clause 15 (Scout): take the leftmost or the rightmost card of the set" end
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

-- The cards of `hand` that `color` has put on the play area: {first, last}, or nil and the message.
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
  if count == 0 then return nil, "Clause 11 (Show): put the cards you show on the play area, in front of the set" end
  if last - first + 1 ~= count then
    return nil, "Clause 11 (Show): the cards shown are adjacent cards of your hand"
  end
  return {first = first, last = last}
end

-- Play `move` for `color`, or put everything back with the engine's message. finish() once done.
local function play(color, k, move, finish)
  local after, events = ScoutEngine.play(game, k, move)
  pending = nil
  if after == nil then
    warn(color .. ": " .. named(events) .. ". The cards go back.")
    restore()
    M.show_turn()
    return finish()
  end
  game = after
  carry_out(events, finish)
end

-- "Show": the adjacent cards of the hand the player put on the play area (after a Scout & Show's
-- scout, the hand with the scouted card).
function M.show(color, finish)
  local k = acting(color)
  if k == nil then return finish() end
  local scout = pending ~= nil and pending.player == k and pending.scout or nil
  local hand = game.hands[k]
  if scout ~= nil then hand = ScoutEngine.scouted_hand(game, k, scout) end
  local show, problem = read_show(hand)
  if show == nil then
    warn(color .. ": " .. problem .. ".")
    return finish()
  end
  play(color, k, {scout = scout, show = show}, finish)
end

-- "Scout": the end card of the active set the player took into their hand, where they put it, turned
-- or not.
function M.scout(color, finish)
  local k = acting(color)
  if k == nil then return finish() end
  local scout, problem = read_scout(color, k)
  if scout == nil then
    warn(color .. ": " .. problem .. ". The cards go back.")
    restore()
    return finish()
  end
  play(color, k, {scout = scout}, finish)
end

-- "Scout & Show", first half: the scout, checked and kept until the player's Show.
function M.scout_show(color, finish)
  local k = acting(color)
  if k == nil then return finish() end
  if game.chips[k] < 1 then
    warn(color .. ": Clause 16 (Scout & Show): you have used your Scout & Show chip this round.")
    return finish()
  end
  local scout, problem = read_scout(color, k)
  local hand = scout and ScoutEngine.scouted_hand(game, k, scout)
  if hand == nil then
    warn(color .. ": " .. named(problem or "") .. ". The cards go back.")
    restore()
    return finish()
  end
  pending = {player = k, scout = scout}
  lay_hand(color, hand)
  say(color .. " scouts, and shows next: put the cards you show on the play area and press Show.")
  M.show_turn()
  finish()
end

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Saved with the game (lib.saved): the round's turned hands, the engine's state, its players' colours, a
-- Scout & Show under way and the cards' GUIDs; a reloaded table goes on where it was.
function M.save()
  return Saved.encode({round = round, game = game, players = players, pending = pending, guid_of = guid_of})
end

function M.load(text)
  local saved = Saved.decode(text)
  if type(saved) ~= "table" or type(saved.round) ~= "table" or type(saved.players) ~= "table"
      or type(saved.guid_of) ~= "table" then
    saved = {round = ScoutSetup.new_round(), players = {}, guid_of = {}}  -- a new table, or a damaged state
  end
  round, game, players, pending, guid_of = saved.round, saved.game, saved.players, saved.pending, saved.guid_of
  id_of = {}
  for id, guid in pairs(guid_of) do id_of[guid] = id end
  M.show_turn()
end

-- --- XmlUI handlers (tts/scout/ui.xml.j2) -------------------------------------------------------------

function uiScoutSetup(player, value, id)
  Table.flow("Setup", function(finish) M.setup(player.color, finish) end)
end

function uiScoutShow(player, value, id)
  Table.flow("Show", function(finish) M.show(player.color, finish) end)
end

function uiScoutScout(player, value, id)
  Table.flow("Scout", function(finish) M.scout(player.color, finish) end)
end

function uiScoutScoutShow(player, value, id)
  Table.flow("Scout & Show", function(finish) M.scout_show(player.color, finish) end)
end

function uiScoutTurnHand(player, value, id)
  if Table.busy() then warn("Wait a moment: the cards are still being dealt") return end
  M.turn_hand(player.color)
end

return M
