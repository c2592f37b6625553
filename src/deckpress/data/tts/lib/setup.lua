-- Pure set-up arithmetic for "Get ready!": who plays, how many cards each, which cards leave the deck.
-- No TTS calls here (global.lua.j2 does those), so the rules engines and the tests can use it as is.
local M = {}

-- The seated colours that have a hand zone, in clockwise seat order (seats = DATA.seats).
function M.order_seated(seats, seated)
  local present = {}
  for _, color in ipairs(seated) do present[color] = true end
  local out, n = {}, 0
  for _, color in ipairs(seats) do
    if present[color] then
      n = n + 1
      out[n] = color
    end
  end
  return out
end

-- Seated colours that have no hand zone in this save (they get no cards).
function M.unseatable(seats, seated)
  local known = {}
  for _, color in ipairs(seats) do known[color] = true end
  local out, n = {}, 0
  for _, color in ipairs(seated) do
    if not known[color] and color ~= "Grey" and color ~= "Black" then
      n = n + 1
      out[n] = color
    end
  end
  return out
end

-- Cards each player gets for this many players, or nil and a message.
function M.cards_each(deal, players)
  local n = deal[players]
  if n ~= nil then return n end
  local known, n = {}, 0
  for count, _ in pairs(deal) do
    n = n + 1
    known[n] = count
  end
  table.sort(known)
  if #known == 0 then return nil, "this game has no deal table (setup.deal)" end
  local list = {}
  for i, count in ipairs(known) do list[i] = tostring(count) end
  return nil, "no deal for " .. players .. " player" .. (players == 1 and "" or "s")
    .. "; this game deals for " .. table.concat(list, ", ") .. " players"
end

-- Card ids taken out of the deck for this many players (a set: id -> true).
function M.removed_ids(remove, players)
  local out = {}
  for _, id in ipairs((remove or {})[players] or {}) do out[id] = true end
  return out
end

-- A string or number field of a card's GM notes (the flat JSON deckpress writes), or nil. The key is
-- found with a plain find and its value read where it starts: a pattern that fails scans the whole
-- notes from every position, which MoonSharp does slowly (tables read every card's notes at once).
function M.field(gm_notes, key)
  if type(gm_notes) ~= "string" then return nil end
  local _, colon = string.find(gm_notes, '"' .. key .. '":', 1, true)
  if colon == nil then return nil end
  if string.sub(gm_notes, colon + 1, colon + 1) == '"' then
    return string.match(gm_notes, '^"([^"]*)"', colon + 1)
  end
  return tonumber(string.match(gm_notes, '^%-?[%d%.]+', colon + 1))
end

-- The card id a card's GM notes start with: deckpress writes {"id":"...", ...}.
function M.card_id(gm_notes)
  if type(gm_notes) ~= "string" then return nil end
  return string.match(gm_notes, '^{"id":"([^"]*)"')
end

-- The whole plan: {players = {colours...}, each = n, remove = {id = true}}, or nil and a message.
-- deck_size is the number of cards in the gathered deck; removed_count how many of them leave it.
function M.plan(data, seated, deck_size, removed_count)
  local players = M.order_seated(data.seats, seated)
  if #players == 0 then return nil, "nobody is seated: take a seat (a colour) first" end
  local each, message = M.cards_each(data.setup.deal, #players)
  if each == nil then return nil, message end
  if deck_size ~= nil then
    local available = deck_size - (removed_count or 0)
    if each * #players > available then
      return nil, "not enough cards: " .. #players .. " players x " .. each .. " needs "
        .. (each * #players) .. ", the deck has " .. available
    end
  end
  return {players = players, each = each, remove = M.removed_ids(data.setup.remove, #players)}
end

return M
