-- Scoop rules engine: pure game logic for Tabletop Simulator (MoonSharp, Lua 5.2), written to the
-- engine contract of docs/scripting.md (setup, to_act, legal_moves, play, scores, all_ids, and the optional
-- determinize and view).
--
-- Data in, data out: setup() lays out the shuffled deck and every seat's two empty piles; a turn is
-- two moves, {draw = true} and then what is done with the card (placed on your own pile, SCOOP or
-- SWITCH); play() returns the next state (the input is never changed), or nil and a refusal naming the
-- rule it breaks. When the deck is used up the game is counted by scoop.scoring ("Count").
-- The rules interpretations are the numbered clauses of docs/rules/scoop.md ("C<n>"). Game facts
-- come from the deck's YAML as bundled in DATA: the cards' suit, rank and value, and setup.options
-- (piles, draw_per_turn, face_ranks, scoring).
-- No TTS calls, no goto, no bitwise operators, no io/load/require (use("scoop.engine")).
--
-- A card is {id, suit, rank, value}. Seats are whatever the table names them (TTS colours), in turn
-- order; a pile is named by {player = seat, pile = "go" | "game"} and listed bottom card first.

local Util = use("lib.util")
local is_int, index_of = Util.is_int, Util.index_of
local Random = use("lib.random")
local ScoopScoring = use("scoop.scoring")

local ScoopEngine = {}

local clone, shallow, copy_list = Util.deep_copy, Util.shallow_copy, Util.copy_list

-- ---------------------------------------------------------------------------
-- Data

-- The facts the engine reads from DATA: {piles, draw_per_turn, faces = {rank = true}, scoring}. The
-- options are as tts/scoop/game.yaml types them: `deckpress check` refuses a deck whose options are not.
function ScoopEngine.rules(data)
  local options = data.setup.options
  local scoring = clone(options.scoring)
  scoring.faces = clone(options.face_ranks)
  return { piles = clone(options.piles), draw_per_turn = options.draw_per_turn, faces = ScoopScoring.face_set(scoring),
    scoring = scoring }
end

-- The 52 cards of DATA's deck component: {id, suit, rank, value}.
function ScoopEngine.cards(data)
  for _, component in ipairs(data.components) do
    if component.id == "deck" then
      local out = {}
      for i, card in ipairs(component.cards) do
        local f = card.fields
        out[i] = { id = card.id, suit = f.suit, rank = ScoopScoring.normalize_rank(f.rank), value = f.value }
      end
      return out
    end
  end
  error("the deck data has no component 'deck' (decks/scoop.yaml)")
end

-- A refusal (docs/scripting.md): the clause of docs/rules/scoop.md, its name and what is wrong.
local function refuse(clause, rule, text)
  return nil, { clause = clause, rule = rule, text = text }
end

-- setup(data, seats, opts) -> state | nil, refusal. seats: the seat ids in turn order; opts.cards: the
-- deck, opts.cards[1] the top card, taken as given (the table shuffled it), or (without cards) the
-- deck's 52 cards shuffled with opts.seed (lib.random).
function ScoopEngine.setup(data, seats, opts)
  opts = opts or {}
  local rules = ScoopEngine.rules(data)
  local players = data.game and data.game.players
  local seat_count = #seats
  local low, high = players and players.min or 1, players and players.max or seat_count
  if seat_count < low or seat_count > high then
    return refuse(14, "turns", "Scoop is for " .. low .. " to " .. high .. " players, not " .. seat_count)
  end
  local cards = opts.cards
  if cards == nil then cards = Random.shuffle(ScoopEngine.cards(data), opts.seed or 1) end
  if #cards == 0 then return refuse(14, "turns", "the deck has no cards: there is nothing to take") end
  local seen = {}
  for i, card in ipairs(cards) do
    if type(card) ~= "table" or type(card.id) ~= "string" or seen[card.id] then
      return refuse(14, "turns", "card " .. i .. ": every card needs a unique id")
    end
    seen[card.id] = true
  end
  local state = { rules = rules, seats = clone(seats), seat_count = seat_count, deck = clone(cards), players = {},
    turn = seats[1], drawn = false, over = false, result = false, turns = 0 }
  for _, seat in ipairs(seats) do state.players[seat] = { go = {}, game = {} } end
  return state
