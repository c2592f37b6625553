-- SCORE! table script: the thin TTS layer of the referee (every TTS call is here; the decisions are
-- in tts/score/referee.lua and the rules in tts/score/engine.lua). Loaded by the Global script as
-- GAME = use("score.table"); its XmlUI is tts/score/ui.xml.j2. See docs/tts-score.md.
-- The presses of SCORE! and Keep run lib.turns' shape (read the table, play, refusal and put back, events,
-- the status line, save and load) over the referee's flow (Referee.flow).

local Referee = use("score.referee")
local Setup = use("lib.setup")
local Api = use("lib.api")
local Table = use("lib.table")
local Turns = use("lib.turns")

local DATA = Api.data()
local T = {}

local say, warn = Table.say, Table.warn

-- The status line of the referee panel: the round and action turn, or that the game is over.
local function status(s)
  local text
  if s.over then
    text = "Game over: New game to play again"
  elseif s.round then
    text = "Round " .. (s.rounds + 1) .. ", action turn " .. (s.round.turn + 1)
  else
    text = "Round " .. (s.rounds + 1) .. ": Get ready!"
  end
  if s.contenders then text = text .. " (tie-break)" end
  return text
end

local referee = Turns.referee(Referee.flow(DATA), {turn_id = "score_status", idle = "New game to start",
                                                   first = "New game first", line = status})

-- The game's state (the referee's), a new game when there is none.
local function ensure_state()
  if referee.state() == nil then referee.start(Referee.new_state(DATA, math.random(1, 2147483646))) end
  return referee.state()
end

-- Seated colours that have a hand zone, clockwise.
local function seated()
  return Api.seated()
end

-- The slots' places depend only on the table (DATA) and where it lies (lib.box's origin), so what is
-- worked out from them is kept while the origin stays: the outlines (every draw after the first costs
-- one read of the lines on the table and one write) and the roster slots' reach.
local Box = use("lib.box")
local worked_out = {}  -- worked_out.x, worked_out.z: the origin the rest was worked out for

local function geometry()
  local origin = Box.origin
  if worked_out.x ~= origin[1] or worked_out.z ~= origin[3] then
    worked_out = {x = origin[1], z = origin[3], layouts = {}, reach = {}}
  end
  return worked_out
end

-- The card id of a card on the table: its GM notes', or a deck's top card's.
local function card_id(obj)
  if obj.type == "Deck" then
    local top = obj.getObjects()[1]
    return top and Setup.card_id(top.gm_notes)
  end
  return Setup.card_id(obj.getGMNotes())
end

