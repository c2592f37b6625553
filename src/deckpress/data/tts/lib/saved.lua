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
    -- numbers first, then strings, each sorted by the built-in order (a Lua comparator costs a call per
    -- comparison: in MoonSharp that was most of an onSave)
    local numbers, strings, number_count, string_count = {}, {}, 0, 0
    for k, _ in pairs(value) do
      if type(k) == "number" then
        number_count = number_count + 1
        numbers[number_count] = k
      elseif type(k) == "string" then
        string_count = string_count + 1
        strings[string_count] = k
      else
        error("cannot save a " .. type(k) .. " key")
      end
    end
    table.sort(numbers)
    table.sort(strings)
    out[n] = "{"
    out.n = n
    for i = 1, number_count do
      encode(numbers[i], out)
      encode(value[numbers[i]], out)
    end
    for i = 1, string_count do
      encode(strings[i], out)
      encode(value[strings[i]], out)
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
