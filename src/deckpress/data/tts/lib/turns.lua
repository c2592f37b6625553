-- The turn handling every game's table script shares (module lib.turns): one referee per table over
-- the game's engine (the contract of docs/scripting.md). A press of a move button runs one shape:
-- guard (a game under way), read the move off the table, play it through the engine, and then either
-- say the refusal and put the cards back, or say the events and carry the move out; the turn line shows
-- who acts; the engine's state is saved with the game and read back. The engine names every player by
-- their seat id, the TTS colour, so its texts are said as they are.
--
--   local referee = Turns.referee(ScoopEngine, {turn_id = "scoop_turn", idle = "New game to start"})
--   referee.move(color, finish, {read = ..., put_back = ..., carry_out = ...})
local Table = use("lib.table")
local Saved = use("lib.saved")

local M = {}

--- A refusal as the players read it: "Clause 16 (SCOOP): the top card of Red's Go Pile is not a hearts
--- card". A string (a table script's own message) is said as it is.
---@param refusal table|string {clause, rule, text} of the engine, or {text}
---@return string
function M.refusal_text(refusal)
  if type(refusal) ~= "table" then return tostring(refusal) end
  if refusal.clause ~= nil then
    return "Clause " .. refusal.clause .. " (" .. tostring(refusal.rule) .. "): " .. tostring(refusal.text)
  end
  return tostring(refusal.text)
end

--- The turn line of a game from the contract alone: who acts, or that the game is over.
---@param engine table the game's engine
---@param state table the engine's state
---@return string
function M.turn_line(engine, state)
  local seats, kind = engine.to_act(state)
  if kind == "over" then return "Game over" end
  if kind == "simultaneous" then return table.concat(seats, ", ") .. ": choose" end
  return tostring(seats[1]) .. "'s turn"
end

--- Define the XmlUI handlers (handler(player, value, id), docs/tts.md) of a table's buttons: each runs
--- fn(color, finish) as the flow `label` (lib.table.flow: refused while another flow runs, finish() ends
--- it), or, with `instant` set, calls fn(color) at once unless a flow is under way.
---@param buttons table a list of {handler name, label, fn, instant}
function M.buttons(buttons)
  for _, button in ipairs(buttons) do
    local label, fn, instant = button[2], button[3], button[4]
    _G[button[1]] = function(player)
      if not instant then return Table.flow(label, function(finish) fn(player.color, finish) end) end
      if Table.busy() then return Table.warn("Wait a moment: " .. label .. " waits until the cards have arrived") end
      fn(player.color)
    end
  end
end

--- A referee over `engine` for one table script.
---@param engine table the game's engine (setup, to_act, legal_moves, play, scores, all_ids)
---@param spec table {turn_id = the XmlUI id of the turn line, idle = its text before the first game,
---  first = the warning when a move comes before any game, line = optional fn(state) -> text}
---@return table referee {state(), start(state), move(color, finish, how), show_turn(), save(extra), load(text)}
function M.referee(engine, spec)
  local R = {}
  local game = nil  -- the engine's state of the game under way, or nil

  --- The engine's state (nil before the first game): for the table, the tests and anyone scripting it.
  function R.state()
    return game
  end

  --- A game begins (or the table replaces its state): `state` from engine.setup, or nil.
  function R.start(state)
    game = state
    R.show_turn()
  end

  function R.show_turn()
    local text = spec.idle
    if game ~= nil then text = (spec.line or function(s) return M.turn_line(engine, s) end)(game) end
    Table.show_text(spec.turn_id, text)
  end

  --- One move of `color`: how.read(state, color) -> move | nil, refusal reads it off the table; the
  --- engine plays it. Refused: the refusal is said, and how.put_back(state, done, refusal) (optional) puts
  --- the cards back and returns true when any go back (the message then says so). Played: how.say(event)
  --- (optional; default: say its text) for each event, the turn line, then how.carry_out(before, after,
  --- events, done) lays the table out as the engine's state says. finish() runs once the cards are there.
  function R.move(color, finish, how)
    if game == nil then
      Table.warn(spec.first)
      return finish()
    end
    local move, refusal = how.read(game, color)
    local after, events = nil, refusal
    if move ~= nil then after, events = engine.play(game, color, move) end
    if after == nil then
      local back = how.put_back ~= nil and how.put_back(game, finish, events)
      Table.warn(color .. ": " .. M.refusal_text(events) .. (back and ". The cards go back." or ""))
      if how.put_back == nil then finish() end
      return
    end
    local before = game
    game = after
    for _, event in ipairs(events) do
      if how.say then how.say(event) else Table.say(event.text) end
    end
    R.show_turn()
    how.carry_out(before, after, events, finish)
  end

  --- What the table script saves (lib.saved): the engine's state and the table's own `extra` (plain data).
  function R.save(extra)
    return Saved.encode({game = game, table = extra or {}})
  end

  --- Read back what save() wrote: the engine's state is the referee's again, and the table's own data is
  --- returned ({} for a new table or a damaged state).
  function R.load(text)
    local saved = Saved.decode(text)
    if type(saved) ~= "table" then saved = {} end
    game = type(saved.game) == "table" and saved.game or nil
    R.show_turn()
    return type(saved.table) == "table" and saved.table or {}
  end

  return R
end

return M
