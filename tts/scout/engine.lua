-- Scout rules engine: pure game logic for Tabletop Simulator (MoonSharp, Lua 5.2), written to the
-- engine contract of docs/scripting.md (setup, to_act, legal_moves, play, scores, all_ids, determinize, view).
--
-- Data in, data out: setup() deals the first round (scout.setup, seeded); play() checks one move
-- (turning the hand, Show, Scout, or Scout & Show) and returns the next state (the input is never
-- changed), or nil and a refusal naming the rule it breaks. The end of a round, its score, the stars,
-- the deal of the next round, the first-player marker and the end of the game follow from the moves.
-- The rules interpretations are the numbered clauses of docs/rules/scout.md ("C<n>"). Game facts come
-- from the deck's YAML as bundled in DATA: the cards' top/bottom values, the stars' values, and
-- setup.options (rounds, chips_per_player, round_score).
-- No TTS calls, no goto, no bitwise operators, no io/load/require (use("scout.engine")).
--
-- A card is {id, top, bottom, flipped} (scout.setup). Seats are whatever the table names them (TTS
-- colours), clockwise; inside the state, player p is state.seats[p] (hands[p], stars[p], turn = p ...).

local Util = use("lib.util")
local is_int, index_of = Util.is_int, Util.index_of
local Random = use("lib.random")
local ScoutSetup = use("scout.setup")

local ScoutEngine = {}

local value = ScoutSetup.active_value

local clone, shallow, copy_list = Util.deep_copy, Util.shallow_copy, Util.copy_list

local function filled(n, v)
  local out = {}
  for i = 1, n do out[i] = v end
  return out
end

-- ---------------------------------------------------------------------------
-- Data

local function component(data, id)
  for _, c in ipairs(data.components) do
    if c.id == id then return c end
  end
  error("the deck data has no component '" .. id .. "' (decks/scout.yaml)")
end

