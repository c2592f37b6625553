-- Skorch set-up ("Deal"): pure game logic for Tabletop Simulator (MoonSharp, Lua 5.2).
--
-- deal_plan() says, card by card, where every card goes: each seated player's prison
-- (back row down-up-down-up-down, front row up-down-up-down-up), five hand cards, the
-- first card of the discard pile and the draw pile.  The TTS layer only moves objects.
-- The rules interpretations are the numbered clauses of docs/rules/skorch.md ("C<n>").
-- No TTS calls, no goto, no bitwise operators, no io/load/require: the file defines one
-- local table and returns it; deckpress's bundler wraps it in a function (use("skorch.setup")).
--
-- A card is a table {id = "attack-7-3", kind = "attack", value = 7}; kind is one of
-- KINDS (the `kind` field of decks/skorch.yaml), value 1-10 for attack cards.
-- Lists are 1-based; seats are whatever the caller uses (TTS colours), in clockwise order.

local Util = use("lib.util")
local is_int, contains = Util.is_int, Util.contains
local Random = use("lib.random")

local SkorchSetup = {}

SkorchSetup.KINDS = { "attack", "elude", "shield", "demoter", "skorch", "undead", "faceoff" }

-- The set-up facts of decks/skorch.yaml as bundled in DATA: {back = {face up? per slot}, front = {...}}
-- (C4: setup.options.prison, left to right as the owner sees it), order (setup.options.prison_deal_order,
-- C5), hand = {[players] = cards in hand} (setup.deal), min_players (game.players.min). No number of
-- the game is written here.
function SkorchSetup.rules(data)
  local setup = (data and data.setup) or {}
  local options = setup.options or {}
  local prison = options.prison
  if type(prison) ~= "table" or type(prison.back) ~= "table" or type(prison.front) ~= "table"
    or #prison.back ~= #prison.front or #prison.back == 0 then
    error("setup.options.prison must give the back and front rows, as long as each other (decks/skorch.yaml)")
  end
  local rows = {}
  for _, row in ipairs({ "back", "front" }) do
    rows[row] = {}
    for slot, face in ipairs(prison[row]) do
      if face ~= "up" and face ~= "down" then
        error("setup.options.prison." .. row .. "[" .. slot .. "] must be up or down (decks/skorch.yaml)")
      end
      rows[row][slot] = face == "up"
    end
  end
  local order = options.prison_deal_order
  if type(order) ~= "table" or #order ~= 3 or not contains(order, "back") or not contains(order, "front")
    or not contains(order, "hand") then
    error("setup.options.prison_deal_order must list back, front and hand (decks/skorch.yaml)")
  end
  if type(setup.deal) ~= "table" then error("setup.deal must give the hand size (decks/skorch.yaml)") end
  local players = data.game and data.game.players
  local min = type(players) == "table" and players.min or nil
  if not is_int(min) then error("game.players.min must be a whole number (decks/skorch.yaml)") end
  return { back = rows.back, front = rows.front, order = order, hand = setup.deal, min_players = min }
end

local function copy_card(card)
  return { id = card.id, kind = card.kind, value = card.value }
end

-- Return a shuffled copy of `items` (lib.random: the same permutation as ScoreEngine.shuffle).
function SkorchSetup.shuffle(items, seed)
  if not is_int(seed) then error("seed must be an integer") end
  return Random.shuffle(items, seed)
end

-- C2: a card is checked before anything is dealt.
function SkorchSetup.validate_card(card, index)
  local where = "card " .. tostring(index)
  if type(card) ~= "table" then error(where .. ": expected a table {id, kind, value}") end
  if type(card.id) ~= "string" or card.id == "" then error(where .. ": id must be a non-empty string") end
  if not contains(SkorchSetup.KINDS, card.kind) then
    error(where .. " (" .. card.id .. "): kind must be one of " .. table.concat(SkorchSetup.KINDS, ", "))
  end
  if card.kind == "attack" then
    if not is_int(card.value) or card.value < 1 or card.value > 10 then
      error(where .. " (" .. card.id .. "): an attack card needs a value from 1 to 10")
    end
  end
end

-- C9: the value to beat when the first discard is this card (nothing was played before it).
function SkorchSetup.opening_value(card)
  if card.kind == "attack" then return card.value end
  if card.kind == "elude" then return 1 end
  return 0
end

-- C1: index of `seat` in `seats`, or an error.
local function seat_index(seats, seat)
  for i, s in ipairs(seats) do
    if s == seat then return i end
  end
  error("dealer " .. tostring(seat) .. " is not one of the seated players")
end

