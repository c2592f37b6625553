-- The bench's table: what deckpress.tabletest.fake does to drive a save, in Lua, so that it runs inside
-- MoonSharp too. Run after src/deckpress/data/tabletest/fake_tts.lua and before the table's objects, the
-- Global script and a scenario.
-- Each click is timed (the handler: the frame the player clicked in), then each frame until the table
-- settles (the tasks and Wait conditions the script left; the fake's hand layout is left out: TTS's work).
-- Each timing prints as "t<TAB>what<TAB>click<TAB>its script part<TAB>worst frame<TAB>its script part" (ms).

Fake.delay, Fake.order_seed = 1, 1001

local clock = bench_clock

-- Time inside the fake (its Lua stands in for TTS's own C# work) is kept apart: every call into its API
-- runs in "fake" mode, and every function the script hands it (callbacks, Wait's functions) runs back
-- in "script" mode when the fake calls it.
local depth, since, fake_ms = 0, 0, 0
local pack, unpack = table.pack, table.unpack

local function finish(out)
  if not out[1] then error(out[2], 0) end
  return unpack(out, 2, out.n)
end

local as_script
local function as_fake(fn)
  return function(...)
    if depth == 0 then since = clock() end
    depth = depth + 1
    local args = pack(...)
    for i = 1, args.n do
      local arg = args[i]
      if type(arg) == "function" then args[i] = as_script(arg)
      elseif type(arg) == "table" and getmetatable(arg) == nil then
        for k, v in pairs(arg) do if type(v) == "function" then arg[k] = as_script(v) end end
      end
    end
    local out = pack(pcall(fn, unpack(args, 1, args.n)))
    depth = depth - 1
    if depth == 0 then fake_ms = fake_ms + clock() - since end
    return finish(out)
  end
end

as_script = function(fn)
  return function(...)
    local saved = depth
    if saved > 0 then fake_ms = fake_ms + clock() - since end
    depth = 0
    local out = pack(pcall(fn, ...))
    depth = saved
    if saved > 0 then since = clock() end
    return finish(out)
  end
end

-- The fake's objects (Player's colours, UI, Global, Notes, Wait, each object): their members run as fake.
local function fake_members(mt)
  local index = mt.__index
  if type(index) ~= "function" then return mt end
  mt.__index = as_fake(function(t, key)
    local value = index(t, key)
    if type(value) == "function" then return as_fake(value) end
    return value
  end)
  return mt
end
for _, api in ipairs({Wait, UI, Global, Notes, Player}) do fake_members(getmetatable(api)) end
local set_metatable = setmetatable
function setmetatable(t, mt)  -- the scripts set none; the fake makes objects and players with it
  return set_metatable(t, type(mt) == "table" and fake_members(mt) or mt)
end
for _, name in ipairs({"getObjectsWithTag", "getObjects", "getObjectFromGUID", "group", "getSeatedPlayers",
                       "broadcastToAll", "broadcastToColor", "printToAll", "spawnObjectData", "log"}) do
  _G[name] = as_fake(_G[name])
end
local tick = as_fake(Fake.tick)

local function note(what, click, script, frame, frame_script)
  print(string.format("t\t%s\t%.4f\t%.4f\t%.4f\t%.4f", what, click, script, frame, frame_script))
end

Bench = {}

-- A fixed LCG for the players' choices and for the table's math.random: the same games in MoonSharp and
-- in Lua 5.2, and in every run (the runs are compared call by call).
local seed = 12345
function Bench.random(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  local r = seed / 2147483648
  if n == nil then return r end
  return math.floor(r * n) + 1
end

function math.random(m, n)
  if m == nil then return Bench.random() end
  if n == nil then m, n = 1, m end
  return m + Bench.random(n - m + 1) - 1
end

function math.randomseed() end

function Bench.pick(list) return list[Bench.random(#list)] end

-- Frames pass until nothing is pending; the worst frame's time in ms, and the script's part of it.
function Bench.settle()
  local worst, worst_script = 0, 0
  for _ = 1, 20000 do
    fake_ms = 0
    local t = clock()
    tick()
    local spent = clock() - t
    if spent > worst then worst = spent end
    if spent - fake_ms > worst_script then worst_script = spent - fake_ms end
    if #Fake.tasks == 0 and #Fake.watches == 0 then return worst, worst_script end
  end
  error("the table did not settle in 20000 frames")
end

-- The Global script's onLoad, as a loaded game starts.
function Bench.start(seated)
  Fake.seated = seated
  onLoad("")
  Bench.settle()
end

-- `color` clicks the XmlUI element whose onClick is `handler`; timed under the name `what`. Returns what the
-- table broadcast meanwhile (refusals say why).
function Bench.click(what, handler, color, value, id)
  Fake.calls, Fake.prints, Fake.broadcasts = {}, {}, {}  -- the fake's logs, kept short (they append with #)
  local player = Player[color]
  fake_ms = 0
  local t = clock()
  _G[handler](player, value or "-1", id)
  local click = clock() - t
  local script = click - fake_ms
  note(what, click, script, Bench.settle())
  return Fake.broadcasts
end

-- fn(...) timed under `what` (a pure function of the engine, or a hook TTS calls, such as onSave); its results.
function Bench.time(what, fn, ...)
  fake_ms = 0
  local t = clock()
  local out = pack(fn(...))
  local spent = clock() - t
  note(what, spent, spent - fake_ms, 0, 0)
  return unpack(out, 1, out.n)
end

-- Whether two plain values are equal, tables compared key by key (the table's state against the engine's).
function Bench.same(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do if not Bench.same(v, b[k]) then return false end end
  for k in pairs(b) do if a[k] == nil then return false end end
  return true
end