-- Every SCORE! card lying on the table (not in a hand): {guid, id, x, y, z, obj, count}, sorted by GUID.
-- A card dropped onto another forms a Deck in TTS: it is one entry with its top card's guid and id and
-- `count` its number of cards, so the referee sees two cards in that slot, not an empty one.
-- With `reach` (Referee.roster_reach), only the cards within reach of a slot, without ids (card_id() reads
-- the few that need one): each other card costs two calls into TTS, its type and position.
local function table_cards(reach)
  local in_hand, out, seen, n_out = {}, {}, {}, 0
  for _, color in ipairs(DATA.seats) do
    for _, obj in ipairs(Player[color].getHandObjects() or {}) do in_hand[obj.getGUID()] = true end
  end
  local tags = Referee.card_tags(DATA)
  tags[#tags + 1] = Referee.COPY_TAG
  for _, tag in ipairs(tags) do
    local guids, object_of, place_of, deck, n = {}, {}, {}, {}, 0  -- Table.tagged's order, each GUID asked once
    for _, obj in ipairs(getObjectsWithTag(tag)) do
      local kind = obj.type
      if kind == "Card" or kind == "Deck" then
        local p = obj.getPosition()
        if reach == nil or reach(p.x, p.z) then
          local guid = obj.getGUID()
          if not in_hand[guid] and not seen[guid] then
            seen[guid] = true
            n = n + 1
            guids[n], object_of[guid], place_of[guid], deck[guid] = guid, obj, p, kind == "Deck"
          end
        end
      end
    end
    table.sort(guids)
    for _, guid in ipairs(guids) do
      local obj, p = object_of[guid], place_of[guid]
      n_out = n_out + 1
      out[n_out] = {guid = guid, id = not reach and card_id(obj) or nil, x = p.x, y = p.y, z = p.z, obj = obj,
                    count = deck[guid] and obj.getQuantity() or nil}
    end
  end
  return out
end

-- The number of cards of the main deck (the spots of a solo layout).
local function main_count()
  local n = 0
  for _, component in ipairs(DATA.components) do
    if component.id == DATA.main then
      for _, card in ipairs(component.cards) do n = n + card.count end
    end
  end
  return n
end

-- The loose cards of table_cards() (what the solo layouts flip and gather).
local function loose_cards()
  local out, n_out = {}, 0
  for _, card in ipairs(table_cards()) do
    if card.obj.type == "Card" then
      n_out = n_out + 1
      out[n_out] = card
    end
  end
  return out
end

local function read_rosters()
  local size, known = Referee.roster_size(DATA, ensure_state()), geometry()
  known.reach[size] = known.reach[size] or Referee.roster_reach(DATA, size)
  local cards = table_cards(known.reach[size])  -- the ids of the slots' cards alone are read
  local rosters, problems = Referee.read_rosters(DATA, size, cards)
  for _, problem in ipairs(problems) do warn(problem) end
  local owner, objects = {}, {}
  for color, roster in pairs(rosters) do
    for _, card in ipairs(roster) do
      if card then
        card.id = card_id(card.obj)
        owner[card.guid], objects[card.guid] = color, card.obj
      end
    end
  end
  return rosters, owner, objects
end

-- --- Drawing the roster slots -------------------------------------------------------------------------

-- A text key of a line's points (rounded), to recognise the outlines this script draws.
local function line_key(points)
  local parts = {}
  for i, p in ipairs(points) do
    local x, z = p.x or p[1], p.z or p[3]
    parts[i] = string.format("%.2f,%.2f", x, z)
  end
  return table.concat(parts, ";")
end

-- Every outline this script could have drawn (any seat, any mode's roster size, Score Against!'s
-- rows): the lines on the table that match one are ours, every other line is a player's.
local function our_outlines()
  local known = geometry()
  if known.keys then return known.keys end
  local keys, done = {}, {}
  for _, mode in ipairs(DATA.modes) do
    local opts = Referee.options(DATA, mode.id)
    local size, rows = opts.roster_size, opts.virtual_rows or 0
    if not done[size * 1000 + rows] then
      done[size * 1000 + rows] = true
      for _, color in ipairs(DATA.seats) do
        for k = 1, size do keys[line_key(Referee.slot_outline(DATA, color, size, k))] = true end
        for col = 1, size do
          for r = 1, rows do keys[line_key(Referee.virtual_outline(DATA, color, size, rows, col, r))] = true end
        end
      end
    end
  end
  known.keys = keys
  return keys
end

-- The snap points and outlines of `colors`' rosters of `size` slots (and `rows` virtual rows), and the
-- discard pile's snap point: lines[i] outlines the slot of points[i].
local function layout(colors, size, rows)
  local known = geometry()
  local key = size .. "/" .. rows .. "/" .. table.concat(colors, ",")
  local found = known.layouts[key]
  if found then return found.points, found.lines end
  local points, lines, n = {}, {}, 0
  for _, color in ipairs(colors) do
    local ry = Referee.rotation_y(DATA, color)
    for k, p in ipairs(Referee.slots(DATA, color, size)) do
      n = n + 1
      points[n] = {position = p, rotation = {0, ry, 0}, rotation_snap = true}
      lines[n] = {points = Referee.slot_outline(DATA, color, size, k), color = {1, 1, 1},
                  thickness = k == 1 and 0.12 or 0.06, loop = true}
    end
  end
  if rows > 0 then  -- Score Against!: the virtual roster above the roster
    for _, color in ipairs(colors) do
      local ry = Referee.rotation_y(DATA, color)
      for col, column in ipairs(Referee.virtual_slots(DATA, color, size, rows)) do
        for r, p in ipairs(column) do
          n = n + 1
          points[n] = {position = p, rotation = {0, ry, 0}, rotation_snap = true}
          lines[n] = {points = Referee.virtual_outline(DATA, color, size, rows, col, r),
                      color = {0.85, 0.35, 0.3}, thickness = 0.06, loop = true}
        end
      end
    end
  end
  points[n + 1] = {position = Api.at(Referee.DISCARD), rotation = {0, 180, 0}, rotation_snap = true}
  known.layouts[key] = {points = points, lines = lines}
  return points, lines
end

function T.draw_slots()
  local state = ensure_state()
  local colors = seated()
  if #colors == 0 then colors = DATA.seats end
  local points, lines = layout(colors, Referee.roster_size(DATA, state), Referee.virtual_rows(DATA, state))
  Global.setSnapPoints(points)
  local ours, kept, n_kept = our_outlines(), {}, 0
  for _, line in ipairs(Global.getVectorLines() or {}) do
    if not ours[line_key(line.points or {})] then
      n_kept = n_kept + 1
      kept[n_kept] = line
    end
  end
  for k, line in ipairs(lines) do kept[n_kept + k] = line end
  Global.setVectorLines(kept)
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

-- What the panel shows, as this script last set it: each value and attribute is set again only when it
-- changes (every set is a call into TTS, and the panel is laid out again after it).
local shown = {}

local function show(id, attribute, text)
  local key = id .. "/" .. attribute
  if shown[key] == text then return end
  shown[key] = text
  if attribute == "value" then UI.setValue(id, text) else UI.setAttribute(id, attribute, text) end
end

function T.refresh()
  local s = ensure_state()
  local mode = Referee.mode(DATA, s.mode)
  local opts = Referee.options(DATA, s.mode)
  show("score_mode", "value", mode.name)
  referee.show_turn()
  local playing, now = {}, seated()
  for _, color in ipairs(now) do playing[color] = true end
  local teams = Referee.in_progress(s) and s.teams or Referee.chosen_teams(s, now)
  for _, color in ipairs(DATA.seats) do
    show("score_seat_" .. color, "active", playing[color] and "true" or "false")
    show("score_target_" .. color, "value", s.targets[color] or Referee.AUTO)
    local running = ""
    if s.round then
      for i, c in ipairs(s.round.players) do
        if c == color then
          local e = opts.teams == "pooled" and (s.teams[color] or 0) + 1 or i
          running = tostring(s.round.running[e])
        end
      end
    end
    show("score_run_" .. color, "value", running)
    local team = ""
    if opts.teams and teams[color] ~= nil then team = "T" .. (teams[color] + 1) end
    show("score_team_" .. color, "value", team)
  end
end

-- --- Acting on the table ---------------------------------------------------------------------------------

local function turn_up(objects, owner, guids)
  for _, guid in ipairs(guids) do
    local obj = objects[guid]
    if obj ~= nil then obj.setRotation({0, Referee.rotation_y(DATA, owner[guid]), 0}) end
  end
end

-- Move the cards `guids` to the discard pile; returns the objects moving there.
local function discard(objects, guids)
  local pile, moved, n_moved = Api.at(Referee.DISCARD), {}, 0
  for i, guid in ipairs(guids) do
    local obj = objects[guid]
    if obj ~= nil then
      obj.setRotation({0, 180, 0})
      obj.setPositionSmooth({pile[1], pile[2] + 0.2 * i, pile[3]})
      n_moved = n_moved + 1
      moved[n_moved] = obj
    end
  end
  return moved
end

local function pad()
  local out = {}
  for _, color in ipairs(DATA.seats) do out[color] = Api.score(color) end
  return out
end

-- The copy of the deck a player gets in Decking!: the main deck's data, retagged so that Get ready!
-- removes it again and never merges it into the main deck.
local function retag(data)
  local function swap(tags)
    local out, n_out = {Referee.COPY_TAG}, 1
    for _, tag in ipairs(tags or {}) do
      if tag ~= DATA.main then
        n_out = n_out + 1
        out[n_out] = tag
      end
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

-- Scorlitaire!/Scorliroad!: every card of `deck`, face down, on the layout in front of `color`;
-- done() once they all lie there.
function T.lay_out(deck, color, done)
  local spots = Referee.solo_layout(DATA, color, deck.getQuantity(), ensure_state())
  local rotation = {0, Referee.rotation_y(DATA, color), 180}
  Table.take_all(deck, function(k) return spots[k], rotation end, done)
end

local function face_up(obj)
  local z = obj.getRotation().z % 360
  return z < 90 or z > 270
end

local function near(p, spot, radius)
  return (p.x - spot[1]) * (p.x - spot[1]) + (p.z - spot[3]) * (p.z - spot[3]) <= radius * radius
end

-- One press of SCORE! or Keep by `color`, in lib.turns' shape: read() -> the move (Referee.flow's) and the
-- table's objects by guid; the flow plays it; a refused flip is turned face down again; carry_out(out,
-- objects, done) lays the table out as the flow's result `out` says.
local function press(color, finish, read, carry_out)
  local objects = {}
  referee.move(color, finish, {
    read = function()
      local move
      move, objects = read()
      return move
    end,
    put_back = function(_, done, refusal)
      for _, guid in ipairs(refusal.back) do
        local rotation = objects[guid].getRotation()
        objects[guid].setRotation({rotation.x, rotation.y, 180})
      end
      T.refresh()
      done()
      return refusal.back[1] ~= nil
    end,
    say = function(event)
      if event.text then say(event.text) end
    end,
    carry_out = function(_, _, events, done) carry_out(events[#events].out, objects, done) end})
end

-- Scorlitaire!/Scorliroad! SCORE!: apply the cards the player turned face up on the layout.
local function solo_score(color, finish)
  color = seated()[1] or color
  press(color, finish, function()
    local layout, objects, n, pile = {}, {}, 0, Api.at(Referee.SOLO_DISCARD)
    for _, card in ipairs(loose_cards()) do
      objects[card.guid] = card.obj
      if not near(card, pile, 2) then
        n = n + 1
        layout[n] = {guid = card.guid, id = card.id, x = card.x, z = card.z, up = face_up(card.obj)}
      end
    end
    return {solitaire = {cards = layout, total = Api.score(color), count = main_count()}}, objects
  end, function(out, objects, done)
    local pile, moved, n = Api.at(Referee.SOLO_DISCARD), {}, 0
    local function to_pile(obj, i)
      obj.setRotation({0, 180, 0})
      obj.setPositionSmooth({pile[1], pile[2] + 0.2 * i, pile[3]})
      n = n + 1
      moved[n] = obj
    end
    Api.set_score(color, out.score)
    T.refresh()
    if not out.reshuffle then
      for i, guid in ipairs(out.discard) do to_pile(objects[guid], i) end
      return Table.when_still(moved, done, "SCORE!")
    end
    -- CW!: gather everything but the pass card, shuffle once the deck has formed, lay out again
    local gather, count = {}, 0
    for _, card in ipairs(loose_cards()) do
      if card.guid ~= out.reshuffle then
        count = count + 1
        gather[count] = card.obj
      end
    end
    to_pile(objects[out.reshuffle], 1)
    local grouped = count > 1 and group(gather) or {}
    local deck = grouped[1]
    if deck == nil then return Table.when_still(moved, done, "SCORE!") end
    Table.wait(function() return Table.formed(deck, count) end, function()
      deck.shuffle()
      T.lay_out(deck, color, function() Table.when_still(moved, done, "SCORE!") end)
    end, "The reshuffle")
  end)
end

-- The objects of `cards` (table_cards()) by guid.
local function by_guid(cards)
  local objects = {}
  for _, card in ipairs(cards) do objects[card.guid] = card.obj end
  return objects
end

-- Score Against! SCORE!: your leftmost roster card against the virtual roster's rightmost column.
local function against_score(color, finish)
  color = seated()[1] or color
  press(color, finish, function()
    local state = ensure_state()
    local size, rows = Referee.roster_size(DATA, state), Referee.virtual_rows(DATA, state)
    local cards = table_cards()
    local rosters, problems = Referee.read_rosters(DATA, size, cards)
    local grid, more = Referee.read_virtual(DATA, color, size, rows, cards)
    for _, problem in ipairs(problems) do warn(problem) end
    for _, problem in ipairs(more) do warn(problem) end
    return {against = {roster = rosters[color], grid = grid, total = Api.score(color)}}, by_guid(cards)
  end, function(out, objects, done)
    local owner = {}
    for _, guid in ipairs(out.flip) do owner[guid] = color end
    turn_up(objects, owner, out.flip)
    local moved = discard(objects, out.discard)
    if out.total ~= nil then Api.set_score(color, out.total) end
    T.refresh()
    Table.when_still(moved, done, "SCORE!")
  end)
end

-- Score Against!'s Get ready! extras: the virtual roster dealt face down from the player's deck, then the
-- first draw into the hand; done() once they are there.
local function deal_against(deck, color, plan, done)
  local size, rows = plan.roster_size, Referee.virtual_rows(DATA, ensure_state())
  local rotation = {0, Referee.rotation_y(DATA, color), 180}
  local grid = Referee.virtual_slots(DATA, color, size, rows)
  local j = Table.join(function() Table.when_dealt({[color] = plan.draw}, done, "Get ready!") end)
  for col = 1, size do
    for r = 1, rows do
      Table.take_top(deck, grid[col][r], rotation, j.add())
    end
  end
  Table.deal(deck, plan.draw, color)
  j.start()
end

-- "Get ready!" by mode (the Global script's Get ready! button calls this instead of its own);
-- finish() once every card has arrived.
function T.get_ready(player_color, finish)
  ensure_state()
  for _, obj in ipairs(getObjectsWithTag(Referee.COPY_TAG)) do obj.destruct() end
  local seated_now = getSeatedPlayers()
  Api.gather_main_deck(function(deck, problem)
    if deck == nil then warn(problem) return finish() end
    T.deal_ready(deck, seated_now, finish)
  end)
end

-- Get ready!'s moves once the main deck is gathered.
function T.deal_ready(deck, seated_now, finish)
  local state = ensure_state()
  local plan, message = Referee.plan_ready(DATA, state, seated_now, deck.getQuantity())
  if plan == nil then warn(message) return finish() end
  local aside = DATA.layout.aside
  local guids, n_guids = {}, 0
  for _, entry in ipairs(deck.getObjects()) do
    local id = Setup.card_id(entry.gm_notes)
    if id ~= nil and plan.remove[id] then
      n_guids = n_guids + 1
      guids[n_guids] = entry.guid
    end
  end
  local j = Table.join(finish)
  for i, guid in ipairs(guids) do
    Table.take(deck, guid, {aside[1], aside[2] + i * 0.1, aside[3]}, {0, 180, 180}, j.add())
  end
  deck.shuffle()
  if plan.layout then
    T.lay_out(deck, plan.players[1], j.add())
  elseif plan.own_decks then
    -- every copy is the whole shuffled deck, read once before the first player draws from it (TTS spawns
    -- each from the data with new GUIDs)
    local copy = #plan.players > 1 and retag(deck.getData()) or nil
    for i, color in ipairs(plan.players) do
      local position = Referee.own_deck_position(DATA, color, plan.roster_size)
      local rotation = {0, Referee.rotation_y(DATA, color), 180}
      if i == 1 then
        deck.setPosition(position)
        deck.setRotation(rotation)
        if plan.against then
          deal_against(deck, color, plan, j.add())
        elseif plan.draw > 0 then  -- Decking!: the first draw of each player, from their own deck
          Table.deal(deck, plan.draw, color)
          Table.when_dealt({[color] = plan.draw}, j.add(), "Get ready!")
        end
      else
        local spawned = j.add()
        spawnObjectData({data = copy, position = position, rotation = rotation,
                         callback_function = function(copy)
                           copy.shuffle()
                           if plan.draw > 0 then
                             Table.deal(copy, plan.draw, color)
                             Table.when_dealt({[color] = plan.draw}, spawned, "Get ready!")
                           else
                             spawned()
                           end
                         end})
      end
    end
  else
    local counts = {}
    for _, color in ipairs(plan.players) do
      deck = Table.deal(deck, plan.each, color)
      counts[color] = plan.each
    end
    Table.when_dealt(counts, j.add(), "Get ready!")
  end
  Referee.ready(DATA, state, seated_now, plan)
  T.draw_slots()
  T.refresh()
  local note = #guids > 0 and (" (" .. #guids .. " cards set aside)") or ""
  say(plan.message .. note)
  local opts = Referee.options(DATA, state.mode)
  if opts.teams then
    local parts = {}
    for k, color in ipairs(state.players) do parts[k] = color .. " T" .. (state.teams[color] + 1) end
    say("Teams: " .. table.concat(parts, ", "))
  end
  j.start()
end

-- --- XmlUI handlers (tts/score/ui.xml.j2): (player, value, id) ----------------------------------------------

local function change_mode(player, step)
  local state = ensure_state()
  if Table.busy() then warn("Wait a moment: the table is still being dealt or scored") return end
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
  local state = ensure_state()
  local target = Referee.next_target(state, value, seated())
  T.refresh()
  broadcastToColor(value .. "'s target: " .. target, player.color, {1, 1, 1})
end

function scoreTeam(player, value, id)
  local state = ensure_state()
  if Table.busy() then warn("Wait a moment: the table is still being dealt or scored") return end
  local team, message = Referee.toggle_team(DATA, state, value, getSeatedPlayers())
  if team == nil then warn(message) return end
  T.refresh()
  say(value .. " joins team " .. (team + 1))
end

function scoreReveal(player, value, id)
  local state = ensure_state()
  if Table.busy() then warn("Wait a moment: the table is still being dealt or scored") return end
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
  for _, line in ipairs(out.warnings) do warn(line) end
end

-- The deck lying on `color`'s own deck spot (Decking!, Score Against!), or nil.
local function own_deck(color, size)
  local spot = Referee.own_deck_position(DATA, color, size)
  local tags = Referee.card_tags(DATA)
  tags[#tags + 1] = Referee.COPY_TAG
  for _, tag in ipairs(tags) do  -- table_cards()'s first deck there, reading only the decks
    local found, found_guid = nil, nil
    for _, obj in ipairs(getObjectsWithTag(tag)) do
      if obj.type == "Deck" and near(obj.getPosition(), spot, 1.0) then
        local guid = obj.getGUID()
        if found_guid == nil or guid < found_guid then found, found_guid = obj, guid end
      end
    end
    if found ~= nil then return found end
  end
  return nil
end

-- Keep (Decking!, Score Against!): the rest of `color`'s draw to their graveyard, face up, then the next draw.
local function keep(color, finish)
  press(color, finish, function()
    local rosters = read_rosters()
    local deck = own_deck(color, Referee.roster_size(DATA, ensure_state()))
    return {keep = rosters[color] or {}, deck = deck and deck.getQuantity() or 0}, {}
  end, function(out, _, done)
    local size = Referee.roster_size(DATA, ensure_state())
    local grave, ry = Referee.graveyard_position(DATA, color, size), Referee.rotation_y(DATA, color)
    local moved = {}
    for i, obj in ipairs(Table.by_guid(Player[color].getHandObjects() or {})) do
      obj.setRotation({0, ry, 0})
      obj.setPositionSmooth({grave[1], grave[2] + 0.1 * i, grave[3]})
      moved[i] = obj
    end
    Table.when_still(moved, function()
      if out.draw == 0 then return done() end
      local deck = own_deck(color, size)
      if deck == nil then warn(color .. "'s own deck is not on its spot, right of the roster: put it back") return done() end
      Table.deal(deck, out.draw, color)
      Table.when_dealt({[color] = out.draw}, done, "Keep")
    end, "Keep")
  end)
end

local function score(color, finish)
  local solo = Referee.solo_kind(DATA, ensure_state())
  if solo == "solitaire" then return solo_score(color, finish) end
  if solo == "score-against" then return against_score(color, finish) end
  local owner
  press(color, finish, function()
    local rosters, objects
    rosters, owner, objects = read_rosters()
    return {score = {seated = getSeatedPlayers(), rosters = rosters, pad = pad()}}, objects
  end, function(out, objects, done)
    turn_up(objects, owner, out.flip)
    local moved = discard(objects, out.discard)
    if out.pad ~= nil then
      for color, value in pairs(out.pad) do Api.set_score(color, value) end
    end
    T.refresh()
    Table.when_still(moved, done, "SCORE!")
  end)
end

Turns.buttons({{"scoreScore", "SCORE!", score}, {"scoreKeep", "Keep", keep}})

function scoreNewGame(player, value, id)
  if Table.busy() then warn("Wait a moment: the table is still being dealt or scored") return end
  local mode = ensure_state().mode
  local state = Referee.new_state(DATA, math.random(1, 2147483646))
  state.mode = mode
  referee.start(state)
  Api.reset_scores()
  T.draw_slots()
  T.refresh()
  say(player.color .. " starts a new game of " .. Referee.mode(DATA, mode).name)
end

-- --- Hooks of the Global script ----------------------------------------------------------------------------

-- The game saved with the table (lib.turns: the referee's state); a damaged one starts a new game.
function T.load(text)
  referee.load(text)
  local state = referee.state()
  if state ~= nil and Referee.mode(DATA, state.mode or "") == nil then referee.start(nil) end
  ensure_state()
  T.draw_slots()
  T.refresh()
end

function T.save()
  ensure_state()
  return referee.save()
end

function T.seated()
  T.draw_slots()
  T.refresh()
end

-- Where players put cards, by name (`deckpress test`'s scenarios): each seat's roster slots in the mode
-- under way ("slot 1 of White" is White's leftmost) and the discard pile.
function T.places()
  local size = Referee.roster_size(DATA, ensure_state())
  local discard = Api.at(Referee.DISCARD)
  local out = {discard = {x = discard[1], y = discard[2], z = discard[3]}}
  for _, color in ipairs(DATA.seats) do
    for k, p in ipairs(Referee.slots(DATA, color, size)) do
      out["slot " .. k .. " of " .. color] = {x = p[1], y = p[2], z = p[3], radius = Referee.SLOT_SIZE[1] / 2}
    end
  end
  return out
end

-- For tests and other scripts: the referee's state.
function T.state()
  return ensure_state()
end

return T
