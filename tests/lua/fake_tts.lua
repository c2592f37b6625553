-- A fake of the Tabletop Simulator scripting API, enough to run deckpress's Global script in tests
-- (lupa.lua52). Objects are built from the save's ObjectStates. Asynchronous TTS calls (Wait, smooth
-- moves, takeObject callbacks) happen at once. Calls are checked the way TTS would reject them: a
-- destroyed object can't be used, a deck left with one card turns into a Card, unknown colours fail.
-- Methods work with TTS's dot syntax (obj.deal(2, "Red")) and with colon syntax.

Fake = {world = {}, created = 0, seated = {}, broadcasts = {}, prints = {}, ui = {attributes = {}, values = {}},
        notebook = {}, seed = 12345, calls = {}}

local COLORS = {White = true, Brown = true, Red = true, Orange = true, Yellow = true, Green = true,
                Teal = true, Blue = true, Purple = true, Pink = true, Grey = true, Black = true}

local function record(name) Fake.calls[#Fake.calls + 1] = name end

local function random()  -- a fixed LCG, so shuffles are the same every run
  Fake.seed = (Fake.seed * 1103515245 + 12345) % 2147483648
  return Fake.seed
end

local function copy_list(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return out
end

local new_object

local function alive(obj)
  if obj.destroyed then error("attempt to use a destroyed object (" .. obj.guid .. ")", 3) end
end

local function method(obj, name, fn)
  obj[name] = function(first, ...)
    alive(obj)
    if first == obj then return fn(...) end
    return fn(first, ...)
  end
end

local function remove_from_world(obj)
  for i, other in ipairs(Fake.world) do
    if other == obj then table.remove(Fake.world, i) return end
  end
end

local function destroy(obj)
  remove_from_world(obj)
  obj.destroyed = true
  obj.hand = nil
end

local function vector(v)
  if v == nil then return {x = 0, y = 0, z = 0} end
  return {x = v.x or v[1] or 0, y = v.y or v[2] or 0, z = v.z or v[3] or 0}
end

-- Put a state (table from the save) into the world as an object.
new_object = function(state, position)
  Fake.created = Fake.created + 1
  local t = state.Transform or {}
  local obj = {state = state, guid = state.GUID or string.format("f%05d", Fake.created), destroyed = false,
               position = position or {x = t.posX or 0, y = t.posY or 0, z = t.posZ or 0},
               rotation = {x = t.rotX or 0, y = t.rotY or 0, z = t.rotZ or 0}, hand = nil}
  local name = state.Name
  if name == "DeckCustom" or name == "Deck" then obj.type = "Deck"
  elseif name == "Card" or name == "CardCustom" then obj.type = "Card"
  elseif name == "HandTrigger" then obj.type = "Hand"
  else obj.type = "Generic" end
  obj.contained = copy_list(state.ContainedObjects or {})
  obj.tags = {}
  for _, tag in ipairs(state.Tags or {}) do obj.tags[tag] = true end

  method(obj, "getGUID", function() return obj.guid end)
  method(obj, "getName", function() return obj.state.Nickname or "" end)
  method(obj, "getDescription", function() return obj.state.Description or "" end)
  method(obj, "getGMNotes", function() return obj.state.GMNotes or "" end)
  method(obj, "hasTag", function(tag) return obj.tags[tag] == true end)
  method(obj, "getTags", function()
    local out = {}
    for _, tag in ipairs(obj.state.Tags or {}) do out[#out + 1] = tag end
    return out
  end)
  method(obj, "getPosition", function() return obj.position end)
  method(obj, "setPosition", function(p) obj.position = vector(p) obj.hand = Fake.zone_hand(obj) return true end)
  method(obj, "setPositionSmooth", function(p) obj.position = vector(p) obj.hand = Fake.zone_hand(obj) return true end)
  method(obj, "getRotation", function() return obj.rotation end)
  method(obj, "setRotation", function(r) obj.rotation = vector(r) return true end)
  method(obj, "setRotationSmooth", function(r) obj.rotation = vector(r) return true end)
  method(obj, "flip", function() obj.rotation.z = (obj.rotation.z + 180) % 360 return true end)
  method(obj, "is_face_down", function() return obj.rotation.z == 180 end)
  method(obj, "destruct", function() destroy(obj) return true end)
  method(obj, "setLock", function(v) obj.locked = v return true end)
  method(obj, "getData", function() return Fake.object_data(obj) end)
  method(obj, "createButton", function(params)
    obj.buttons = obj.buttons or {}
    obj.buttons[#obj.buttons + 1] = params
    return true
  end)

  if obj.type == "Deck" then
    method(obj, "getQuantity", function() return #obj.contained end)
    method(obj, "getObjects", function()
      local out = {}
      for i, card in ipairs(obj.contained) do
        out[i] = {index = i - 1, guid = card.GUID, name = card.Nickname, nickname = card.Nickname,
                  description = card.Description, gm_notes = card.GMNotes, tags = card.Tags}
      end
      return out
    end)
    method(obj, "shuffle", function()
      record("shuffle")
      local list = obj.contained
      for i = #list, 2, -1 do
        local j = random() % i + 1
        list[i], list[j] = list[j], list[i]
      end
      obj.shuffled = (obj.shuffled or 0) + 1
      return true
    end)
    -- Take one card out; the last-but-one card taken turns the deck into its remaining Card, as TTS does.
    local function take(position_index, position)
      local card = table.remove(obj.contained, position_index)
      local out = new_object(card, position)
      if #obj.contained == 1 then
        local last = new_object(table.remove(obj.contained, 1), obj.position)
        obj.remainder = last
        destroy(obj)
      end
      return out
    end
    method(obj, "takeObject", function(params)
      params = params or {}
      local at = nil
      if params.guid ~= nil then
        for i, card in ipairs(obj.contained) do
          if card.GUID == params.guid then at = i break end
        end
        if at == nil then error("takeObject: no card " .. params.guid .. " in the deck", 2) end
      else
        at = (params.index or 0) + 1
        if at > #obj.contained then error("takeObject: index out of range", 2) end
      end
      -- TTS defaults: the container's position + 2 on x, the container's rotation (flip turns it over)
      local where = params.position and vector(params.position)
        or {x = obj.position.x + 2, y = obj.position.y, z = obj.position.z}
      local turn = params.rotation and vector(params.rotation)
        or {x = obj.rotation.x, y = obj.rotation.y, z = (obj.rotation.z + (params.flip and 180 or 0)) % 360}
      local taken = take(at, where)
      taken.rotation = turn
      taken.hand = Fake.zone_hand(taken)
      if params.callback_function then params.callback_function(taken) end
      return taken
    end)
    method(obj, "deal", function(count, color, index)
      record("deal " .. tostring(count) .. " " .. tostring(color))
      if type(count) ~= "number" or count < 0 or count % 1 ~= 0 then error("deal: bad count", 2) end
      if not COLORS[color] or color == "Grey" or color == "Black" then error("deal: bad colour " .. tostring(color), 2) end
      if not Fake.has_hand(color) then error("deal: " .. color .. " has no hand zone", 2) end
      for _ = 1, count do
        if obj.destroyed then
          local last = obj.remainder
          if last ~= nil and not last.destroyed and last.hand == nil then
            last.position = Fake.next_hand_position(color)
            last.hand = color
          end
          break
        end
        local card = take(1, nil)
        card.position = Fake.next_hand_position(color)
        card.hand = color
      end
      return true
    end)
    method(obj, "putObject", function(other)
      alive(other)
      if other.type == "Card" then
        table.insert(obj.contained, 1, other.state)
      elseif other.type == "Deck" then
        for i = #other.contained, 1, -1 do table.insert(obj.contained, 1, other.contained[i]) end
      else
        error("putObject: a deck only takes cards and decks", 2)
      end
      destroy(other)
      return obj
    end)
  end
  Fake.world[#Fake.world + 1] = obj
  return obj
end

function Fake.has_hand(color)
  for _, obj in ipairs(Fake.world) do
    if obj.type == "Hand" and obj.state.FogColor == color then return true end
  end
  return false
end

function Fake.load(states)
  for _, state in ipairs(states) do new_object(state) end
end

-- The objects in color's hand, left to right as its player sees them (TTS orders a hand by where each
-- card lies along the hand zone's right axis); equal places keep the order they arrived in.
function Fake.hand(color)
  local out, rank = {}, {}
  for i, obj in ipairs(Fake.world) do
    if obj.hand == color then
      out[#out + 1] = obj
      rank[obj] = i
    end
  end
  local along = {}
  for _, obj in ipairs(out) do along[obj] = Fake.along_hand(color, obj.position) end
  table.sort(out, function(a, b)
    if along[a] ~= along[b] then return along[a] < along[b] end
    return rank[a] < rank[b]
  end)
  return out
end

function Fake.hand_names(color)
  local out = {}
  for i, obj in ipairs(Fake.hand(color)) do out[i] = obj.getName() end
  return out
end

-- --- The TTS globals -------------------------------------------------------------------------------

function getObjectsWithTag(tag)
  local out = {}
  for _, obj in ipairs(Fake.world) do
    if obj.tags[tag] then out[#out + 1] = obj end
  end
  return out
end

function getObjects()
  return copy_list(Fake.world)
end

function getObjectFromGUID(guid)
  for _, obj in ipairs(Fake.world) do
    if obj.guid == guid then return obj end
  end
  return nil
end

function group(objects)
  local cards = {}
  for _, obj in ipairs(objects) do
    alive(obj)
    if obj.type ~= "Card" then error("group: the fake only groups cards", 2) end
    cards[#cards + 1] = obj.state
  end
  if #cards < 2 then return {} end
  local first = objects[1]
  local deck = new_object({Name = "Deck", GUID = string.format("g%05d", Fake.created + 1),
                           Tags = first.state.Tags, ContainedObjects = cards, Transform = first.state.Transform})
  for _, obj in ipairs(objects) do destroy(obj) end
  return {deck}
end

function getSeatedPlayers()
  return copy_list(Fake.seated)
end

Player = setmetatable({}, {__index = function(t, color)
  if not COLORS[color] then error("Player: no colour " .. tostring(color), 2) end
  local player = {color = color, steam_name = "Player " .. color}
  player.seated = false
  for _, seated in ipairs(Fake.seated) do if seated == color then player.seated = true end end
  player.getHandObjects = function() return Fake.hand(color) end
  player.getHandTransform = function() return Fake.hand_transform(color) end
  return player
end})

function broadcastToAll(message, color)
  if type(message) ~= "string" then error("broadcastToAll: message must be a string", 2) end
  Fake.broadcasts[#Fake.broadcasts + 1] = message
end

function broadcastToColor(message, player_color, color)
  Fake.broadcasts[#Fake.broadcasts + 1] = message
end

function printToAll(message, color)
  Fake.prints[#Fake.prints + 1] = tostring(message)
end

function log(value) Fake.prints[#Fake.prints + 1] = tostring(value) end

Wait = {
  time = function(fn, seconds, repetitions) fn() return 1 end,
  frames = function(fn, count) fn() return 1 end,
  condition = function(fn, condition, timeout, timeout_fn)
    if condition() then fn() elseif timeout_fn then timeout_fn() end
    return 1
  end,
  stop = function(id) return true end,
}

UI = {
  setAttribute = function(id, name, value)
    Fake.ui.attributes[id] = Fake.ui.attributes[id] or {}
    Fake.ui.attributes[id][name] = tostring(value)
    return true
  end,
  getAttribute = function(id, name)
    return (Fake.ui.attributes[id] or {})[name]
  end,
  setValue = function(id, value)
    Fake.ui.values[id] = tostring(value)
    return true
  end,
  getValue = function(id) return Fake.ui.values[id] end,
  show = function(id) UI.setAttribute(id, "active", "true") return true end,
  hide = function(id) UI.setAttribute(id, "active", "false") return true end,
}

Notes = {
  addNotebookTab = function(tab) Fake.notebook[#Fake.notebook + 1] = tab return #Fake.notebook - 1 end,
  getNotebookTabs = function() return copy_list(Fake.notebook) end,
}

-- --- Hand zones as boxes on the table (Player.getHandTransform, cards moved into and out of hands) ---

function Fake.hand_zone(color)
  for _, obj in ipairs(Fake.world) do
    if obj.type == "Hand" and obj.state.FogColor == color then return obj end
  end
  return nil
end

-- What TTS's Player.getHandTransform() returns: position, rotation, scale and the unit vectors
-- forward (towards the table's centre), right and up (Unity's left-handed axes, rotation about y).
function Fake.hand_transform(color)
  local zone = Fake.hand_zone(color)
  if zone == nil then return nil end
  local t = zone.state.Transform or {}
  local a = math.rad(zone.rotation.y)
  local p = zone.position
  return {position = {x = p.x, y = p.y, z = p.z}, rotation = {x = zone.rotation.x, y = zone.rotation.y, z = zone.rotation.z},
          scale = {x = t.scaleX or 1, y = t.scaleY or 1, z = t.scaleZ or 1},
          forward = {x = math.sin(a), y = 0, z = math.cos(a)}, right = {x = math.cos(a), y = 0, z = -math.sin(a)},
          up = {x = 0, y = 1, z = 0}}
end

-- Distance of `position` along color's hand zone's right axis from the zone's centre.
function Fake.along_hand(color, position)
  local h = Fake.hand_transform(color)
  if h == nil or position == nil then return 0 end
  return (position.x - h.position.x) * h.right.x + (position.z - h.position.z) * h.right.z
end

-- The colour whose hand zone box holds obj's position (objects with Hands = false never join a hand).
function Fake.zone_hand(obj)
  if obj.type == "Hand" or obj.state.Hands == false then return nil end
  local p = obj.position
  for _, zone in ipairs(Fake.world) do
    if zone.type == "Hand" then
      local h = Fake.hand_transform(zone.state.FogColor)
      local dx, dy, dz = p.x - h.position.x, p.y - h.position.y, p.z - h.position.z
      local x = dx * h.right.x + dz * h.right.z
      local z = dx * h.forward.x + dz * h.forward.z
      if math.abs(x) <= h.scale.x / 2 and math.abs(z) <= h.scale.z / 2 and math.abs(dy) <= h.scale.y / 2 then
        return zone.state.FogColor
      end
    end
  end
  return nil
end

-- Where a card dealt to color's hand lands: right of the rightmost card already there.
function Fake.next_hand_position(color)
  local h = Fake.hand_transform(color)
  if h == nil then return {x = 0, y = 0, z = 0} end
  local offset = -h.scale.x / 2 + 0.5
  for _, obj in ipairs(Fake.world) do
    if obj.hand == color then offset = math.max(offset, Fake.along_hand(color, obj.position) + 0.5) end
  end
  return {x = h.position.x + h.right.x * offset, y = h.position.y, z = h.position.z + h.right.z * offset}
end

-- --- Object data, spawning, Global snap points and vector lines ------------------------------------------

local function deep_copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = deep_copy(v) end
  return out
end

-- What TTS's obj.getData() returns: the object's save data (a deck's current cards as ContainedObjects).
function Fake.object_data(obj)
  local data = deep_copy(obj.state)
  data.Transform = {posX = obj.position.x, posY = obj.position.y, posZ = obj.position.z,
                    rotX = obj.rotation.x, rotY = obj.rotation.y, rotZ = obj.rotation.z}
  if obj.type == "Deck" then data.ContainedObjects = deep_copy(obj.contained) end
  return data
end

-- spawnObjectData({data, position, rotation, callback_function}): TTS spawns the object from its data
-- (a new GUID when the data has none) and calls back once it exists.
function spawnObjectData(params)
  if type(params) ~= "table" or type(params.data) ~= "table" then error("spawnObjectData: data table expected", 2) end
  local data = deep_copy(params.data)
  local obj = nil
  Fake.load({data})
  obj = Fake.world[#Fake.world]
  if params.position then obj.position = vector(params.position) end
  if params.rotation then obj.rotation = vector(params.rotation) end
  record("spawn " .. tostring(data.Name))
  if params.callback_function then params.callback_function(obj) end
  return obj
end

Global = Global or {}
Fake.snap_points, Fake.vector_lines = {}, {}
Global.setSnapPoints = Global.setSnapPoints or function(points)
  for _, point in ipairs(points) do
    if point.position == nil then error("setSnapPoints: every snap point needs a position", 2) end
  end
  Fake.snap_points = deep_copy(points)
  return true
end
Global.getSnapPoints = Global.getSnapPoints or function() return deep_copy(Fake.snap_points) end
Global.setVectorLines = Global.setVectorLines or function(lines)
  for _, line in ipairs(lines) do
    if type(line.points) ~= "table" or #line.points < 2 then error("setVectorLines: a line needs points", 2) end
  end
  Fake.vector_lines = deep_copy(lines)
  return true
end
Global.getVectorLines = Global.getVectorLines or function() return deep_copy(Fake.vector_lines) end
