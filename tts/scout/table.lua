-- Scout's table script (module scout.table, loaded by the Global script as GAME): the "Setup" and
-- "Turn my hand" controls of tts/scout/ui.xml.j2. A thin TTS layer: scout.setup decides (removal,
-- shuffle, orientation, deal, chips, first player, once-per-round turning; docs/rules/scout.md), this
-- file only finds the objects and moves them.
--
-- A card's orientation in TTS is which value is up: a card upright to its holder shows `top`; turned
-- 180 degrees about y it shows `bottom` (scout.setup's `flipped`).
local ScoutSetup = use("scout.setup")
local Setup = use("lib.setup")
local Seating = use("lib.seating")
local Table = use("lib.table")
local Api = use("lib.api")

local M = {}

M.get_ready = false  -- no generic Get ready! button: "Setup" replaces it

M.HAND_STEP = 0.9           -- between two cards laid into a hand
M.CHIP_PLACE = {6.5, 4.0}   -- seat-local (x, d) of a player's Scout & Show chip
M.MARKER_PLACE = {-6.5, 4.0}  -- seat-local (x, d) of the first-player marker
M.ASIDE_STEP = 0.05         -- height between cards set aside on one pile

local round = ScoutSetup.new_round()  -- who has turned their hand this round (by colour)

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
  local cards, guid_of = {}, {}
  for _, entry in ipairs(deck.getObjects()) do
    local id = Setup.card_id(entry.gm_notes)
    cards[#cards + 1] = {id = id, top = note(entry.gm_notes, "top"), bottom = note(entry.gm_notes, "bottom")}
    guid_of[id] = entry.guid
  end
  local ok, plan = pcall(ScoutSetup.setup_plan, #seats, cards, math.random(1, 2147483646),
                           ScoutSetup.rules(Api.data()))
  if not ok then warn("Setup: " .. tostring(plan)) return finish() end

  local j = Table.join(function() finish(plan) end)
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
  local first = seats[plan.first_player]
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
  say("Setup: " .. removed .. cards(plan.deal_count) .. " to each of " .. #seats .. " players" .. unused
      .. ". " .. first .. " gets the first-player marker: " .. why)
  say("Don't rearrange your cards. Each player may turn their whole hand once this round: Turn my hand.")
  j.start()
end

-- "Turn my hand": rotate every card of `color`'s hand 180 degrees and reverse their order, once per round.
function M.turn_hand(color)
  local allowed, why = ScoutSetup.can_flip(round, color)
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

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Saved state: the colours that have turned their hand this round, e.g. "turned=White,Red".
function M.save()
  local colors = {}
  for color, done in pairs(round.flipped) do
    if done then colors[#colors + 1] = color end
  end
  table.sort(colors)
  return "turned=" .. table.concat(colors, ",")
end

function M.load(text)
  round = ScoutSetup.new_round()
  for color in string.gmatch(string.match(text or "", "turned=([%a,]*)") or "", "%a+") do
    round.flipped[color] = true
  end
end

-- --- XmlUI handlers (tts/scout/ui.xml.j2) -------------------------------------------------------------

function uiScoutSetup(player, value, id)
  Table.flow("Setup", function(finish) M.setup(player.color, finish) end)
end

function uiScoutTurnHand(player, value, id)
  if Table.busy() then warn("Wait a moment: the cards are still being dealt") return end
  M.turn_hand(player.color)
end

return M
