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
M.VIEW = 16           -- every this many moves, view is checked for every seat

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

-- The card ids of DATA's components: {[card id] = true}, and by component {[component id] = {[card id] = true}}.
local function faces(data)
  local every, by_component = {}, {}
  for _, component in ipairs(data.components or {}) do
    local own = {}
    for _, card in ipairs(component.cards or {}) do
      every[card.id] = true
      own[card.id] = true
    end
    by_component[component.id] = own
  end
  return {every = every, by_component = by_component}
end

-- Whether `t` is a list (keys 1..n only) and its length.
local function list_length(t)
  if type(t) ~= "table" then return nil end
  local n = 0
  for _ in pairs(t) do n = n + 1 end
  for i = 1, n do
    if t[i] == nil then return nil end
  end
  return n
end

local VIEW_KEYS = {zones = true, lines = true}
local ZONE_KEYS = {name = true, owner = true, cards = true}
local CARD_KEYS = {id = true, card = true, down = true, turned = true, component = true}

-- A card entry of a view checked: nil when it is right, else what is wrong and what to write instead.
local function card_wrong(entry, faces_of, ids)
  if type(entry) ~= "table" then
    return "gave " .. type(entry) .. " as a card", "give each card as {id = ..., card = ...} or {down = true}"
  end
  for k in pairs(entry) do
    if not CARD_KEYS[k] then
      return "gave a card the key " .. Bots.key(k), "give a card only id, card, down, turned and component"
    end
  end
  if entry.down ~= nil and entry.down ~= true then
    return "gave a card down = " .. Bots.key(entry.down), "write down = true for a face-down card, else leave it out"
  end
  if entry.turned ~= nil and entry.turned ~= true then
    return "gave a card turned = " .. Bots.key(entry.turned), "write turned = true, else leave it out"
  end
  if entry.down and entry.id == nil then
    if entry.card ~= nil or entry.turned ~= nil or entry.component ~= nil then
      return "gave a face-down card it does not know (no id) other keys",
        "give a card the seat does not know as {down = true} alone"
    end
    return nil
  end
  local kind = type(entry.id)
  if kind ~= "string" and kind ~= "number" then
    return "gave a card with no id", "give every card the seat knows its id (what moves name)"
  end
  if not ids[entry.id] then
    return "named the card " .. Bots.key(entry.id) .. ", which all_ids does not give",
      "give as `id` the engine's own card id, one of all_ids(state)"
  end
  local set = faces_of.every
  if entry.component ~= nil then
    set = faces_of.by_component[entry.component]
    if set == nil then
      return "named the component " .. Bots.key(entry.component) .. ", which is not in DATA",
        "give as `component` the id of one of DATA.components"
    end
  end
  if type(entry.card) ~= "string" or not set[entry.card] then
    return "gave the card " .. Bots.key(entry.id) .. " the face " .. Bots.key(entry.card)
      .. ", which is no card of DATA's components",
      "give as `card` a card id of DATA.components[*].cards[*].id: the face to show"
  end
  return nil
end

-- A view's shape checked (docs/scripting.md, "view: what a seat sees"): nil, or what is wrong and the fix.
local function view_wrong(view, seats, faces_of, ids)
  if type(view) ~= "table" then
    return "returned " .. type(view) .. " where the view goes", "return {zones = {...}, lines = {...}}"
  end
  for k in pairs(view) do
    if not VIEW_KEYS[k] then
      return "returned the key " .. Bots.key(k) .. " in the view", "return only zones and lines"
    end
  end
  local zones = list_length(view.zones)
  if zones == nil then return "returned no list of zones", "return zones = {{name = ..., owner = ..., cards = {...}}, ...}" end
  for z = 1, zones do
    local zone = view.zones[z]
    if type(zone) ~= "table" then return "gave " .. type(zone) .. " as zone " .. z, "give each zone as a table" end
    for k in pairs(zone) do
      if not ZONE_KEYS[k] then
        return "gave zone " .. z .. " the key " .. Bots.key(k), "give a zone only name, owner and cards"
      end
    end
    if type(zone.name) ~= "string" then return "gave zone " .. z .. " no name", "name every zone as players call it" end
    if zone.owner ~= nil and not member(seats, zone.owner) then
      return "gave the zone " .. zone.name .. " the owner " .. Bots.key(zone.owner) .. ", which is no seat",
        "give as owner one of the seats setup was given, or leave it out for a shared zone"
    end
    local n = list_length(zone.cards)
    if n == nil then return "gave the zone " .. zone.name .. " no list of cards", "give every zone cards = {...}" end
    for i = 1, n do
      local text, fix = card_wrong(zone.cards[i], faces_of, ids)
      if text then return text .. " (" .. zone.name .. ", card " .. i .. ")", fix end
    end
  end
  if view.lines ~= nil then
    local n = list_length(view.lines)
    if n == nil then return "returned lines that are no list", "return lines = {\"...\", ...} or leave it out" end
    for i = 1, n do
      if type(view.lines[i]) ~= "string" then
        return "gave line " .. i .. " as " .. type(view.lines[i]), "give every line as a string"
      end
    end
  end
  return nil