end

-- ---------------------------------------------------------------------------
-- Piles

local function pile_of(state, ref)
  if type(ref) ~= "table" or ref.player == nil or state.players[ref.player] == nil
    or (ref.pile ~= "go" and ref.pile ~= "game") then
    return nil
  end
  return state.players[ref.player][ref.pile]
end

local function same_pile(a, b)
  return a.player == b.player and a.pile == b.pile
end

-- C17: face cards in a pile.
function ScoopEngine.face_count(state, pile)
  local n = 0
  for _, c in ipairs(pile) do
    if state.rules.faces[c.rank] then n = n + 1 end
  end
  return n
end

local function where(ref)
  return tostring(ref.player) .. "'s " .. (ref.pile == "go" and "Go" or "Game") .. " Pile"
end

local function describe(card)
  return card.rank .. " of " .. card.suit
end

-- ---------------------------------------------------------------------------
-- A turn

-- to_act(state) -> seats, kind: the seat whose turn it is ("turn"), or nobody once the game is over.
function ScoopEngine.to_act(state)
  if state.over then return {}, "over" end
  return { state.turn }, "turn"
end

-- C14: the turn's card from the top of the deck.
local function draw(state, seat)
  if state.drawn then return refuse(14, "turns", "you have taken your card; place it, SCOOP or SWITCH") end
  local deck = state.deck
  local n = #deck
  if n == 0 then return refuse(19, "the end", "the deck is used up; the game is over") end
  state = shallow(state)
  state.drawn = deck[1]
  local rest = {}
  for i = 2, n do rest[i - 1] = deck[i] end
  state.deck = rest
  return state, { { what = "drew", seat = seat, id = state.drawn.id,
    text = string.format("%s takes the %s.", tostring(seat), describe(state.drawn)) } }
end

-- check(state, seat, move) -> true | nil, refusal.
--   {draw = true}                                              C14
--   {place = "go" | "game"}                                    C15
--   {scoop = {from = pile ref, to = pile ref, count = k}}      C16, C17
--   {switch = {own = "go" | "game", with = pile ref}}          C18
function ScoopEngine.check(state, seat, move)
  if state.over then return refuse(19, "the end", "the deck is used up; the game is over") end
  if seat ~= state.turn then return refuse(14, "turns", "it is " .. tostring(state.turn) .. "'s turn") end
  if type(move) == "table" and move.draw then
    if state.drawn then return refuse(14, "turns", "you have taken your card; place it, SCOOP or SWITCH") end
    return true
  end
  if not state.drawn then return refuse(14, "turns", "take your card from the deck first") end
  local drawn = state.drawn
  if type(move) ~= "table" then return refuse(15, "placing", "place the card, SCOOP or SWITCH") end
  if move.place ~= nil then
    if move.place ~= "go" and move.place ~= "game" then
      return refuse(15, "placing", "place the card on your own Go Pile or Game Pile")
    end
    return true
  elseif move.scoop ~= nil then
    local s = move.scoop
    local from, to = pile_of(state, s.from), pile_of(state, s.to)
    if from == nil or to == nil then return refuse(16, "SCOOP", "name the piles {player, pile} to scoop from and to") end
    if same_pile(s.from, s.to) then return refuse(16, "SCOOP", "scoop from one pile to another") end
    local count = s.count or 1
    if not is_int(count) or count < 1 then return refuse(16, "SCOOP", "scoop one card or more") end
    if #from == 0 then return refuse(16, "SCOOP", where(s.from) .. " is empty") end
    if count > #from then return refuse(17, "SCOOP more", where(s.from) .. " has only " .. #from .. " cards") end
    for i = #from - count + 1, #from do
      if from[i].suit ~= drawn.suit then
        if i == #from then
          return refuse(16, "SCOOP", "the top card of " .. where(s.from) .. " is not a " .. drawn.suit .. " card")
        end
        return refuse(17, "SCOOP more", "the " .. count .. " top cards of " .. where(s.from)
          .. " are not all " .. drawn.suit)
      end
    end
    if count > 1 then
      local differential = ScoopEngine.face_count(state, to) - ScoopEngine.face_count(state, from)
      if differential < count - 1 then
        return refuse(17, "SCOOP more", string.format(
          "%s has %d more face cards than %s: you may scoop %d card%s", where(s.to), differential, where(s.from),
          math.max(1, differential + 1), math.max(1, differential + 1) > 1 and "s" or ""))
      end
    end
    return true
  elseif move.switch ~= nil then
    local s = move.switch
    local own = { player = seat, pile = s.own }
    local mine, with = pile_of(state, own), pile_of(state, s.with)
    if mine == nil or with == nil then
      return refuse(18, "SWITCH", "name your own pile and the pile {player, pile} to switch with")
    end
    if same_pile(own, s.with) then return refuse(18, "SWITCH", "switch with another pile") end
    if #with == 0 or with[#with].value ~= drawn.value then
      return refuse(18, "SWITCH", "the top card of " .. where(s.with) .. " is not a " .. drawn.rank)
    end
    return true
  end
  return refuse(15, "placing", "place the card, SCOOP or SWITCH")
