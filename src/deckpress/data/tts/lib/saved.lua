-- What a table script saves with the game (module lib.saved): a Lua value of booleans, numbers, strings
-- and tables of them (a rules engine's state, which is plain data) as a small self-delimiting text, and
-- back. TTS keeps the script state as one string; JSON would lose the difference between a list and a
-- table with number keys, and nil holes. Tables are written with their keys sorted, so the same value
-- gives the same text. Anything else (a function, a TTS object) cannot be saved: encode() raises.

local M = {}

-- Appends the text of `value` to out, whose length is out.n (MoonSharp's #out costs time in its length).
local function encode(value, out)
  local kind = type(value)
  local n = out.n + 1
  if kind == "boolean" then
    out[n] = value and "T" or "F"
  elseif kind == "number" then
    if value == math.floor(value) and math.abs(value) < 2 ^ 53 then
      out[n] = "N" .. string.format("%d", value) .. ";"
    else
      out[n] = "N" .. string.format("%.17g", value) .. ";"
    end
  elseif kind == "string" then
    out[n] = "S" .. #value .. ":" .. value
  elseif kind == "table" then
    local keys, count = {}, 0
    for k, _ in pairs(value) do
      count = count + 1
      keys[count] = k
    end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    out[n] = "{"
    out.n = n
    for _, k in ipairs(keys) do
      encode(k, out)
      encode(value[k], out)
    end
    n = out.n + 1
    out[n] = "}"
  else
    error("cannot save a " .. kind)
  end
  out.n = n
end

function M.encode(value)
  local out = {n = 0}
  encode(value, out)
  return table.concat(out, "", 1, out.n)
end

local function decode(text, at)
  local c = string.sub(text, at, at)
  if c == "T" then return true, at + 1 end
  if c == "F" then return false, at + 1 end
  if c == "N" then
    local stop = string.find(text, ";", at, true)
    if stop == nil then error("bad number") end
    local number = tonumber(string.sub(text, at + 1, stop - 1))
    if number == nil then error("bad number") end
    return number, stop + 1
  end
  if c == "S" then
    local colon = string.find(text, ":", at, true)
    local length = colon and tonumber(string.sub(text, at + 1, colon - 1))
    if length == nil then error("bad string") end
    return string.sub(text, colon + 1, colon + length), colon + length + 1
  end
  if c == "{" then
    local out = {}
    at = at + 1
    while string.sub(text, at, at) ~= "}" do
      if at > #text then error("unterminated table") end
      local k, v
      k, at = decode(text, at)
      v, at = decode(text, at)
      out[k] = v
    end
    return out, at + 1
  end
  error("unexpected '" .. c .. "'")
end

-- The value encode() saved, or nil when the text is empty or damaged.
function M.decode(text)
  if text == nil or text == "" then return nil end
  local ok, value = pcall(decode, text, 1)
  if ok then return value end
  return nil
end

return M