end

-- A view as text, its keys in a fixed order (the shape view_wrong checks): what two views are compared by, cheaper
-- than Bots.key's sorting of every table's keys. A part that is no table of that shape is written as its type.
local ZONE_ORDER = {"name", "owner"}
local CARD_ORDER = {"id", "card", "down", "turned", "component"}

local function view_text(view)
  local parts, n = {}, 0
  local function put(value)
    n = n + 1
    parts[n] = type(value) == "string" and string.format("%q", value) or tostring(value)
  end
  local function each(t, key)
    local list = type(t) == "table" and t[key]
    if type(list) ~= "table" then
      put(type(list))
      return {}
    end
    return list
  end
  local function fields(t, keys)
    if type(t) ~= "table" then return put(type(t)) end
    for _, k in ipairs(keys) do put(t[k]) end
  end
  for _, zone in ipairs(each(view, "zones")) do
    fields(zone, ZONE_ORDER)
    for _, entry in ipairs(each(zone, "cards")) do fields(entry, CARD_ORDER) end
    n = n + 1
    parts[n] = "|"   -- unquoted: no string part is
  end
  for _, line in ipairs(each(view, "lines")) do put(line) end
  return table.concat(parts, ",", 1, n)
end

-- What a card entry shows, for a message.
local function shown(entry)
  if entry == nil then return "nothing" end
  if entry.id == nil then return "a face-down card" end
  return tostring(entry.id)
end

-- Where the view of a determinized state differs from the seat's view of the state: what the seat was shown that
-- it cannot know.
local function leak(view, other, seat)
  local who = tostring(seat)
  for z, zone in ipairs(view.zones) do
    local there = other.zones[z]
    if there == nil or there.name ~= zone.name or there.owner ~= zone.owner then
      return "shows " .. who .. " zones that depend on what it cannot see (zone " .. z .. ": " .. zone.name .. ")"
    end
    local count = 0
    for i, entry in ipairs(zone.cards) do
      count = i
      if Bots.key(entry) ~= Bots.key(there.cards[i]) then
        return "shows " .. who .. " a card it cannot see (" .. zone.name .. ", card " .. i .. ": " .. shown(entry) .. ")"
      end
    end
    if there.cards[count + 1] ~= nil then
      return "shows " .. who .. " a count it cannot know (" .. zone.name .. ": " .. count .. " cards)"
    end
  end
  if other.zones[#view.zones + 1] ~= nil then
    return "shows " .. who .. " zones that depend on what it cannot see"
  end
  return "shows " .. who .. " lines that depend on what it cannot see"
end

-- view(state, seat) checked for every seat: plain data of the documented shape, the input unchanged, every card a
-- face of DATA and an id of all_ids, the same view twice, and (with determinize) nothing the seat cannot see: its
-- view of a determinized state is its view of the state.
local function check_view(engine, state, seats, faces_of, ids, r)
  local before = snapshot(state)
  for _, seat in ipairs(seats) do
    local view = engine.view(state, seat)
    local function broken(text, fix)
      return violation("view", seat, nil, text, fix)
    end
    if not equal(state, before) then
      return broken("changed the state it was given", "return a new table and leave the state as it was")
    end
    local text, fix = view_wrong(view, seats, faces_of, ids)
    if text then return broken(text, fix) end
    local key = view_text(view)
    if view_text(engine.view(state, seat)) ~= key then
      return broken("gave two views of one state", "build every list in a fixed order (ipairs, not pairs)")
    end
    if engine.determinize then  -- one redeal: a hidden card shown is almost always another one after it
      local dealt = engine.determinize(state, seat, draw(r, 1000000))
      if not equal(state, before) then
        return violation("determinize", seat, nil, "changed the state it was given",
          "return a new state and leave the one given as it was")
      end
      local other = engine.view(dealt, seat)
      if view_text(other) ~= key then
        return broken(leak(view, other, seat), "show a card the seat cannot see as {down = true}")
      end
    end
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
  local faces_of = engine.view and faces(data)
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
    if faces_of and n % M.VIEW == 1 then
      broken = check_view(engine, state, seats, faces_of, ids, r)
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
