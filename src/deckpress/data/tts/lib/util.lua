-- Small list and number helpers shared by the game modules.
local M = {}

function M.is_int(v)
  return type(v) == "number" and v == math.floor(v)
end

function M.contains(list, value)
  for _, v in ipairs(list) do
    if v == value then return true end
  end
  return false
end

-- The 1-based position of `value` in `list`, or nil.
function M.index_of(list, value)
  for i, v in ipairs(list) do
    if v == value then return i end
  end
  return nil
end

-- A new list and a function that appends a value to it. It counts the values itself: MoonSharp's #t
-- costs time in the length of t, so `out[#out + 1] = x` in a loop is quadratic there.
function M.appender()
  local out, n = {}, 0
  return out, function(value)
    n = n + 1
    out[n] = value
  end
end

function M.copy_list(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return out
end

-- A new table with the same keys and values as `t` (one level: the values are shared). The engines' play
-- copies a state this way, and only the parts a move changes, so that the input is never changed.
function M.shallow_copy(t)
  local out = {}
  for k, v in pairs(t) do out[k] = v end
  return out
end

-- A copy of `value` that shares no table with it (plain data: no cycles, no metatables).
function M.deep_copy(value)
  if type(value) ~= "table" then return value end
  local out = {}
  for k, v in pairs(value) do out[k] = M.deep_copy(v) end
  return out
end

return M
