-- ${game_name}'s rules engine: the rules of decks/${deck}.yaml as pure Lua, written to deckpress's engine
-- contract (docs/scripting.md in deckpress): setup, to_act, legal_moves, play, scores, all_ids, and the optional
-- determinize and view. The table (table.lua beside this file) plays it in Tabletop Simulator; tests,
-- `deckpress playtest` and `deckpress studio` can drive it with no table at all.
--
-- Start here to make the game yours. The rules are the deck's "Play" steps:
--   clause 2: on your turn, play one card on the pile if its number is higher than the top card's,
--             else draw one (once the draw pile is used up, you pass);
--   clause 3: a Wild card (value 0) can be played on anything, and you play again.
-- The first player with no card left wins; if nobody can play or draw any more, the fewest cards win,
-- and with equal hands the most coins (a coin for each Wild played).
--
-- Keep this file pure: data in, data out. No TTS calls (getObjectFromGUID, Player, UI...), no
-- math.random (randomness comes from opts.seed through lib.random), and the state passed in is never
-- changed: play() returns a new one. Tabletop Simulator runs Lua 5.2 (MoonSharp): no goto, no //, no
-- bitwise operators, no utf8; and `#t` costs time there, so count appends yourself in loops.

local Util = use("lib.util")
local Random = use("lib.random")

local Engine = {}

local copy = Util.deep_copy

-- A refusal names the clause of the rules the move breaks (the numbered "Play" steps of the deck).
local function refuse(clause, rule, text)
  return nil, { clause = clause, rule = rule, text = text }
end

-- The options of the deck's setup.options, as game.yaml (beside this file) types them: `deckpress check`
-- has refused a deck without them, so the engine just reads them.
local function options(data)
  local given = data.setup.options
  return { wild_plays_again = given.wild_plays_again, coins_per_wild = given.coins_per_wild }
end

-- The cards of the deck component: one {id, value} per copy (ids "<card id>-<copy>").
function Engine.cards(data)
  local out, add = Util.appender()
  for _, component in ipairs(data.components) do
    if component.id == "deck" then
      for _, card in ipairs(component.cards) do
        for copy_number = 1, card.count do add({ id = card.id .. "-" .. copy_number, value = card.fields.value }) end
      end
    end
  end
  return out
end

