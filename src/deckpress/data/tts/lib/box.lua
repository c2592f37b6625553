-- Where the runtime runs (module lib.box): the one layer between the Global script's body and the
-- object that runs it. The same bundled runtime and game table run as the full save's Global script or
-- as the script of the game's box, a bag holding the components (docs/tts.md, "The game in a box").
-- In the full save only Global's snap points change: its setSnapPoints keeps the boxes' (below). In a box
-- (M.enter(self), from the box's own script):
--   * UI is the box's own Object UI (self.UI), not the global XmlUI;
--   * getObjectsWithTag, getObjects and Player[color].getHandObjects see only this box's objects: those
--     carrying its scope tag, "box:" and the box's GUID when it was unpacked;
--   * places are relative to where the box was unpacked: M.at(p), and lib.seating's seats;
--   * DATA's card GUIDs are the ones the box gave its cards (M.unpack);
--   * Global's snap points and vector lines are shared with every other script at the table (below);
--   * the box's own state (its scope, origin, GUIDs and lines) is saved before the game's (M.save, M.load).
-- A table script never needs to know which: it calls the same globals and lib.api either way.
local Saved = use("lib.saved")
local Util = use("lib.util")

local M = {}

M.origin = {0, 0, 0}  -- where the centre of the full save's table lies (x, z used)
M.scope = nil         -- the scope tag of this box's objects; nil as the Global script
M.box = nil           -- the box object; nil as the Global script
M.guids = {}          -- the GUID the box gave each of its objects, by the GUID the build gave it
M.lines = {}          -- the vector lines this box put into Global's, by their key (line_key)
local END = "\n--box--\n"  -- ends the box's own part of the saved state
local BOX_TAG = "box:"      -- every box's scope tag starts so

-- --- Global's snap points and vector lines -------------------------------------------------------------
-- TTS keeps one list of each for the whole table; Global.setSnapPoints and Global.setVectorLines replace
-- it, for every script at the table: the full save's Global script and each box's. A box's points and
-- lines stay Global's, in table coordinates like the game it laid out (an object's own would move with
-- the box, away from its cards, and turn with it), and each script replaces only its own:
--   * a box's snap points carry its scope tag, so they take only its own objects (TTS: a snap point with
--     tags interacts only with objects sharing one); the Global script's are the points with no box's tag;
--   * a vector line has no tag: a box remembers the lines it set, saved with its state. The Global
--     script's lines are all of them, as TTS gives them (SCORE!'s table keeps every line it did not draw).
-- Each script's getSnapPoints (and a box's getVectorLines) gives only its own.

local function filter(list, keep)
  local out, n = {}, 0
  for _, item in ipairs(list or {}) do
    if keep(item) then
      n = n + 1
      out[n] = item
    end
  end
  return out, n
end

