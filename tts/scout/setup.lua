-- Scout set-up ("Setup") and hand turning: pure game logic for Tabletop Simulator
-- (MoonSharp, Lua 5.2).
--
-- setup_plan() removes cards by player count, shuffles with a random orientation per card,
-- deals the hands, gives out the Scout & Show chips and the first-player marker.
-- flip_hand() / can_flip() / record_flip() handle "turn your whole hand once per round".
-- The rules interpretations are the numbered clauses of docs/rules/scout.md ("C<n>").
-- No TTS calls, no goto, no bitwise operators, no io/load/require: the file defines one
-- local table and returns it; deckpress's bundler wraps it in a function (use("scout.setup")).
--
-- A card is {id = "3-7", top = 3, bottom = 7} (decks/scout.yaml: `top` is read when the
-- card is held as printed, `bottom` when it is turned 180 degrees).  A card in a hand or
-- in a plan also has `flipped` (false: `top` is the active value, true: `bottom`).
-- Players are numbered 1..seat_count in clockwise order from the first seat.

local Util = use("lib.util")
local is_int = Util.is_int
local Random = use("lib.random")

local ScoutSetup = {}

-- The set-up facts of decks/scout.yaml as bundled in DATA: {deal = {[players] = cards each} (C3),
-- remove = {[players] = {id = true}} (C2), chips_per_player, first_card (C6: the id of the card that
-- starts round 1)}. No number of the game is written here; the options are as tts/scout/game.yaml types them.
function ScoutSetup.rules(data)
  local setup = (data and data.setup) or {}
  local options = setup.options or {}
  if type(setup.deal) ~= "table" then error("setup.deal must give the cards each player gets (decks/scout.yaml)") end
  local remove = {}
  for count, ids in pairs(setup.remove or {}) do
    remove[count] = {}
    for _, id in ipairs(ids) do remove[count][id] = true end
  end
  return { deal = setup.deal, remove = remove, chips_per_player = options.chips_per_player,
           first_card = options.first_player_card }
end

local function low_high(card)
  return math.min(card.top, card.bottom), math.max(card.top, card.bottom)
end

local function copy_card(card)
  return { id = card.id, top = card.top, bottom = card.bottom, flipped = card.flipped == true }
end

-- The value that counts: `top`, or `bottom` when the card is turned (C7).
function ScoutSetup.active_value(card)
  if card.flipped then return card.bottom end
  return card.top
end

-- The value on the other end of the card.
function ScoutSetup.hidden_value(card)
  if card.flipped then return card.top end
  return card.bottom
end

-- The active values of a hand, left to right.
function ScoutSetup.active_values(hand)
  local out = {}
  for i, card in ipairs(hand) do out[i] = ScoutSetup.active_value(card) end
  return out
end

function ScoutSetup.validate_card(card, index)
  local where = "card " .. tostring(index)
  if type(card) ~= "table" then error(where .. ": expected a table {id, top, bottom}") end
  if type(card.id) ~= "string" or card.id == "" then error(where .. ": id must be a non-empty string") end
  for _, key in ipairs({ "top", "bottom" }) do
    local v = card[key]
    if not is_int(v) or v < 1 or v > 10 then
      error(where .. " (" .. card.id .. "): " .. key .. " must be a whole number from 1 to 10")
    end
  end
  if card.top == card.bottom then error(where .. " (" .. card.id .. "): top and bottom must differ") end
end

-- C2: is `card` taken out for this many players (setup.remove of the deck, by card id)?
function ScoutSetup.removed_for(rules, seat_count, card)
  local ids = rules.remove[seat_count]
  return ids ~= nil and ids[card.id] == true
end

-- C6: the order in which cards mark the first player: the deck's first_player_card (1/2) first, then
-- by the lower value, then by the higher value (1/3, 1/4, ..., 2/3, ...); ties (equal pairs) by id.
local function before(a, b, first)
  if (a.id == first) ~= (b.id == first) then return a.id == first end
  local alo, ahi = low_high(a)
  local blo, bhi = low_high(b)
  if alo ~= blo then return alo < blo end
  if ahi ~= bhi then return ahi < bhi end
  return a.id < b.id
end

