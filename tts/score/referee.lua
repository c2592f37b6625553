-- SCORE! referee: pure glue between the table and the rules engine (tts/score/engine.lua).
--
-- Data in, data out, no TTS calls (tts/score/table.lua makes those): where the roster slots lie,
-- which card lies in which slot, the Get ready! plan of each mode, and what the engine's game flow
-- (its rounds of action turns, the totals, the end of the game) means on the table: cards to turn
-- and discard by GUID, score changes, messages. The solo modes' own flows are here too. Cards come from DATA
-- (decks/score.yaml: fields priority, target and effect, the steps), modes from DATA.setup.options and
-- DATA.modes[].options, the deal from DATA.setup.deal: a new card or mode needs no Lua edit. The state (one table) is plain data,
-- which the table script saves with lib.saved.
-- No goto, no bitwise operators, no io/load/require (the MoonSharp sandbox).

local Engine = use("score.engine")
local Random = use("lib.random")
local index_of = use("lib.util").index_of
local Seating = use("lib.seating")
local Setup = use("lib.setup")

local R = {}

-- Table geometry (TTS units; a poker card at scale 1 is about 2.2 x 3.1).
R.SLOT_STEP = {[3] = 2.6}        -- distance between slot centres, by roster size (default 2.5)
R.SLOT_DEPTH = 5.8               -- slot centres: this far from the hand zone centre towards the table's
R.SLOT_SIZE = {2.4, 3.3}         -- outline drawn around a slot (width, length)
R.SLOT_RADIUS = 1.8              -- a card lies in a slot when its centre is this close (and nearest)
R.DISCARD = {-4.0, 1.5, 0.0}     -- the discard pile, left of the deck
R.COPY_TAG = "score:copy"        -- cards spawned as a player's own deck (Decking!, Score Against!)
R.AUTO = Engine.AUTO


local copy = use("lib.util").deep_copy
R.copy = copy

-- --- Cards and modes --------------------------------------------------------------------------------

R.cards = Engine.deck_cards    -- the play cards by id, and a list of problems
R.mode = Engine.mode            -- the mode record of DATA.modes with this id
R.options = Engine.options      -- full engine options of a mode id

-- The tags of the play card components: what table_cards() looks for.
function R.card_tags(data)
  local out, n_out = {}, 0
  for _, component in ipairs(data.components) do
    if component.type == "cards" and component.role == "play" then
      n_out = n_out + 1
      out[n_out] = component.id
    end
  end
  return out
end

-- The mode ids playable with `count` seated players (all modes when nobody is seated).
function R.modes_for(data, count)
  local out, n_out = {}, 0
  for _, mode in ipairs(data.modes) do
    if count == 0 or Engine.fits(R.options(data, mode.id), count) then
      n_out = n_out + 1
      out[n_out] = mode.id
    end
  end
  return out
end