local function has_tag(point, tag)  -- tag nil: any box's scope tag
  for _, t in ipairs(point.tags or {}) do
    if t == tag or (tag == nil and string.sub(t, 1, #BOX_TAG) == BOX_TAG) then return true end
  end
  return false
end

-- A copy of the list of tags `tags` (or none) with this box's scope tag added.
local function with_scope(tags)
  local out = Util.copy_list(tags or {})
  out[#out + 1] = M.scope
  return out
end

local function own_point(point)
  if M.box == nil then return not has_tag(point, nil) end
  return has_tag(point, M.scope)
end

-- A line's points as text, {x, y, z} or TTS's Vectors alike.
local function line_key(line)
  local parts = {}
  for i, p in ipairs(line.points or {}) do
    parts[i] = string.format("%.3f,%.3f,%.3f", p.x or p[1], p.y or p[2], p.z or p[3])
  end
  return table.concat(parts, ";")
end

-- Global with its snap points and vector lines as this script's own; everything else is Global's.
local function shared(global)
  local own = {}
  own.getSnapPoints = function() return (filter(global.getSnapPoints(), own_point)) end
  own.setSnapPoints = function(points)
    local kept, n = filter(global.getSnapPoints(), function(p) return not own_point(p) end)
    for _, point in ipairs(points) do
      local copy = Util.shallow_copy(point)
      if M.box ~= nil and not has_tag(point, M.scope) then copy.tags = with_scope(point.tags) end
      n = n + 1
      kept[n] = copy
    end
    return global.setSnapPoints(kept)
  end
  own.getVectorLines = function()
    if M.box == nil then return global.getVectorLines() end
    return (filter(global.getVectorLines(), function(line) return M.lines[line_key(line)] end))
  end
  own.setVectorLines = function(lines)
    if M.box == nil then return global.setVectorLines(lines) end
    local kept, n = filter(global.getVectorLines(), function(line) return not M.lines[line_key(line)] end)
    local others = n
    for _, line in ipairs(lines) do
      n = n + 1
      kept[n] = line
    end
    local done = global.setVectorLines(kept)
    -- the keys of the lines as TTS keeps them (its numbers are not ours to the last digit), in the order set
    local stored, mine = global.getVectorLines() or {}, {}
    for k = others + 1, n do
      if stored[k] ~= nil then mine[line_key(stored[k])] = true end
    end
    M.lines = mine
    return done
  end
  return setmetatable(own, {__index = global})
end

Global = shared(Global)

--- A place of the full save's table, {x, y, z}, where it is for this script (around its box).
function M.at(p)
  return {p[1] + M.origin[1], p[2], p[3] + M.origin[3]}
end

local function scoped(list)
  return (filter(list, function(obj) return M.scope ~= nil and obj.hasTag(M.scope) end))
end

--- Run as the script of `box`: its UI, its objects, its places (this script's globals only: each TTS
--- object script has globals of its own).
function M.enter(box)
  M.box = box
  local all_tagged, all_objects, players = getObjectsWithTag, getObjects, Player
  M.all_objects = all_objects
  UI = box.UI
  getObjectsWithTag = function(tag) return scoped(all_tagged(tag)) end
  getObjects = function() return scoped(all_objects()) end
  Player = setmetatable({}, {__index = function(_, color)
    local player = players[color]
    if type(player) ~= "table" and type(player) ~= "userdata" then return player end  -- Player.getPlayers etc.
    return setmetatable({getHandObjects = function() return scoped(player.getHandObjects()) end},
                        {__index = player})
  end})
end

-- Every GUID in the game: the objects' and the ones inside decks and bags (cards come out with theirs).
local function used_guids()
  local used = {}
  for _, obj in ipairs(M.all_objects()) do
    used[obj.getGUID()] = true
    if obj.type == "Deck" or obj.type == "Bag" then
      for _, entry in ipairs(obj.getObjects()) do used[entry.guid] = true end
    end
  end
  return used
end

-- A GUID no object uses yet, from a sequence seeded by the box's GUID (the same box unpacks alike).
local function guid_source(used, seed)
  local state = tonumber(seed, 16) or 1
  return function()
    repeat
      state = (state * 69069 + 1) % 16777216  -- exact in doubles: the product stays below 2^53
      local guid = string.format("%06x", state)
      if not used[guid] then
        used[guid] = true
        return guid
      end
    until false
  end
end

-- The object data `data` as this box's: its scope tag, and fresh GUIDs, inside decks too.
local function adopt(data, next_guid)
  data.Tags = with_scope(data.Tags)
  local guid = next_guid()
  M.guids[data.GUID] = guid
  data.GUID = guid
  for _, inner in ipairs(data.ContainedObjects or {}) do adopt(inner, next_guid) end
end

--- The box's first load: take out its components, each tagged with the box's scope and given a GUID
--- no other object uses (two boxes of one game hold the same GUIDs), laid out around the box as the
--- full save lays them around the table's centre; the box lies at layout.box ({x, z}) from that centre.
--- done() once they are all on the table.
function M.unpack(layout, done)
  local box = M.box
  local p = box.getPosition()
  M.origin = {p.x - layout.box[1], 0, p.z - layout.box[2]}
  M.scope = "box:" .. box.getGUID()
  local contents = box.getData().ContainedObjects or {}
  local next_guid = guid_source(used_guids(), box.getGUID())
  box.reset()  -- TTS: resetting a bag empties it
  local j = use("lib.table").join(done)
  for _, data in ipairs(contents) do
    adopt(data, next_guid)
    local t = data.Transform
    spawnObjectData({data = data, position = M.at({t.posX, t.posY, t.posZ}), rotation = {t.rotX, t.rotY, t.rotZ},
                     callback_function = j.add()})
  end
  j.start()
end

--- The box's part of the saved state, to go before the game's.
function M.save()
  if M.box == nil then return "" end
  local lines, n = {}, 0
  for key in pairs(M.lines) do
    n = n + 1
    lines[n] = key
  end
  table.sort(lines)
  return Saved.encode({scope = M.scope, origin = M.origin, guids = M.guids, lines = lines}) .. END
end

-- DATA as it is around the box: its places (layout.home, layout.aside) moved, its cards' GUIDs the box's.
local function move_data(data)
  data.layout.home = M.at(data.layout.home)
  data.layout.aside = M.at(data.layout.aside)
  for _, component in ipairs(data.components) do
    for _, card in ipairs(component.cards) do
      for k, guid in ipairs(card.guids) do card.guids[k] = M.guids[guid] or guid end
    end
  end
end

--- Read the box's part back from `text` and return the rest (the game's); `data` is DATA, whose places
--- and GUIDs become the box's. A box with no part of its own saved (or a damaged one) is new: it unpacks,
--- done() runs once its components are out, and the whole text is the game's (whose own reading skips
--- what is not its own). As the Global script: `text` as it is, done() at once.
function M.load(text, data, done)
  if M.box == nil then
    done()
    return text
  end
  local at = string.find(text, END, 1, true)
  local saved = at and Saved.decode(string.sub(text, 1, at - 1))
  if type(saved) ~= "table" or type(saved.scope) ~= "string" then
    M.unpack(data.layout, done)
    move_data(data)
    return text
  end
  M.scope = saved.scope
  if type(saved.origin) == "table" then M.origin = saved.origin end
  if type(saved.guids) == "table" then M.guids = saved.guids end
  for _, key in ipairs(type(saved.lines) == "table" and saved.lines or {}) do M.lines[key] = true end
  move_data(data)
  done()
  return string.sub(text, at + #END)
end

return M
