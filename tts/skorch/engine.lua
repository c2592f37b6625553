-- Skorch rules engine: pure game logic for Tabletop Simulator (MoonSharp, Lua 5.2), written to the
-- engine contract of docs/scripting.md (setup, to_act, legal_moves, play, scores, all_ids, and the optional
-- determinize and view).
--
-- Data in, data out: setup() deals (skorch.setup) and new_game() turns the deal plan into a game
-- state; play() checks one move against the rules and returns the next state (the input is never
-- changed), or nil and a refusal {clause, rule, text} naming the rule it breaks. The rules interpretations are the numbered clauses of
-- docs/rules/skorch.md ("C<n>"). Game facts come from the deck's YAML as bundled in DATA: the cards
-- (kind, value) from its components, the draw and the Elude's empty-pile value from setup.options.
-- No TTS calls, no goto, no bitwise operators, no io/load/require (use("skorch.engine")).
--
-- A card is {id, kind, value, face_up}. A player is {hand = {cards}, front = {5 slots}, back =
-- {5 slots}}; an empty prison slot is `false`. Seats are whatever the deal plan used (TTS colours).

local Util = use("lib.util")
local contains, index_of = Util.contains, Util.index_of
local Random = use("lib.random")
local SkorchSetup = use("skorch.setup")

local SkorchEngine = {}

SkorchEngine.ROWS = { "front", "back" }
local SPECIAL = { elude = true, shield = true, demoter = true, skorch = true, undead = true, faceoff = true }

-- ---------------------------------------------------------------------------
-- Data

-- The facts the engine reads from DATA (the Global script's bundled deck data): setup.options, as
-- tts/skorch/game.yaml types them (`deckpress check` refuses a deck whose options are not).
function SkorchEngine.rules(data)
  local options = data.setup.options
  return { draw_per_turn = options.draw_per_turn, elude_empty_value = options.elude_empty_value }
end

-- The cards of DATA's components `ids` (default {"deck"}), one per copy: {id = "<card id>-<copy>",
-- kind, value}. The table uses GUIDs as ids instead; the engine only needs them unique.
function SkorchEngine.cards(data, ids)
  ids = ids or { "deck" }
  local out, add = Util.appender()
  for _, component in ipairs(data.components) do
    if contains(ids, component.id) then
      for _, card in ipairs(component.cards) do
        for copy = 1, card.count do
          add({ id = card.id .. "-" .. copy, kind = card.fields.kind, value = card.fields.value })
        end
      end
    end
  end
  return out
end

local clone, shallow, copy_list = Util.deep_copy, Util.shallow_copy, Util.copy_list

