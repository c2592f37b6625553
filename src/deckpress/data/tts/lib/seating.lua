-- Seat-relative places on the table: where a seat's own areas (a roster, a prison, piles) lie.
-- Seat i of n (1-based, in DATA.seats order) sits like its hand zone in the save: at angle
-- a = 360 * (i - 1) / n degrees, at (-R sin a, -R cos a), facing the centre of the table.
-- A local offset (x, d) means x units to that player's right and d units from the hand zone
-- towards the centre. The centre is the table's, or, when the game runs in its box, where lib.box
-- says it lies.
local Box = use("lib.box")

local M = {}

-- Unit vectors of seat i of n: towards the centre, and to the seated player's right hand (each seat's
-- worked out once: tables ask for them per card).
local known_axes = {}
local function axes(i, n)
  local key = n * 1000 + i
  local v = known_axes[key]
  if v == nil then
    local a = math.rad(360 * (i - 1) / n)
    v = {math.sin(a), math.cos(a)}
    known_axes[key] = v
  end
  return v[1], v[2], v[2], -v[1]
end

-- World position {x, y, z} of the local offset (x, d) of seat i of n, hand zones at `radius`.
function M.position(i, n, radius, x, d, y)
  local toward_x, toward_z, right_x, right_z = axes(i, n)
  local seat_x, seat_z = Box.origin[1] - radius * toward_x, Box.origin[3] - radius * toward_z
  return {seat_x + right_x * x + toward_x * d, y or 1.5, seat_z + right_z * x + toward_z * d}
end

-- The local offset (x, d) of the world point (wx, wz) for seat i of n: the inverse of `position`.
function M.offset(i, n, radius, wx, wz)
  local toward_x, toward_z, right_x, right_z = axes(i, n)
  local ox, oz = wx - Box.origin[1] + radius * toward_x, wz - Box.origin[3] + radius * toward_z
  return ox * right_x + oz * right_z, ox * toward_x + oz * toward_z
end

-- Y rotation that turns a card on the table to read upright from seat i of n.
function M.rotation_y(i, n)
  return (360 * (i - 1) / n + 180) % 360
end

-- The 1-based index of `color` in `seats`, or nil.
M.index = use("lib.util").index_of

-- `position` for the seat of `color` in a save's DATA (its seats and layout.seat_radius).
function M.place(data, color, x, d, y)
  local i = M.index(data.seats, color)
  if i == nil then error("no seat " .. tostring(color) .. " at this table", 2) end
  return M.position(i, #data.seats, data.layout.seat_radius, x, d, y)
end

-- `rotation_y` for the seat of `color` in a save's DATA.
function M.facing(data, color)
  local i = M.index(data.seats, color)
  if i == nil then error("no seat " .. tostring(color) .. " at this table", 2) end
  return M.rotation_y(i, #data.seats)
end

return M
