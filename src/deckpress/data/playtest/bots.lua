-- Bots and whole games for `deckpress playtest` (module playtest.bots), written once against the engine
-- contract of docs/scripting.md. The engine they are given holds the functions scripting/contract.py declares
-- (CONTRACT, the one list of them) and nothing else of the game: nothing here knows a game.
-- The loop of a game runs here, in Lua, so that Python is crossed once per batch of games, not per move.
--
-- A move description of legal_moves is expanded here: {choose = k, from = list, ordered = bool} is k
-- items of the list (in the order picked when ordered, else in the list's order), {one_of = list} one of
-- them; any other table is expanded key by key (sorted keys: Lua's pairs order differs between runs).
--
-- Every random choice draws from lib.random's generator, seeded from the game's seed, so one seed plays
-- one game whatever process plays it.
--
-- The bots (docs/playtest.md):
--   random  a legal move, uniformly (a description expanded uniformly);
--   greedy  the candidate move with the best result at once by the engine's own scores: after it (and,
--           when the move is chosen at once with others, after their random choices, the same for every
--           candidate), its seat's points minus the best other seat's, or the game's result if it ended;
--   search  flat determinized Monte Carlo: each candidate is played out to the end `budget / candidates`
--           times with random moves, each time from another state as the seat may know it (the engine's
--           determinize(state, seat, seed): what the seat cannot see redealt at random), and the candidate
--           with the best mean share of the win is chosen (a playout still going after M.PLAYOUT moves is
--           won by the seats with the most points then). It needs determinize: on an engine without
--           one it would see every hidden card, so it refuses to play (deckpress playtest says so first).
--           The candidates are the seat's legal moves in the real state, which it may know; a playout
--           in which the engine refuses the candidate (a move that names a card the seat cannot see,
--           such as Skorch's blind prison card, is legal in some redeals only) does not count.
-- Within one choice at once (to_act's "simultaneous"), every seat chooses from the same state: no bot
-- sees the choices of the others.
local Random = use("lib.random")

local M = {}

local CANDIDATES = 24       -- at most this many candidate moves weighed by greedy and search
local WIN = 1000000         -- greedy's value of a game won (times the share of the win)
M.MAX_MOVES = 20000         -- moves of a game by default, after which it is counted as unfinished
M.PLAYOUT = 2000            -- moves of a search bot's playout, after which the most points win it

-- The generator of a game: a table {s = state} so that every function draws from one sequence.
local function generator(seed)
  return { s = Random.seed(seed) }
end
M.generator = generator

-- 1 .. n, uniformly (n >= 1).
local function draw(r, n)
  r.s = Random.next(r.s)
  return r.s % n + 1
end
M.draw = draw

local function sorted_keys(t)
  local keys, n = {}, 0
  for k in pairs(t) do
    n = n + 1
    keys[n] = k
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  return keys
end

-- A move of a description (see the head of this file), drawing from r.
local function expand(description, r)
  if type(description) ~= "table" then return description end
  if description.choose ~= nil then
    local from, k = description.from, description.choose
    local n = #from
    local index = {}
    for i = 1, n do index[i] = i end
    for i = 1, k do  -- a partial Fisher-Yates: index[1..k] are k distinct picks, in the order drawn
      local j = i + draw(r, n - i + 1) - 1
      index[i], index[j] = index[j], index[i]
    end
    local picked = {}
    for i = 1, k do picked[i] = index[i] end
    if not description.ordered then table.sort(picked) end
    local out = {}
    for i = 1, k do out[i] = from[picked[i]] end
    return out
  end
  if description.one_of ~= nil then return description.one_of[draw(r, #description.one_of)] end
  local out = {}
  for _, key in ipairs(sorted_keys(description)) do out[key] = expand(description[key], r) end
  return out
end
M.expand = expand

-- True when `value` holds a description to expand anywhere in it.
local function is_description(value)
  if type(value) ~= "table" then return false end
  if value.choose ~= nil or value.one_of ~= nil then return true end
  for _, v in pairs(value) do
    if is_description(v) then return true end
  end
  return false
end

-- The legal moves of `seat` as listed (an error when it must act and has none).
local function legal(engine, state, seat)
  local moves = engine.legal_moves(state, seat)
  if moves[1] == nil then error(tostring(seat) .. " must act and has no legal move", 0) end
  return moves
end

local function random_move(engine, state, seat, r)
  local moves = legal(engine, state, seat)
  return expand(moves[draw(r, #moves)], r)
end

-- Up to `cap` distinct candidate moves: every listed move when they are few and concrete, else moves drawn
-- at random (a description counts for many), the first drawn first.
local function candidates(engine, state, seat, r, cap)
  local moves = legal(engine, state, seat)
  local n, open = #moves, false
  for i = 1, n do
    if is_description(moves[i]) then open = true end
  end
  if not open and n <= cap then return moves end
  local out, count, tries = {}, 0, 0
  local seen = {}
  while count < cap and tries < cap * 4 do
    tries = tries + 1
    local move = expand(moves[draw(r, n)], r)
    local key = M.key(move)
    if not seen[key] then
      seen[key] = true
      count = count + 1
      out[count] = move
    end
  end
  return out
end

-- A text that names a move (equal moves, equal texts).
function M.key(value)
  if type(value) ~= "table" then return tostring(value) end
  local parts = {}
  for i, k in ipairs(sorted_keys(value)) do parts[i] = tostring(k) .. "=" .. M.key(value[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- The share of the win of `seat` in a finished game (1/k for each of k winners; 0 for the others).
local function share(winners, seat)
  local n, mine = 0, false
  for _, w in ipairs(winners) do
    n = n + 1
    if w == seat then mine = true end
  end
  return mine and 1 / n or 0
end

-- Play `move` of `seat`, then the random choices of `others` (the seats choosing at once with it, still
-- to choose), drawing from r. Returns the state (nil if the engine refused the move).
local function play_with_others(engine, state, seat, move, others, r)
  local after = engine.play(state, seat, move)
  if after == nil then return nil end
  for _, other in ipairs(others) do
    local acting = engine.to_act(after)
    local still = false
    for _, s in ipairs(acting) do
      if s == other then still = true end
    end
    if still then after = engine.play(after, other, random_move(engine, after, other, r)) end
  end
  return after
end

-- Greedy's value of `state` for `seat`: the share of the win if it is over, else its points minus the
-- best other seat's.
local function standing(engine, state, seat)
  local points, winners = engine.scores(state)
  if winners[1] ~= nil then return WIN * share(winners, seat) end
  local mine, best = points[seat] or 0, nil
  for s, p in pairs(points) do
    if s ~= seat and (best == nil or p > best) then best = p end
  end
  return mine - (best or 0)
end

-- The winners of a playout: random moves to the end of the game, or, when it is still going after
-- M.PLAYOUT moves (random moves can take a long time to end a game: Skorch's hands once the draw pile and
-- the Skorch cards are gone), the seats with the most points then.
local function rollout(engine, state, r)
  for _ = 1, M.PLAYOUT do
    local acting, kind = engine.to_act(state)
    if kind == "over" then
      local points, winners = engine.scores(state)
      return winners
    end
    local seat = acting[1]
    state = engine.play(state, seat, random_move(engine, state, seat, r))
  end
  local points = engine.scores(state)
  local best, leaders, n = nil, {}, 0
  for _, p in pairs(points) do
    if best == nil or p > best then best = p end
  end
  for _, seat in ipairs(sorted_keys(points)) do
    if points[seat] == best then
      n = n + 1
      leaders[n] = seat
    end
  end
  return leaders
end

local BOTS = {}

function BOTS.random(engine, state, seat, others, r)
  return random_move(engine, state, seat, r)
end

function BOTS.greedy(engine, state, seat, others, r)
  local moves = candidates(engine, state, seat, r, CANDIDATES)
  local fixed = r.s  -- the others' random choices: the same for every candidate
  local best, best_value = moves[1], nil
  for _, move in ipairs(moves) do
    local after = play_with_others(engine, state, seat, move, others, { s = fixed })
    if after ~= nil then
      local v = standing(engine, after, seat)
      if best_value == nil or v > best_value then best, best_value = move, v end
    end
  end
  r.s = Random.next(fixed)
  return best
end

M.NO_DETERMINIZE = "the search bot needs the engine's determinize(state, seat, seed) (docs/scripting.md): "
  .. "without it, it would see every hidden card"

function BOTS.search(engine, state, seat, others, r, budget)
  if not engine.determinize then error(M.NO_DETERMINIZE, 0) end
  local moves = candidates(engine, state, seat, r, math.max(1, math.min(CANDIDATES, math.floor(budget / 4))))
  if moves[2] == nil then return moves[1] end
  local each = math.max(1, math.floor(budget / #moves))
  local best, best_value = moves[1], nil
  for _, move in ipairs(moves) do
    local total, counted = 0, 0
    for _ = 1, each do
      r.s = Random.next(r.s)
      local after = play_with_others(engine, engine.determinize(state, seat, r.s), seat, move, others, r)
      if after ~= nil then total, counted = total + share(rollout(engine, after, r), seat), counted + 1 end
    end
    local value = counted > 0 and total / counted or -1
    if best_value == nil or value > best_value then best, best_value = move, value end
  end
  return best
end

M.BOTS = BOTS

-- The move the bot named `bot` ("random", "greedy", "search") chooses for `seat` in `state`, drawing from the
-- generator r; `others` are the seats choosing at once with it (to_act's "simultaneous"), which it does not
-- see choose; `budget` is a search bot's playouts.
function M.choose(bot, engine, state, seat, others, r, budget)
  return BOTS[bot](engine, state, seat, others, r, budget)
end

-- What one game tells: {winners = {seat index}, length = moves, played = {seat index = {card id = true}},
-- flags = {"what.key" = {true count, count}}, points = {seat index = points}}.
--
-- played: the card ids a seat's moves name, and those its events name (id, ids) with its seat.
-- flags: every boolean field of the events, by the event's kind (SCORE!'s round_over.bug: the rounds
-- that ended in a Bug!).
local function note_ids(value, ids, into)
  if type(value) == "string" then
    if ids[value] then into[value] = true end
  elseif type(value) == "table" then
    for _, v in pairs(value) do note_ids(v, ids, into) end
  end
end

local function note_events(events, seat, ids, into, flags)
  for _, event in ipairs(events) do
    if event.seat == seat then
      note_ids(event.id, ids, into)
      note_ids(event.ids, ids, into)
    end
    for key, v in pairs(event) do
      if type(v) == "boolean" then
        local name = tostring(event.what) .. "." .. key
        local f = flags[name]
        if f == nil then
          f = { 0, 0 }
          flags[name] = f
        end
        f[2] = f[2] + 1
        if v then f[1] = f[1] + 1 end
      end
    end
  end
end

-- One whole game: setup with `seed`, then each seat's bot (bots[i] names seat i's) until the game is over or
-- `max_moves` moves were played (then it tells {unfinished = true, length = moves}). Returns what the game
-- tells (above), or nil and the engine's refusal of the setup.
function M.game(engine, data, seats, opts, bots, seed, budget, max_moves)
  local state, refusal = engine.setup(data, seats, { seed = seed, mode = opts.mode })
  if state == nil then return nil, refusal end
  local ids = {}
  for _, id in ipairs(engine.all_ids(state)) do ids[id] = true end
  local index, bot, played = {}, {}, {}
  for i, seat in ipairs(seats) do
    index[seat], bot[seat], played[i] = i, bots[i], {}
  end
  local r = generator(seed * 7919 + 104729)
  local flags, length = {}, 0
  while length < max_moves do
    local acting, kind = engine.to_act(state)
    if kind == "over" then
      local points, winners = engine.scores(state)
      local won, score = {}, {}
      for i, w in ipairs(winners) do won[i] = index[w] end
      for i, seat in ipairs(seats) do score[i] = points[seat] end
      return { winners = won, length = length, played = played, flags = flags, points = score }
    end
    local chosen = {}
    for i, seat in ipairs(acting) do  -- at once: every seat chooses from the same state
      local others, n = {}, 0
      for j, other in ipairs(acting) do
        if j ~= i then
          n = n + 1
          others[n] = other
        end
      end
      chosen[i] = M.choose(bot[seat], engine, state, seat, others, r, budget)
    end
    for i, seat in ipairs(acting) do
      local after, events = engine.play(state, seat, chosen[i])
      if after == nil then
        error(tostring(seat) .. "'s legal move was refused: " .. tostring(events and events.text), 0)
      end
      note_ids(chosen[i], ids, played[index[seat]])
      note_events(events, seat, ids, played[index[seat]], flags)
      state = after
      length = length + 1
    end
  end
  return { unfinished = true, length = length }
end

-- Games first .. last of a run: game g is played with seed base + g. Returns the list of what each tells,
-- or nil, the game's number and the refusal of its setup; M.playing is the game being played (after an error
-- of the engine or a bot, the game it stopped in).
-- With opts.rotate, game g's turn order starts (g - 1) places on, each seat keeping its bot: the seat indices
-- the game tells are then places in that order.
M.playing = 0

local function rotated(list, by)
  local out, n = {}, #list
  for i = 1, n do out[i] = list[(i - 1 + by) % n + 1] end
  return out
end

function M.games(engine, data, seats, opts, bots, base, first, last, budget, max_moves)
  local out = {}
  for g = first, last do
    M.playing = g
    local by = opts.rotate and (g - 1) % #seats or 0
    local told, refusal = M.game(engine, data, rotated(seats, by), opts, rotated(bots, by), base + g, budget,
      max_moves or M.MAX_MOVES)
    if told == nil then return nil, g, refusal end
    out[g - first + 1] = told
  end
  return out
end

return M
