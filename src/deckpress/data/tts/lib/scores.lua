-- Pure score keeping: one number per seat colour, saved as text across TTS save/load.
local M = {}

function M.new(colors)
  local state = {order = {}, value = {}}
  for i, color in ipairs(colors) do
    state.order[i] = color
    state.value[color] = 0
  end
  return state
end

function M.get(state, color)
  return state.value[color] or 0
end

function M.set(state, color, value)
  if state.value[color] == nil then return false end
  state.value[color] = value
  return true
end

function M.add(state, color, delta)
  if state.value[color] == nil then return false end
  state.value[color] = state.value[color] + delta
  return true
end

function M.reset(state)
  for _, color in ipairs(state.order) do state.value[color] = 0 end
end

-- "White=3;Red=-2": what onSave stores (cheap to build, no JSON needed).
function M.encode(state)
  local parts = {}
  for i, color in ipairs(state.order) do
    parts[i] = color .. "=" .. string.format("%d", state.value[color])
  end
  return table.concat(parts, ";")
end

-- The state for `colors` with the values found in `text` (unknown colours and junk are ignored).
function M.decode(text, colors)
  local state = M.new(colors)
  for color, value in string.gmatch(text or "", "(%a+)=(%-?%d+)") do
    if state.value[color] ~= nil then state.value[color] = tonumber(value) end
  end
  return state
end

return M