end

-- play(state, seat, move) -> new state, events | nil, refusal. After the card is used the turn
-- passes; the move that uses up the deck ends the game and counts it (state.result, scoop.scoring's
-- result). The new state shares with the input every table the move leaves as it was (cards are never
-- changed; a changed pile is a new list in a new player table), so the input stays as it was.
function ScoopEngine.play(state, seat, move)
  local ok, refusal = ScoopEngine.check(state, seat, move)
  if not ok then return nil, refusal end
  if move.draw then return draw(state, seat) end
  state = shallow(state)
  local players = shallow(state.players)
  state.players = players
  local function own(s)  -- seat s's piles, a table of the new state's own
    local p = shallow(players[s])
    players[s] = p
    return p
  end
  local drawn, events = state.drawn, {}
  state.drawn = false
  if move.place ~= nil then
    local mine = own(seat)
    local pile = copy_list(mine[move.place])
    mine[move.place] = pile
    pile[#pile + 1] = drawn
    events[1] = { what = "placed", seat = seat,
      text = string.format("%s puts the %s on %s.", tostring(seat), describe(drawn),
        where({ player = seat, pile = move.place })) }
  elseif move.scoop ~= nil then
    local s = move.scoop
    local giver = own(s.from.player)
    local taker = s.to.player == s.from.player and giver or own(s.to.player)
    local from, to = giver[s.from.pile], copy_list(taker[s.to.pile])
    taker[s.to.pile] = to
    local count = s.count or 1
    local n, last = #to + 1, #from
    to[n] = drawn
    local first = last - count + 1
    for i = first, last do
      n = n + 1
      to[n] = from[i]
    end
    local kept = {}
    for i = 1, first - 1 do kept[i] = from[i] end
    giver[s.from.pile] = kept
    events[1] = { what = "scooped", seat = seat, count = count,
      text = string.format("%s SCOOPs %d card%s from %s onto the %s on %s.", tostring(seat), count,
        count > 1 and "s" or "", where(s.from), describe(drawn), where(s.to)) }
  else
    local s = move.switch
    local me = own(seat)
    local other = s.with.player == seat and me or own(s.with.player)
    local mine = copy_list(me[s.own])
    mine[#mine + 1] = drawn
    local with = other[s.with.pile]
    me[s.own], other[s.with.pile] = with, mine
    events[1] = { what = "switched", seat = seat,
      text = string.format("%s puts the %s on %s and SWITCHes it with %s.", tostring(seat), describe(drawn),
        where({ player = seat, pile = s.own }), where(s.with)) }
  end
  state.turns = state.turns + 1
  if #state.deck == 0 then -- C19
    state.over = true
    state.result = ScoopEngine.count(state)
    local winners = {}
    for i, k in ipairs(state.result.winners) do winners[i] = state.seats[k] end
    events[#events + 1] = { what = "game_over", winners = winners, text = state.result.explanation }
  else
    state.turn = state.seats[index_of(state.seats, seat) % state.seat_count + 1]
  end
  return state, events
end

-- determinize(state, seat, seed) -> the state as `seat` may know it, its hidden cards redealt at random
-- with `seed` (docs/scripting.md). In Scoop only the deck's order is hidden, from everyone (C14: it lies
-- face down and each turn takes its top card); the piles and the card taken lie face up. So the deck's
-- cards are sorted by id, then shuffled: every state that differs from this one only in the deck's order
-- gives the same result.
function ScoopEngine.determinize(state, seat, seed)
  local deck = copy_list(state.deck)
  table.sort(deck, function(a, b) return a.id < b.id end)
  Random.shuffle_in_place(deck, Random.seed(seed))
  local out = shallow(state)
  out.deck = deck
  return out
end

-- view(state, seat) -> view: what `seat` sees of the table (docs/scripting.md, "view"), the same for every
-- seat, exactly what determinize keeps: the deck face down (C14: its size alone), then each player's card
-- taken this turn and piles (in the order of setup.options.piles), face up, bottom card first. A
-- card's face is its id, a card id of DATA's deck.
function ScoopEngine.view(state, seat)
  local zones, add = Util.appender()
  local deck = {}
  for i = 1, #state.deck do deck[i] = { down = true } end
  add({ name = "deck", cards = deck })
  for _, s in ipairs(state.seats) do
    local taken = {}
    if state.drawn and s == state.turn then taken[1] = { id = state.drawn.id, card = state.drawn.id } end
    add({ name = tostring(s) .. "'s card taken", owner = s, cards = taken })
    for _, pile in ipairs(state.rules.piles) do
      local cards = {}
      for i, c in ipairs(state.players[s][pile]) do cards[i] = { id = c.id, card = c.id } end
      add({ name = where({ player = s, pile = pile }), owner = s, cards = cards })
    end
  end
  return { zones = zones }
end

-- C20: the Count of scoop.scoring over the piles as they lie, with the deck's scoring table; its
-- players are numbered in seat order and named by their seats.
function ScoopEngine.count(state)
  local players = {}
  for p, seat in ipairs(state.seats) do
    players[p] = { go_pile = state.players[seat].go, game_pile = state.players[seat].game, name = tostring(seat) }
  end
  return ScoopScoring.score(players, state.rules.scoring)
end

-- scores(state) -> points, winners: each seat's points of the Count of the piles as they lie (only a
-- winner scores, C10), and the winners once the game is over (else none).
function ScoopEngine.scores(state)
  local result = state.result or ScoopEngine.count(state)
  local points, winners = {}, {}
  for p, seat in ipairs(state.seats) do points[seat] = result.players[p].score end
  if state.over then
    for i, k in ipairs(result.winners) do winners[i] = state.seats[k] end
  end
  return points, winners
end

-- Every legal move of `seat`: the draw, or with the drawn card each place, each scoop (every pile
-- pair and count) and each switch.
function ScoopEngine.legal_moves(state, seat)
  local out, add = Util.appender()
  if state.over or seat ~= state.turn then return out end
  if not state.drawn then
    add({ draw = true })
    return out
  end
  for _, pile in ipairs(state.rules.piles) do add({ place = pile }) end
  local refs, add_ref = Util.appender()
  for _, s in ipairs(state.seats) do
    for _, pile in ipairs(state.rules.piles) do add_ref({ player = s, pile = pile }) end
  end
  for _, from in ipairs(refs) do
    for _, to in ipairs(refs) do
      local count = 1
      while ScoopEngine.check(state, seat, { scoop = { from = from, to = to, count = count } }) do
        add({ scoop = { from = from, to = to, count = count } })
        count = count + 1
      end
    end
    for _, own in ipairs(state.rules.piles) do
      local move = { switch = { own = own, with = from } }
      if ScoopEngine.check(state, seat, move) then add(move) end
    end
  end
  return out
end

-- Every card of the game, wherever it is (ids).
function ScoopEngine.all_ids(state)
  local out, add = Util.appender()
  for _, c in ipairs(state.deck) do add(c.id) end
  if state.drawn then add(state.drawn.id) end
  for _, seat in ipairs(state.seats) do
    for _, pile in ipairs(state.rules.piles) do
      for _, c in ipairs(state.players[seat][pile]) do add(c.id) end
    end
  end
  return out
end

return ScoopEngine
