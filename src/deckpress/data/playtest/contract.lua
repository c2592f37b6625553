-- The engine contract of docs/scripting.md checked by self-play (module playtest.contract), for `deckpress
-- check`: a game set up with a seed and played by random moves (playtest.bots' expansion of descriptions),
-- every step checked for what every engine must keep. The first break is returned as a violation:
-- {fn = the contract function, seat = ..., move = ..., text = what is wrong, fix = what it must do instead}.
-- The engine given holds the functions scripting/contract.py declares, as the bots' does.
local Bots = use("playtest.bots")
local Random = use("lib.random")

local M = {}

M.TRIED = 2           -- listed moves tried besides the one played, at each decision
M.DETERMINIZE = 8     -- every this many moves, determinize is checked for the seat to act

-- Where the game stands, for the message of an error raised by the engine: read by deckpress after a failure.
M.at = {}

local function violation(fn, seat, move, text, fix)
  return {fn = fn, seat = seat, move = move, text = text, fix = fix}
end

local draw = Bots.draw

-- How many of each id all_ids gave.
local function tally(ids)
  local counts = {}
  for _, id in ipairs(ids) do counts[id] = (counts[id] or 0) + 1 end
  return counts
end

-- What differs between two tallies of ids: the first id lost and the first created, in sorted order.
local function difference(before, after)
  local lost, created, l, c = {}, {}, 0, 0
  for id, k in pairs(before) do
    if (after[id] or 0) < k then
      l = l + 1
      lost[l] = tostring(id)
    end
  end
  for id, k in pairs(after) do
    if (before[id] or 0) < k then
      c = c + 1
      created[c] = tostring(id)
    end
  end
  table.sort(lost)
  table.sort(created)
  local parts = {}
  if lost[1] then parts[1] = l .. " lost (" .. lost[1] .. (lost[2] and ", ..." or "") .. ")" end
  if created[1] then parts[#parts + 1] = c .. " created (" .. created[1] .. (created[2] and ", ..." or "") .. ")" end
  return table.concat(parts, ", ")
end

local function same_ids(a, b)
  for id, k in pairs(a) do
    if b[id] ~= k then return false end
  end
  for id, k in pairs(b) do
    if a[id] ~= k then return false end
  end
  return true
end

-- A copy of a state's tables (shared tables copied once), and whether two values are equal all through: what
-- shows that play left the state it was given as it was, without writing the state out as text.
local function snapshot(value, seen)
  if type(value) ~= "table" then return value end
  seen = seen or {}
  if seen[value] then return seen[value] end
  local out = {}
  seen[value] = out
  for k, v in pairs(value) do out[k] = snapshot(v, seen) end
  return out
end

local function equal(a, b)
  if a == b then return true end
  if type(a) ~= "table" or type(b) ~= "table" then return false end
  for k, v in pairs(a) do
    if not equal(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

local function member(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- to_act's answer checked: the seats and the kind, or a violation.
local function check_to_act(engine, state, seats)
  local acting, kind = engine.to_act(state)
  if type(acting) ~= "table" then
    return nil, nil, violation("to_act", nil, nil, "returned " .. type(acting) .. " where the seats to act go",
      "return seats, kind: the list of seats to move and \"turn\", \"simultaneous\" or \"over\"")
  end
  if kind ~= "turn" and kind ~= "simultaneous" and kind ~= "over" then
    return nil, nil, violation("to_act", nil, nil, "returned the kind " .. Bots.key(kind),
      "return \"turn\", \"simultaneous\" or \"over\" as its second value")
  end
  local n = 0
  for _, seat in ipairs(acting) do
    n = n + 1
    if not member(seats, seat) then
      return nil, nil, violation("to_act", seat, nil, "named " .. Bots.key(seat) .. ", which is no seat of the game",
        "name only the seats setup was given")
    end
  end
  if kind == "over" and n > 0 then
    return nil, nil, violation("to_act", acting[1], nil, "said the game is over and named seats to act",
      "return an empty list with \"over\"")
  end
  if kind ~= "over" and n == 0 then
    return nil, nil, violation("to_act", nil, nil, "named no seat while the game is not over",
      "name the seats to move, or return {}, \"over\" when the game has ended")
  end
  if kind == "turn" and n > 1 then
    return nil, nil, violation("to_act", acting[1], nil, "named " .. n .. " seats for a \"turn\"",
      "name one seat for a turn, or say \"simultaneous\"")
  end
  return acting, kind
end

-- play's answer to a legal move checked: the new state and its events, or a violation.
local function check_play(engine, state, seat, move, before, ids)
  local after, events = engine.play(state, seat, move)
  if not equal(state, before) then
    return nil, violation("play", seat, move, "changed the state it was given",
      "return a new state and leave the one given as it was (copy the tables a move changes)")
  end
  if after == nil then
    local text = type(events) == "table" and events.text or events
    return nil, violation("play", seat, move, "refused a move legal_moves listed: " .. tostring(text),
      "accept every move legal_moves lists, or leave it out of the list")
  end
  if type(events) ~= "table" then
    return nil, violation("play", seat, move, "returned no list of events",
      "return new_state, events (a list, empty when nothing is to be said)")
  end
  for _, event in ipairs(events) do
    if type(event) ~= "table" or type(event.what) ~= "string" or type(event.text) ~= "string" then
      return nil, violation("play", seat, move, "returned an event without its `what` and `text` strings: "
        .. Bots.key(event), "give every event what = \"...\" and text = \"...\"")
    end
  end
  local now = tally(engine.all_ids(after))
  if not same_ids(ids, now) then
    return nil, violation("all_ids", seat, move, "gave other cards after the move: " .. difference(ids, now),
      "keep every card of the game in the state, wherever it lies")
  end
  return after
end

-- determinize(state, seat, seed) checked against what the seat knows: the input unchanged, every card kept,
-- whose turn it is and the scores as they were, the same result for the same seed, and a result that depends
-- on what the seat knows alone (determinizing a determinized state gives what determinizing the state does).
local function check_determinize(engine, state, seat, r)
  local before = snapshot(state)
  local seed = draw(r, 1000000)
  local other = draw(r, 1000000)
  local dealt = engine.determinize(state, seat, seed)
  local function broken(text, fix)
    return violation("determinize", seat, nil, text, fix)
  end
  if not equal(state, before) then
    return broken("changed the state it was given", "return a new state and leave the one given as it was")
  end
  if type(dealt) ~= "table" then return broken("returned no state", "return the state as the seat may know it") end
  local ids, kept = tally(engine.all_ids(state)), tally(engine.all_ids(dealt))
  if not same_ids(ids, kept) then
    return broken("changed the cards of the game: " .. difference(ids, kept),
      "deal the hidden cards again, keeping every card")
  end
  local a1, k1 = engine.to_act(state)
  local a2, k2 = engine.to_act(dealt)
  if Bots.key(a1) ~= Bots.key(a2) or k1 ~= k2 then
    return broken("changed whose turn it is", "leave to_act's answer as it was: the seat sees whose turn it is")
  end
  if Bots.key(engine.scores(state)) ~= Bots.key(engine.scores(dealt)) then
    return broken("changed the scores", "leave the scores as they were: the seat sees them")
  end
  if Bots.key(engine.determinize(state, seat, seed)) ~= Bots.key(dealt) then
    return broken("gave two states for one seed", "draw every random choice from the seed it is given")
  end
  if Bots.key(engine.determinize(dealt, seat, other)) ~= Bots.key(engine.determinize(state, seat, other)) then
    return broken("gave a result that depends on what the seat cannot see (determinizing its own result with "
      .. "another seed gave another state than determinizing the state with it)",
      "redeal from what the seat knows alone: sort the hidden cards (by id) before shuffling them")
  end
end

-- One game: setup(data, seats, {seed = seed, mode = mode}), then random legal moves for the seats to_act
-- names, every step checked, until the game is over or `moves` moves were played. Returns
-- {over = bool, moves = n} or {refused = refusal}, or nil and a violation.
function M.game(engine, data, seats, seed, mode, moves)
  M.at = {seed = seed, move = 0, mode = mode}
  local state, refusal = engine.setup(data, seats, {seed = seed, mode = mode})
  if state == nil then
    if type(refusal) ~= "table" or refusal.text == nil then
      return nil, violation("setup", nil, nil, "returned no state and no refusal",
        "return the state, or nil and a refusal {clause = ..., rule = ..., text = ...} when no game can start")
    end
    return {refused = refusal}
  end
  local every = engine.all_ids(state)
  if type(every) ~= "table" then
    return nil, violation("all_ids", nil, nil, "returned " .. type(every) .. ", not a list of card ids",
      "return the id of every card of the game")
  end
  local ids = tally(every)
  local r = {s = Random.seed(seed * 7919 + 17)}
  for n = 1, moves do
    M.at.move = n
    local acting, kind, broken = check_to_act(engine, state, seats)
    if broken then return nil, broken end
    if kind == "over" then
      local points, winners = engine.scores(state)
      if type(points) ~= "table" or type(winners) ~= "table" then
        return nil, violation("scores", nil, nil, "did not return points and winners at the game's end",
          "return points (a number per seat) and the list of winners")
      end
      for _, seat in ipairs(seats) do
        if type(points[seat]) ~= "number" then
          return nil, violation("scores", seat, nil, "gave no number of points for " .. Bots.key(seat),
            "give every seat its points: points[seat] = n")
        end
      end
      local count = 0
      for _, w in ipairs(winners) do
        count = count + 1
        if not member(seats, w) then
          return nil, violation("scores", w, nil, "named the winner " .. Bots.key(w) .. ", which is no seat",
            "name winners among the seats setup was given")
        end
      end
      if count == 0 and seats[2] ~= nil then
        return nil, violation("scores", nil, nil, "named no winner of a game that is over",
          "name the winning seats once the game is over (several for a tie)")
      end
      return {over = true, moves = n - 1}
    end
    local seat = acting[draw(r, #acting)]
    local listed = engine.legal_moves(state, seat)
    if type(listed) ~= "table" or listed[1] == nil then
      return nil, violation("legal_moves", seat, nil, "listed no move for a seat to_act names",
        "list every move the seat may make (to_act names only seats that have one)")
    end
    if engine.determinize and n % M.DETERMINIZE == 1 then
      broken = check_determinize(engine, state, seat, r)
      if broken then return nil, broken end
    end
    local before = snapshot(state)
    for _ = 1, M.TRIED do
      local _, wrong = check_play(engine, state, seat, Bots.expand(listed[draw(r, #listed)], r), before, ids)
      if wrong then return nil, wrong end
    end
    local move = Bots.expand(listed[draw(r, #listed)], r)
    local after, wrong = check_play(engine, state, seat, move, before, ids)
    if wrong then return nil, wrong end
    state = after
  end
  return {over = false, moves = moves}
end

return M