-- setup(data, seats, opts) -> state | nil, refusal. seats: the players in turn order; opts.cards: the
-- table's own deck, top card first (taken as it is: the table shuffled it); without it the deck's cards
-- shuffled with opts.seed.
function Engine.setup(data, seats, opts)
  opts = opts or {}
  local each = data.setup.deal[#seats]
  if each == nil then return refuse(1, "the deal", "this game has no deal for " .. #seats .. " players") end
  local cards = opts.cards or Random.shuffle(Engine.cards(data), opts.seed or 1)
  if #cards < each * #seats then
    return refuse(1, "the deal", #seats .. " players need " .. (each * #seats) .. " cards; the deck has " .. #cards)
  end
  local state = { seats = copy(seats), options = options(data), hands = {}, coins = {}, pile = {}, draw = {},
    turn = seats[1], passes = 0, over = false, winners = {} }
  local k = 0
  for _, seat in ipairs(seats) do  -- clause 1: each player gets `each` cards, the rest is the draw pile
    local hand = {}
    for i = 1, each do hand[i] = copy(cards[k + i]) end
    k = k + each
    state.hands[seat] = hand
    state.coins[seat] = 0
  end
  for i = k + 1, #cards do state.draw[i - k] = copy(cards[i]) end
  return state
end

-- to_act(state) -> seats, kind: the one seat whose turn it is, or nobody once the game is over.
function Engine.to_act(state)
  if state.over then return {}, "over" end
  return { state.turn }, "turn"
end

-- The value a card must beat: the top card of the pile (0 for an empty pile, or a Wild on top).
local function to_beat(state)
  local top = state.pile[#state.pile]
  return top and top.value or 0
end

-- Clauses 2 and 3: may `card` go on the pile?
local function playable(state, card)
  return card.value == 0 or card.value > to_beat(state)
end

-- Every legal move of `seat`: each card it may play, or the draw (a pass once the draw pile is empty)
-- when it may play none.
function Engine.legal_moves(state, seat)
  local out, add = Util.appender()
  if state.over or seat ~= state.turn then return out end
  for _, card in ipairs(state.hands[seat]) do
    if playable(state, card) then add({ play = card.id }) end
  end
  if out[1] == nil then add({ draw = true }) end
  return out
end

-- The position of card `id` in `hand`, or nil.
local function find(hand, id)
  for i, card in ipairs(hand) do
    if card.id == id then return i end
  end
  return nil
end

-- The game is over: the fewest cards win, then the most coins.
local function finish(state)
  state.over = true
  local best = nil
  for _, seat in ipairs(state.seats) do
    local key = #state.hands[seat] * 1000 - state.coins[seat]
    if best == nil or key < best then best = key end
  end
  local winners, add = Util.appender()
  for _, seat in ipairs(state.seats) do
    if #state.hands[seat] * 1000 - state.coins[seat] == best then add(seat) end
  end
  state.winners = winners
end

local function next_seat(state, seat)
  return state.seats[Util.index_of(state.seats, seat) % #state.seats + 1]
end

-- play(state, seat, move) -> new state, events | nil, refusal. move: {play = card id} or {draw = true}.
-- events: {what = "played" | "drew" | "passed" | "game_over", seat, text, ...}.
function Engine.play(state, seat, move)
  if state.over then return refuse(2, "turns", "the game is over") end
  if seat ~= state.turn then return refuse(2, "turns", "it is " .. tostring(state.turn) .. "'s turn") end
  if type(move) ~= "table" or (move.play == nil and not move.draw) then
    return refuse(2, "turns", "play a card or draw one")
  end
  local hand = state.hands[seat]
  local events = {}
  if move.draw then
    for _, card in ipairs(hand) do
      if playable(state, card) then return refuse(2, "turns", "you can play a card: draw only when you cannot") end
    end
    state = copy(state)
    if #state.draw > 0 then
      local card = table.remove(state.draw, 1)
      table.insert(state.hands[seat], card)
      state.passes = 0
      events[1] = { what = "drew", seat = seat, id = card.id, text = tostring(seat) .. " draws a card." }
    else
      state.passes = state.passes + 1
      events[1] = { what = "passed", seat = seat, text = tostring(seat) .. " cannot play and passes." }
    end
    state.turn = next_seat(state, seat)
    if state.passes >= #state.seats then  -- nobody can play or draw any more
      finish(state)
      events[2] = { what = "game_over", winners = copy(state.winners), text = "Nobody can play: "
        .. table.concat(state.winners, " and ") .. (#state.winners > 1 and " win" or " wins") .. "." }
    end
    return state, events
  end
  local at = find(hand, move.play)
  if at == nil then return refuse(2, "turns", "that card is not in your hand") end
  local card = hand[at]
  if not playable(state, card) then
    return refuse(2, "turns", "a " .. card.value .. " does not beat the " .. to_beat(state) .. " on the pile")
  end
  state = copy(state)
  table.remove(state.hands[seat], at)
  state.pile[#state.pile + 1] = card
  state.passes = 0
  local wild = card.value == 0
  events[1] = { what = "played", seat = seat, id = card.id,
    text = tostring(seat) .. " plays " .. (wild and "a Wild" or ("a " .. card.value)) .. "." }
  if wild then  -- clause 3: a coin, and (by default) another turn
    state.coins[seat] = state.coins[seat] + state.options.coins_per_wild
  end
  if #state.hands[seat] == 0 then
    state.over = true
    state.winners = { seat }
    events[2] = { what = "game_over", winners = { seat }, text = tostring(seat) .. " has no card left and wins!" }
  elseif not (wild and state.options.wild_plays_again) then
    state.turn = next_seat(state, seat)
  end
  return state, events
end

-- scores(state) -> points, winners: minus the cards each seat still holds (fewer is better), and the
-- winners once the game is over.
function Engine.scores(state)
  local points = {}
  for _, seat in ipairs(state.seats) do points[seat] = -#state.hands[seat] end
  return points, copy(state.winners)
end

-- determinize(state, seat, seed) -> state: the game as `seat` may know it, for the search bot of
-- `deckpress playtest`. What it cannot see (the other hands, the draw pile's order) is dealt again with
-- `seed`, every hand keeping its size; its own hand and the pile (face up) stay. The hidden cards are
-- sorted by id first, so where they really lay never shows through.
function Engine.determinize(state, seat, seed)
  local hidden, n = {}, 0
  for _, other in ipairs(state.seats) do
    if other ~= seat then
      for _, card in ipairs(state.hands[other]) do n = n + 1; hidden[n] = card end
    end
  end
  for _, card in ipairs(state.draw) do n = n + 1; hidden[n] = card end
  table.sort(hidden, function(a, b) return a.id < b.id end)
  hidden = Random.shuffle(hidden, seed)
  local out = copy(state)
  local k = 0
  for _, other in ipairs(state.seats) do
    if other ~= seat then
      for i = 1, #state.hands[other] do out.hands[other][i] = copy(hidden[k + i]) end
      k = k + #state.hands[other]
    end
  end
  for i = 1, #state.draw do out.draw[i] = copy(hidden[k + i]) end
  return out
end

-- view(state, seat) -> view: what `seat` sees of the table, for a page that shows the game to that player
-- (docs/scripting.md in deckpress, "view"): the draw pile face down (its size), the pile face up, bottom to top,
-- and every hand, left to right: the seat's own face up, the others face down. A card's face is its deck card
-- id, the id setup gave it without its copy number ("number-5-2" shows "number-5").
function Engine.view(state, seat)
  local function face_up(card)
    return { id = card.id, card = string.match(card.id, "^(.-)%-%d+$") }
  end
  local draw, add_down = Util.appender()
  for _ = 1, #state.draw do add_down({ down = true }) end
  local pile, add_up = Util.appender()
  for _, card in ipairs(state.pile) do add_up(face_up(card)) end
  local zones, add = Util.appender()
  add({ name = "draw pile", cards = draw })
  add({ name = "pile", cards = pile })
  local lines, say = Util.appender()
  for _, other in ipairs(state.seats) do
    local hand, put = Util.appender()
    for _, card in ipairs(state.hands[other]) do put(other == seat and face_up(card) or { down = true }) end
    add({ name = tostring(other) .. "'s hand", owner = other, cards = hand })
    say(tostring(other) .. ": " .. state.coins[other] .. " coins")
  end
  return { zones = zones, lines = lines }
end

-- Every card of the game, wherever it is (hands, pile, draw pile): no card is ever created or lost.
function Engine.all_ids(state)
  local out, add = Util.appender()
  for _, seat in ipairs(state.seats) do
    for _, card in ipairs(state.hands[seat]) do add(card.id) end
  end
  for _, card in ipairs(state.pile) do add(card.id) end
  for _, card in ipairs(state.draw) do add(card.id) end
  return out
end

return Engine