-- A card as it lies: face up or not. `shown` marks a card in a hand that every player saw go there (the
-- discard pile picked up, an Undead's take): determinize leaves it where it is.
local function card_copy(card, face_up, shown)
  return { id = card.id, kind = card.kind, value = card.value, face_up = face_up, shown = shown or nil }
end

local function name(card)
  if card.kind == "attack" then return "a " .. card.value end
  if card.kind == "faceoff" then return "a Face-off" end
  return "a" .. (card.kind == "elude" and "n " or " ") .. string.upper(string.sub(card.kind, 1, 1))
    .. string.sub(card.kind, 2)
end

-- new_game(data, plan, cards) -> state. plan: SkorchSetup.deal_plan(); cards: the deck it dealt
-- (the draw pile is a list of ids).
function SkorchEngine.new_game(data, plan, cards)
  local by_id = {}
  for i, card in ipairs(cards) do
    SkorchSetup.validate_card(card, i)
    by_id[card.id] = card
  end
  local state = {
    rules = SkorchEngine.rules(data),
    order = clone(plan.order),    -- C10: clockwise from the dealer's left
    players = {},
    pile = { card_copy(plan.discard, true) },
    draw = {},
    burned = {},
    value = plan.value_to_beat,   -- the value to beat; 0 = any card
    turn = plan.first_player,
    direction = 1,                -- 1 clockwise, -1 after a Shield
    winner = false,
    turns = 0,
  }
  for _, p in ipairs(plan.players) do
    local player = { hand = {}, front = {}, back = {} }
    for slot = 1, #p.front do
      player.front[slot] = card_copy(p.front[slot], p.front[slot].face_up)
      player.back[slot] = card_copy(p.back[slot], p.back[slot].face_up)
    end
    for i, c in ipairs(p.hand) do player.hand[i] = card_copy(c, false) end
    state.players[p.seat] = player
  end
  for i, id in ipairs(plan.draw_pile) do
    if by_id[id] == nil then error("draw pile card " .. tostring(id) .. " is not among the cards given") end
    state.draw[i] = card_copy(by_id[id], false)
  end
  return state
end

-- setup(data, seats, opts) -> state | nil, refusal: the engine contract's start of a game
-- (docs/scripting.md). seats: clockwise (TTS colours at the table). opts: seed (the shuffle; absent,
-- the cards are dealt in the order given), dealer (default seats[1]), faceoff (the Face-off card is
-- shuffled in), cards (the table's own cards, ids their GUIDs; default: the deck's, one per copy),
-- plan (a deal skorch.setup already made of those cards: the table lays its cards out by it).
function SkorchEngine.setup(data, seats, opts)
  opts = opts or {}
  local cards = opts.cards or SkorchEngine.cards(data, opts.faceoff and { "deck", "faceoff" } or { "deck" })
  local plan = opts.plan
  if plan == nil then
    local ok, made = pcall(SkorchSetup.deal_plan, seats, cards, { dealer = opts.dealer, seed = opts.seed },
      SkorchSetup.rules(data))
    if not ok then return nil, { clause = 2, rule = "input checks", text = tostring(made) } end
    plan = made
  end
  return SkorchEngine.new_game(data, plan, cards)
end

-- to_act(state) -> seats, kind: the seat whose turn it is ("turn"), or nobody once someone has won.
function SkorchEngine.to_act(state)
  if state.winner then return {}, "over" end
  return { state.turn }, "turn"
end

-- scores(state) -> points, winners. Skorch counts no points: a seat's points are minus the cards it
-- still holds (hand and prison); the winner is the first to hold none (C21).
function SkorchEngine.scores(state)
  local points = {}
  for _, seat in ipairs(state.order) do points[seat] = -SkorchEngine.cards_left(state, seat) end
  return points, state.winner and { state.winner } or {}
end

-- ---------------------------------------------------------------------------
-- Where cards are

-- C12: a prison card is unlocked when it is in the front row, or in the back row behind an empty
-- front slot.
local function is_unlocked(player, row, slot)
  return row == "front" or player.front[slot] == false
end

-- The place of card `id` for `player`: "hand", index | row, slot | nil.
local function locate(player, id)
  for i, c in ipairs(player.hand) do
    if c.id == id then return "hand", i end
  end
  for _, row in ipairs(SkorchEngine.ROWS) do
    for slot = 1, #player[row] do
      local c = player[row][slot]
      if c and c.id == id then return row, slot end
    end
  end
  return nil
end

local function card_at(player, place, index)
  if place == "hand" then return player.hand[index] end
  return player[place][index]
end

local function prison_count(player)
  local n = 0
  for _, row in ipairs(SkorchEngine.ROWS) do
    for slot = 1, #player[row] do
      if player[row][slot] then n = n + 1 end
    end
  end
  return n
end

-- Cards `seat` holds: hand and prison.
function SkorchEngine.cards_left(state, seat)
  local player = state.players[seat]
  return #player.hand + prison_count(player)
end

-- Every card of the game, wherever it is (for the no-card-lost check): a list of ids.
function SkorchEngine.all_ids(state)
  local out, add = Util.appender()
  local function add_all(list)
    for _, c in ipairs(list) do add(c.id) end
  end
  for _, seat in ipairs(state.order) do
    local player = state.players[seat]
    add_all(player.hand)
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot = 1, #player[row] do
        if player[row][slot] then add(player[row][slot].id) end
      end
    end
  end
  add_all(state.pile)
  add_all(state.draw)
  add_all(state.burned)
  return out
end

-- Calls fn(card, row, slot) for each card lying in `player`'s prison, row by row.
local function each_prison_card(player, fn)
  for _, row in ipairs(SkorchEngine.ROWS) do
    for slot = 1, #player[row] do
      local c = player[row][slot]
      if c then fn(c, row, slot) end
    end
  end
end

-- The cards `seat` may play from now (C12, C13): the hand while it holds cards, else the unlocked prison
-- cards. A list of {id, place, index, card}.
function SkorchEngine.playable(state, seat)
  local player = state.players[seat]
  local out, add = Util.appender()
  if #player.hand > 0 then
    for i, c in ipairs(player.hand) do add({ id = c.id, place = "hand", index = i, card = c }) end
    return out
  end
  each_prison_card(player, function(c, row, slot)
    if is_unlocked(player, row, slot) then add({ id = c.id, place = row, index = slot, card = c }) end
  end)
  return out
end

-- C17: face-up unlocked prison cards `seat` can give in an Undead trade (ids).
local function giveable(state, seat, except)
  local player = state.players[seat]
  local out, add = Util.appender()
  each_prison_card(player, function(c, row, slot)
    if c.face_up and c.id ~= except and is_unlocked(player, row, slot) then add(c.id) end
  end)
  return out
end

-- C17: face-up prison cards of the other players (ids with their owner), which an Undead may take.
local function takeable(state, seat)
  local out, add = Util.appender()
  for _, other in ipairs(state.order) do
    if other ~= seat then
      each_prison_card(state.players[other], function(c)
        if c.face_up then add({ id = c.id, seat = other }) end
      end)
    end
  end
  return out
end

-- C18: the face-down attack cards of `seat`'s prison, locked or not (ids), Face-off's candidates.
local function face_down_attacks(state, seat, except)
  local out, add = Util.appender()
  each_prison_card(state.players[seat], function(c)
    if not c.face_up and c.kind == "attack" and c.id ~= except then add(c.id) end
  end)
  return out
end

local function prison_attacks(state, seat, except)
  local player = state.players[seat]
  local out, add = Util.appender()
  for _, row in ipairs(SkorchEngine.ROWS) do
    for slot = 1, #player[row] do
      local c = player[row][slot]
      if c and c.kind == "attack" and c.id ~= except then add(c.id) end
    end
  end
  return out
end

-- C10: the seat after `seat` in the current direction.
function SkorchEngine.next_seat(state, seat)
  local n, i = #state.order, index_of(state.order, seat)
  return state.order[(i - 1 + state.direction + n) % n + 1]
end

-- C19: true when `seat` has a play: a special card, an attack card that equals or beats the pile,
-- or (from the prison) a face-down card, which may always be tried.
function SkorchEngine.can_play(state, seat)
  for _, entry in ipairs(SkorchEngine.playable(state, seat)) do
    local c = entry.card
    if entry.place ~= "hand" and not c.face_up then return true end
    if SPECIAL[c.kind] or c.value >= state.value then return true end
  end
  return false
end

-- ---------------------------------------------------------------------------
-- Checking a move

-- A refusal (docs/scripting.md): the clause of docs/rules/skorch.md, its name and what is wrong.
local function refuse(clause, rule, text)
  return nil, { clause = clause, rule = rule, text = text }
end

-- Check `move` for `seat`; returns true, or nil and the refusal naming the rule.
function SkorchEngine.check(state, seat, move)
  if state.winner then return refuse(21, "the win", state.winner .. " has won; the game is over") end
  if state.players[seat] == nil then return refuse(10, "turn order", tostring(seat) .. " is not playing") end
  if seat ~= state.turn then return refuse(10, "turn order", "it is " .. state.turn .. "'s turn") end
  if type(move) ~= "table" then return refuse(11, "a play", "a move is {cards = {ids}} or {pick_up = true}") end
  if move.pick_up then
    if SkorchEngine.can_play(state, seat) then
      return refuse(19, "picking up", "you can play a card, so you may not pick up the pile")
    end
    return true
  end
  local ids = move.cards
  if type(ids) ~= "table" or #ids == 0 then return refuse(11, "a play", "play at least one card") end
  local player, seen, cards = state.players[seat], {}, {}
  local allowed = {}
  for _, entry in ipairs(SkorchEngine.playable(state, seat)) do allowed[entry.id] = entry end
  for i, id in ipairs(ids) do
    if seen[id] then return refuse(11, "a play", "card " .. tostring(id) .. " is named twice") end
    seen[id] = true
    local place, index = locate(player, id)
    if place == nil then return refuse(11, "a play", "card " .. tostring(id) .. " is not yours") end
    if allowed[id] == nil then
      if #player.hand > 0 then
        return refuse(12, "hand first", "play from your hand while it holds cards")
      end
      return refuse(13, "locked cards", "a back-row card unlocks when the front-row card in front of it is played")
    end
    cards[i] = card_at(player, place, index)
  end
  local first = cards[1]
  local blind = allowed[first.id].place ~= "hand" and not first.face_up
  if #cards > 1 then
    for _, c in ipairs(cards) do
      if c.kind ~= "attack" or c.value ~= first.value or first.kind ~= "attack" then
        return refuse(14, "several of one value", "cards played together must be attack cards of one value")
      end
      if allowed[c.id].place ~= "hand" and not c.face_up then
        return refuse(14, "several of one value", "a face-down card is played on its own")
      end
    end
  end
  if first.kind == "attack" and not blind and first.value < state.value then
    return refuse(11, "equal or higher", name(first) .. " does not equal or beat the " .. state.value .. " to beat")
  end
  if move.give ~= nil or move.take ~= nil then
    if first.kind ~= "undead" then return refuse(17, "Undead", "only an Undead trades cards") end
  end
  if move.reveal ~= nil or move.choose ~= nil then
    if first.kind ~= "faceoff" then return refuse(18, "Face-off", "only a Face-off reveals cards") end
  end
  if first.kind == "undead" then
    local gives, takes = giveable(state, seat, first.id), takeable(state, seat)
    if #takes == 0 then
      if move.give ~= nil or move.take ~= nil then
        return refuse(17, "Undead", "no other player has a face-up prison card to take")
      end
    else
      local found = false
      for _, t in ipairs(takes) do
        if t.id == move.take then found = true end
      end
      if not found then return refuse(17, "Undead", "take one face-up prison card of another player") end
      if #gives > 0 then
        if not contains(gives, move.give) then
          return refuse(17, "Undead", "give one of your face-up unlocked prison cards in return")
        end
      elseif move.give ~= nil then
        return refuse(17, "Undead", "you have no face-up unlocked prison card to give; just take")
      end
    end
  elseif first.kind == "faceoff" then
    local candidates = face_down_attacks(state, seat, first.id)
    local reveal = move.reveal or {}
    if #candidates >= 2 then
      if #reveal ~= 2 or reveal[1] == reveal[2] or not contains(candidates, reveal[1])
        or not contains(candidates, reveal[2]) then
        return refuse(18, "Face-off", "reveal two of your face-down attack cards")
      end
      if not contains(reveal, move.choose) then
        return refuse(18, "Face-off", "play one of the two cards you revealed")
      end
    elseif #candidates == 1 then
      if #reveal > 1 or (#reveal == 1 and reveal[1] ~= candidates[1]) or move.choose ~= candidates[1] then
        return refuse(18, "Face-off", "your only face-down attack card is revealed and played")
      end
    else
      local attacks = prison_attacks(state, seat, first.id)
      if #reveal > 0 then return refuse(18, "Face-off", "you have no face-down attack card to reveal") end
      if #attacks > 0 and not contains(attacks, move.choose) then
        return refuse(18, "Face-off", "with no face-down attack card, play any attack card of your prison")
      end
      if #attacks == 0 and move.choose ~= nil then
        return refuse(18, "Face-off", "you have no attack card in your prison")
      end
    end
  end
  return true
end

-- ---------------------------------------------------------------------------
-- Carrying a move out

local function remove_card(player, id)
  local place, index = locate(player, id)
  local card = card_at(player, place, index)
  if place == "hand" then
    table.remove(player.hand, index)
  else
    player[place][index] = false
  end
  return card, place, index
end

local function pick_up(state, seat, events)
  local hand = state.players[seat].hand
  local ids, n = {}, #hand
  for i, c in ipairs(state.pile) do
    n = n + 1
    hand[n] = card_copy(c, false, true)
    ids[i] = c.id
  end
  state.pile = {}
  state.value = 0
  events[#events + 1] = { what = "picked_up", seat = seat, ids = ids,
    text = seat .. " picks up the discard pile (" .. #ids .. " cards)." }
end

local function to_pile(state, card)
  state.pile[#state.pile + 1] = card_copy(card, true)
end

-- The player of `seat` in `state` (a copy of a state, its players map its own) made the state's own: a
-- copy of its table and its three lists, which the move may then change (the cards in them are shared:
-- a card is never changed, a card that turns up is a new card).
local function own(state, seat)
  local p = shallow(state.players[seat])
  p.hand, p.front, p.back = copy_list(p.hand), copy_list(p.front), copy_list(p.back)
  state.players[seat] = p
  return p
end

-- play(state, seat, move) -> new state, events | nil, refusal.
--   move = {pick_up = true}
--        | {cards = {ids}}                               attack cards of one value, or one special
--        | {cards = {undead}, give = id, take = id}      C17 (give absent when you have none)
--        | {cards = {faceoff}, reveal = {id, id}, choose = id}   C18
-- events: {what, seat, ids, text}; what = played, picked_up, burned, reversed, traded, took,
-- revealed, drew, won. The new state shares with the input every table the move leaves as it was (own
-- above; the discard pile, the draw pile and the burned cards are new lists when they change).
function SkorchEngine.play(state, seat, move)
  local ok, refusal = SkorchEngine.check(state, seat, move)
  if not ok then return nil, refusal end
  state = shallow(state)
  state.players = shallow(state.players)
  state.pile = copy_list(state.pile)
  local player, events = own(state, seat), {}
  state.turns = state.turns + 1
  local ends_with_pick_up = false
  if move.pick_up then
    pick_up(state, seat, events)
    ends_with_pick_up = true
  else
    local pile = state.pile
    local on_pile = #pile
    local had_pile = on_pile > 0
    local played, ids, said = {}, {}, #events
    for i, id in ipairs(move.cards) do
      local card, place = remove_card(player, id)
      played[i] = card
      ids[i] = id
      if place ~= "hand" and not card.face_up then  -- a face-down card is played on its own: one event
        said = said + 1
        events[said] = { what = "revealed", seat = seat, ids = { id }, text = seat .. " turns up " .. name(card) .. "." }
      end
      on_pile = on_pile + 1
      pile[on_pile] = card_copy(card, true)
    end
    local first = played[1]
    events[#events + 1] = { what = "played", seat = seat, ids = ids,
      text = seat .. " plays " .. (#played > 1 and (#played .. " x " .. first.value) or name(first)) .. "." }
    local kind = first.kind
    if kind == "attack" then
      if first.value >= state.value then
        state.value = first.value
      else -- C13: a face-down card tried blind that does not beat the pile
        pick_up(state, seat, events)
        ends_with_pick_up = true
      end
    elseif kind == "elude" then -- C15
      if not had_pile then state.value = state.rules.elude_empty_value end
    elseif kind == "shield" then -- C10, C15
      state.direction = -state.direction
      events[#events + 1] = { what = "reversed", seat = seat, ids = {}, text = "The turn order is reversed." }
    elseif kind == "demoter" then
      state.value = 0
    elseif kind == "skorch" then -- C16
      local burned, out = {}, copy_list(state.burned)
      local n = #out
      for i, c in ipairs(state.pile) do
        out[n + i] = c
        burned[i] = c.id
      end
      state.burned = out
      state.pile = {}
      state.value = 0
      events[#events + 1] = { what = "burned", seat = seat, ids = burned,
        text = "Skorch! " .. #burned .. " cards burn out of the game." }
    elseif kind == "undead" then
      if move.take ~= nil then
        local owner
        for _, t in ipairs(takeable(state, seat)) do
          if t.id == move.take then owner = t.seat end
        end
        local victim = own(state, owner)
        local taken, row, slot = remove_card(victim, move.take)
        if move.give ~= nil then
          local given, my_row, my_slot = remove_card(player, move.give)
          victim[row][slot] = given
          player[my_row][my_slot] = taken
          events[#events + 1] = { what = "traded", seat = seat, ids = { move.give, move.take },
            text = seat .. " trades " .. name(given) .. " for " .. owner .. "'s " .. name(taken) .. "." }
        else
          player.hand[#player.hand + 1] = card_copy(taken, false, true)
          events[#events + 1] = { what = "took", seat = seat, ids = { move.take },
            text = seat .. " takes " .. owner .. "'s " .. name(taken) .. "." }
        end
      end
    elseif kind == "faceoff" then
      local revealed = {}
      for i, id in ipairs(move.reveal or {}) do
        local place, index = locate(player, id)
        player[place][index] = card_copy(card_at(player, place, index), true)  -- a prison card turns up
        revealed[i] = id
      end
      if #revealed > 0 then
        events[#events + 1] = { what = "revealed", seat = seat, ids = revealed,
          text = seat .. " reveals " .. #revealed .. " face-down card" .. (#revealed > 1 and "s." or ".") }
      end
      if move.choose ~= nil then
        local card = remove_card(player, move.choose)
        to_pile(state, card)
        events[#events + 1] = { what = "played", seat = seat, ids = { card.id },
          text = seat .. " plays " .. name(card) .. " with the Face-off." }
        if card.value >= state.value then
          state.value = card.value
        else
          pick_up(state, seat, events)
          ends_with_pick_up = true
        end
      end
    end
  end
  -- C21: the last card played wins at once.
  if not ends_with_pick_up and SkorchEngine.cards_left(state, seat) == 0 then
    state.winner = seat
    events[#events + 1] = { what = "won", seat = seat, ids = {}, text = seat .. " has played their last card and wins!" }
    return state, events
  end
  -- C20: draw after a play while the draw pile lasts (not after picking up).
  if not ends_with_pick_up then
    local draw, drawn = state.draw, {}
    local left, count = #draw, math.min(state.rules.draw_per_turn, #state.draw)
    if count > 0 then
      local hand, rest = player.hand, {}
      local n = #hand
      for i = 1, count do
        hand[n + i] = draw[i]
        drawn[i] = draw[i].id
      end
      for i = count + 1, left do rest[i - count] = draw[i] end
      state.draw = rest
    end
    if #drawn > 0 then
      events[#events + 1] = { what = "drew", seat = seat, ids = drawn, text = seat .. " draws " .. #drawn .. "." }
    end
  end
  state.turn = SkorchEngine.next_seat(state, seat)
  return state, events
end

-- ---------------------------------------------------------------------------
-- What a seat knows

-- determinize(state, seat, seed) -> the state as `seat` may know it, what it cannot see redealt at random
-- with `seed` (docs/scripting.md): the other players' hands (but for the cards every player saw go there,
-- `shown`), every face-down prison card, its own too (C13: played blind; nobody looks at one), and the draw pile. Those
-- cards are sorted by id, shuffled and dealt back into the same places, face down: every state that
-- differs from this one only in where its hidden cards lie gives the same result. Hand sizes, the prison's
-- shape, the face-up cards, the discard pile, the burned cards and the turn stay as they are.
function SkorchEngine.determinize(state, seat, seed)
  local out = shallow(state)
  out.players = shallow(state.players)
  local pool, lists, places, n = {}, {}, {}, 0
  local function hide(list, i)
    n = n + 1
    pool[n], lists[n], places[n] = list[i], list, i
  end
  for _, s in ipairs(state.order) do
    local player = own(out, s)
    if s ~= seat then
      for i, c in ipairs(player.hand) do
        if not c.shown then hide(player.hand, i) end
      end
    end
    each_prison_card(player, function(c, row, slot)
      if not c.face_up then hide(player[row], slot) end
    end)
  end
  out.draw = copy_list(state.draw)
  for i = 1, #out.draw do hide(out.draw, i) end
  table.sort(pool, function(a, b) return a.id < b.id end)
  Random.shuffle_in_place(pool, Random.seed(seed))
  for k = 1, n do lists[k][places[k]] = card_copy(pool[k], false) end
  return out
end

-- A card entry of a view: the card's face is its deck card id, its id without the copy number that
-- SkorchEngine.cards gave it ("attack-7-5" shows "attack-7").
local function seen(card, down)
  return { id = card.id, card = string.match(card.id, "^(.-)%-%d+$"), down = down or nil }
end

local function face_down(list)
  local out = {}
  for i = 1, #list do out[i] = { down = true } end
  return out
end

local function face_up(list)
  local out = {}
  for i, c in ipairs(list) do out[i] = seen(c) end
  return out
end

-- view(state, seat) -> view: what `seat` sees of the table (docs/scripting.md, "view"), exactly what
-- determinize keeps: the draw pile face down, the discard pile and the burned cards face up (bottom
-- first); then each player's hand, its own face up and the others' face down but for the cards every
-- player saw go there (`shown`: known, lying face down), and each prison slot, front 1-5 then back 1-5,
-- its card as it lies (a face-down one unknown to its owner too, C13).
function SkorchEngine.view(state, seat)
  local zones, add = Util.appender()
  add({ name = "draw pile", cards = face_down(state.draw) })
  add({ name = "discard pile", cards = face_up(state.pile) })
  add({ name = "burned cards", cards = face_up(state.burned) })
  for _, s in ipairs(state.order) do
    local player, who = state.players[s], tostring(s)
    local hand = {}
    for i, c in ipairs(player.hand) do
      if s == seat then hand[i] = seen(c)
      elseif c.shown then hand[i] = seen(c, true)
      else hand[i] = { down = true } end
    end
    add({ name = who .. "'s hand", owner = s, cards = hand })
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot = 1, #player[row] do
        local c = player[row][slot]
        local cards = {}
        if c then cards[1] = c.face_up and seen(c) or { down = true } end
        add({ name = who .. "'s " .. row .. " " .. slot, owner = s, cards = cards })
      end
    end
  end
  local lines = { state.value == 0 and "Any card may be played" or ("The value to beat: " .. state.value),
    state.direction == 1 and "Play goes clockwise" or "Play goes anticlockwise (a Shield)" }
  return { zones = zones, lines = lines }
end

-- ---------------------------------------------------------------------------
-- Every legal move (for a table that offers choices, and for random playouts)


-- legal_moves(state, seat) -> list of moves: every single card that may be played, each group of
-- several of one value as a whole, each Undead trade and Face-off choice; {pick_up = true} alone
-- when nothing can be played. A face-down card is offered as it is (the engine knows it).
function SkorchEngine.legal_moves(state, seat)
  local out, add = Util.appender()
  if state.winner or seat ~= state.turn then return out end
  local by_value, sizes = {}, {}
  local values, add_value = Util.appender()
  for _, entry in ipairs(SkorchEngine.playable(state, seat)) do
    local c = entry.card
    local blind = entry.place ~= "hand" and not c.face_up
    if c.kind == "attack" and not blind then
      if c.value >= state.value then
        if by_value[c.value] == nil then
          by_value[c.value], sizes[c.value] = {}, 0
          add_value(c.value)
        end
        sizes[c.value] = sizes[c.value] + 1
        by_value[c.value][sizes[c.value]] = c.id
      end
    elseif c.kind == "undead" then
      local takes = takeable(state, seat)
      local gives = giveable(state, seat, c.id)
      if #takes == 0 then
        add({ cards = { c.id } })
      else
        for _, t in ipairs(takes) do
          if #gives == 0 then
            add({ cards = { c.id }, take = t.id })
          else
            for _, g in ipairs(gives) do add({ cards = { c.id }, give = g, take = t.id }) end
          end
        end
      end
    elseif c.kind == "faceoff" then
      local candidates = face_down_attacks(state, seat, c.id)
      if #candidates >= 2 then
        for i = 1, #candidates do
          for j = i + 1, #candidates do
            local pair = { candidates[i], candidates[j] }
            add({ cards = { c.id }, reveal = pair, choose = pair[1] })
            add({ cards = { c.id }, reveal = pair, choose = pair[2] })
          end
        end
      elseif #candidates == 1 then
        add({ cards = { c.id }, reveal = candidates, choose = candidates[1] })
      else
        local attacks = prison_attacks(state, seat, c.id)
        if #attacks == 0 then add({ cards = { c.id } }) end
        for _, a in ipairs(attacks) do add({ cards = { c.id }, choose = a }) end
      end
    else
      add({ cards = { c.id } })
    end
  end
  table.sort(values)
  for _, v in ipairs(values) do
    local ids = by_value[v]
    for _, id in ipairs(ids) do add({ cards = { id } }) end
    if sizes[v] > 1 then add({ cards = ids }) end
  end
  if out[1] == nil then add({ pick_up = true }) end
  return out
end

return SkorchEngine
