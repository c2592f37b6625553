-- TTS-facing helpers shared by the Global script and the games' table scripts. Like every file named
-- table.lua, this one talks to the table; the decisions stay in the pure modules.
local M = {}

function M.say(message)
  broadcastToAll(message, {1, 1, 1})
end

M.WARNING = {1, 0.4, 0.3}  -- the colour of what warn says (a refusal): `deckpress test`'s `refused` tells it by it

function M.warn(message)
  broadcastToAll(message, M.WARNING)
end

-- Show `text` in the XmlUI element `id` (a game's turn line).
function M.show_text(id, text)
  UI.setValue(id, text)
end

-- TTS is asynchronous: a card taken, dealt or put into a deck, a deck grouped or an object spawned
-- arrives frames later. Every flow below acts on an object only in the callback or once a
-- Wait.condition says it is there, and never on a deck that may be gone (see docs/tts.md).

M.TIMEOUT = 10  -- seconds a flow waits for TTS before it gives up and says so

local running = nil  -- the flow under way ({name = ...}), or nil

-- Run the flow `name`: fn(finish) starts it and calls finish() once everything it did has arrived.
-- While one runs, another is refused with a message (a button pressed twice runs once).
function M.flow(name, fn)
  if running ~= nil then
    M.warn(running.name .. " is still under way: wait a moment and press " .. name .. " again")
    return false
  end
  local this = {name = name}
  running = this
  local function finish()  -- a flow that timed out finishing late leaves the next one alone
    if running == this then running = nil end
  end
  local ok, problem = pcall(fn, finish)
  if not ok then
    finish()
    error(problem, 0)
  end
  return true
end

-- Is a flow under way?
function M.busy()
  return running ~= nil
end

-- Call fn once condition() holds; if it doesn't within M.TIMEOUT, say `what` failed and end the flow.
function M.wait(condition, fn, what)
  Wait.condition(fn, condition, M.TIMEOUT, function()
    M.warn(what .. ": Tabletop Simulator did not finish in time; try again")
    running = nil
  end)
end

-- A counter for callbacks: add() returns a callback for one pending call; start() calls fn once
-- every callback handed out has run (at once if none is pending).
function M.join(fn)
  local pending, started, called = 0, false, false
  local j = {}
  local function check()
    if started and pending == 0 and not called then
      called = true
      fn()
    end
  end
  function j.add()
    pending = pending + 1
    local fired = false
    return function()
      if not fired then
        fired = true
        pending = pending - 1
        check()
      end
    end
  end
  function j.start()
    started = true
    check()
  end
  return j
end

-- Is `deck` a formed deck holding `count` cards (not spawning, not gone)?
function M.formed(deck, count)
  return deck ~= nil and not deck.spawning and deck.remainder == nil and deck.getQuantity() == count
end

-- Move the card `guid` out of `deck` to `position` and `rotation`; `callback(card)` runs once it is
-- there. Once taking the card before it turned the deck into its last card (TTS's `remainder`),
-- that card is moved instead.
function M.take(deck, guid, position, rotation, callback)
  local rest = deck.remainder
  if rest ~= nil then
    if rest.getGUID() ~= guid then error("the card " .. tostring(guid) .. " is no longer in the deck", 2) end
    rest.setPosition(position)
    rest.setRotation(rotation)
    if callback then callback(rest) end
    return rest
  end
  return deck.takeObject({guid = guid, position = position, rotation = rotation, smooth = false,
                          callback_function = callback})
end

-- Move the top card of `deck` (or, once the deck is down to its last card, that card) to `position`
-- and `rotation`; callback(card) once it is there.
function M.take_top(deck, position, rotation, callback)
  local rest = deck.remainder
  if rest ~= nil then
    rest.setPosition(position)
    rest.setRotation(rotation)
    if callback then callback(rest) end
    return rest
  end
  return deck.takeObject({index = 0, position = position, rotation = rotation, smooth = false,
                          callback_function = callback})
end

-- Take every card of `deck`, top first, to places(k) (position, rotation for card k of count);
-- `callback()` runs once all are there.
function M.take_all(deck, places, callback)
  local j = M.join(callback)
  local count = deck.getQuantity()
  for k = 1, count - 1 do
    local position, rotation = places(k, count)
    deck.takeObject({index = 0, position = position, rotation = rotation, smooth = false, callback_function = j.add()})
  end
  local last = deck.remainder
  if last ~= nil then
    local position, rotation = places(count, count)
    last.setPosition(position)
    last.setRotation(rotation)
  end
  j.start()
end

-- Deal `count` cards of `deck` to `color`. Returns the deck, or nil once it is gone (its last card
-- dealt or left behind as its remainder).
function M.deal(deck, count, color)
  if deck == nil or count == 0 then return deck end
  if deck.remainder ~= nil then return nil end
  deck.deal(count, color)
  if deck.remainder ~= nil then return nil end
  return deck
end

-- Call fn once every colour of `counts` ({color = n}) holds n objects in hand.
function M.when_dealt(counts, fn, what)
  M.wait(function()
    for color, n in pairs(counts) do
      if #Player[color].getHandObjects() < n then return false end
    end
    return true
  end, fn, what)
end

-- Call fn once none of `objects` is moving any more (setPositionSmooth takes frames).
function M.when_still(objects, fn, what)
  M.wait(function()
    for _, obj in ipairs(objects) do
      if obj.isSmoothMoving() then return false end
    end
    return true
  end, fn, what)
end

-- Lay out `count` single pieces tagged `tag` (tokens: loose tiles first, by GUID, then tiles taken out
-- of their Custom_Tile_Stack) at place(k) = position, rotation for k = 1..count. callback(placed,
-- spare) runs once they are all there: how many there were, and the loose pieces left over.
function M.lay_pieces(tag, count, place, callback)
  local loose, stacks, loose_n, stacks_n = {}, {}, 0, 0
  for _, obj in ipairs(M.tagged(tag)) do
    if obj.getQuantity() > 1 then
      stacks_n = stacks_n + 1
      stacks[stacks_n] = obj
    else
      loose_n = loose_n + 1
      loose[loose_n] = obj
    end
  end
  local k, spare, spare_n = 0, {}, 0
  local function put(piece)
    k = k + 1
    local position, rotation = place(k)
    piece.setPosition(position)
    piece.setRotation(rotation)
  end
  for _, piece in ipairs(loose) do
    if k < count then
      put(piece)
    else
      spare_n = spare_n + 1
      spare[spare_n] = piece
    end
  end
  local j = M.join(function() callback(k, spare) end)
  for _, stack in ipairs(stacks) do
    while k < count and stack.remainder == nil do
      k = k + 1
      local position, rotation = place(k)
      stack.takeObject({position = position, rotation = rotation, smooth = false, callback_function = j.add()})
    end
    if stack.remainder ~= nil and k < count then put(stack.remainder) end
  end
  j.start()
end

-- Objects sorted by GUID: TTS promises no order for getObjects/getObjectsWithTag.
function M.by_guid(objects)
  -- Each GUID asked once, and sorted by the built-in order: a Lua comparator costs a call per comparison
  -- in MoonSharp. (No two objects share a GUID.)
  local guids, object_of, out = {}, {}, {}
  for i, obj in ipairs(objects) do
    local guid = obj.getGUID()
    guids[i], object_of[guid] = guid, obj
  end
  table.sort(guids)
  for i, guid in ipairs(guids) do out[i] = object_of[guid] end
  return out
end

-- Objects tagged `tag`, sorted by GUID.
function M.tagged(tag)
  return M.by_guid(getObjectsWithTag(tag))
end

-- The card `guid`'s object: the card itself when it lies loose, else the one of `decks` holding it (cards
-- dropped on a card form a deck), or nil.
function M.holder_of(guid, decks)
  return M.holders(decks)(guid)
end

-- holder_of for many cards while nothing moves (reading the table): holders(decks)(guid), each deck's
-- contents read once.
function M.holders(decks)
  local deck_of = {}
  for _, deck in ipairs(decks) do
    if deck.type == "Deck" and not deck.spawning then
      for _, entry in ipairs(deck.getObjects()) do deck_of[entry.guid] = deck_of[entry.guid] or deck end
    end
  end
  return function(guid)
    local obj = getObjectFromGUID(guid)
    if obj ~= nil and obj.type == "Card" then return obj end
    return deck_of[guid]
  end
end

-- Move the card `guid` to `position` and `rotation`: out of `holder` when that is a deck (frames later;
-- `j.add()` gives the callback that counts the move), else `holder` is the loose card and moves at once.
-- A deck that earlier moves of the same frame left with one card is gone but for its remainder: only
-- `remainder` may be asked of it, so that is asked first.
function M.move_card(holder, guid, position, rotation, j)
  if holder.remainder ~= nil or holder.type == "Deck" then
    M.take(holder, guid, position, rotation, j.add())
  else
    holder.setPosition(position)
    holder.setRotation(rotation)
  end
end

-- The y rotation at which a card reads upright to the holder of `color`'s hand.
function M.upright(color)
  return (Player[color].getHandTransform().rotation.y + 180) % 360
end

-- Where card k of `count` goes when cards are laid left to right into `color`'s hand, `step` apart,
-- and the rotation that shows it upright to that player: places(k) -> position, rotation, the hand zone
-- read once for the whole hand (each read is a call into TTS).
function M.hand_places(color, count, step)
  local hand = Player[color].getHandTransform()
  local px, py, pz = hand.position.x, hand.position.y, hand.position.z
  local rx, rz, up = hand.right.x, hand.right.z, (hand.rotation.y + 180) % 360
  return function(k)
    local x = (k - (count + 1) / 2) * step
    return {px + rx * x, py, pz + rz * x}, {0, up, 0}
  end
end

-- One card's place of hand_places.
function M.hand_place(color, k, count, step)
  return M.hand_places(color, count, step)(k)
end

return M
