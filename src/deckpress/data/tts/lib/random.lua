-- Seeded randomness shared by every game module: the Park-Miller "minimal standard" generator.
-- TTS scripts draw a seed once (math.random in the TTS layer) and pass it in, so the pure modules
-- stay repeatable and the tests can compare them with the Python engines, which use the same one.
local M = {}

M.MODULUS = 2147483647  -- products stay below 2^53, exact in Lua's doubles
M.MULTIPLIER = 48271

-- A generator state (1 .. MODULUS - 1) from any integer seed.
function M.seed(seed)
  local state = math.floor(seed) % M.MODULUS
  if state <= 0 then state = state + M.MODULUS - 1 end
  return state
end

-- The next state.
function M.next(state)
  return (state * M.MULTIPLIER) % M.MODULUS
end

-- Shuffle `list` in place with Fisher-Yates; returns the generator's last state.
function M.shuffle_in_place(list, state)
  for i = #list, 2, -1 do
    state = M.next(state)
    local j = state % i + 1
    list[i], list[j] = list[j], list[i]
  end
  return state
end

-- A shuffled copy of `items`.
function M.shuffle(items, seed)
  local out = use("lib.util").copy_list(items)
  M.shuffle_in_place(out, M.seed(seed))
  return out
end

return M