-- The facts the engine reads from DATA: {rounds, chips_per_player, round_score = {won, scout, hand},
-- stars = {star values, highest first}}. The options are as tts/scout/game.yaml types them: `deckpress
-- check` refuses a deck whose options are not.
function ScoutEngine.rules(data)
  local options = data.setup.options
  local score = options.round_score
  local stars = {}
  for i, card in ipairs(component(data, "stars").cards) do stars[i] = card.fields.value end
  table.sort(stars, function(x, y) return x > y end)
  if stars[#stars] ~= 1 then error("the stars need a star worth 1 to pay any score (decks/scout.yaml)") end
  return { rounds = options.rounds, chips_per_player = options.chips_per_player,
    round_score = { won = score.won, scout = score.scout, hand = score.hand }, stars = stars }
end

-- The 45 cards of DATA's deck component: {id, top, bottom}.
function ScoutEngine.cards(data)
  local out = {}
  for i, card in ipairs(component(data, "deck").cards) do
    out[i] = { id = card.id, top = card.fields.top, bottom = card.fields.bottom }
  end
  return out
end

-- C18: the star tokens that pay `points` (a whole number >= 0): {[star value] = count}, fewest tokens.
function ScoutEngine.stars_for(points, stars)
  local out = {}
  for _, v in ipairs(stars) do
    out[v] = math.floor(points / v)
    points = points - out[v] * v
  end
  return out
end

-- new_game(data, seats) -> a game of these seats (clockwise) before its first round.
function ScoutEngine.new_game(data, seats)
  local rules = ScoutEngine.rules(data)
  local seat_count = #seats
  if ScoutSetup.rules(data).deal[seat_count] == nil then
    error("Scout is for 2 to 5 players, not " .. tostring(seat_count))
  end
  local rounds = rules.rounds
  if rounds == "players" then rounds = seat_count end
  return { rules = rules, seats = clone(seats), seat_count = seat_count, rounds = rounds, round = 0,
    stars = filled(seat_count, 0), first_player = false, round_over = true, game_over = false, winners = {},
    history = {} }
end

local function name(state, p)
  return tostring(state.seats[p])
end

local function refuse(clause, rule, text)
  return nil, { clause = clause, rule = rule, text = text }
end

-- C19: start the next round with `plan` (ScoutSetup.setup_plan for the game's seat count). Round 1
-- starts with the plan's first player (the 1/2 card); later rounds with the player after the last
-- round's first player (the marker passes on). Chips are given back: chips_per_player each.
function ScoutEngine.start_round(game, plan)
  if game.game_over then error("the game is over") end
  if not game.round_over then error("the round is not over") end
  if plan.seat_count ~= game.seat_count then error("the plan is for " .. plan.seat_count .. " players") end
  local state = shallow(game)
  state.round = state.round + 1
  if state.round == 1 then
    state.first_player = plan.first_player
  else
    state.first_player = state.first_player % state.seat_count + 1
  end
  state.turn = state.first_player
  state.hands = clone(plan.hands)
  state.won = {}
  for p = 1, state.seat_count do state.won[p] = {} end
  state.tokens = filled(state.seat_count, 0)
  state.chips = filled(state.seat_count, state.rules.chips_per_player)
  state.active = false  -- {owner, cards} once a set is shown
  state.flip = ScoutSetup.new_round()
  state.round_over = false
  state.ender = false
  state.out = clone(plan.unused or {})
  state.removed = clone(plan.removed or {})
  state.deal_count = plan.deal_count
  state.explanation = plan.explanation
  return state
end

-- The next round dealt by the engine itself: the game's cards shuffled with its own generator
-- (state.rng), so that the same seed plays the same game.
local function deal_round(game)
  local rng = Random.next(game.rng)
  local plan = ScoutSetup.setup_plan(game.seat_count, game.cards, rng, game.deal_rules, game.seats)
  local state = ScoutEngine.start_round(game, plan)
  state.rng = rng
  return state
end

-- setup(data, seats, opts) -> state | nil, refusal: the engine contract's start of a game
-- (docs/scripting.md), its first round dealt. seats: clockwise (TTS colours at the table); opts.seed
-- shuffles every round (lib.random); opts.cards: the cards {id, top, bottom} (default: the deck's).
function ScoutEngine.setup(data, seats, opts)
  opts = opts or {}
  if ScoutSetup.rules(data).deal[#seats] == nil then
    local players = data.game and data.game.players or { min = 2, max = 5 }
    return refuse(1, "input checks", "Scout is for " .. players.min .. " to " .. players.max .. " players, not "
      .. #seats)
  end
  local game = ScoutEngine.new_game(data, seats)
  game.cards = clone(opts.cards or ScoutEngine.cards(data))
  game.deal_rules = ScoutSetup.rules(data)
  game.rng = Random.seed(opts.seed or 1)
  return deal_round(game)
end

-- ---------------------------------------------------------------------------
-- Sets

-- C12: "set" (equal values, a single card included), "run" (each value one more, or each one less,
-- than the one before) or nil.
function ScoutEngine.kind(values)
  if #values == 0 then return nil end
  local equal, up, down = true, true, true
  for i = 2, #values do
    if values[i] ~= values[1] then equal = false end
    if values[i] ~= values[i - 1] + 1 then up = false end
    if values[i] ~= values[i - 1] - 1 then down = false end
  end
  if equal then return "set" end
  if up or down then return "run" end
  return nil
end

local function low(values)
  local m = values[1]
  for _, v in ipairs(values) do m = math.min(m, v) end
  return m
end

-- C13: true when the values `a` beat the values `b` (both valid sets or runs).
function ScoutEngine.beats(a, b)
  if #a ~= #b then return #a > #b end
  local ka, kb = ScoutEngine.kind(a), ScoutEngine.kind(b)
  if ka ~= kb then return ka == "set" end
  return low(a) > low(b)
end

local function values_of(cards)
  local out = {}
  for i, c in ipairs(cards) do out[i] = value(c) end
  return out
end

local function check_show(state, player, show, active)
  if type(show) ~= "table" or not is_int(show.first) or not is_int(show.last) then
    return refuse(11, "Show", "name the first and last card of the show, {first, last}")
  end
  local hand = state.hands[player]
  if show.first < 1 or show.last > #hand or show.first > show.last then
    return refuse(11, "Show", "the cards shown are adjacent cards of your hand, positions 1 to " .. #hand)
  end
  local cards = {}
  for i = show.first, show.last do cards[i - show.first + 1] = hand[i] end
  local values = values_of(cards)
  if ScoutEngine.kind(values) == nil then
    return refuse(12, "run or set", table.concat(values, "-") .. " is neither equal values nor a run")
  end
  if active and not ScoutEngine.beats(values, values_of(active.cards)) then
    return refuse(13, "what beats what", table.concat(values, "-") .. " does not beat "
      .. table.concat(values_of(active.cards), "-"))
  end
  return true
end

local function check_scout(state, player, scout, active)
  if not active then return refuse(15, "Scout", "there is no active set to scout from") end
  if active.owner == player then return refuse(15, "Scout", "you cannot scout your own set") end
  if type(scout) ~= "table" or (scout.side ~= "left" and scout.side ~= "right") then
    return refuse(15, "Scout", "take the leftmost or the rightmost card: side = \"left\" or \"right\"")
  end
  local size = #state.hands[player] + 1
  if not is_int(scout.position) or scout.position < 1 or scout.position > size then
    return refuse(15, "Scout", "insert the card at a position from 1 to " .. size)
  end
  return true
end

-- Carry out a scout on `state` (a copy of a state, which may share its tables with it: the active set,
-- the hands, the hand and the tokens it changes are new tables, the card taken a new card). The card goes
-- to the hand face up for everyone to see where (`seen`: determinize leaves it there).
local function do_scout(state, player, scout, events)
  local active = state.active
  local cards = copy_list(active.cards)
  local index = scout.side == "left" and 1 or #cards
  local card = shallow(table.remove(cards, index))
  card.seen = true
  if scout.turn then card.flipped = not card.flipped end
  state.hands = shallow(state.hands)
  local hand = copy_list(state.hands[player])
  state.hands[player] = hand
  table.insert(hand, scout.position, card)
  state.tokens = shallow(state.tokens)
  state.tokens[active.owner] = state.tokens[active.owner] + 1
  events[#events + 1] = { what = "scouted", seat = state.seats[player], owner = state.seats[active.owner],
    id = card.id, text = string.format("%s scouts %d from %s's set; %s gets a Scout token.",
      name(state, player), value(card), name(state, active.owner), name(state, active.owner)) }
  state.active = cards[1] ~= nil and { owner = active.owner, cards = cards }
end

-- The parts of `state` a scout reads and changes, for trying one out (do_scout leaves `state` as it was).
local function scout_trial(state)
  return { seats = state.seats, hands = state.hands, active = state.active, tokens = state.tokens }
end

-- ---------------------------------------------------------------------------
-- Scores

-- C18: the round's score per player, from the piles as they lie: {won, tokens, hand, points}.
function ScoutEngine.round_scores(state)
  local rs, out = state.rules.round_score, {}
  for p = 1, state.seat_count do
    local hand = #state.hands[p]
    local points = rs.won * #state.won[p] + rs.scout * state.tokens[p]
    if p ~= state.ender then points = points + rs.hand * hand end
    out[p] = { won = #state.won[p], tokens = state.tokens[p], hand = hand, exempt = p == state.ender,
      points = points }
  end
  return out
end

-- C18-C20: close the round on `state` (a copy; the stars and the history it changes are new lists): score
-- it, pay the stars, maybe end the game.
local function end_round(state, ender, reason, events)
  state.round_over = true
  state.ender = ender
  local scores = ScoutEngine.round_scores(state)
  local paid = {}
  state.stars = copy_list(state.stars)
  for p = 1, state.seat_count do
    local before = state.stars[p]
    state.stars[p] = math.max(0, before + scores[p].points)
    paid[p] = state.stars[p] - before
  end
  state.history = copy_list(state.history)
  state.history[#state.history + 1] = { round = state.round, ender = ender, scores = scores, paid = paid }
  events[#events + 1] = { what = "round_over", seat = state.seats[ender], scores = scores, paid = paid,
    text = string.format("Round %d is over: %s", state.round, reason) }
  if state.round >= state.rounds then
    state.game_over = true
    local best = state.stars[1]
    for p = 1, state.seat_count do best = math.max(best, state.stars[p]) end
    local winners, names, n = {}, {}, 0
    for p = 1, state.seat_count do
      if state.stars[p] == best then
        n = n + 1
        winners[n], names[n] = state.seats[p], name(state, p)
      end
    end
    state.winners = winners
    events[#events + 1] = { what = "game_over", winners = state.winners,
      text = string.format("The game is over: %d stars win (%s).", best, table.concat(names, ", ")) }
  end
end

-- ---------------------------------------------------------------------------
-- A turn

-- to_act(state) -> seats, kind: the seat whose turn it is ("turn"; between rounds, the next round's
-- first player, whose move is the deal), or nobody once the game is over. A hand may also be turned
-- before the round's first move by a seat not to act, and any seat may deal: legal_moves lists them.
function ScoutEngine.to_act(state)
  if state.game_over then return {}, "over" end
  if state.round_over then return { state.seats[state.first_player % state.seat_count + 1] }, "turn" end
  return { state.seats[state.turn] }, "turn"
end

-- scores(state) -> points, winners: the stars of each seat, and the winners once the game is over.
function ScoutEngine.scores(state)
  local points = {}
  for p, seat in ipairs(state.seats) do points[seat] = state.stars[p] end
  return points, state.game_over and clone(state.winners) or {}
end

-- The player number of `seat`, or nil and the refusal.
local function player_of(state, seat)
  local player = index_of(state.seats, seat)
  if player == nil then return refuse(10, "turn order", tostring(seat) .. " is not playing this game") end
  return player
end

-- C10 (clause 8 of the set-up): may `player` turn their hand now? true, or nil and the refusal.
local function check_turn_hand(state, player)
  if state.round_over then return refuse(17, "round over", "the round is over") end
  local ok, why = ScoutSetup.can_flip(state.flip, player)
  if not ok then return refuse(8, "turning the hand", why) end
  return true
end

local function check(state, player, move)
  if state.game_over then return refuse(20, "game over", "the game is over") end
  if type(move) == "table" and move.turn_hand then return check_turn_hand(state, player) end
  if type(move) == "table" and move.deal then
    if not state.round_over then return refuse(19, "rounds", "the round is not over") end
    if not state.cards then return refuse(19, "rounds", "this game was not set up with its cards") end
    return true
  end
  if state.round_over then return refuse(17, "round over", "the round is over; start the next one") end
  if player ~= state.turn then return refuse(10, "turn order", "it is " .. name(state, state.turn) .. "'s turn") end
  if type(move) ~= "table" or (move.show == nil and move.scout == nil) then
    return refuse(10, "a turn", "a turn is a Show, a Scout, or Scout & Show")
  end
  if move.show ~= nil and move.scout ~= nil then
    if state.chips[player] < 1 then
      return refuse(16, "Scout & Show", "you have used your Scout & Show chip this round")
    end
    local ok, refusal = check_scout(state, player, move.scout, state.active)
    if not ok then return nil, refusal end
    local after = scout_trial(state)
    do_scout(after, player, move.scout, {})
    return check_show(after, player, move.show, after.active)
  end
  if move.scout ~= nil then return check_scout(state, player, move.scout, state.active) end
  return check_show(state, player, move.show, state.active)
end

-- check(state, seat, move) -> true | nil, refusal. move: {deal = true} (the next round, once a round is
-- over), {turn_hand = true} (before the round's first move), {show = {first, last}}, {scout = {side,
-- position, turn}} or both (Scout & Show, with the chip).
function ScoutEngine.check(state, seat, move)
  local player, refusal = player_of(state, seat)
  if player == nil then return nil, refusal end
  return check(state, player, move)
end

-- play(state, seat, move) -> new state, events | nil, refusal.
-- events: {what = "dealt" | "turned" | "chip" | "scouted" | "shown" | "round_over" | "game_over", seat,
-- text, ...}. The deal of the next round shuffles the cards setup was given with the game's own
-- generator (state.rng), so that one seed plays one game. The new state shares with the input every table
-- the move leaves as it was (a changed list is a new list; a card that changes is a new card).
function ScoutEngine.play(state, seat, move)
  local player, refusal = player_of(state, seat)
  if player == nil then return nil, refusal end
  local ok
  ok, refusal = check(state, player, move)
  if not ok then return nil, refusal end
  if move.deal then -- C19: the next round
    state = deal_round(state)
    return state, { { what = "dealt", seat = state.seats[state.first_player], round = state.round,
      text = string.format("Round %d of %d: %s has the first-player marker.", state.round, state.rounds,
        name(state, state.first_player)) } }
  end
  state = shallow(state)
  local events = {}
  if move.turn_hand then
    local turned = ScoutSetup.turn_hand(state.flip, player, state.hands[player])
    state.hands = shallow(state.hands)
    state.flip, state.hands[player] = turned.state, turned.hand
    return state, { { what = "turned", seat = seat, text = name(state, player) .. " turned their hand." } }
  end
  state.flip = ScoutSetup.begin_play(state.flip)
  if move.scout ~= nil then
    if move.show ~= nil then
      state.chips = shallow(state.chips)
      state.chips[player] = state.chips[player] - 1
      events[#events + 1] = { what = "chip", seat = seat,
        text = string.format("%s gives up the Scout & Show chip.", name(state, player)) }
    end
    do_scout(state, player, move.scout, events)
  end
  local ended = false
  if move.show ~= nil then
    local first, last = move.show.first, move.show.last
    local held, hand, cards = state.hands[player], {}, {}
    for i = 1, first - 1 do hand[i] = held[i] end
    for i = first, last do cards[i - first + 1] = held[i] end
    for i = last + 1, #held do hand[i - last + first - 1] = held[i] end
    state.hands = shallow(state.hands)
    state.hands[player] = hand
    local beaten = 0
    if state.active then
      local won = copy_list(state.won[player])
      local n = #won
      for i, c in ipairs(state.active.cards) do won[n + i] = c end
      state.won = shallow(state.won)
      state.won[player] = won
      beaten = #state.active.cards
    end
    state.active = { owner = player, cards = cards }
    events[#events + 1] = { what = "shown", seat = seat, won = beaten,
      text = string.format("%s shows %s%s.", name(state, player), table.concat(values_of(cards), "-"),
        beaten > 0 and string.format(" and wins %d card%s", beaten, beaten > 1 and "s" or "") or "") }
    if #hand == 0 then -- C17: a hand emptied ends the round
      end_round(state, player, string.format("%s has no cards left.", name(state, player)), events)
      ended = true
    end
  end
  if not ended then
    local nxt = player % state.seat_count + 1
    state.turn = nxt
    if state.active and state.active.owner == nxt then -- C17: nobody beat the set
      end_round(state, nxt, string.format("nobody beat %s's set.", name(state, nxt)), events)
    end
  end
  return state, events
end

-- The hand `seat` would hold after `scout` (a Scout & Show's first half), or nil and the refusal.
function ScoutEngine.scouted_hand(state, seat, scout)
  local player, refusal = player_of(state, seat)
  if player == nil then return nil, refusal end
  local ok
  ok, refusal = check_scout(state, player, scout, state.active)
  if not ok then return nil, refusal end
  local after = scout_trial(state)
  do_scout(after, player, scout, {})
  return after.hands[player]
end

-- The sets and runs of a hand whose active values are vals[1..n] (C12), by first card: from[f] = {n,
-- equal = {}, up = {}, down = {}, low = {}}, entry k for the stretch f .. f + k - 1 (the stretches that
-- start at f and are sets or runs are f .. f + from[f].n - 1: a longer one is no run or set either).
local function stretches(vals, n)
  local from = {}
  for first = 1, n do
    local v1 = vals[first]
    local eq, ups, downs, lows = { true }, { true }, { true }, { v1 }
    local equal, up, down, lowest, prev, count = true, true, true, v1, v1, 1
    for last = first + 1, n do
      local v = vals[last]
      if v ~= v1 then equal = false end
      if v ~= prev + 1 then up = false end
      if v ~= prev - 1 then down = false end
      if not (equal or up or down) then break end
      if v < lowest then lowest = v end
      prev, count = v, count + 1
      eq[count], ups[count], downs[count], lows[count] = equal, up, down, lowest
    end
    from[first] = { n = count, equal = eq, up = ups, down = downs, low = lows }
  end
  return from
end

-- C13: does a set or run of `len` cards (`equal`: a set; `lowest` its lowest value) beat `beaten` ({n,
-- set, low} of the active set, or false: nothing to beat)?
local function wins(beaten, len, equal, lowest)
  if not beaten then return true end
  if len ~= beaten.n then return len > beaten.n end
  if equal ~= beaten.set then return equal end
  return lowest > beaten.low
end

-- {n, set, low} of the active values cards[from..to], or false when there are none.
local function beaten_of(cards, from, to)
  if to < from then return false end
  local vals, n = {}, 0
  for i = from, to do
    n = n + 1
    vals[n] = value(cards[i])
  end
  return { n = n, set = ScoutEngine.kind(vals) == "set", low = low(vals) }
end

-- Which stretches of `from` beat `beaten`: won[f][k] for the stretch f .. f + k - 1.
local function winners(from, n, beaten)
  local won = {}
  for f = 1, n do
    local s, w = from[f], {}
    for k = 1, s.n do w[k] = wins(beaten, k, s.equal[k], s.low[k]) end
    won[f] = w
  end
  return won
end

-- Every legal move of `seat` now: the deal between rounds, turning the hand (before the round's first
-- move), each show (every adjacent stretch that is a set or run and beats the active set), each scout
-- (side x position x turn) and, with the chip, each scout & show. The hand after a scout is never built:
-- its stretches before and after the scouted card are the hand's own, found once; only those through the
-- scouted card are checked anew.
function ScoutEngine.legal_moves(state, seat)
  local out, count = {}, 0
  local function add(move)
    count = count + 1
    out[count] = move
  end
  -- show_of[f][k] = {first = f, last = f + k - 1}, each made once: the moves share it (moves are read,
  -- never changed), and the loops below add a move with no call (thousands on a long hand).
  local show_of = {}
  local function add_show(scout, first, last)
    local row, k = show_of[first], last - first + 1
    local show = row[k]
    if show == nil then
      show = { first = first, last = last }
      row[k] = show
    end
    count = count + 1
    out[count] = { scout = scout, show = show }
  end
  local player = index_of(state.seats, seat)
  if player == nil or state.game_over then return out end
  if state.round_over then
    if state.cards then add({ deal = true }) end
    return out
  end
  if check_turn_hand(state, player) then add({ turn_hand = true }) end
  if player ~= state.turn then return out end
  local active = state.active
  local held = values_of(state.hands[player])
  local n = #held
  local from = stretches(held, n)
  for f = 1, n + 1 do
    local row = {}
    for k = 1, math.max(from[f] and from[f].n or 0, from[f - 1] and from[f - 1].n or 0) do
      row[k] = { first = f, last = f + k - 1 }
    end
    show_of[f] = row
  end
  local won = winners(from, n, active and beaten_of(active.cards, 1, #active.cards))
  for f = 1, n do
    local w, row = won[f], show_of[f]
    for k = 1, from[f].n do
      if w[k] then
        count = count + 1
        out[count] = { show = row[k] }
      end
    end
  end
  if not (active and active.owner ~= player) then return out end
  local cards = active.cards
  local size = #cards
  local chip = state.chips[player] > 0
  -- The stretches of the scouted hand (the card of value `cv` at `p`) from `first` through the card,
  -- the stretch first .. p being a set or run with these flags, each extended while it stays one.
  local function through(scout, beaten, first, p, v1, prev, equal, up, down, lowest)
    local last, bn, bset, blow = p, beaten and beaten.n, beaten and beaten.set, beaten and beaten.low
    while true do
      local len, win = last - first + 1, true  -- wins(beaten, len, equal, lowest), inline
      if bn then
        if len ~= bn then win = len > bn
        elseif equal ~= bset then win = equal
        else win = lowest > blow end
      end
      if win then add_show(scout, first, last) end
      if last > n then return end
      local v = held[last]  -- the scouted hand's card last + 1
      if v ~= v1 then equal = false end
      if v ~= prev + 1 then up = false end
      if v ~= prev - 1 then down = false end
      if not (equal or up or down) then return end
      if v < lowest then lowest = v end
      prev, last = v, last + 1
    end
  end
  for _, side in ipairs({ "left", "right" }) do
    local taken = side == "left" and cards[1] or cards[size]
    local flipped = taken.flipped and true or false
    local beaten = chip and (side == "left" and beaten_of(cards, 2, size) or beaten_of(cards, 1, size - 1))
    local left_won = chip and winners(from, n, beaten)
    for p = 1, n + 1 do
      for t = 1, 2 do
        local turn = t == 2
        local scout = { side = side, position = p, turn = turn }
        add({ scout = scout })
        if chip then
          local cv = (flipped ~= turn) and taken.bottom or taken.top
          for f = 1, p - 1 do -- stretches before the card, then through it
            local s, w, row = from[f], left_won[f], show_of[f]
            local before = p - f  -- the stretches of f that end before the card
            if s.n < before then before = s.n end
            for k = 1, before do
              if w[k] then
                count = count + 1
                out[count] = { scout = scout, show = row[k] }
              end
            end
            if s.n >= p - f then -- f .. p - 1 is a set or run: extend it with the card
              local j = p - f
              local v1, prev = held[f], held[p - 1]
              local equal, up, down = s.equal[j] and cv == v1, s.up[j] and cv == prev + 1, s.down[j] and cv == prev - 1
              if equal or up or down then
                local lowest = s.low[j]
                if cv < lowest then lowest = cv end
                through(scout, beaten, f, p, v1, cv, equal, up, down, lowest)
              end
            end
          end
          through(scout, beaten, p, p, cv, cv, true, true, true, cv) -- from the card
          for f = p + 1, n + 1 do -- after the card: the hand's own, one place on
            local w, row = left_won[f - 1], show_of[f]
            for k = 1, from[f - 1].n do
              if w[k] then
                count = count + 1
                out[count] = { scout = scout, show = row[k] }
              end
            end
          end
        end
      end
    end
  end
  return out
end

-- determinize(state, seat, seed) -> the state as `seat` may know it, what it cannot see redealt at random
-- with `seed` (docs/scripting.md): the other players' hands (but for the cards scouted into them, which
-- every player saw go where they lie: `seen`), the cards out of the round (C4) and the later rounds' deals
-- (the game's generator, state.rng, is drawn from `seed`). Those cards are sorted by id, shuffled and dealt
-- back into the same places, each turned at random as a deal turns it (C5): every state that differs from
-- this one only in where its hidden cards lie gives the same result. The hands' sizes, the active set, the
-- score piles, the tokens, chips and stars stay as they are.
function ScoutEngine.determinize(state, seat, seed)
  local me = index_of(state.seats, seat)
  local out = shallow(state)
  local rng = Random.seed(seed)
  if not state.hands then
    out.rng = rng
    return out
  end
  local by_id = {}
  for _, c in ipairs(state.cards or {}) do by_id[c.id] = c end
  local pool, lists, places, n = {}, {}, {}, 0
  local function hide(card, list, i)
    n = n + 1
    pool[n], lists[n], places[n] = card, list, i
  end
  out.hands = shallow(state.hands)
  for p = 1, state.seat_count do
    if p ~= me then
      local hand = copy_list(state.hands[p])
      out.hands[p] = hand
      for i, c in ipairs(hand) do
        if not c.seen then hide(c, hand, i) end
      end
    end
  end
  local unused = copy_list(state.out)
  out.out = unused
  for i, id in ipairs(unused) do
    if by_id[id] then hide(by_id[id], unused, i) end
  end
  table.sort(pool, function(a, b) return a.id < b.id end)
  rng = Random.shuffle_in_place(pool, rng)
  for k = 1, n do
    local c = pool[k]
    if lists[k] == unused then
      unused[places[k]] = c.id
    else
      rng = Random.next(rng)
      lists[k][places[k]] = { id = c.id, top = c.top, bottom = c.bottom, flipped = rng * 2 > Random.MODULUS }
    end
  end
  out.rng = Random.next(rng)
  return out
end

-- A card as a seat sees it face up: its id (the engine's and the deck's are the same) and `turned` when its
-- bottom number is the one that counts (C7).
local function face_up(card)
  return { id = card.id, card = card.id, turned = card.flipped and true or nil }
end

local function face_down(n)
  local out = {}
  for i = 1, n do out[i] = { down = true } end
  return out
end

-- view(state, seat) -> {zones, lines}: the table as `seat` sees it (docs/scripting.md). Shared zones first:
-- the cards out of the round (face down, C4) and the active set (face up, turned as shown); then each seat's
-- hand (its own face up, in order, the others' as face-down cards) and score pile (face down, C14). Lines:
-- the round, the first-player marker, and each seat's Scout tokens and Scout & Show chips. The set-aside
-- cards of this player count (C2) are back in the box, no zone. What determinize redeals never shows.
function ScoutEngine.view(state, seat)
  local me = index_of(state.seats, seat)
  local zones, zone = Util.appender()
  local lines, line = Util.appender()
  if not state.hands then
    return { zones = zones, lines = { string.format("Round 0 of %d", state.rounds) } }
  end
  zone({ name = "out of the round", cards = face_down(#state.out) })
  local shown = {}
  if state.active then
    for i, c in ipairs(state.active.cards) do shown[i] = face_up(c) end
  end
  zone({ name = "active set", cards = shown })
  for p = 1, state.seat_count do
    local owner = state.seats[p]
    local hand = state.hands[p]
    local cards = face_down(#hand)
    if p == me then
      for i, c in ipairs(hand) do cards[i] = face_up(c) end
    end
    zone({ name = name(state, p) .. "'s hand", owner = owner, cards = cards })
    zone({ name = name(state, p) .. "'s score pile", owner = owner, cards = face_down(#state.won[p]) })
  end
  line(string.format("Round %d of %d%s", state.round, state.rounds, state.round_over and " (over)" or ""))
  line(name(state, state.first_player) .. " has the first-player marker")
  if state.active then line(name(state, state.active.owner) .. " showed the active set") end
  for p = 1, state.seat_count do
    line(string.format("%s: %d Scout token%s, %d Scout & Show chip%s", name(state, p), state.tokens[p],
      state.tokens[p] == 1 and "" or "s", state.chips[p], state.chips[p] == 1 and "" or "s"))
  end
  return { zones = zones, lines = lines }
end

-- Every card of the game, wherever it is: hands, the active set, score piles, out of the round, set
-- aside for this player count (ids).
function ScoutEngine.all_ids(state)
  local out, add = Util.appender()
  for p = 1, state.seat_count do
    for _, c in ipairs(state.hands[p]) do add(c.id) end
    for _, c in ipairs(state.won[p]) do add(c.id) end
  end
  if state.active then
    for _, c in ipairs(state.active.cards) do add(c.id) end
  end
  for _, id in ipairs(state.out) do add(id) end
  for _, id in ipairs(state.removed or {}) do add(id) end
  return out
end

return ScoutEngine