-- deal_plan(seats, deck, options, rules) -> plan.  See docs/rules/skorch.md for the shapes.
--   seats:   seated players in clockwise order (e.g. TTS colours), at least 2.
--   deck:    list of cards {id, kind, value}, deck[1] = the top card.
--   options: { dealer = a seat (default seats[1]), seed = integer (shuffle first; absent:
--              the deck is dealt in the order given, already shuffled) }
--   rules:   SkorchSetup.rules(DATA): the prison layout, the deal order and the hand size.
function SkorchSetup.deal_plan(seats, deck, options, rules)
  options = options or {}
  if type(rules) ~= "table" then error("deal_plan needs the deck's rules: SkorchSetup.rules(DATA)") end
  if type(seats) ~= "table" or #seats < rules.min_players then
    error("Skorch needs at least " .. rules.min_players .. " seated players")
  end
  local seen = {}
  for _, s in ipairs(seats) do
    if seen[s] then error("seat " .. tostring(s) .. " is listed twice") end
    seen[s] = true
  end
  local ids = {}
  for i, card in ipairs(deck) do
    SkorchSetup.validate_card(card, i)
    if ids[card.id] then error("card id " .. card.id .. " is in the deck twice") end
    ids[card.id] = true
  end
  local n = #seats
  local hand_size = rules.hand[n]
  if not is_int(hand_size) then error("setup.deal gives no hand for " .. n .. " players (decks/skorch.yaml)") end
  local per_player = #rules.back + #rules.front + hand_size
  local needed = n * per_player + 1
  if #deck < needed then
    error(string.format("%d players need %d cards (%d each and 1 for the discard pile); the deck has %d",
      n, needed, per_player, #deck))
  end

  -- C3: shuffle with the seed, or take the order given.
  local cards = deck
  if options.seed ~= nil then cards = SkorchSetup.shuffle(deck, options.seed) end

  -- C1: the dealer deals; the player to the dealer's left (next clockwise) first, dealer last.
  local dealer = options.dealer
  if dealer == nil then dealer = seats[1] end
  local d = seat_index(seats, dealer)
  local order = {}
  for k = 1, n do order[k] = seats[(d + k - 1) % n + 1] end

  local players = {}
  for k, seat in ipairs(order) do
    players[k] = { seat = seat, back = {}, front = {}, hand = {} }
  end

  local deals, deal_count, next_card = {}, 0, 1
  local function take()
    local card = cards[next_card]
    next_card = next_card + 1
    return card
  end
  -- C5: three rounds (back row, front row, hand: rules.order); in each, every player gets a row's
  -- cards at once, in the order of `order`, slot 1 to the last.
  local rows = {}
  for k, name in ipairs(rules.order) do rows[k] = { name = name, faces = name ~= "hand" and rules[name] or nil } end
  for _, row in ipairs(rows) do
    for _, p in ipairs(players) do
      local size = row.faces and #row.faces or hand_size
      for slot = 1, size do
        local card = take()
        local up = false
        if row.faces then up = row.faces[slot] end
        local entry = copy_card(card)
        entry.face_up = up
        entry.slot = slot
        p[row.name][slot] = entry
        deal_count = deal_count + 1
        deals[deal_count] = { seat = p.seat, row = row.name, slot = slot, id = card.id, face_up = up }
      end
    end
  end

  -- C6: the next card starts the discard pile face up; the rest is the draw pile, face down.
  local first = copy_card(take())
  first.face_up = true
  deals[deal_count + 1] = { seat = false, row = "discard", slot = 1, id = first.id, face_up = true }
  local draw_pile = {}
  for i = next_card, #cards do draw_pile[i - next_card + 1] = cards[i].id end

  -- C7/C8: who starts.
  local special = first.kind ~= "attack"
  local starter = order[1]
  if special then starter = order[2] end -- n >= 2; with 2 players order[2] is the dealer
  local skipped = false
  if special then skipped = order[1] end

  local reason
  if special then
    reason = string.format("The first discard is a special card (%s): it counts as %s's turn, so %s starts.",
      first.kind, tostring(order[1]), tostring(starter))
  else
    reason = string.format("The first discard is an attack %d: %s, to the dealer's left, starts.",
      first.value, tostring(starter))
  end

  return {
    dealer = dealer,
    order = order,               -- deal order: left of the dealer first, the dealer last
    players = players,           -- in `order`: {seat, back = {5 slots}, front = {5 slots}, hand = {5}}
    deals = deals,               -- every card move in dealing order (for animation)
    discard = first,             -- {id, kind, value, face_up = true}
    draw_pile = draw_pile,       -- ids, top first, face down
    first_discard_special = special,
    first_player = starter,
    skipped = skipped,           -- the seat whose first turn the special card used, or false
    direction = "cw",            -- C8: play goes clockwise
    value_to_beat = SkorchSetup.opening_value(first),
    explanation = reason,
  }
end

return SkorchSetup