-- The next (step 1) or previous (step -1) mode of `ids` after `current`.
function R.cycle(ids, current, step)
  if #ids == 0 then return current end
  local at = index_of(ids, current)
  if at == nil then return ids[1] end
  return ids[(at - 1 + step) % #ids + 1]
end

-- --- State -------------------------------------------------------------------------------------------

-- A new game: mode classic (or the first mode), nobody playing yet.
function R.new_state(data, seed)
  local first = R.mode(data, "classic") and "classic" or data.modes[1].id
  return {mode = first, rounds = 0, over = false, players = {}, teams = {}, team_totals = {0, 0},
          targets = {}, round = false, contenders = false, rng = R.seed(seed or 1)}
end

R.seed = Random.seed

function R.in_progress(state)
  return state.rounds > 0 or (state.round and state.round.turn > 0) or (state.solo and true) or false
end

-- --- Slots -------------------------------------------------------------------------------------------

function R.roster_size(data, state)
  return R.options(data, state.mode).roster_size
end

local function step_for(size)
  return R.SLOT_STEP[size] or 2.5
end

-- World positions {x, y, z} of the `size` roster slots of `color`, leftmost (slot 1) first as the
-- seated player sees them; nil when the colour has no hand zone.
-- Seat-local x of slot k of `size` slots, left to right as the seated player sees them.
local function slot_x(size, k)
  return (k - (size + 1) / 2) * step_for(size)
end

-- The four corners of a card-sized outline centred on seat-local (x, d) of `color` (for vector lines).
local function outline(data, color, x, d)
  local w, l = R.SLOT_SIZE[1] / 2, R.SLOT_SIZE[2] / 2
  return {Seating.place(data, color, x - w, d - l, 1.0), Seating.place(data, color, x + w, d - l, 1.0),
          Seating.place(data, color, x + w, d + l, 1.0), Seating.place(data, color, x - w, d + l, 1.0)}
end

-- A seat colour of the table: `color`, or the first seat when it has none (a spectator).
local function seat_or_first(data, color)
  return Seating.index(data.seats, color) and color or data.seats[1]
end

-- World positions {x, y, z} of the `size` roster slots of `color`, leftmost (slot 1) first as the
-- seated player sees them; nil when the colour has no hand zone.
function R.slots(data, color, size)
  if Seating.index(data.seats, color) == nil then return nil end
  local out = {}
  for k = 1, size do out[k] = Seating.place(data, color, slot_x(size, k), R.SLOT_DEPTH) end
  return out
end

-- The four corners of slot k's outline (for vector lines).
function R.slot_outline(data, color, size, k)
  return outline(data, color, slot_x(size, k), R.SLOT_DEPTH)
end

-- Y rotation of a card read upright from `color`'s seat.
function R.rotation_y(data, color)
  return Seating.facing(data, seat_or_first(data, color))
end

-- A separate spot per seat for a player's own deck (Decking!): right of the roster.
function R.own_deck_position(data, color, size)
  return Seating.place(data, color, ((size + 1) / 2) * step_for(size) + 1.6, R.SLOT_DEPTH)
end

-- A player's graveyard (Decking!, Score Against!): right of their own deck.
function R.graveyard_position(data, color, size)
  return Seating.place(data, color, ((size + 1) / 2) * step_for(size) + 4.4, R.SLOT_DEPTH)
end

-- Decking!/Score Against! Keep (C29): the player laid one card of their draw in the rightmost empty slot of
-- `roster` (their slots, as read_rosters reads them); the engine's keep_card keeps it, on the part of its state
-- that keep_card reads, built from the table: the cards the roster holds, and `deck` face-down cards (unseen)
-- left in the player's own deck. The engine sends the rest of the draw to the graveyard and says how many
-- cards to draw again. Returns {slot, draw (cards to draw now, 0 once the roster is full), message} or nil and
-- a message. The state counts the keeps of each player this round.
function R.keep(data, state, color, roster, deck)
  if state.over then return nil, "the game is over: press New game" end
  local opts = R.options(data, state.mode)
  if not (opts.deck_per_player and opts.draw_per_slot) then
    return nil, "Keep is for the modes where you draw your roster from your own deck (Decking!, Score Against!)"
  end
  if not index_of(state.players, color) then return nil, color .. " is not playing: press Get ready! first" end
  state.kept = state.kept or {}
  local kept, size = state.kept[color] or 0, opts.roster_size
  if kept >= size then return nil, "your roster is full: press SCORE!" end
  local slot = size - kept
  for k = 1, size do
    if (roster[k] and true or false) ~= (k >= slot) or (roster[k] and (roster[k].count or 1) > 1) then
      return nil, color .. ": put one card of your draw face down in roster slot " .. slot
        .. " (the rightmost empty one), then press Keep"
    end
  end
  local ids, id, unseen = {}, roster[slot].id or "", {}
  for k = size, slot + 1, -1 do ids[size + 1 - k] = roster[k].id end  -- kept first: the rightmost
  for i = 1, deck do unseen[i] = false end
  local s = {opts = opts, hands = {[color] = {id}}, kept = {[color] = ids}, graves = {[color] = {}},
             decks = {[color] = unseen}}
  local after, events = Engine.keep_card(s, color, id)
  if after == nil then return nil, events.text end
  state.kept[color] = kept + 1
  return {slot = events[1].slot, draw = events[1].draw, message = events[1].text}
end

-- nearest(x, z): the index of the nearest of `centres` ({x, z}) within SLOT_RADIUS of (x, z), the first of
-- them on a tie, or nil. Each centre is listed in the cells (of a grid of this side) its circle touches, in
-- order: a point is measured against the few centres of its own cell, not against every slot of the table.
local function nearest_of(centres)
  local radius = R.SLOT_RADIUS
  local limit, side, floor = radius * radius, 2 * radius, math.floor
  local cells = {}
  for i, c in ipairs(centres) do
    for cx = floor((c.x - radius) / side), floor((c.x + radius) / side) do
      for cz = floor((c.z - radius) / side), floor((c.z + radius) / side) do
        local key = cx * 100000 + cz
        local cell = cells[key]
        if cell == nil then
          cell = {n = 0}
          cells[key] = cell
        end
        cell.n = cell.n + 1
        cell[cell.n] = i
      end
    end
  end
  return function(x, z)
    local best, best_d = nil, nil
    local cell = cells[floor(x / side) * 100000 + floor(z / side)]
    for j = 1, cell and cell.n or 0 do
      local i = cell[j]
      local c = centres[i]
      local d = (x - c.x) * (x - c.x) + (z - c.z) * (z - c.z)
      if d <= limit and (best_d == nil or d < best_d) then best, best_d = i, d end
    end
    return best
  end
end

-- Each object goes to the nearest of `centres` ({x, z, label}) within SLOT_RADIUS. Returns found[i] =
-- the object in centre i (the highest when several lie there, its `count` then the number of cards
-- there: each object counts `count` cards, 1 by default; a deck is one object) and a list of problems.
local function assign(centres, objects)
  local found, problems = {}, {}
  local nearest = nearest_of(centres)
  for _, obj in ipairs(objects) do
    local best = nearest(obj.x, obj.z)
    if best ~= nil then
      local held = found[best]
      if held then
        local count = (held.count or 1) + (obj.count or 1)
        if obj.y > held.y then held = obj end
        local top = {}
        for key, value in pairs(held) do top[key] = value end
        top.count = count
        found[best] = top
      else
        found[best] = obj
      end
    end
  end
  local n_problems = 0
  for i, obj in pairs(found) do
    if (obj.count or 1) > 1 then
      n_problems = n_problems + 1
      problems[n_problems] = centres[i].label .. " holds more than one card"
    end
  end
  return found, problems
end

-- The centres ({x, z, label}) of every seat's `size` roster slots, and the {color, k} of each.
local function roster_centres(data, size)
  local centres, places, n = {}, {}, 0  -- centres[i] lies at places[i]
  for _, color in ipairs(data.seats) do
    for k, p in ipairs(R.slots(data, color, size)) do
      n = n + 1
      centres[n] = {x = p[1], z = p[3], label = color .. "'s roster slot " .. k}
      places[n] = {color, k}
    end
  end
  return centres, places
end

-- reach(x, z): whether a card there lies in a roster slot of `size` of some seat, for read_rosters (a table
-- reads no more of the cards out of reach).
function R.roster_reach(data, size)
  local nearest = nearest_of(roster_centres(data, size))
  return function(x, z) return nearest(x, z) ~= nil end
end

-- Rosters read from the table. `objects`: list of {guid, id, x, y, z, count} (cards not in a hand;
-- a deck is one object with the top card's guid and id and `count` its number of cards).
-- Returns rosters[color][k] = object or false for each seat colour, and a list of problems.
function R.read_rosters(data, size, objects)
  local centres, places = roster_centres(data, size)
  local found, problems = assign(centres, objects)
  local rosters = {}
  for _, color in ipairs(data.seats) do rosters[color] = {} end
  for i, place in ipairs(places) do rosters[place[1]][place[2]] = found[i] or false end
  return rosters, problems
end

-- --- Get ready! ----------------------------------------------------------------------------------------

-- The teams of `players` (clockwise): alternating 0, 1, 0, ... (never side by side, except the one
-- pair an odd count forces: what the engine's separate_teams allows).
function R.default_teams(players)
  local teams = {}
  for s, color in ipairs(players) do teams[color] = (s - 1) % 2 end
  return teams
end

-- The teams of `players`: each player's choice (R.toggle_team), else alternating round the table.
function R.chosen_teams(state, players)
  local teams, chosen = R.default_teams(players), state.chosen_teams or {}
  for _, color in ipairs(players) do
    if chosen[color] ~= nil then teams[color] = chosen[color] end
  end
  return teams
end

-- A player switches `color` to the other team before the game starts (C21: any line-up that keeps
-- team-mates apart, Get ready! checks it). Returns the new team (0 or 1), or nil and a message.
function R.toggle_team(data, state, color, seated)
  if R.in_progress(state) then return nil, "the teams are fixed during a game: press New game to change them" end
  local players = Setup.order_seated(data.seats, seated)
  local current = R.chosen_teams(state, players)[color]
  if current == nil then return nil, color .. " is not seated" end
  state.chosen_teams = state.chosen_teams or {}
  state.chosen_teams[color] = 1 - current
  state.teams = R.chosen_teams(state, players)
  return state.chosen_teams[color]
end

local team_list = Engine.team_list

-- The players of the next round: the game's (the engine's round_players), or before the game the seated
-- players in clockwise order.
local function round_players(data, state, seated)
  if #state.players > 0 then return Engine.round_players(state, R.options(data, state.mode)) end
  return Setup.order_seated(data.seats, seated)
end

-- Fix the game's players and teams at the start of a game (no effect once the game runs).
function R.start_game(data, state, seated)
  if #state.players > 0 and R.in_progress(state) then return end
  state.players = Setup.order_seated(data.seats, seated)
  state.teams = R.chosen_teams(state, state.players)
  state.team_totals = {0, 0}
end

-- The Get ready! plan: {players, each, remove (id set), own_decks, roster_size, message} or nil and a
-- message. `deck_size`: cards in the gathered deck (nil: not checked).
function R.plan_ready(data, state, seated, deck_size)
  if state.over then return nil, "the game is over: press New game" end
  local opts = R.options(data, state.mode)
  local name = R.mode(data, state.mode).name
  local starting = not R.in_progress(state)
  local game_players = starting and Setup.order_seated(data.seats, seated) or state.players
  if #game_players == 0 then return nil, "nobody is seated: take a seat (a colour) first" end
  local teams = nil
  if opts.teams then
    local t = starting and R.chosen_teams(state, game_players) or state.teams
    teams = team_list({teams = t}, game_players)
  end
  local n = #game_players
  if not Engine.fits(opts, n) then
    local range = opts.players_max and (opts.players_min .. " to " .. opts.players_max)
      or (opts.players_min .. " or more")
    return nil, name .. " has no deal for " .. n .. " player" .. (n == 1 and "" or "s") .. ": it plays with "
      .. range .. " players; choose another mode with the arrows of the referee panel"
  end
  local ok, problem = pcall(Engine.validate_setup, opts, #game_players, teams)
  if not ok then return nil, name .. ": " .. tostring(problem) end
  local players = starting and game_players or round_players(data, state, seated)
  local plan = {players = players, remove = {}, own_decks = opts.deck_per_player,
                roster_size = opts.roster_size, each = 0}
  for _, id in ipairs(opts.deck_remove) do plan.remove[id] = true end
  if opts.solo == "scorlitaire" or opts.solo == "scorliroad" then
    plan.layout = true
    plan.message = name .. " Get ready! Every card lies face down in front of you: flip one (and, in Scorliroad!, "
      .. "only next to the previous one), then press SCORE!"
    return plan
  end
  if opts.solo == "score-against" then
    plan.against = true
    plan.virtual = opts.roster_size * (opts.virtual_rows or 0)
    plan.draw = opts.draw_per_slot or 0
    plan.message = name .. " Get ready! Your own deck lies right of your roster and the virtual roster ("
      .. opts.roster_size .. " columns of " .. (opts.virtual_rows or 0) .. " cards) face down above it; you hold "
      .. plan.draw .. " cards: put 1 face down at the right end of your roster and press Keep (the rest goes to "
      .. "your graveyard, and you draw " .. plan.draw .. " again), until your roster is full; then press SCORE!"
    return plan
  end
  if opts.deck_per_player then
    plan.draw = opts.draw_per_slot or 0
    plan.message = name .. " Get ready! Each player has their own deck and holds " .. plan.draw .. " cards of it: "
      .. "put 1 face down at the right end of your roster and press Keep (the rest goes to your graveyard, "
      .. "and you draw " .. plan.draw .. " again), until your roster is full"
    return plan
  end
  local each_ok, each = pcall(Engine.hand_size, opts, #players, data.setup.deal)
  if not each_ok then return nil, name .. ": " .. tostring(each) end
  plan.each = each
  if deck_size ~= nil then
    local removed = 0
    for _, card in pairs(R.cards(data)) do
      if plan.remove[card.id] then removed = removed + (card.count or 1) end
    end
    local available = deck_size - removed
    if each * #players > available then
      return nil, "not enough cards: " .. #players .. " players x " .. each .. " needs " .. (each * #players)
        .. ", the deck has " .. available
    end
  end
  plan.message = name .. " Get ready! " .. each .. " cards to each of " .. #players .. " players; build a roster of "
    .. opts.roster_size .. " cards in your slots, left to right"
  return plan
end

-- Record a Get ready!: the game starts if it had not, and a new round waits for its first action turn.
function R.ready(data, state, seated, plan)
  R.start_game(data, state, seated)
  state.kept = {}
  state.round = false
  state.pending = false
  state.solo = false
  return state
end

-- --- Targets -------------------------------------------------------------------------------------------

-- Next value of `color`'s target selector: Auto, then each player of the game (yourself included).
function R.next_target(state, color, seated_players)
  local options = {R.AUTO}
  for k, c in ipairs(seated_players) do options[k + 1] = c end
  local current = state.targets[color] or R.AUTO
  state.targets[color] = R.cycle(options, current, 1)
  return state.targets[color]
end

-- --- SCORE! ----------------------------------------------------------------------------------------------

-- Dice of the coming action turn (the engine's turn_dice), or nil when the mode needs none.
function R.turn_dice(data, state, players)
  return Engine.turn_dice(state, R.options(data, state.mode), players)
end

-- Reveal: the cards that act this turn (to turn face up before SCORE!), and the dice message.
-- Returns {flip = {guids}, messages = {...}} or nil and a message.
function R.reveal(data, state, seated, rosters)
  if state.over then return nil, "the game is over: press New game" end
  local opts = R.options(data, state.mode)
  local players = state.round and state.round.players or round_players(data, state, seated)
  if #players == 0 then return nil, "nobody is seated: take a seat (a colour) first" end
  local dice = R.turn_dice(data, state, players)
  local slot = Engine.picks(opts, players, rosters, dice or {})
  local out = {flip = {}, messages = {}}
  if dice then out.messages[1] = Engine.dice_message(players, dice, opts) end
  local first_turn = not state.round or state.round.turn == 0
  local n_flip = 0
  for s, color in ipairs(players) do
    local roster = rosters[color] or {}
    if opts.pick == "dice" and first_turn then  -- C19: the whole roster is turned face up
      for k = 1, #roster do
        if roster[k] then
          n_flip = n_flip + 1
          out.flip[n_flip] = roster[k].guid
        end
      end
    elseif slot[s] then
      n_flip = n_flip + 1
      out.flip[n_flip] = roster[slot[s]].guid
    end
  end
  out.warnings = R.target_warnings(data, state, players, rosters, slot)
  return out
end

-- Warnings for the chosen targets this action turn cannot reach (C4): a player who plays No! (a protect
-- step), or a player who is not in this round. Auto targets never aim there.
function R.target_warnings(data, state, players, rosters, slot)
  local cards, acting, out, n_out = R.cards(data), {}, {}, 0
  for s, color in ipairs(players) do
    local obj = slot[s] and rosters[color][slot[s]]
    acting[color] = obj and cards[obj.id or ""] or false
  end
  for _, color in ipairs(players) do
    local card, chosen = acting[color], state.targets[color]
    if card and card.target and chosen and chosen ~= R.AUTO then
      if acting[chosen] == nil then
        n_out = n_out + 1
        out[n_out] = color .. "'s " .. card.name .. " targets " .. chosen .. ", who is not playing this round: "
          .. "it will have no effect; choose another target"
      elseif acting[chosen] and Engine.has(acting[chosen], "protect") then
        n_out = n_out + 1
        out[n_out] = color .. "'s " .. card.name .. " targets " .. chosen .. ", who plays " .. acting[chosen].name
          .. " and cannot be targeted: it will have no effect; choose another target"
      end
    end
  end
  return out
end

-- SCORE!: resolve one action turn (the engine's action_turn). `rosters` from read_rosters, `pad` =
-- {color = saved total} (the score pad of the Global script), `seated` = seated colours. Returns {flip,
-- discard (guids), messages, pad (new totals by colour, or nil), round_over, winner, result (the
-- engine's)} or nil and a message. The state is updated.
function R.score(data, state, seated, rosters, pad)
  if state.over then return nil, "the game is over: press New game" end
  if #state.players == 0 then R.start_game(data, state, seated) end
  local out, problem = Engine.action_turn(state, R.options(data, state.mode), R.cards(data), rosters, pad)
  if out == nil then return nil, problem end
  for _, key in ipairs({"flip", "discard"}) do
    for i, obj in ipairs(out[key]) do out[key][i] = obj.guid end
  end
  return out
end

-- --- Solo modes -----------------------------------------------------------------------------------------------

R.SOLO_DISCARD = {11.0, 1.5, -10.0}  -- the solo discard pile, right of the layout

-- Scorlitaire!/Scorliroad! lay every card face down in front of the player: `count` positions, rows of
-- the mode's layout_columns from the player towards the centre of the table (`state`'s mode; nil: the deck's).
local function layout_columns(data, state)
  return state and R.options(data, state.mode).layout_columns or data.setup.options.layout_columns
end

function R.solo_layout(data, color, count, state)
  local seat = seat_or_first(data, color)
  local columns = layout_columns(data, state)
  local out = {}
  for c = 0, count - 1 do
    local row, col = math.floor(c / columns), c % columns
    local x = (col - (columns - 1) / 2) * 2.5
    out[c + 1] = Seating.place(data, seat, x, 5.4 + row * 3.3)
  end
  return out
end

function R.solo_kind(data, state)
  local solo = R.options(data, state.mode).solo
  if solo == "scorlitaire" or solo == "scorliroad" then return "solitaire" end
  return solo or nil
end

-- The layout spot (1-based index of solo_layout) a card at (x, z) lies on, or nil (off the layout).
function R.solo_spot(data, state, color, x, z, count)
  local best, best_d = nil, nil
  for c, p in ipairs(R.solo_layout(data, color, count, state)) do
    local d = (x - p[1]) * (x - p[1]) + (z - p[3]) * (z - p[3])
    if d <= R.SLOT_RADIUS * R.SLOT_RADIUS and (best_d == nil or d < best_d) then best, best_d = c, d end
  end
  return best
end

-- The layout as the referee sees it: `cards` = the loose cards {guid, id, x, z, up} not on the discard pile.
-- Returns spot -> {down = face-down card, deny = a flipped Deny! lying there} and the spot of each guid.
local function solo_board(data, state, color, cards, count)
  local board, spot_of = {}, {}
  for _, card in ipairs(cards) do
    local spot = R.solo_spot(data, state, color, card.x, card.z, count)
    spot_of[card.guid] = spot
    if spot then
      board[spot] = board[spot] or {}
      if not card.up then board[spot].down = card end
      if card.up and state.solo.denies[card.guid] then board[spot].deny = card end
    end
  end
  return board, spot_of
end

-- The engine's state of `state`'s solo game (a contract state of its mode, Engine.setup), with `color`'s
-- score `total` and the rounds played as the table shows them; or nil and a message.
local function contract_state(data, state, color, total)
  local s, refusal = Engine.setup(data, {color}, {mode = state.mode})
  if s == nil then return nil, refusal.text end
  s.totals[color], s.rounds = total, state.rounds
  return s
end

-- The texts of the engine's `events`.
local function texts(events)
  local out = {}
  for i, event in ipairs(events) do out[i] = event.text end
  return out
end

-- Scorlitaire!/Scorliroad! SCORE! (C26, C28): the engine plays what the player did on the layout since the
-- last press: {cover = spot} where a Deny! they flipped now lies, then {flip = spot} of the card they turned
-- face up, on the engine's state built from the layout (face-down cards, the Deny!s on them) and what the
-- referee keeps (the last Score! and flip, the Deny! to place). `cards`: every loose card of the layout
-- {guid, id, x, z, up} (not the discard pile); `total`: the player's score; `count`: the number of layout
-- spots. Returns {discard (guids), reshuffle (guid of a CW!/CCW! card or nil), messages, score, over} or nil,
-- a message and the guids to turn face down again (a refused flip).
function R.solo_score(data, state, color, cards, total, count)
  if state.over then return nil, "the game is over: press New game" end
  local known = R.cards(data)
  state.solo = state.solo or {}
  local solo = state.solo
  solo.applied = solo.applied or {}
  solo.denies = solo.denies or {}
  local board, spot_of = solo_board(data, state, color, cards, count)
  local s, problem = contract_state(data, state, color, total)
  if s == nil then return nil, problem, {} end
  s.spots, s.last, s.spot, s.deny, s.discard = count, solo.last or 0, solo.spot or false, false, {}
  for spot = 1, count do
    local place = board[spot] or {}
    s.layout[spot] = place.down and place.down.id or false
    s.covered[spot] = place.deny and place.deny.guid ~= solo.deny and place.deny.id or false
  end
  local flipped, n_flipped, events, n_events = {}, 0, {}, 0
  for _, card in ipairs(cards) do
    if card.guid == solo.deny then s.deny = card.id end
    if card.up and not solo.applied[card.guid] then
      n_flipped = n_flipped + 1
      flipped[n_flipped] = card
    end
  end
  local function play(move)
    local after, result = Engine.play(s, color, move)
    if after == nil then return result end
    s = after
    for _, event in ipairs(result) do
      n_events = n_events + 1
      events[n_events] = event
    end
  end
  table.sort(flipped, function(a, b) return a.guid < b.guid end)
  if #flipped > 1 then
    local back = {}
    for i, card in ipairs(flipped) do back[i] = card.guid end
    return nil, "flip one card at a time, then press SCORE!", back
  end
  local obj = flipped[1]
  local spot = obj and spot_of[obj.guid]
  if obj and known[obj.id or ""] == nil then return nil, "not a SCORE! card", {} end
  if spot then s.layout[spot] = obj.id end  -- face down until the engine flips it
  if s.deny and play({cover = spot_of[solo.deny] or false}) then
    return nil, "put your Deny! on a face-down card of the layout first: that card stays out of play until "
      .. "the next shuffle", {}
  end
  local refusal = not s.over and play({flip = spot or false})
  if refusal then
    if spot == nil then return nil, "flip a face-down card of your layout first, then press SCORE!", {} end
    return nil, refusal.rule .. ": " .. refusal.text, {obj.guid}
  end
  local out = {discard = {}, messages = texts(events), score = s.totals[color]}
  for _, event in ipairs(events) do
    if event.what == "flipped" then
      solo.applied[obj.guid] = true
      if event.outcome == "reshuffle" then
        out.reshuffle = obj.guid
        solo.applied, solo.denies = {}, {}
      elseif event.outcome == "block" and s.deny then
        solo.denies[obj.guid] = true
      else
        out.discard[1] = obj.guid
      end
    end
  end
  solo.last, solo.spot, solo.deny = s.last, s.spot or nil, s.deny and obj.guid or nil
  if s.over then
    state.over, out.over = true, s.winners[1] and "won" or "lost"
  end
  return out
end

-- --- Score Against! ------------------------------------------------------------------------------------------

R.VIRTUAL_ROW_STEP = 3.4  -- distance between the virtual roster's rows (a card is about 3.1 long)

function R.virtual_rows(data, state)
  return R.options(data, state.mode).virtual_rows or 0
end

local function virtual_depth(rows, r)
  return R.SLOT_DEPTH + (rows - r + 1) * R.VIRTUAL_ROW_STEP
end

-- Score Against!'s virtual roster above `color`'s roster: out[col][row] = {x, y, z}, columns left to
-- right as the player sees them (the same x as the roster slots), row 1 the farthest from the player.
function R.virtual_slots(data, color, size, rows)
  if Seating.index(data.seats, color) == nil then return nil end
  local out = {}
  for col = 1, size do
    out[col] = {}
    for r = 1, rows do out[col][r] = Seating.place(data, color, slot_x(size, col), virtual_depth(rows, r)) end
  end
  return out
end

-- The outline corners of virtual slot (col, row), as slot_outline.
function R.virtual_outline(data, color, size, rows, col, r)
  return outline(data, color, slot_x(size, col), virtual_depth(rows, r))
end

-- The virtual roster read from the table: grid[col][row] = object or false (objects as read_rosters).
-- Returns the grid and a list of problems.
function R.read_virtual(data, color, size, rows, objects)
  local centres, places, grid, n = {}, {}, {}, 0  -- centres[i] lies at places[i]
  for col, column in ipairs(R.virtual_slots(data, color, size, rows) or {}) do
    grid[col] = {}
    for r, p in ipairs(column) do
      n = n + 1
      centres[n] = {x = p[1], z = p[3], label = "virtual roster column " .. col .. ", row " .. r}
      places[n] = {col, r}
    end
  end
  local found, problems = assign(centres, objects)
  for i, place in ipairs(places) do grid[place[1]][place[2]] = found[i] or false end
  return grid, problems
end

-- The cards Score Against!'s next SCORE! flips: the leftmost roster card and the rightmost column of the
-- virtual roster that still holds cards (guids, for Reveal).
local function against_next(roster, grid)
  local own_k, col = nil, nil
  for k = 1, #roster do
    if roster[k] and own_k == nil then own_k = k end
  end
  for c = #grid, 1, -1 do
    for _, obj in ipairs(grid[c]) do
      if obj and col == nil then col = c end
    end
  end
  return own_k, col
end

function R.against_reveal(roster, grid)
  local own_k, col = against_next(roster, grid)
  local flip = {}
  if own_k then flip[1] = roster[own_k].guid end
  local n_flip = #flip
  for _, obj in ipairs(col and grid[col] or {}) do
    if obj then
      n_flip = n_flip + 1
      flip[n_flip] = obj.guid
    end
  end
  return flip
end

-- Score Against! SCORE! (C27, C28): the engine's next action turn (Engine.against_turn) on its state built
-- from the table: the roster's cards left in `roster` (slot objects or false), the virtual roster `grid`
-- (read_virtual), `total` (the player's saved score) and the round's running score the referee keeps. The
-- engine plays the leftmost roster card against the rightmost column of `grid` that still holds cards and, at
-- the end of the round, floors and saves the round score and says whether the game is won or lost.
-- Returns {flip, discard (guids), messages, total (new saved score, at the round end only), round_over, over
-- ("won"/"lost" or nil)} or nil and a message. The state is updated.
function R.against_score(data, state, color, roster, grid, total)
  if state.over then return nil, "the game is over: press New game" end
  local opts = R.options(data, state.mode)
  local cards = R.cards(data)
  local own_k, col = against_next(roster, grid)
  if own_k == nil then
    return nil, "no card lies in your roster slots: put your roster face down in your slots, left to right"
  end
  if col == nil then
    return nil, "the virtual roster above your roster is empty: Get ready! deals it (3 columns of 3 cards)"
  end
  local s, problem = contract_state(data, state, color, total)
  if s == nil then return nil, problem end
  local ids, unknown, n_unknown = {}, {}, 0
  local function known(obj, where)
    if cards[obj.id or ""] then return obj.id end
    n_unknown = n_unknown + 1
    unknown[n_unknown] = where
  end
  for k, obj in ipairs(roster) do ids[k] = obj and known(obj, "your roster slot " .. k) or false end
  local out = {flip = {roster[own_k].guid}, discard = {roster[own_k].guid}}
  for c, column in ipairs(grid) do
    local list, n = {}, 0
    for r, obj in ipairs(column) do
      if obj then
        n = n + 1
        list[n] = known(obj, "virtual column " .. c .. ", row " .. r)
        if c == col then
          out.flip[n + 1] = obj.guid
          out.discard[n + 1] = obj.guid
        end
      end
    end
    s.virtual[color][c] = list
  end
  if n_unknown > 0 then return nil, "not a SCORE! card: " .. table.concat(unknown, ", ") end
  s.chosen[color] = {roster = ids, target = false}
  if not state.round then
    R.start_game(data, state, {color})
    state.round = {players = {color}, turn = 0, start = {0}, running = {0}, totals = {total}}
  end
  s.against = {turn = state.round.turn, score = state.round.running[1]}
  local after, events = Engine.against_turn(s, color)
  if after == nil then return nil, events.text end
  out.messages = texts(events)
  if after.against then
    state.round.turn, state.round.running = after.against.turn, {after.against.score}
    return out
  end
  state.rounds, state.round, state.pending = after.rounds, false, false
  out.round_over, out.total = true, after.totals[color]
  if after.over then
    state.over, out.over = true, after.winners[1] and "won" or "lost"
  else
    out.messages[#out.messages + 1] = "Next round: Get ready! (" .. (opts.target - out.total) .. " to go in "
      .. (opts.max_rounds - state.rounds) .. " rounds)"
  end
  return out
end

-- --- The presses as lib.turns plays them ----------------------------------------------------------------

-- The table's game flow for lib.turns (tts/score/table.lua): each press of SCORE! or Keep is one move of
-- the seat that pressed, made of what the table read: {score = {seated, rosters, pad}} (one action turn),
-- {keep = roster, deck = the cards of the player's own deck} (Decking!, Score Against!), {solitaire = {cards, total, count}} (Scorlitaire!,
-- Scorliroad!), {against = {roster, grid, total}} (Score Against!). play(state, color, move) -> a new state
-- (the one given is never changed) and events: {what = "said", seat, text} for each message, then
-- {what = "done", seat, out} (no text: what the table carries out, the result of R.score, R.keep,
-- R.solo_score or R.against_score); or nil and a refusal {text, back = the guids to turn face down again}.
function R.flow(data)
  local F = {}

  function F.to_act(state)
    if state.over then return {}, "over" end
    return copy(state.players), "simultaneous"
  end

  function F.play(state, color, move)
    local s = copy(state)
    local out, message, back
    if move.score then
      out, message = R.score(data, s, move.score.seated, move.score.rosters, move.score.pad)
    elseif move.keep then
      out, message = R.keep(data, s, color, move.keep, move.deck)
    elseif move.solitaire then
      local m = move.solitaire
      out, message, back = R.solo_score(data, s, color, m.cards, m.total, m.count)
    else
      local m = move.against
      out, message = R.against_score(data, s, color, m.roster, m.grid, m.total)
    end
    if out == nil then return nil, {text = message, back = back or {}} end
    local events, n = {}, 0
    for _, line in ipairs(out.messages or {out.message}) do
      n = n + 1
      events[n] = {what = "said", seat = color, text = line}
    end
    events[n + 1] = {what = "done", seat = color, out = out}
    return s, events
  end

  return F
end

return R