-- setup_plan(seat_count, cards, seed, rules, seats) -> plan (docs/rules/scout.md); rules =
-- ScoutSetup.rules(DATA); seats (optional) names the players in the explanation (default "Player p").
function ScoutSetup.setup_plan(seat_count, cards, seed, rules, seats)
  if type(rules) ~= "table" then error("setup_plan needs the deck's rules: ScoutSetup.rules(DATA)") end
  if not is_int(seat_count) or rules.deal[seat_count] == nil then
    error("Scout is for 2 to 5 players, not " .. tostring(seat_count))
  end
  if not is_int(seed) then error("seed must be an integer") end
  local seen = {}
  for i, card in ipairs(cards) do
    ScoutSetup.validate_card(card, i)
    if seen[card.id] then error("card id " .. card.id .. " is in the deck twice") end
    seen[card.id] = true
  end

  -- C2: remove by player count (the cards' given order is kept).
  local kept, removed, kept_count, removed_count = {}, {}, 0, 0
  for _, card in ipairs(cards) do
    if ScoutSetup.removed_for(rules, seat_count, card) then
      removed_count = removed_count + 1
      removed[removed_count] = card.id
    else
      kept_count = kept_count + 1
      kept[kept_count] = card
    end
  end
  local each = rules.deal[seat_count]
  if #kept < each * seat_count then
    error(string.format("%d players need %d cards each (%d); only %d are left after removing %d",
      seat_count, each, each * seat_count, #kept, #removed))
  end

  -- C5: Fisher-Yates with lib.random, then one draw per card for its orientation
  -- (the upper half of the generator's range turns the card).
  local deck = {}
  for i, card in ipairs(kept) do deck[i] = card end
  local state = Random.shuffle_in_place(deck, Random.seed(seed))
  local oriented = {}
  for i, card in ipairs(deck) do
    state = Random.next(state)
    local c = copy_card(card)
    c.flipped = state * 2 > Random.MODULUS
    oriented[i] = c
  end

  -- C3: one card at a time, player 1 first; a hand keeps the order its cards came in.
  local hands, deals = {}, {}
  for p = 1, seat_count do hands[p] = {} end
  for k = 1, each * seat_count do
    local p = (k - 1) % seat_count + 1
    local position = (k - p) / seat_count + 1  -- the card's place in its hand
    local card = oriented[k]
    hands[p][position] = card
    deals[k] = { player = p, position = position, id = card.id, flipped = card.flipped }
  end
  -- C4: what is not dealt stays out of the round.
  local unused = {}
  for k = each * seat_count + 1, #oriented do unused[k - each * seat_count] = oriented[k].id end

  -- C6: first player.
  local best, best_player = nil, nil
  for p = 1, seat_count do
    for _, card in ipairs(hands[p]) do
      if best == nil or before(card, best, rules.first_card) then best, best_player = card, p end
    end
  end
  local reason
  local lo, hi = low_high(best)
  local starter = seats and tostring(seats[best_player]) or string.format("Player %d", best_player)
  if best.id == rules.first_card then
    reason = string.format("%s holds the %d/%d card (%s) and starts.", starter, lo, hi, best.id)
  else
    local named = rules.first_card
    for _, card in ipairs(cards) do
      if card.id == rules.first_card then named = string.format("%d/%d", low_high(card)) end
    end
    if not seats then starter = string.format("player %d", best_player) end
    reason = string.format("Nobody holds the %s card; %s holds the lowest card, %d/%d (%s), and starts.",
      named, starter, lo, hi, best.id)
  end

  local chips = {}
  for p = 1, seat_count do chips[p] = rules.chips_per_player end

  return {
    seat_count = seat_count,
    deal_count = each,
    removed = removed,           -- ids taken out (C2), in the given order
    unused = unused,             -- ids shuffled but not dealt (C4)
    hands = hands,               -- hands[p] = cards {id, top, bottom, flipped}, left to right
    deals = deals,               -- every card move in dealing order
    chips = chips,               -- Scout & Show chips per player
    first_player = best_player,
    first_card = best.id,
    explanation = reason,
  }
end

-- C7: turning a hand reverses its order and turns every card (a new list; the input stays).
function ScoutSetup.flip_hand(hand)
  local out, n = {}, #hand
  for i = 1, n do
    local c = copy_card(hand[n + 1 - i])
    c.flipped = not c.flipped
    out[i] = c
  end
  return out
end

-- C8: round state {flipped = {[player] = true, ...}, started = bool}.
function ScoutSetup.new_round()
  return { flipped = {}, started = false }
end

local function copy_state(state)
  local flipped = {}
  for k, v in pairs(state.flipped or {}) do flipped[k] = v end
  return { flipped = flipped, started = state.started == true }
end

-- true, or false and the reason.
function ScoutSetup.can_flip(state, player)
  if state.flipped and state.flipped[player] then
    return false, "You have already turned your hand this round."
  end
  if state.started then
    return false, "The round has started: a hand can only be turned before the first turn."
  end
  return true
end

-- A new state where `player` has turned their hand; an error if it is not allowed.
function ScoutSetup.record_flip(state, player)
  local ok, why = ScoutSetup.can_flip(state, player)
  if not ok then error(why) end
  local s = copy_state(state)
  s.flipped[player] = true
  return s
end

-- A new state once the first card of the round has been played or scouted.
function ScoutSetup.begin_play(state)
  local s = copy_state(state)
  s.started = true
  return s
end

-- Check, record and turn in one call: {state = new state, hand = turned hand}.
function ScoutSetup.turn_hand(state, player, hand)
  local s = ScoutSetup.record_flip(state, player)
  return { state = s, hand = ScoutSetup.flip_hand(hand) }
end

return ScoutSetup
