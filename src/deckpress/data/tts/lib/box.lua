-- Where the runtime runs (module lib.box): the one layer between the Global script's body and the
-- object that runs it. The same bundled runtime and game table run as the full save's Global script or
-- as the script of the game's box, a bag holding the components (docs/tts.md, "The game in a box").
-- In the full save nothing here changes anything. In a box (M.enter(self), from the box's own script):
--   * UI is the box's own Object UI (self.UI), not the global XmlUI;
--   * getObjectsWithTag, getObjects and Player[color].getHandObjects see only this box's objects: those
--     carrying its scope tag, "box:" and the box's GUID when it was unpacked;
--   * places are relative to where the box was unpacked: M.at(p), and lib.seating's seats;
--   * DATA's card GUIDs are the ones the box gave its cards (M.unpack);
--   * the box's own state (its scope, origin and GUIDs) is saved before the game's (M.save, M.load).
-- A table script never needs to know which: it calls the same globals and lib.api either way.
local Saved = use("lib.saved")

local M = {}

M.origin = {0, 0, 0}  -- where the centre of the full save's table lies (x, z used)
M.scope = nil         -- the scope tag of this box's objects; nil as the Global script
M.box = nil           -- the box object; nil as the Global script
M.guids = {}          -- the GUID the box gave each of its objects, by the GUID the build gave it
local END = "\n--box--\n"  -- ends the box's own part of the saved state

--- A place of the full save's table, {x, y, z}, where it is for this script (around its box).
function M.at(p)
  return {p[1] + M.origin[1], p[2], p[3] + M.origin[3]}
end

local function scoped(list)
  local out, n = {}, 0
  for _, obj in ipairs(list) do
    if M.scope ~= nil and obj.hasTag(M.scope) then
      n = n + 1
      out[n] = obj
    end
  end
  return out
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
  local tags, n = {}, 0
  for _, tag in ipairs(data.Tags or {}) do
    n = n + 1
    tags[n] = tag
  end
  tags[n + 1] = M.scope
  data.Tags = tags
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
  return Saved.encode({scope = M.scope, origin = M.origin, guids = M.guids}) .. END
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
--- and GUIDs become the box's. A box with no part of its own saved is new: it unpacks, done() runs once
--- its components are out, and the whole text is the game's. As the Global script: `text` as it is,
--- done() at once.
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
  move_data(data)
  done()
  return string.sub(text, at + #END)
end

return M
