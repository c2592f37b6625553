-- SCORE! table script: the thin TTS layer of the referee (every TTS call is here; the decisions are
-- in tts/score/referee.lua and the rules in tts/score/engine.lua). Loaded by the Global script as
-- GAME = use("score.table"); its XmlUI is tts/score/ui.xml.j2. See docs/tts-score.md.

local Referee = use("score.referee")
local Setup = use("lib.setup")
local Scores = use("lib.scores")
local Table = use("lib.table")

local T = {}
local state = nil

local say, warn = Table.say, Table.warn

local function ensure_state()
  if state == nil then state = Referee.new_state(DATA, math.random(1, 2147483646)) end
  return state
end

-- Seated colours that have a hand zone, clockwise.
local function seated()
  return Setup.order_seated(DATA.seats, getSeatedPlayers())
end

-- Every SCORE! card lying on the table (not in a hand): {guid, id, x, y, z, obj}.
local function table_cards()
  local in_hand, out, seen = {}, {}, {}
  for _, color in ipairs(DATA.seats) do
    for _, obj in ipairs(Player[color].getHandObjects() or {}) do in_hand[obj.getGUID()] = true end
  end
  for _, tag in ipairs({DATA.main, Referee.COPY_TAG}) do
    for _, obj in ipairs(getObjectsWithTag(tag)) do
      local guid = obj.getGUID()
      if obj.type == "Card" and not in_hand[guid] and not seen[guid] then
        seen[guid] = true
        local p = obj.getPosition()
        out[#out + 1] = {guid = guid, id = Setup.card_id(obj.getGMNotes()), x = p.x, y = p.y, z = p.z, obj = obj}
      end
    end
  end
  return out
end

local function read_rosters()
  local cards = table_cards()
  local rosters, problems = Referee.read_rosters(DATA, Referee.roster_size(DATA, state), cards)
  for _, problem in ipairs(problems) do warn(problem) end
  local owner, objects = {}, {}
  for color, roster in pairs(rosters) do
    for _, card in ipairs(roster) do
      if card then owner[card.guid], objects[card.guid] = color, card.obj end
    end
  end
  return rosters, owner, objects
end

-- --- Drawing the roster slots -------------------------------------------------------------------------

function T.draw_slots()
  local size = Referee.roster_size(DATA, ensure_state())
  local colors = seated()
  if #colors == 0 then colors = DATA.seats end
  local points, lines = {}, {}
  for _, color in ipairs(colors) do
    local ry = Referee.rotation_y(DATA, color)
    for k, p in ipairs(Referee.slots(DATA, color, size)) do
      points[#points + 1] = {position = p, rotation = {0, ry, 0}, rotation_snap = true}
      lines[#lines + 1] = {points = Referee.slot_outline(DATA, color, size, k), color = {1, 1, 1},
                           thickness = k == 1 and 0.12 or 0.06, loop = true}
    end
  end
  local rows = Referee.virtual_rows(DATA, state)
  if rows > 0 then  -- Score Against!: the virtual roster above the roster
    for _, color in ipairs(colors) do
      local ry = Referee.rotation_y(DATA, color)
      for col, column in ipairs(Referee.virtual_slots(DATA, color, size, rows)) do
        for r, p in ipairs(column) do
          points[#points + 1] = {position = p, rotation = {0, ry, 0}, rotation_snap = true}
          lines[#lines + 1] = {points = Referee.virtual_outline(DATA, color, size, rows, col, r),
                               color = {0.85, 0.35, 0.3}, thickness = 0.06, loop = true}
        end
      end
    end
  end
  points[#points + 1] = {position = Referee.DISCARD, rotation = {0, 180, 0}, rotation_snap = true}
  Global.setSnapPoints(points)
  Global.setVectorLines(lines)
end

-- Where slot k of `color` lies (for scripts and tests): {x, y, z}.
function T.slot_position(color, k)
  return Referee.slots(DATA, color, Referee.roster_size(DATA, ensure_state()))[k]
end

-- Where Score Against!'s virtual slot (column, row) of `color` lies: {x, y, z}; column 1 is the player's
-- leftmost, row 1 the farthest from the player.
function T.virtual_position(color, col, row)
  local s = ensure_state()
  local size, rows = Referee.roster_size(DATA, s), math.max(Referee.virtual_rows(DATA, s), row)
  return Referee.virtual_slots(DATA, color, size, rows)[col][row]
end

-- --- The panel -------------------------------------------------------------------------------------------

function T.refresh()
  local s = ensure_state()
  local mode = Referee.mode(DATA, s.mode)
  local opts = Referee.options(DATA, s.mode)
  UI.setValue("score_mode", mode.name)
  local status
  if s.over then
    status = "Game over: New game to play again"
  elseif s.round then
    status = "Round " .. (s.rounds + 1) .. ", action turn " .. (s.round.turn + 1)
  else
    status = "Round " .. (s.rounds + 1) .. ": Get ready!"
  end
  if s.contenders then status = status .. " (tie-break)" end
  UI.setValue("score_status", status)
  local playing = {}
  for _, color in ipairs(seated()) do playing[color] = true end
  for _, color in ipairs(DATA.seats) do
    UI.setAttribute("score_seat_" .. color, "active", playing[color] and "true" or "false")
    UI.setValue("score_target_" .. color, s.targets[color] or Referee.AUTO)
    local running = ""
    if s.round then
      for i, c in ipairs(s.round.players) do
        if c == color then
          local e = opts.teams == "pooled" and (s.teams[color] or 0) + 1 or i
          running = tostring(s.round.running[e])
        end
      end
    end
    UI.setValue("score_run_" .. color, running)
    local team = ""
    if opts.teams and s.teams[color] ~= nil then team = "T" .. (s.teams[color] + 1) end
    UI.setValue("score_team_" .. color, team)
  end
end

-- --- Acting on the table ---------------------------------------------------------------------------------

local function turn_up(objects, owner, guids)
  for _, guid in ipairs(guids) do
    local obj = objects[guid]
    if obj ~= nil then obj.setRotation({0, Referee.rotation_y(DATA, owner[guid]), 0}) end
  end
end

local function discard(objects, guids)
  local pile = Referee.DISCARD
  for i, guid in ipairs(guids) do
    local obj = objects[guid]
    if obj ~= nil then
      obj.setRotation({0, 180, 0})
      obj.setPositionSmooth({pile[1], pile[2] + 0.2 * i, pile[3]})
    end
  end
end

local function pad()
  local out = {}
  for _, color in ipairs(DATA.seats) do out[color] = Scores.get(scores, color) end
  return out
end

-- The copy of the deck a player gets in Decking!: the main deck's data, retagged so that Get ready!
-- removes it again and never merges it into the main deck.
local function retag(data)
  local function swap(tags)
    local out = {Referee.COPY_TAG}
    for _, tag in ipairs(tags or {}) do
      if tag ~= DATA.main then out[#out + 1] = tag end
    end
    return out
  end
  data.GUID = nil
  data.Tags = swap(data.Tags)
  for _, card in ipairs(data.ContainedObjects or {}) do
    card.GUID = nil
    card.Tags = swap(card.Tags)
  end
  return data
end

-- Scorlitaire!/Scorliroad!: every card of `deck`, face down, on the layout in front of `color`.
function T.lay_out(deck, color)
  local count = deck.getQuantity()
  local spots = Referee.solo_layout(DATA, color, count)
  local rotation = {0, Referee.rotation_y(DATA, color), 180}
  for i = 1, count - 1 do
    deck.takeObject({index = 0, position = spots[i], rotation = rotation, smooth = false})
  end
  local last = deck.remainder
  if last ~= nil then
    last.setPosition(spots[count])
    last.setRotation(rotation)
  end
end

local function face_up(obj)
  local z = obj.getRotation().z % 360
  return z < 90 or z > 270
end

local function near(p, spot, radius)
  return (p.x - spot[1]) * (p.x - spot[1]) + (p.z - spot[3]) * (p.z - spot[3]) <= radius * radius
end

-- Scorlitaire!/Scorliroad! SCORE!: apply the cards the player turned face up on the layout.
local function solo_score(player)
  local color = seated()[1] or player.color
  local flipped, objects = {}, {}
  local applied = state.solo and state.solo.applied or {}
  for _, card in ipairs(table_cards()) do
    objects[card.guid] = card.obj
    if face_up(card.obj) and not applied[card.guid] and not near(card, Referee.SOLO_DISCARD, 2) then
      flipped[#flipped + 1] = card
    end
  end
  local out, message = Referee.solo_score(DATA, state, flipped, Scores.get(scores, color))
  if out == nil then warn(message) return end
  local pile = Referee.SOLO_DISCARD
  local function to_pile(obj, i)
    obj.setRotation({0, 180, 0})
    obj.setPositionSmooth({pile[1], pile[2] + 0.2 * i, pile[3]})
  end
  for i, guid in ipairs(out.discard) do to_pile(objects[guid], i) end
  if out.reshuffle then  -- gather everything but the pass card, shuffle, lay out again
    local gather = {}
    for _, card in ipairs(table_cards()) do
      if card.guid ~= out.reshuffle then gather[#gather + 1] = card.obj end
    end
    local grouped = group(gather)
    if grouped and grouped[1] and grouped[1].type == "Deck" then
      grouped[1].shuffle()
      T.lay_out(grouped[1], color)
    end
    to_pile(objects[out.reshuffle], 1)
  end
  for _, line in ipairs(out.messages) do say(line) end
  Scores.set(scores, color, out.score)
  refreshScores()
  T.refresh()
end

-- Score Against! SCORE!: your leftmost roster card against the virtual roster's rightmost column.
local function against_score(player)
  local color = seated()[1] or player.color
  local size, rows = Referee.roster_size(DATA, state), Referee.virtual_rows(DATA, state)
  local cards = table_cards()
  local rosters, problems = Referee.read_rosters(DATA, size, cards)
  local grid, more = Referee.read_virtual(DATA, color, size, rows, cards)
  for _, problem in ipairs(problems) do warn(problem) end
  for _, problem in ipairs(more) do warn(problem) end
  local objects = {}
  for _, card in ipairs(cards) do objects[card.guid] = card.obj end
  local out, message = Referee.against_score(DATA, state, color, rosters[color], grid, Scores.get(scores, color))
  if out == nil then warn(message) T.refresh() return end
  local owner = {}
  for _, guid in ipairs(out.flip) do owner[guid] = color end
  turn_up(objects, owner, out.flip)
  discard(objects, out.discard)
  for _, line in ipairs(out.messages) do say(line) end
  if out.total ~= nil then
    Scores.set(scores, color, out.total)
    refreshScores()
  end
  T.refresh()
end

-- Score Against!'s Get ready! extras: the virtual roster dealt face down from the player's deck, then the
-- first draw into the hand.
local function deal_against(deck, color, plan)
  local size, rows = plan.roster_size, Referee.virtual_rows(DATA, state)
  local rotation = {0, Referee.rotation_y(DATA, color), 180}
  local grid = Referee.virtual_slots(DATA, color, size, rows)
  for col = 1, size do
    for r = 1, rows do
      deck.takeObject({index = 0, position = grid[col][r], rotation = rotation, smooth = false})
    end
  end
  deck.deal(plan.draw, color)
end

-- "Get ready!" by mode (the Global script's Get ready! button calls this instead of its own).
function T.get_ready(player_color)
  ensure_state()
  for _, obj in ipairs(getObjectsWithTag(Referee.COPY_TAG)) do obj.destruct() end
  local deck, problem = gatherMainDeck()
  if deck == nil then warn(problem) return false end
  local plan, message = Referee.plan_ready(DATA, state, getSeatedPlayers(), deck.getQuantity())
  if plan == nil then warn(message) return false end
  local aside, set_aside = DATA.layout.aside, 0
  local guids = {}
  for _, entry in ipairs(deck.getObjects()) do
    local id = Setup.card_id(entry.gm_notes)
    if id ~= nil and plan.remove[id] then guids[#guids + 1] = entry.guid end
  end
  for i, guid in ipairs(guids) do
    deck.takeObject({guid = guid, position = {aside[1], aside[2] + i * 0.1, aside[3]}, smooth = false})
    set_aside = set_aside + 1
  end
  deck.shuffle()
  if plan.layout then
    T.lay_out(deck, plan.players[1])
  elseif plan.own_decks then
    for i, color in ipairs(plan.players) do
      local position = Referee.own_deck_position(DATA, color, plan.roster_size)
      local rotation = {0, Referee.rotation_y(DATA, color), 180}
      if i == 1 then
        deck.setPosition(position)
        deck.setRotation(rotation)
        if plan.against then deal_against(deck, color, plan) end
      else
        spawnObjectData({data = retag(deck.getData()), position = position, rotation = rotation,
                         callback_function = function(copy) copy.shuffle() end})
      end
    end
  else
    for _, color in ipairs(plan.players) do deck.deal(plan.each, color) end
  end
  Referee.ready(DATA, state, getSeatedPlayers(), plan)
  T.draw_slots()
  T.refresh()
  local note = set_aside > 0 and (" (" .. set_aside .. " cards set aside)") or ""
  say(plan.message .. note)
  local opts = Referee.options(DATA, state.mode)
  if opts.teams then
    local parts = {}
    for _, color in ipairs(state.players) do parts[#parts + 1] = color .. " T" .. (state.teams[color] + 1) end
    say("Teams: " .. table.concat(parts, ", "))
  end
  return true
end

-- --- XmlUI handlers (tts/score/ui.xml.j2): (player, value, id) ----------------------------------------------

local function change_mode(player, step)
  ensure_state()
  if Referee.in_progress(state) then
    warn("A game is in progress: press New game to change the mode")
    return
  end
  state.mode = Referee.cycle(Referee.modes_for(DATA, #seated()), state.mode, step)
  T.draw_slots()
  T.refresh()
  say("Game mode: " .. Referee.mode(DATA, state.mode).name)
end

function scoreModeNext(player, value, id) change_mode(player, 1) end
function scoreModePrev(player, value, id) change_mode(player, -1) end

function scoreTarget(player, value, id)
  ensure_state()
  local target = Referee.next_target(state, value, seated())
  T.refresh()
  broadcastToColor(value .. "'s target: " .. target, player.color, {1, 1, 1})
end

function scoreReveal(player, value, id)
  ensure_state()
  if Referee.solo_kind(DATA, state) == "score-against" then
    local color = seated()[1] or player.color
    local cards = table_cards()
    local size = Referee.roster_size(DATA, state)
    local rosters = Referee.read_rosters(DATA, size, cards)
    local grid = Referee.read_virtual(DATA, color, size, Referee.virtual_rows(DATA, state), cards)
    local objects, owner = {}, {}
    for _, card in ipairs(cards) do objects[card.guid], owner[card.guid] = card.obj, color end
    turn_up(objects, owner, Referee.against_reveal(rosters[color], grid))
    return
  end
  local rosters, owner, objects = read_rosters()
  local out, message = Referee.reveal(DATA, state, getSeatedPlayers(), rosters)
  if out == nil then warn(message) return end
  turn_up(objects, owner, out.flip)
  for _, line in ipairs(out.messages) do say(line) end
end

function scoreScore(player, value, id)
  ensure_state()
  local solo = Referee.solo_kind(DATA, state)
  if solo == "solitaire" then return solo_score(player) end
  if solo == "score-against" then return against_score(player) end
  local rosters, owner, objects = read_rosters()
  local out, message = Referee.score(DATA, state, getSeatedPlayers(), rosters, pad())
  if out == nil then warn(message) T.refresh() return end
  turn_up(objects, owner, out.flip)
  discard(objects, out.discard)
  for _, line in ipairs(out.messages) do say(line) end
  if out.pad ~= nil then
    for color, value in pairs(out.pad) do Scores.set(scores, color, value) end
    refreshScores()
  end
  T.refresh()
end

function scoreNewGame(player, value, id)
  local mode = ensure_state().mode
  state = Referee.new_state(DATA, math.random(1, 2147483646))
  state.mode = mode
  Scores.reset(scores)
  refreshScores()
  T.draw_slots()
  T.refresh()
  say(player.color .. " starts a new game of " .. Referee.mode(DATA, mode).name)
end

-- --- Hooks of the Global script ----------------------------------------------------------------------------

function T.load(text)
  state = Referee.decode(text)
  if type(state) ~= "table" or Referee.mode(DATA, state.mode or "") == nil then state = nil end
  ensure_state()
  T.draw_slots()
  T.refresh()
end

function T.save()
  return Referee.encode(ensure_state())
end

function T.seated()
  T.draw_slots()
  T.refresh()
end

-- For tests and other scripts: the referee's state.
function T.state()
  return ensure_state()
end

return T
