-- A fake of the Tabletop Simulator scripting API, enough to run deckpress's Global script without TTS
-- (lupa.lua52: `deckpress test` and deckpress's own tests), and at least as strict as what TTS
-- documents (docs/tts.md, "What the scripts assume of TTS", says where each rule comes from):
--   * time passes in frames (Fake.tick); takeObject, deal, spawnObjectData, group, putObject and
--     setPositionSmooth complete Fake.delay frames later, and their callbacks run then, never inside
--     the call; Wait.frames/condition/time run on those frames;
--   * an object still spawning is in no list (getObjects, getObjectsWithTag, hands) and can't be
--     used as a container; a deck reduced to one card is gone at the end of the frame and, from the
--     take on, only its `remainder` may be read; a destroyed object can't be used at all;
--   * hands lay out their own cards (left to right, evenly spaced) at the end of every frame;
--   * members of objects, Player, UI, Global and Notes that the TTS API docs do not list raise;
--   * getObjects, getObjectsWithTag and getSeatedPlayers return their lists in a shuffled order
--     (seeded by Fake.order_seed), since TTS promises none;
--   * an object that arrives with the GUID of an object already on the table gets a new GUID, as TTS
--     reassigns duplicates (docs/tts.md);
--   * every object has its own Object UI (obj.UI), apart from the global UI; a Bag holds objects
--     (getObjects, getData, reset empties it). Object scripts run in globals of their own
--     (deckpress.tabletest.fake, FakeTTS.load_box), with `self` the object.
-- Methods work with TTS's dot syntax (obj.deal(2, "Red")) and with colon syntax. A test reads an
-- object's inner state (position, rotation, hand, locked, ...) through obj._fake.

Fake = {world = {}, created = 0, seated = {}, broadcasts = {}, broadcast_colors = {}, prints = {},
        ui = {attributes = {}, values = {}},
        notebook = {}, seed = 12345, order_seed = 0, calls = {}, frame = 0, delay = 0, tasks = {},
        task_count = 0, watches = {}, arrivals = 0}

local COLORS = {White = true, Brown = true, Red = true, Orange = true, Yellow = true, Green = true,
                Teal = true, Blue = true, Purple = true, Pink = true, Grey = true, Black = true}

local function set(list)
  local out = {}
  for _, name in ipairs(list) do out[name] = true end
  return out
end

-- What the TTS API docs list (api.tabletopsimulator.com, source Berserk-Games/Tabletop-Simulator-API:
-- docs/object.md, player/instance.md, ui.md, base.md, notes.md, wait.md). The fake implements some of
-- them; using one it doesn't implement fails with "the fake does not model ...", anything else with
-- "... has no member ...".
local OBJECT_API = set({
  -- member variables
  "alt_view_angle", "angular_drag", "auto_raise", "bounciness", "drag", "drag_selectable", "dynamic_friction",
  "grid_projection", "guid", "held_by_color", "held_flip_index", "held_position_offset", "held_reduce_force",
  "held_rotation_offset", "held_spin_index", "hide_when_face_down", "ignore_fog_of_war", "interactable",
  "is_face_down", "loading_custom", "locked", "mass", "max_typed_number", "measure_movement", "memo", "name",
  "pick_up_position", "pick_up_rotation", "remainder", "resting", "script_code", "script_state", "spawning",
  "static_friction", "sticky", "tag", "tooltip", "type", "use_gravity", "use_grid", "use_hands",
  "use_rotation_value_flip", "use_snap_points", "value", "value_flags", "UI",
  "AssetBundle", "Book", "Browser", "Clock", "Container", "Counter", "LayoutZone", "RPGFigurine", "TextTool",
  -- functions
  "addForce", "addTorque", "getAngularVelocity", "getBounds", "getBoundsNormalized", "getPosition",
  "getRotation", "getScale", "getTransformForward", "getTransformRight", "getTransformUp", "getVelocity",
  "isSmoothMoving", "positionToLocal", "positionToWorld", "rotate", "scale", "setAngularVelocity",
  "setPosition", "setPositionSmooth", "setRotation", "setRotationSmooth", "setScale", "setVelocity",
  "translate", "clearButtons", "clearInputs", "clearContextMenu", "createButton", "createInput", "editButton",
  "editInput", "getButtons", "getInputs", "removeButton", "removeInput", "addContextMenuItem",
  "getAttachments", "getColorTint", "getCustomObject", "getData", "getDescription", "getFogOfWarReveal",
  "getGMNotes", "getGUID", "getJSON", "getJoints", "getLock", "getMemo", "getName", "getObjects",
  "getQuantity", "getRotationValue", "getRotationValues", "getSelectingPlayers", "getStateId", "getStates",
  "getTags", "getValue", "getZones", "hasTag", "hasAnyTag", "hasMatchingTag", "addTag", "removeTag", "setTags",
  "isDestroyed", "setColorTint", "setCustomObject", "setDescription", "setFogOfWarReveal", "setGMNotes",
  "setHiddenFrom", "setInvisibleTo", "setLock", "setMemo", "setName", "setRotationValue",
  "setRotationValues", "setState", "setValue", "addAttachment", "removeAttachment", "removeAttachments",
  "destroyAttachment", "destroyAttachments", "addToPlayerSelection", "removeFromPlayerSelection", "flip",
  "clone", "cut", "deal", "dealToColorWithOffset", "destruct", "drop", "highlightOn", "highlightOff",
  "jointTo", "putObject", "randomize", "registerCollisions", "reload", "reset", "roll", "shuffle",
  "shuffleStates", "split", "spread", "takeObject", "unregisterCollisions", "attachHider",
  "attachInvisibleHider", "addDecal", "call", "getDecals", "getLuaScript", "getSnapPoints", "getTable",
  "getVar", "getVectorLines", "setDecals", "setLuaScript", "setSnapPoints", "setTable", "setVar",
  "setVectorLines",
})

local PLAYER_API = set({
  "admin", "blindfolded", "color", "host", "lift_height", "promoted", "seated", "steam_id", "steam_name",
  "team", "attachCameraToObject", "broadcast", "changeColor", "changeTeam", "clearSelectedObjects",
  "copy", "cut", "getHandCount", "getHandObjects", "getHandTransform", "getHoldingObjects",
  "getHoverObject", "getPointerPosition", "getPointerRotation", "getSelectedObjects", "kick", "lookAt",
  "mute", "pasteAt", "pingTable", "print", "promote", "setCameraMode", "setHandTransform", "setUITheme",
  "showInfoDialog", "showConfirmDialog", "showColorDialog", "showInputDialog", "showMemoDialog",
  "showOptionsDialog",
})

local UI_API = set({
  "loading", "getAttribute", "getAttributes", "getCustomAssets", "getValue", "getXml", "getXmlTable",
  "hide", "setAttribute", "setAttributes", "setClass", "setCustomAssets", "setValue", "setXml",
  "setXmlTable", "show",
})

local GLOBAL_API = set({
  "UI", "script_code", "script_state", "addDecal", "call", "getDecals", "getLuaScript", "getSnapPoints",
  "getTable", "getVar", "getVectorLines", "setDecals", "setLuaScript", "setSnapPoints", "setTable",
  "setVar", "setVectorLines",
})

local NOTES_API = set({"addNotebookTab", "editNotebookTab", "getNotebookTabs", "getNotes", "removeNotebookTab",
                       "setNotes"})

local function record(name) Fake.calls[#Fake.calls + 1] = name end

-- A message broadcast (to all or to one player): Fake.broadcasts, and its colour as the script gave it (false
-- for none) in Fake.broadcast_colors, at the same index.
local function broadcast(message, color)
  local n = #Fake.broadcasts + 1
  Fake.broadcasts[n], Fake.broadcast_colors[n] = message, color or false
end

local function random()  -- a fixed LCG, so shuffles are the same every run
  Fake.seed = (Fake.seed * 1103515245 + 12345) % 2147483648
  return Fake.seed
end

local function copy_list(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return out
end

-- A copy of `list` in a shuffled order (when Fake.order_seed is not 0): TTS promises no order.
local function unordered(list)
  local out = copy_list(list)
  if Fake.order_seed == 0 then return out end
  for i = #out, 2, -1 do
    Fake.order_seed = (Fake.order_seed * 1103515245 + 12345) % 2147483648
    local j = Fake.order_seed % i + 1
    out[i], out[j] = out[j], out[i]
  end
  return out
end

local function deep_copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = deep_copy(v) end
  return out
end

-- A table whose unknown members raise: what TTS's API objects (Player, UI, Global, Notes) do.
local function strict(name, api, members)
  return setmetatable({}, {
    __index = function(_, key)
      local value = members[key]
      if value ~= nil then return value end
      if api[key] then error(name .. "." .. tostring(key) .. ": the fake does not model it", 2) end
      error(name .. " has no member " .. tostring(key) .. " (not in the TTS API)", 2)
    end,
    __newindex = function(_, key) error(name .. "." .. tostring(key) .. " can't be set by a script", 2) end,
  })
end

-- --- Frames ----------------------------------------------------------------------------------------

-- Run fn when `frames` more frames have passed (0: at the end of this frame, after the caller returns).
function Fake.after(frames, fn)
  Fake.task_count = Fake.task_count + 1
  Fake.tasks[#Fake.tasks + 1] = {due = Fake.frame + frames, seq = Fake.task_count, fn = fn}
  return Fake.task_count
end

-- The end of the current frame: every task due runs (and those they schedule for now), hands lay out
-- their cards, Wait.condition is checked; then the next frame starts.
function Fake.tick()
  while true do
    local due, at = nil, nil
    for i, task in ipairs(Fake.tasks) do
      if task.due <= Fake.frame and (due == nil or task.seq < due.seq) then due, at = task, i end
    end
    if due == nil then break end
    table.remove(Fake.tasks, at)
    due.fn()
  end
  Fake.layout_hands()
  for _, watch in ipairs(copy_list(Fake.watches)) do
    if not watch.stopped then
      if watch.condition() then
        watch.stopped = true
        watch.fn()
      elseif watch.timeout ~= nil and Fake.frame >= watch.timeout then
        watch.stopped = true
        if watch.timeout_fn then watch.timeout_fn() end
      end
    end
  end
  local live = {}
  for _, watch in ipairs(Fake.watches) do if not watch.stopped then live[#live + 1] = watch end end
  Fake.watches = live
  Fake.frame = Fake.frame + 1
end

-- Frames pass until nothing is pending (true) or `limit` frames have passed (false).
function Fake.settle(limit)
  for _ = 1, limit or 5000 do
    Fake.tick()
    if #Fake.tasks == 0 and #Fake.watches == 0 then return true end
  end
  return false
end

local function frames_of(seconds) return math.max(1, math.ceil((seconds or 0) * 60)) end

Wait = strict("Wait", set({"condition", "frames", "stop", "stopAll", "time"}), {
  frames = function(fn, count)
    if type(fn) ~= "function" then error("Wait.frames: a function expected", 2) end
    return Fake.after(math.max(count or 1, 1), fn)
  end,
  time = function(fn, seconds, repetitions)
    if type(fn) ~= "function" then error("Wait.time: a function expected", 2) end
    local left = repetitions or 1
    local function again()
      fn()
      left = left - 1
      if left ~= 0 then Fake.after(frames_of(seconds), again) end
    end
    return Fake.after(frames_of(seconds), again)
  end,
  condition = function(fn, condition, timeout, timeout_fn)
    if type(fn) ~= "function" or type(condition) ~= "function" then
      error("Wait.condition: functions expected", 2)
    end
    Fake.task_count = Fake.task_count + 1
    Fake.watches[#Fake.watches + 1] = {fn = fn, condition = condition, id = Fake.task_count,
                                       timeout = timeout and Fake.frame + frames_of(timeout), timeout_fn = timeout_fn}
    return Fake.task_count
  end,
  stop = function(id)
    for i, task in ipairs(Fake.tasks) do if task.seq == id then table.remove(Fake.tasks, i) return true end end
    for _, watch in ipairs(Fake.watches) do if watch.id == id then watch.stopped = true return true end end
    return false
  end,
  stopAll = function() Fake.tasks, Fake.watches = {}, {} return true end,
})

-- --- Objects -----------------------------------------------------------------------------------------

local new_object

local function vector(v)
  if v == nil then return {x = 0, y = 0, z = 0} end
  return {x = v.x or v[1] or 0, y = v.y or v[2] or 0, z = v.z or v[3] or 0}
end

-- A rotation as TTS reads it back: getRotation is Unity's eulerAngles, each angle in [0, 360) (for the
-- rotations scripts set here, x = 0: Unity keeps y and z, turned into that range).
local function angles(v)
  local r = vector(v)
  return {x = r.x % 360, y = r.y % 360, z = r.z % 360}
end

local function in_world(rec)
  for _, other in ipairs(Fake.world) do if other == rec then return true end end
  return false
end

local function join_world(rec)
  rec.spawning = false
  for _, other in ipairs(Fake.world) do  -- TTS reassigns a duplicate GUID
    if other ~= rec and other.guid == rec.guid then
      Fake.created = Fake.created + 1
      rec.guid = string.format("r%05d", Fake.created)
      break
    end
  end
  if not in_world(rec) then Fake.world[#Fake.world + 1] = rec end
  Fake.place(rec, rec.position)
end

local function remove_from_world(rec)
  for i, other in ipairs(Fake.world) do
    if other == rec then table.remove(Fake.world, i) return end
  end
end

local function destroy(rec)
  remove_from_world(rec)
  rec.destroyed = true
  rec.hand = nil
end

local function usable(rec, what)
  if rec.destroyed then error("attempt to use a destroyed object (" .. rec.guid .. ")", 3) end
  if rec.dying then
    error("the deck " .. rec.guid .. " was reduced to one card and is gone: only its remainder can be used ("
          .. what .. ")", 3)
  end
end

local function settled_container(rec, what)
  usable(rec, what)
  if rec.spawning then error(what .. ": the object " .. rec.guid .. " is still spawning (wait until it exists)", 3) end
end

-- Take the card at `index` (1-based) out of the deck `rec`: the card's record, still spawning. Leaving one
-- card, the deck turns into that card (its `remainder`) and is gone at the end of the frame.
local function take_out(rec, index)
  local card = table.remove(rec.contained, index)
  local out = new_object(card, {spawning = true})
  if #rec.contained == 1 then
    local last = new_object(table.remove(rec.contained, 1), {position = rec.position})
    last.rotation = {x = rec.rotation.x, y = rec.rotation.y, z = rec.rotation.z}
    rec.remainder = last.proxy
    rec.dying = true
    remove_from_world(rec)
    Fake.after(0, function() destroy(rec) end)
  end
  return out
end

-- Move a record to `position` and work out which hand holds it now.
function Fake.place(rec, position)
  rec.position = vector(position)
  if rec.spawning or rec.destroyed then return end
  local before = rec.hand
  rec.hand = Fake.zone_hand(rec)
  if rec.hand ~= nil and before ~= rec.hand then
    Fake.arrivals = Fake.arrivals + 1
    rec.arrived = Fake.arrivals
  end
end

-- The functions of an object (rec is the fake's inner state of it).
-- What takeObject gives: the object taken, which lies on the table (and `callback` gets it) frames later.
local function arrive(taken, callback)
  Fake.after(Fake.delay, function()
    join_world(taken)
    if callback then callback(taken.proxy) end
  end)
  return taken.proxy
end

-- A bag's or deck's count and its contents as getObjects lists them (index from 0, top first).
local function container_members(f, rec)
  f.getQuantity = function() settled_container(rec, "getQuantity") return #rec.contained end
  f.getObjects = function()
    settled_container(rec, "getObjects")
    local out = {}
    for i, inner in ipairs(rec.contained) do
      out[i] = {index = i - 1, guid = inner.GUID, name = inner.Nickname, nickname = inner.Nickname,
                description = inner.Description, gm_notes = inner.GMNotes, tags = inner.Tags}
    end
    return out
  end
end

local function functions(rec)
  local f = {}
  f.getGUID = function() return rec.guid end
  f.getName = function() return rec.state.Nickname or "" end
  f.getDescription = function() return rec.state.Description or "" end
  f.getGMNotes = function() return rec.state.GMNotes or "" end
  f.hasTag = function(tag) return rec.tags[tag] == true end
  f.getTags = function()
    local out = {}
    for _, tag in ipairs(rec.state.Tags or {}) do out[#out + 1] = tag end
    return out
  end
  f.getPosition = function() return {x = rec.position.x, y = rec.position.y, z = rec.position.z} end
  f.setPosition = function(p) Fake.place(rec, p) return true end
  f.setPositionSmooth = function(p)
    local target = vector(p)
    rec.moving = (rec.moving or 0) + 1
    Fake.after(Fake.delay, function()
      rec.moving = rec.moving - 1
      if not rec.destroyed then Fake.place(rec, target) end
    end)
    return true
  end
  f.isSmoothMoving = function() return (rec.moving or 0) > 0 end
  f.getRotation = function() return {x = rec.rotation.x, y = rec.rotation.y, z = rec.rotation.z} end
  f.setRotation = function(r) rec.rotation = angles(r) return true end
  f.setRotationSmooth = function(r) rec.rotation = angles(r) return true end
  f.flip = function() rec.rotation.z = (rec.rotation.z + 180) % 360 return true end
  f.destruct = function() destroy(rec) return true end
  f.setLock = function(v) rec.locked = v return true end
  f.getLock = function() return rec.locked == true end
  f.getData = function() return Fake.object_data(rec) end
  f.createButton = function(params)
    rec.buttons = rec.buttons or {}
    rec.buttons[#rec.buttons + 1] = params
    return true
  end
  f.getQuantity = function() return -1 end  -- TTS: -1 for an object that is not a stack
  if rec.stack then  -- a Custom_Tile_Stack: `Number` copies of one tile
    f.getQuantity = function() settled_container(rec, "getQuantity") return rec.number end
    f.takeObject = function(params)
      settled_container(rec, "takeObject")
      params = params or {}
      local function tile()
        local state = deep_copy(rec.state)
        state.Name, state.Number, state.GUID = "Custom_Tile", nil, nil
        return state
      end
      rec.number = rec.number - 1
      local taken = new_object(tile(), {spawning = true,
                                        position = params.position or {x = rec.position.x, y = rec.position.y + 2, z = rec.position.z}})
      if params.rotation then taken.rotation = angles(params.rotation) end
      if rec.number == 1 then  -- the stack turns into its last tile
        local last = new_object(tile(), {position = rec.position})
        last.rotation = {x = rec.rotation.x, y = rec.rotation.y, z = rec.rotation.z}
        rec.remainder, rec.dying = last.proxy, true
        remove_from_world(rec)
        Fake.after(0, function() destroy(rec) end)
      end
      return arrive(taken, params.callback_function)
    end
    return f
  end
  if rec.type == "Bag" then
    container_members(f, rec)
    f.reset = function()  -- TTS: "Resetting a Bag clears its contents"
      usable(rec, "reset")
      rec.contained = {}
      return true
    end
    return f
  end
  if rec.type ~= "Deck" then return f end

  container_members(f, rec)
  f.shuffle = function()
    settled_container(rec, "shuffle")
    record("shuffle")
    local list = rec.contained
    for i = #list, 2, -1 do
      local j = random() % i + 1
      list[i], list[j] = list[j], list[i]
    end
    if Fake.stacked ~= nil then Fake.stack_top(rec) end
    rec.shuffled = (rec.shuffled or 0) + 1
    return true
  end
  local function take(index) return take_out(rec, index) end
  f.takeObject = function(params)
    settled_container(rec, "takeObject")
    params = params or {}
    local at = nil
    if params.guid ~= nil then
      for i, card in ipairs(rec.contained) do
        if card.GUID == params.guid then at = i break end
      end
      if at == nil then error("takeObject: no card " .. params.guid .. " in the deck", 2) end
    else
      at = (params.index or 0) + 1
      if at > #rec.contained then error("takeObject: index out of range", 2) end
    end
    -- TTS defaults: above the container, the container's rotation (flip turns it over)
    local where = params.position and vector(params.position)
      or {x = rec.position.x, y = rec.position.y + 2, z = rec.position.z}
    local turn = params.rotation and angles(params.rotation)
      or {x = rec.rotation.x, y = rec.rotation.y, z = (rec.rotation.z + (params.flip and 180 or 0)) % 360}
    local taken = take(at)
    taken.position, taken.rotation = where, turn
    return arrive(taken, params.callback_function)
  end
  f.deal = function(count, color, index)
    settled_container(rec, "deal")
    record("deal " .. tostring(count) .. " " .. tostring(color))
    if type(count) ~= "number" or count < 0 or count % 1 ~= 0 then error("deal: bad count", 2) end
    if not COLORS[color] or color == "Grey" or color == "Black" then error("deal: bad colour " .. tostring(color), 2) end
    if not Fake.has_hand(color) then error("deal: " .. color .. " has no hand zone", 2) end
    local cards = {}
    for _ = 1, count do
      if rec.dying then  -- the last card itself goes too
        local last = rec.remainder._fake
        if not last.dealt then
          last.dealt = true
          cards[#cards + 1] = last
        end
        break
      end
      cards[#cards + 1] = take(1)
    end
    Fake.after(Fake.delay, function()
      for _, card in ipairs(cards) do
        card.spawning = true
        card.position = Fake.next_hand_position(color)
        join_world(card)
      end
    end)
    return true
  end
  f.putObject = function(other)
    settled_container(rec, "putObject")
    local inner = type(other) == "table" and rawget(other, "_fake")
    if not inner then error("putObject: an object expected", 2) end
    settled_container(inner, "putObject")
    if inner.type ~= "Card" and inner.type ~= "Deck" then error("putObject: a deck only takes cards and decks", 2) end
    if inner.entering then error("putObject: " .. inner.guid .. " is already going into a container", 2) end
    inner.entering = true
    Fake.after(Fake.delay, function()
      if rec.destroyed or rec.dying then error("putObject: the deck " .. rec.guid .. " is gone") end
      if inner.type == "Card" then
        table.insert(rec.contained, 1, inner.state)
      else
        for i = #inner.contained, 1, -1 do table.insert(rec.contained, 1, inner.contained[i]) end
      end
      destroy(inner)
    end)
    return rec.proxy
  end
  return f
end

local function members(rec, key)
  if key == "type" then return rec.type
  elseif key == "guid" then return rec.guid
  elseif key == "name" then return rec.state.Name
  elseif key == "spawning" then return rec.spawning == true
  elseif key == "resting" then return not rec.spawning and (rec.moving or 0) == 0
  elseif key == "is_face_down" then return rec.rotation.z % 360 > 90 and rec.rotation.z % 360 < 270
  elseif key == "remainder" then return rec.remainder
  end
  return nil
end

local MEMBERS = set({"type", "guid", "name", "spawning", "resting", "is_face_down", "remainder"})

local make_ui

local function make_proxy(rec)
  local fns = functions(rec)
  return setmetatable({_fake = rec}, {
    __index = function(proxy, key)
      if key == "UI" then
        usable(rec, key)
        rec.ui = rec.ui or {attributes = {}, values = {}}
        rec.ui_api = rec.ui_api or make_ui(rec.ui, "Object.UI")
        return rec.ui_api
      end
      if key == "remainder" then
        if rec.destroyed then error("attempt to use a destroyed object (" .. rec.guid .. ")", 2) end
        return rec.remainder
      end
      local fn = fns[key]
      if fn ~= nil then
        return function(first, ...)
          usable(rec, key)
          if first == proxy then return fn(...) end
          return fn(first, ...)
        end
      end
      if MEMBERS[key] then
        usable(rec, key)
        return members(rec, key)
      end
      if OBJECT_API[key] then error("Object." .. tostring(key) .. ": the fake does not model it", 2) end
      error("Object has no member " .. tostring(key) .. " (not in the TTS API)", 2)
    end,
    __newindex = function(_, key) error("Object." .. tostring(key) .. " can't be set by the scripts", 2) end,
  })
end

-- Make an object from a state (table from the save). options.spawning: it arrives later (not in
-- the world yet); options.position overrides the state's Transform.
new_object = function(state, options)
  options = options or {}
  Fake.created = Fake.created + 1
  local t = state.Transform or {}
  local rec = {state = state, guid = state.GUID or string.format("f%05d", Fake.created), destroyed = false,
               position = options.position and vector(options.position) or {x = t.posX or 0, y = t.posY or 0, z = t.posZ or 0},
               rotation = {x = t.rotX or 0, y = t.rotY or 0, z = t.rotZ or 0}, hand = nil,
               spawning = options.spawning == true}
  local name = state.Name
  if name == "DeckCustom" or name == "Deck" then rec.type = "Deck"
  elseif name == "Card" or name == "CardCustom" then rec.type = "Card"
  elseif name == "HandTrigger" then rec.type = "Hand"
  elseif name == "Custom_Tile" then rec.type = "Tile"
  elseif name == "Bag" then rec.type = "Bag"
  else rec.type = "Generic" end
  if name == "Custom_Tile_Stack" then rec.stack, rec.number = true, state.Number or 1 end
  rec.contained = copy_list(state.ContainedObjects or {})
  rec.tags = {}
  for _, tag in ipairs(state.Tags or {}) do rec.tags[tag] = true end
  rec.proxy = make_proxy(rec)
  if not rec.spawning then join_world(rec) end
  return rec
end

function Fake.has_hand(color)
  return Fake.hand_zone(color) ~= nil
end

function Fake.load(states)
  for _, state in ipairs(states) do new_object(state) end
end

-- What TTS does when a player loads a saved object: it arrives at `position` (with a new GUID when its
-- own is taken); returns the object.
function Fake.arrive(state, position)
  return new_object(deep_copy(state), {position = position}).proxy
end

-- The objects in color's hand, left to right as its player sees them (TTS orders a hand by where each
-- card lies along the hand zone's right axis); equal places keep the order they arrived in.
function Fake.hand(color)
  local out = {}
  for _, rec in ipairs(Fake.world) do
    if rec.hand == color then out[#out + 1] = rec end
  end
  local along = {}
  for _, rec in ipairs(out) do along[rec] = Fake.along_hand(color, rec.position) end
  table.sort(out, function(a, b)
    if math.abs(along[a] - along[b]) > 1e-9 then return along[a] < along[b] end
    return (a.arrived or 0) < (b.arrived or 0)
  end)
  local proxies = {}
  for i, rec in ipairs(out) do proxies[i] = rec.proxy end
  return proxies
end

function Fake.hand_names(color)
  local out = {}
  for i, obj in ipairs(Fake.hand(color)) do out[i] = obj.getName() end
  return out
end

-- What TTS does with the cards of a hand: lays them out in their order, evenly spaced along the zone.
-- (Their rotation is theirs: a card turned 180 degrees stays turned.)
Fake.HAND_STEP = 1.0
function Fake.layout_hands()
  for _, zone in ipairs(Fake.world) do
    if zone.type == "Hand" then
      local color = zone.state.FogColor
      local cards = Fake.hand(color)
      local h = Fake.hand_transform(color)
      local n = #cards
      local step = n > 1 and math.min(Fake.HAND_STEP, (h.scale.x - 1) / (n - 1)) or 0
      for k, obj in ipairs(cards) do
        local x = (k - (n + 1) / 2) * step
        local rec = obj._fake
        rec.position = {x = h.position.x + h.right.x * x, y = h.position.y, z = h.position.z + h.right.z * x}
      end
    end
  end
end

-- The objects in the world, in the order they came (for tests: no shuffled order).
function Fake.objects()
  local out = {}
  for i, rec in ipairs(Fake.world) do out[i] = rec.proxy end
  return out
end

-- --- The TTS globals -------------------------------------------------------------------------------

function getObjectsWithTag(tag)
  local out = {}
  for _, rec in ipairs(Fake.world) do
    if rec.tags[tag] then out[#out + 1] = rec.proxy end
  end
  return unordered(out)
end

function getObjects()
  return unordered(Fake.objects())
end

function getObjectFromGUID(guid)
  for _, rec in ipairs(Fake.world) do
    if rec.guid == guid then return rec.proxy end
  end
  return nil
end

-- group(objects): the cards (and decks) become one deck Fake.delay frames later; the returned deck is
-- still spawning until then (TTS: "New decks take a frame to be created").
function group(objects)
  local recs = {}
  for _, obj in ipairs(objects) do
    local rec = rawget(obj, "_fake")
    settled_container(rec, "group")
    if rec.type ~= "Card" and rec.type ~= "Deck" then error("group: the fake only groups cards and decks", 2) end
    recs[#recs + 1] = rec
  end
  if #recs < 2 then return {} end
  local cards = {}
  for _, rec in ipairs(recs) do
    if rec.type == "Card" then cards[#cards + 1] = rec.state
    else for _, card in ipairs(rec.contained) do cards[#cards + 1] = card end end
    rec.entering = true
  end
  local first = recs[1]
  local deck = new_object({Name = "Deck", GUID = string.format("g%05d", Fake.created + 1), Tags = first.state.Tags,
                           ContainedObjects = cards, Transform = first.state.Transform},
                          {spawning = true, position = first.position})
  deck.rotation = {x = first.rotation.x, y = first.rotation.y, z = first.rotation.z}
  Fake.after(Fake.delay, function()
    for _, rec in ipairs(recs) do destroy(rec) end
    join_world(deck)
  end)
  return {deck.proxy}
end

function getSeatedPlayers()
  return unordered(Fake.seated)
end

-- Player.getPlayers() (TTS API, Player manager: the Player of every seated player), beside the colours;
-- no other member of Player is faked.
Player = setmetatable({}, {__index = function(t, color)
  if color == "getPlayers" then
    return function() local out = {} for i, c in ipairs(Fake.seated) do out[i] = t[c] end return out end
  end
  if not COLORS[color] then error("Player: no colour " .. tostring(color), 2) end
  local seated = false
  for _, c in ipairs(Fake.seated) do if c == color then seated = true end end
  return strict("Player", PLAYER_API, {
    color = color, steam_name = "Player " .. color, seated = seated, host = color == Fake.seated[1],
    admin = color == Fake.seated[1], promoted = false, team = "None",
    getHandObjects = function() return Fake.hand(color) end,
    getHandCount = function() return Fake.hand_zone(color) and 1 or 0 end,
    getHandTransform = function() return Fake.hand_transform(color) end,
    broadcast = function(message, tint) broadcast(message, tint) return true end,
    print = function(message) Fake.prints[#Fake.prints + 1] = tostring(message) return true end,
  })
end})

local function check_color(color, what)
  if not COLORS[color] then error(what .. ": no player colour " .. tostring(color), 3) end
end

function broadcastToAll(message, color)
  if type(message) ~= "string" then error("broadcastToAll: message must be a string", 2) end
  broadcast(message, color)
end

function broadcastToColor(message, player_color, color)
  if type(message) ~= "string" then error("broadcastToColor: message must be a string", 2) end
  check_color(player_color, "broadcastToColor")
  broadcast(message, color)
end

function printToAll(message, color)
  Fake.prints[#Fake.prints + 1] = tostring(message)
end

function log(value) Fake.prints[#Fake.prints + 1] = tostring(value) end

-- A UI (the global one, or an object's own) over `store` ({attributes, values}).
make_ui = function(store, name)
  local function ui_set(id, attribute, value)
    store.attributes[id] = store.attributes[id] or {}
    store.attributes[id][attribute] = tostring(value)
    return true
  end
  return strict(name, UI_API, {
    setAttribute = ui_set,
    getAttribute = function(id, attribute) return (store.attributes[id] or {})[attribute] end,
    setValue = function(id, value) store.values[id] = tostring(value) return true end,
    getValue = function(id) return store.values[id] end,
    show = function(id) return ui_set(id, "active", "true") end,
    hide = function(id) return ui_set(id, "active", "false") end,
  })
end

UI = make_ui(Fake.ui, "UI")

Notes = strict("Notes", NOTES_API, {
  addNotebookTab = function(tab) Fake.notebook[#Fake.notebook + 1] = tab return #Fake.notebook - 1 end,
  getNotebookTabs = function() return copy_list(Fake.notebook) end,
})

-- --- Hand zones as boxes on the table (Player.getHandTransform, cards moved into and out of hands) ---

function Fake.hand_zone(color)
  for _, rec in ipairs(Fake.world) do
    if rec.type == "Hand" and rec.state.FogColor == color then return rec end
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

-- The colour whose hand zone box holds rec's position (objects with Hands = false never join a hand).
function Fake.zone_hand(rec)
  if rec.type == "Hand" or rec.state.Hands == false then return nil end
  local p = rec.position
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
  for _, rec in ipairs(Fake.world) do
    if rec.hand == color then offset = math.max(offset, Fake.along_hand(color, rec.position) + 0.01) end
  end
  return {x = h.position.x + h.right.x * offset, y = h.position.y, z = h.position.z + h.right.z * offset}
end

-- --- Object data, spawning, Global snap points and vector lines ------------------------------------------

-- What TTS's obj.getData() returns: the object's save data (a deck's current cards as ContainedObjects).
function Fake.object_data(rec)
  local data = deep_copy(rec.state)
  data.GUID = rec.guid
  data.Transform = {posX = rec.position.x, posY = rec.position.y, posZ = rec.position.z,
                    rotX = rec.rotation.x, rotY = rec.rotation.y, rotZ = rec.rotation.z}
  if rec.type == "Deck" or rec.type == "Bag" then data.ContainedObjects = deep_copy(rec.contained) end
  return data
end

-- spawnObjectData({data, position, rotation, callback_function}): TTS spawns the object from its data
-- (a new GUID when the data has none); it exists Fake.delay frames later and the callback runs then.
function spawnObjectData(params)
  if type(params) ~= "table" or type(params.data) ~= "table" then error("spawnObjectData: data table expected", 2) end
  local data = deep_copy(params.data)
  local rec = new_object(data, {spawning = true, position = params.position})
  if params.rotation then rec.rotation = angles(params.rotation) end
  record("spawn " .. tostring(data.Name))
  local callback = params.callback_function
  Fake.after(Fake.delay, function()
    join_world(rec)
    if callback then callback(rec.proxy) end
  end)
  return rec.proxy
end

-- x as Unity keeps it: a 32-bit float (the table's snap points and vector lines are Unity Vector3s), so
-- what a script reads back is not its own number to the last digit.
local function single(x)
  if x == 0 or x ~= x or x == math.huge or x == -math.huge then return x end
  local m, e = math.frexp(x)
  return math.ldexp(math.floor(m * 16777216 + 0.5) / 16777216, e)
end

-- A position given as {x, y, z} or {x=, y=, z=}, kept in the same shape with 32-bit numbers.
local function stored_vector(v, what)
  if type(v) ~= "table" then error(what .. ": a vector expected, got " .. type(v), 3) end
  local out = {}
  for k, n in pairs(v) do
    if type(n) ~= "number" then error(what .. ": a vector's " .. tostring(k) .. " is not a number", 3) end
    out[k] = single(n)
  end
  return out
end

-- The table's snap points and vector lines (Global's; objects' own are not modelled). TTS's API docs
-- (object.md, setSnapPoints, getSnapPoints, setVectorLines): set replaces the whole list; a snap point's
-- position, rotation, rotation_snap and tags are optional ({0,0,0}, {0,0,0}, false, {}) and get gives all
-- four; tags are a list of strings (object-tags in the knowledge base: a snap point with tags takes only
-- objects sharing one). The fake asks every snap point for its position and every line for two points.
Fake.snap_points, Fake.vector_lines = {}, {}
Global = strict("Global", GLOBAL_API, {
  setSnapPoints = function(points)
    local kept = {}
    for i, point in ipairs(points) do
      if point.position == nil then error("setSnapPoints: every snap point needs a position", 2) end
      local tags = {}
      for k, tag in ipairs(point.tags or {}) do
        if type(tag) ~= "string" then error("setSnapPoints: a snap point's tags are strings", 2) end
        tags[k] = tag
      end
      kept[i] = {position = stored_vector(point.position, "setSnapPoints"),
                 rotation = stored_vector(point.rotation or {0, 0, 0}, "setSnapPoints"),
                 rotation_snap = point.rotation_snap == true, tags = tags}
    end
    Fake.snap_points = kept
    return true
  end,
  getSnapPoints = function() return deep_copy(Fake.snap_points) end,
  setVectorLines = function(lines)
    local kept = {}
    for i, line in ipairs(lines) do
      if type(line.points) ~= "table" or #line.points < 2 then error("setVectorLines: a line needs points", 2) end
      kept[i] = deep_copy(line)
      for k, p in ipairs(line.points) do kept[i].points[k] = stored_vector(p, "setVectorLines") end
    end
    Fake.vector_lines = kept
    return true
  end,
  getVectorLines = function() return deep_copy(Fake.vector_lines) end,
})

-- --- What a player does, for `deckpress test` (deckpress.tabletest.run) ------------------------------

-- The next shuffle of a deck holding a card of each of `wanted` (a list of sets {guid = true}, one set per
-- card: any one of its GUIDs will do) leaves those cards on top in that order, the rest shuffled under
-- them: a stacked deck. Fake.stacked is nil again once a shuffle has stacked it.
function Fake.stack(wanted)
  Fake.stacked = wanted
end

function Fake.stack_top(rec)
  local picked, used = {}, {}
  for k, guids in ipairs(Fake.stacked) do
    for i, card in ipairs(rec.contained) do
      if not used[i] and guids[card.GUID] then
        picked[k], used[i] = i, true
        break
      end
    end
    if picked[k] == nil then return end  -- not the deck the stack is for
  end
  local list, n = {}, 0
  for _, i in ipairs(picked) do
    n = n + 1
    list[n] = rec.contained[i]
  end
  for i, card in ipairs(rec.contained) do
    if not used[i] then
      n = n + 1
      list[n] = card
    end
  end
  rec.contained = list
  Fake.stacked = nil
end

-- A card as deckpress test reads it: {guid, name, notes} (notes: its GM notes, which name its component
-- and id).
local function card_entry(guid, state)
  return {guid = guid, name = state.Nickname or "", notes = state.GMNotes or ""}
end

-- The player drags the card `guid` to `position` (nil: it stays where it lies), turns it face "up" or
-- "down" (nil: as it was) and, when `turned`, half a turn round: a loose card, one in a hand, or one in
-- a deck, out of which it comes at once (a deck left with one card is gone, that card loose where the deck
-- lay; a card taken out of a deck needs a `position`). False when the table has no such card.
function Fake.drag(guid, position, face, turned)
  local function turn(rec)
    if face == "up" then rec.rotation.z = 0 elseif face == "down" then rec.rotation.z = 180 end
    if turned then rec.rotation.y = (rec.rotation.y + 180) % 360 end
  end
  for _, rec in ipairs(Fake.world) do
    if rec.guid == guid and rec.type == "Card" then
      turn(rec)
      if position ~= nil then Fake.place(rec, position) end
      return true
    end
  end
  for _, rec in ipairs(Fake.world) do
    if rec.type == "Deck" and not rec.dying and position ~= nil then
      for i, card in ipairs(rec.contained) do
        if card.GUID == guid then
          local out = take_out(rec, i)
          out.position = vector(position)
          out.rotation = {x = rec.rotation.x, y = rec.rotation.y, z = rec.rotation.z}
          turn(out)
          join_world(out)
          return true
        end
      end
    end
  end
  return false
end

-- Where a card put into color's hand goes so as to be card `at` from the left (nil: right of the others);
-- `moving` is its GUID (a card moved within the hand does not count itself).
function Fake.hand_spot(color, at, moving)
  local h = Fake.hand_transform(color)
  local along, n = {}, 0
  for _, obj in ipairs(Fake.hand(color)) do
    if obj._fake.guid ~= moving then
      n = n + 1
      along[n] = Fake.along_hand(color, obj._fake.position)
    end
  end
  local x = 0
  if n > 0 and (at == nil or at > n) then x = along[n] + 0.25
  elseif n > 0 and at <= 1 then x = along[1] - 0.25
  elseif n > 0 then x = (along[at - 1] + along[at]) / 2 end
  return {x = h.position.x + h.right.x * x, y = h.position.y, z = h.position.z + h.right.z * x}
end

-- The cards of color's hand, left to right.
function Fake.hand_cards(color)
  local out = {}
  for i, obj in ipairs(Fake.hand(color)) do out[i] = card_entry(obj._fake.guid, obj._fake.state) end
  return out
end

-- The cards lying within `radius` of (x, z), or when `dx` is given within dx along x and dz along z of it,
-- and in no hand, the highest first (a deck's from its top).
function Fake.cards_at(x, z, radius, dx, dz)
  local found, n = {}, 0
  local function near(p)
    if dx ~= nil then return math.abs(p.x - x) <= dx and math.abs(p.z - z) <= dz end
    return (p.x - x) * (p.x - x) + (p.z - z) * (p.z - z) <= radius * radius
  end
  for _, rec in ipairs(Fake.world) do
    if rec.hand == nil and (rec.type == "Card" or rec.type == "Deck") and near(rec.position) then
      n = n + 1
      found[n] = rec
    end
  end
  table.sort(found, function(a, b)
    if a.position.y ~= b.position.y then return a.position.y > b.position.y end
    return a.guid < b.guid
  end)
  local out, count = {}, 0
  for _, rec in ipairs(found) do
    if rec.type == "Card" then
      count = count + 1
      out[count] = card_entry(rec.guid, rec.state)
    else
      for _, card in ipairs(rec.contained) do
        count = count + 1
        out[count] = card_entry(card.GUID, card)
      end
    end
  end
  return out
end

-- Every card on the table (loose, in hands, in decks), each with where it is: `hand` (a colour) or `deck`
-- (the deck's GUID) or neither (loose); in the order of the table's objects, a deck's from its top.
function Fake.cards()
  local out, count = {}, 0
  for _, rec in ipairs(Fake.world) do
    if rec.type == "Card" then
      count = count + 1
      out[count] = card_entry(rec.guid, rec.state)
      out[count].hand = rec.hand
    elseif rec.type == "Deck" then
      for _, card in ipairs(rec.contained) do
        count = count + 1
        out[count] = card_entry(card.GUID, card)
        out[count].deck = rec.guid
      end
    end
  end
  return out
end
