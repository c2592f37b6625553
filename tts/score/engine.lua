-- SCORE! (Not So Simple) rules engine for Tabletop Simulator (MoonSharp, Lua 5.2): the one
-- implementation of the rules, run by the table (tts/score/referee.lua) and by the tests (lupa).
--
-- The rules interpretations are the numbered clauses of docs/rules/score.md ("C<n>").
-- Every game fact comes in as data from decks/score.yaml (bundled into the save as DATA): a
-- card's priority, whether it takes a target and its effect (a list of steps, the vocabulary of
-- docs/rules/score.md), the deal table and every mode option (the deck's setup.options overlaid
-- with the mode's options). This file holds no number of the game.
-- No TTS calls, no goto, no bitwise operators, no io/load/require: the file defines one
-- local table and returns it; deckpress's bundler wraps it in a function (use("score.engine")).
--
-- Lua specifics: lists are 1-based sequences, but seat and team numbers stored in them
-- are 0-based. An empty roster slot in `plays` is `false` (nil would break the sequence);
-- absent values (no target, no bug, no winner) are nil, except in mode options, where YAML
-- null is `false`. Errors are raised with error("...").

local Util = use("lib.util")
local is_int, contains, copy_list, index_of = Util.is_int, Util.contains, Util.copy_list, Util.index_of
local Random = use("lib.random")

local ScoreEngine = {}

-- The step vocabulary (docs/rules/score.md, "Card effects"): each step has exactly one of these.
local WHAT = { "add", "multiply", "set", "take", "protect", "deny", "pass" }
ScoreEngine.WHAT = WHAT

-- ---------------------------------------------------------------------------
-- Small helpers

local function filled(n, value)
  local out = {}
  for i = 1, n do out[i] = value end
  return out
end

local function fmt(x)
  if x == math.floor(x) then return string.format("%d", x) end
  return tostring(x)
end

local function seat_list(values)
  if #values == 0 then return "nobody" end
  local parts = {}
  for i, v in ipairs(values) do parts[i] = tostring(v) end
  return table.concat(parts, ", ")
end

local copy = Util.deep_copy

-- What a step does: the one key of WHAT it holds (nil when it holds none).
local function what(step)
  for _, key in ipairs(WHAT) do
    if step[key] ~= nil and step[key] ~= false then return key end
  end
  return nil
end
ScoreEngine.what = what

-- The pass direction of a card ("cw"/"ccw"), nil when it passes nothing.
local function pass_direction(card)
  for _, step in ipairs(card.effect) do
    if step.pass then return step.pass end
  end
  return nil
end

-- True when a card has a step of kind `key`.
local function has(card, key)
  for _, step in ipairs(card.effect) do
    if what(step) == key then return true end
  end
  return false
end
ScoreEngine.has = has

-- ---------------------------------------------------------------------------
-- Data

-- The full options of a mode: the deck's base options (setup.options, every option given)
-- overlaid with the mode's own (C1). An option the base does not know is an error.
function ScoreEngine.mode_options(base, options)
  local full = copy(base or {})
  local unknown, n_unknown = {}, 0
  for k, v in pairs(options or {}) do
    if full[k] == nil then
      n_unknown = n_unknown + 1
      unknown[n_unknown] = tostring(k)
    else
      full[k] = copy(v)
    end
  end
  if #unknown > 0 then
    table.sort(unknown)
    error("unknown mode option '" .. unknown[1] .. "'")
  end
  return full
end

-- Raise an error unless `card` is a well-formed card table; return it unchanged. (deckpress
-- checks the deck when it builds; this guards the engine against a hand-made table.)
function ScoreEngine.validate_card(card)
  if type(card) ~= "table" then error("card must be a table") end
  local id = tostring(card.id)
  if type(card.id) ~= "string" then error("card " .. id .. ": 'id' must be a string") end
  if type(card.name) ~= "string" then error("card " .. id .. ": 'name' must be a string") end
  if type(card.priority) ~= "number" then error("card " .. id .. ": 'priority' must be a number") end
  if type(card.effect) ~= "table" or #card.effect == 0 then
    error("card " .. id .. ": effect must be a list of steps")
  end
  for i, step in ipairs(card.effect) do
    local kind = type(step) == "table" and what(step)
    if not kind then
      error("card " .. id .. ": effect step " .. i .. " does none of " .. table.concat(WHAT, ", "))
    end
    for _, key in ipairs({ "who", "from", "to" }) do
      if step[key] == "target" and not card.target then
        error("card " .. id .. ": effect step " .. i .. " needs a target; the card has none (target: false)")
      end
    end
  end
  return card
end

-- Expand cards (each with an optional "count", default 1) into a deck, leaving out the
-- mode's deck_remove ids (C20).
function ScoreEngine.build_deck(cards, opts)
  local deck, n_deck = {}, 0
  for _, card in ipairs(cards) do
    ScoreEngine.validate_card(card)
    if not contains(opts.deck_remove, card.id) then
      for _ = 1, card.count or 1 do
        n_deck = n_deck + 1
        deck[n_deck] = copy(card)
      end
    end
  end
  return deck
end

-- Cards dealt to each player: the mode's hand_size, else the deck's deal table (setup.deal).
function ScoreEngine.hand_size(opts, n_players, deal)
  if opts.hand_size then return opts.hand_size end
  local size = deal and deal[n_players]
  if size == nil then
    error("no deal for " .. tostring(n_players) .. " players: add it to setup.deal, or set hand_size in the mode")
  end
  return size
end

-- True when the mode plays with `n_players` (its players_min and players_max, C21).
function ScoreEngine.fits(opts, n_players)
  return n_players >= opts.players_min and (not opts.players_max or n_players <= opts.players_max)
end

-- Raise an error if the player count or the team seating breaks the mode (C21).
function ScoreEngine.validate_setup(opts, n_players, teams)
  if not ScoreEngine.fits(opts, n_players) then
    error(n_players .. " players is outside this mode's " .. opts.players_min .. ".."
      .. tostring(opts.players_max))
  end
  if not opts.teams then return end
  local sizes = { [0] = 0, [1] = 0 }
  if teams == nil or #teams ~= n_players then error("team modes need a team (0 or 1) for every seat") end
  for _, t in ipairs(teams) do
    if t ~= 0 and t ~= 1 then error("team modes need a team (0 or 1) for every seat") end
    sizes[t] = sizes[t] + 1
  end
  if n_players > 1 and (sizes[0] == 0 or sizes[1] == 0) then
    error("both teams need a player; move someone to the other team")
  end
  if opts.separate_teams then
    local adjacent = 0
    for s = 1, n_players do
      if n_players > 1 and teams[s] == teams[s % n_players + 1] then adjacent = adjacent + 1 end
    end
    local least = math.abs(sizes[0] - sizes[1])
    if adjacent > least then
      error("team members sit side by side " .. adjacent .. " times; this team split allows " .. least)
    end
  end
end

-- ---------------------------------------------------------------------------
-- Deterministic randomness

-- Return a shuffled copy of `items` (Fisher-Yates driven by lib.random).
function ScoreEngine.shuffle(items, seed)
  return Random.shuffle(items, seed)
end

-- ---------------------------------------------------------------------------
-- Action turn

-- C14/C15: compare the roster sizes left after this action turn; nil = no Bug!.
local function bug_check(state, plays, opts)
  local turn = state.turn or 0
  local after, expected = {}, nil
  if opts.discard then
    local expected_before = opts.roster_size - turn
    for s = 1, #plays do
      local count
      if state.roster_counts then
        count = state.roster_counts[s]
      elseif plays[s] then
        count = expected_before
      else
        count = 0
      end
      after[s] = math.max(count - 1, 0)
    end
    expected = math.max(expected_before - 1, 0)
  else
    for s = 1, #plays do
      after[s] = state.roster_counts and state.roster_counts[s] or opts.roster_size
    end
    expected = opts.roster_size
  end
  local differ = false
  for s = 2, #after do
    if after[s] ~= after[1] then differ = true end
  end
  if not differ then return nil end
  local responsible, n_responsible = {}, 0
  for s = 1, #after do
    if after[s] ~= expected then
      n_responsible = n_responsible + 1
      responsible[n_responsible] = s - 1
    end
  end
  return { responsible = responsible, penalty = opts.bug_penalty, counts = after }
end

-- Resolve one action turn; shapes in docs/rules/score.md.
function ScoreEngine.resolve_action_turn(state, plays, mode)
  local opts = mode
  local n = #plays
  local teams = state.teams
  local team_rules = opts.teams ~= false
  local pooled = opts.teams == "pooled"
  if team_rules and (teams == nil or #teams ~= n) then
    error("team modes need state.teams with one team per seat")
  end
  local start = copy_list(state.scores)
  local entity_count = n
  if pooled then
    entity_count = 0
    for _, t in ipairs(teams) do entity_count = math.max(entity_count, t + 1) end
  end
  if #start ~= entity_count then
    error("state.scores needs " .. entity_count .. " entries, got " .. #start)
  end
  local dice = state.dice
  if opts.order == "dice" and (dice == nil or #dice ~= n) then
    error("order 'dice' needs state.dice with one die per seat")
  end

  -- 1-based index into the score list for a 0-based seat
  local function entity(seat)
    if pooled then return teams[seat + 1] + 1 end
    return seat + 1
  end

  local log, n_log = {}, 0
  local cards, n_cards = {}, 0   -- one report per flipped card, in seat order
  local played = {}  -- the card table behind each report
  local live = {}    -- live[seat + 1] = index into `cards` of the card in front of the seat
  local targets = {}
  for s = 1, n do
    local play = plays[s]
    if play then
      ScoreEngine.validate_card(play.card)
      targets[s] = play.target
      n_cards = n_cards + 1
      cards[n_cards] = { card = play.card.id, seat = s - 1, holder = s - 1 }
      played[n_cards] = play.card
      live[s] = n_cards
    end
  end
  local discarded = {}
  if opts.discard then
    for i, report in ipairs(cards) do discarded[i] = report.card end
  end

  local bug = bug_check(state, plays, opts)
  if bug ~= nil then -- C14: the whole SCORE! phase is nullified; nothing resolves
    for _, report in ipairs(cards) do report.status = "nullified" end
    log[1] = "Bug! roster sizes after this action turn: " .. seat_list(bug.counts)
      .. "; responsible seat(s) " .. seat_list(bug.responsible) .. " score -" .. bug.penalty
    return { deltas = filled(entity_count, 0), scores = start, cards = cards, effective = {},
      discarded = discarded, bug = bug, log = log }
  end

  local function priority(index)
    local override = opts.priority_override[cards[index].card]
    if override ~= nil then return override end
    return played[index].priority
  end

  local function key(index, holder) -- C9: the step at which a card resolves
    if opts.order == "dice" then return dice[holder + 1] end
    return priority(index)
  end

  local scores = copy_list(start)
  local protected = filled(n, false)
  local denied = filled(n, false)
  local effective, n_effective = {}, 0

  local function valid_target(seat, snap_protected) -- C4 (seat is 0-based)
    local target = targets[seat + 1]
    return is_int(target) and target >= 0 and target < n and not snap_protected[target + 1]
  end

  local function adversaries(seat, snap_protected) -- C5
    local list, n_list = {}, 0
    for a = 0, n - 1 do
      if a ~= seat and not snap_protected[a + 1]
        and not (team_rules and teams[a + 1] == teams[seat + 1]) then
        n_list = n_list + 1
        list[n_list] = a
      end
    end
    return list
  end

  local function pass_blocked(index, snap_denied) -- C11: an opposite pass cancels this one
    local direction = pass_direction(played[index])
    for other, report in ipairs(cards) do
      local theirs = pass_direction(played[other])
      if other ~= index and theirs ~= nil and theirs ~= direction then
        if report.status == "effect" or report.status == "cancelled" then return true end
        if report.status == nil and live[report.holder + 1] == other
          and not snap_denied[report.holder + 1] then
          return true
        end
      end
    end
    return false
  end

  -- The seats a step's `who` (or from/to) names, from the holder's point of view (C5).
  local function seats_of(who, holder, snap_protected)
    if who == nil or who == "you" then return { holder } end
    if who == "target" then return { targets[holder + 1] } end
    if who == "adversaries" then return adversaries(holder, snap_protected) end
    local all, n_all = {}, 0 -- everyone: every player who counts this action turn (not a No! player)
    for a = 0, n - 1 do
      if not snap_protected[a + 1] then
        n_all = n_all + 1
        all[n_all] = a
      end
    end
    return all
  end

  -- How many times a step applies: once, per adversary of the holder, per player (C5).
  local function times(per, holder, snap_protected)
    if per == "adversary" then return #adversaries(holder, snap_protected) end
    if per == "player" then return #seats_of("everyone", holder, snap_protected) end
    return 1
  end

  while true do
    -- seats whose card lying in front of them has not resolved yet
    local waiting, n_waiting = {}, 0
    for s = 1, n do
      if live[s] ~= nil and cards[live[s]].status == nil then
        n_waiting = n_waiting + 1
        waiting[n_waiting] = s - 1
      end
    end
    if #waiting == 0 then break end
    local step = nil
    for _, s in ipairs(waiting) do
      local k = key(live[s + 1], s)
      if step == nil or k < step then step = k end
    end
    local acting, n_acting = {}, 0
    for _, s in ipairs(waiting) do
      if key(live[s + 1], s) == step then
        n_acting = n_acting + 1
        acting[n_acting] = live[s + 1]
      end
    end
    local snap_protected, snap_denied = copy_list(protected), copy_list(denied)
    local snap_scores = copy_list(scores)
    local mults = filled(entity_count, 1)
    local adds = filled(entity_count, 0)
    local sets = {}
    local shift = 0
    local pass_players, pass_cards = {}, {}
    for _, i in ipairs(acting) do
      local report, card = cards[i], played[i]
      local holder = report.holder
      local who = "seat " .. holder .. " plays " .. card.name
      if snap_denied[holder + 1] then -- C8: a denied player applies nothing this turn
        report.status = "denied"
        n_log = n_log + 1
        log[n_log] = "seat " .. holder .. " is denied: " .. card.name .. " has no effect"
      elseif card.target and not valid_target(holder, snap_protected) then
        report.status = "no_target" -- C4
        n_log = n_log + 1
        log[n_log] = who .. " without a valid target: no effect"
      elseif pass_direction(card) ~= nil and pass_blocked(i, snap_denied) then
        report.status = "cancelled"
        n_log = n_log + 1
        log[n_log] = who .. ": cancelled by the opposite pass"
      else
        report.status = "effect"
        n_effective = n_effective + 1
        effective[n_effective] = report.card
        local parts, n_parts = {}, 0
        for _, st in ipairs(card.effect) do
          local kind = what(st)
          local hit = seats_of(st.who, holder, snap_protected)
          local k = times(st.per, holder, snap_protected)
          if kind == "protect" then
            for _, seat in ipairs(hit) do protected[seat + 1] = true end
            n_parts = n_parts + 1
            parts[n_parts] = "seat(s) " .. seat_list(hit) .. " protected"
          elseif kind == "deny" then
            for _, seat in ipairs(hit) do denied[seat + 1] = true end
            n_parts = n_parts + 1
            parts[n_parts] = "seat(s) " .. seat_list(hit) .. " denied"
          elseif kind == "pass" then
            if st.pass == "cw" then shift = shift + 1 else shift = shift - 1 end
            pass_players[holder] = true
            pass_cards[i] = true
            n_parts = n_parts + 1
            parts[n_parts] = "pass " .. st.pass
          elseif kind == "add" then
            for _, seat in ipairs(hit) do adds[entity(seat)] = adds[entity(seat)] + st.add * k end
            n_parts = n_parts + 1
            parts[n_parts] = "seat(s) " .. seat_list(hit) .. " " .. (st.add * k >= 0 and "+" or "") .. fmt(st.add * k)
          elseif kind == "multiply" then
            for _, seat in ipairs(hit) do mults[entity(seat)] = mults[entity(seat)] * st.multiply ^ k end
            n_parts = n_parts + 1
            parts[n_parts] = "seat(s) " .. seat_list(hit) .. " x" .. fmt(st.multiply ^ k)
          elseif kind == "set" then
            local value = st.set
            if type(value) == "table" then -- the score of a player at the start of the step
              value = snap_scores[entity(seats_of(value.score_of, holder, snap_protected)[1])]
            end
            for _, seat in ipairs(hit) do sets[entity(seat)] = value end
            n_parts = n_parts + 1
            parts[n_parts] = "seat(s) " .. seat_list(hit) .. " set to " .. fmt(value)
          else -- take
            local from = seats_of(st.from, holder, snap_protected)
            local to = seats_of(st.to, holder, snap_protected)
            local amount = st.take * k
            for _, seat in ipairs(from) do
              adds[entity(seat)] = adds[entity(seat)] - amount
              for _, gainer in ipairs(to) do adds[entity(gainer)] = adds[entity(gainer)] + amount end
            end
            n_parts = n_parts + 1
            parts[n_parts] = fmt(amount) .. " from seat(s) " .. seat_list(from) .. " to seat(s) " .. seat_list(to)
          end
        end
        n_log = n_log + 1
        log[n_log] = who .. ": " .. table.concat(parts, "; ")
      end
    end

    -- C8: denied players throw the card lying in front of them (unless deny_discards is off)
    for s = 1, n do
      if denied[s] and not snap_denied[s] and live[s] ~= nil then
        local index = live[s]
        if opts.deny_discards then
          live[s] = nil
          if cards[index].status == nil then
            cards[index].status = "denied"
            n_log = n_log + 1
            log[n_log] = "seat " .. (s - 1) .. " throws " .. played[index].name .. " (denied)"
          end
        end
      end
    end

    -- C10: every step of one priority acts on the start-of-step scores: a set replaces the
    -- score, multiplications compound on it, additive changes come after
    for e = 1, entity_count do
      local base = scores[e]
      if sets[e] ~= nil then base = sets[e] end
      scores[e] = base * mults[e] + adds[e]
      if opts.floor_applies == "always" and opts.floor then
        scores[e] = math.max(scores[e], opts.floor) -- C17
      end
    end

    if opts.order == "dice" then -- C18: resolved cards leave the table at once
      for _, i in ipairs(acting) do live[cards[i].holder + 1] = nil end
    end

    if shift % n ~= 0 then -- C12: everyone gives the card in front of him
      local moved = {}
      for s = 0, n - 1 do
        if live[s + 1] ~= nil then moved[(s + shift) % n + 1] = live[s + 1] end
      end
      live = moved
      n_log = n_log + 1
      if shift > 0 then
        log[n_log] = "cards pass clockwise"
      else
        log[n_log] = "cards pass counter-clockwise"
      end
      for s = 0, n - 1 do
        local index = live[s + 1]
        if index ~= nil then
          cards[index].holder = s
          local status = cards[index].status
          -- C12: the pass player, the pass card's receiver and the No! player throw
          local reason = nil
          if pass_players[s] then
            reason = "pass player"
          elseif pass_cards[index] then
            reason = "pass card"
          elseif protected[s + 1] then
            reason = "protected player"
          elseif status == nil and key(index, s) <= step then
            reason = "too late" -- C18: this player has already had his turn
          end
          if reason ~= nil then
            live[s + 1] = nil
            if status == nil then cards[index].status = "void" end
            n_log = n_log + 1
            log[n_log] = "seat " .. s .. " throws " .. played[index].name .. " (" .. reason .. ")"
          end
        end
      end
    end
  end

  local deltas, shown = {}, {}
  for e = 1, entity_count do
    deltas[e] = scores[e] - start[e]
    shown[e] = fmt(scores[e])
  end
  log[n_log + 1] = "scores: " .. seat_list(shown)
  return { deltas = deltas, scores = scores, cards = cards, effective = effective,
    discarded = discarded, bug = nil, log = log }
end

-- ---------------------------------------------------------------------------
-- Round and game

local function entity_count_of(opts, n_seats, teams)
  if opts.teams ~= "pooled" then return n_seats end
  local count = 0
  for _, t in ipairs(teams) do count = math.max(count, t + 1) end
  return count
end

-- Play the SCORE! phase of one round; shapes in docs/rules/score.md.
function ScoreEngine.resolve_round(state, rosters, mode, turn_inputs)
  local opts = mode
  local n = #rosters
  local teams = state.teams
  local totals = copy_list(state.totals)
  local count = entity_count_of(opts, n, teams)
  local start = filled(count, 0) -- C16/C17
  if opts.carry_over then start = copy_list(totals) end
  local running = copy_list(start)
  turn_inputs = turn_inputs or {}
  local n_turns = opts.action_turns
  if not n_turns then
    n_turns = 0
    for _, roster in ipairs(rosters) do n_turns = math.max(n_turns, #roster) end
  end
  local turns, log, bug = {}, {}, nil
  local n_log = 0
  for t = 0, n_turns - 1 do
    local inputs = turn_inputs[t + 1] or {}
    local dice = inputs.dice
    local plays, counts = {}, {}
    for s, roster in ipairs(rosters) do
      local play
      if opts.pick == "dice" then -- C19: the die picks the roster card
        local die = dice and dice[s]
        if not (is_int(die) and die >= 1 and die <= #roster) then
          error("action turn " .. t .. ": seat " .. (s - 1) .. " needs a die in 1.." .. #roster)
        end
        play = roster[die]
        counts[s] = #roster
      else
        play = roster[t + 1] or false
        counts[s] = math.max(#roster - t, 0)
      end
      if play and inputs.targets ~= nil then
        play = { card = play.card, target = inputs.targets[s] }
      end
      plays[s] = play
    end
    local turn_state = { scores = running, roster_counts = counts, turn = t, teams = teams, dice = dice }
    local result = ScoreEngine.resolve_action_turn(turn_state, plays, opts)
    turns[t + 1] = result
    n_log = n_log + 1
    log[n_log] = "action turn " .. (t + 1)
    for _, line in ipairs(result.log) do
      n_log = n_log + 1
      log[n_log] = line
    end
    if result.bug ~= nil then
      bug = result.bug
      break
    end
    running = result.scores
  end

  local floor, always = opts.floor, opts.floor_applies == "always"
  if bug ~= nil then -- C14: everything of this SCORE! phase is void, then the penalty
    local penalty = filled(count, 0)
    for _, seat in ipairs(bug.responsible) do
      local e = seat + 1
      if opts.teams == "pooled" then e = teams[seat + 1] + 1 end
      penalty[e] = penalty[e] - bug.penalty
    end
    running = {}
    for e = 1, count do
      running[e] = start[e] + penalty[e]
      if always and floor then running[e] = math.max(running[e], floor) end
    end
  elseif floor then
    local floored = {}
    for e = 1, count do floored[e] = math.max(running[e], floor) end -- C16
    running = floored
  end
  local new_totals, round_scores, shown = {}, {}, {}
  for e = 1, count do
    if opts.carry_over then new_totals[e] = running[e] else new_totals[e] = totals[e] + running[e] end
    round_scores[e] = new_totals[e] - totals[e]
    shown[e] = fmt(round_scores[e])
  end
  log[n_log + 1] = "round scores: " .. seat_list(shown)
  return { turns = turns, round_scores = round_scores, totals = new_totals, bug = bug, log = log }
end

-- Points needed to win for a seat (or a team when pooled); entity is 0-based (C22/C24).
function ScoreEngine.entity_target(mode, entity, teams)
  local opts = mode
  if not opts.target_per_player then return opts.target end
  local size = 1
  if opts.teams == "pooled" then
    size = 0
    for _, t in ipairs(teams) do
      if t == entity then size = size + 1 end
    end
  end
  return opts.target_per_player * size
end

-- Decide whether the game is over (C22, C23, C24, C28); shapes in docs/rules/score.md.
function ScoreEngine.game_status(totals, rounds_played, mode, teams, contenders)
  local opts = mode
  local eligible = {}
  if contenders == nil then
    for e = 1, #totals do eligible[e] = e - 1 end
  else
    eligible = copy_list(contenders)
  end
  local reached, n_reached = {}, 0
  for _, e in ipairs(eligible) do
    if totals[e + 1] >= ScoreEngine.entity_target(opts, e, teams) then
      n_reached = n_reached + 1
      reached[n_reached] = e
    end
  end
  local status = { finished = false, tiebreak = {} }
  if opts.solo then -- C28: solo games are won or lost, never tied
    if #reached > 0 then
      status.finished, status.winner, status.reason = true, 0, "target"
    elseif opts.max_rounds and rounds_played >= opts.max_rounds then
      status.finished, status.reason = true, "lost"
    end
    return status
  end
  local out_of_rounds = opts.max_rounds ~= false and rounds_played >= opts.max_rounds
  if #reached == 0 and not out_of_rounds and contenders == nil then return status end
  local pool = eligible
  if #reached > 0 then pool = reached end
  local best = nil
  for _, e in ipairs(pool) do
    if best == nil or totals[e + 1] > best then best = totals[e + 1] end
  end
  local leaders, n_leaders = {}, 0
  for _, e in ipairs(pool) do
    if totals[e + 1] == best then
      n_leaders = n_leaders + 1
      leaders[n_leaders] = e
    end
  end
  local reason = "rounds"
  if #reached > 0 then
    reason = "target"
  elseif contenders ~= nil then
    reason = "tiebreak"
  end
  local same_team = opts.teams == "individual"
  if same_team then
    for _, e in ipairs(leaders) do
      if teams[e + 1] ~= teams[leaders[1] + 1] then same_team = false end
    end
  end
  if #leaders == 1 then
    status.finished, status.winner, status.reason = true, leaders[1], reason
  elseif same_team then
    status.finished, status.reason = true, reason -- C23: tied team-mates win together
  else
    status.tiebreak = leaders
    return status
  end
  if opts.teams == "pooled" then
    status.winning_team = status.winner
  elseif opts.teams == "individual" then
    status.winning_team = teams[leaders[1] + 1]
  end
  return status
end

-- ---------------------------------------------------------------------------
-- The game flow: rounds of action turns over rosters, totals, the end of the game
--
-- Moved here from the table's referee: the state of a game (plain data, saved with the table) is
-- {mode, players (seats, clockwise), teams = {seat = 0|1}, targets = {seat = AUTO | seat}, rounds,
-- over, round = false | {players, turn, start, running, totals}, contenders, rng, team_totals,
-- pending = false | {dice}}. A roster is a list of slots, each `false` or an entry {id, count?} (any
-- other fields, such as the table's GUID, ride along). Seats are the table's ids (TTS colours) and
-- every message names them. Every function here takes the mode's options (mode_options) and the
-- cards by id (deck_cards); none reads DATA.

ScoreEngine.AUTO = "Auto"

-- The play cards of DATA (the main deck and optional sets such as the extra cards) as engine cards,
-- by id: {id, name, count, priority, target, effect}. Returns the table and a list of problems
-- (cards the engine refuses).
function ScoreEngine.deck_cards(data)
  local out, problems, n_problems = {}, {}, 0
  for _, component in ipairs(data.components) do
    if component.type == "cards" and component.role == "play" then
      for _, card in ipairs(component.cards) do
        local fields = card.fields or {}
        local entry = { id = card.id, name = card.name, count = card.count, priority = fields.priority,
          target = fields.target == true, effect = copy(fields.effect) }
        local ok, message = pcall(ScoreEngine.validate_card, entry)
        if ok then
          out[card.id] = entry
        else
          n_problems = n_problems + 1
          problems[n_problems] = tostring(message)
        end
      end
    end
  end
  return out, problems
end

-- The mode record of DATA.modes with this id (nil when unknown).
function ScoreEngine.mode(data, id)
  for _, mode in ipairs(data.modes) do
    if mode.id == id then return mode end
  end
  return nil
end

-- Full engine options of a mode id (errors are mode_options').
function ScoreEngine.options(data, id)
  local mode = ScoreEngine.mode(data, id)
  return ScoreEngine.mode_options(data.setup.options, mode and mode.options or {})
end

-- Roll one die with `sides` faces; advances state.rng (lib.random).
function ScoreEngine.roll(state, sides)
  state.rng = Random.next(state.rng)
  return state.rng % sides + 1
end

-- The teams of `players` as a list (0 or 1 per seat, in their order).
function ScoreEngine.team_list(state, players)
  local out = {}
  for s, seat in ipairs(players) do out[s] = state.teams[seat] or 0 end
  return out
end

-- "team 1 (White, Blue)": a team (0-based) with its players.
function ScoreEngine.team_names(state, team)
  local out, n_out = {}, 0
  for _, seat in ipairs(state.players) do
    if state.teams[seat] == team then
      n_out = n_out + 1
      out[n_out] = tostring(seat)
    end
  end
  return "team " .. (team + 1) .. " (" .. table.concat(out, ", ") .. ")"
end

-- The players of the next round: the game's players, or the tied contenders (C24).
function ScoreEngine.round_players(state, opts)
  if not state.contenders then return copy(state.players) end
  local out, n_out = {}, 0
  for _, seat in ipairs(state.players) do
    local entity = seat
    if opts.teams == "pooled" then entity = state.teams[seat] end
    if contains(state.contenders, entity) then
      n_out = n_out + 1
      out[n_out] = seat
    end
  end
  return out
end

-- True when a targeted card's steps only help their target (a multiply, a positive add, a take to it).
function ScoreEngine.helps_target(card)
  local helps = false
  for _, step in ipairs(card.effect) do
    if step.who == "target" then
      if step.multiply or (step.add and step.add > 0) then helps = true else return false end
    elseif step.from == "target" then
      return false
    elseif step.to == "target" then
      helps = true
    end
  end
  return helps
end

-- Auto target of round seat s (0-based) for `card` (nil: no card): yourself for a card that helps its
-- target (Double!); anything else on the adversary with the best standing (ties: the first clockwise),
-- skipping No! players and team-mates.
local function auto_target(card, s, ctx)
  if card and card.target and ScoreEngine.helps_target(card) then return s end
  local best, best_v = nil, nil
  local n = #ctx.players
  for step = 1, n - 1 do
    local o = (s + step) % n
    local mate = ctx.teams ~= nil and ctx.teams[o + 1] == ctx.teams[s + 1]
    if not ctx.protected[o + 1] and not mate then
      local v = ctx.standing[o + 1]
      if best_v == nil or v > best_v then best, best_v = o, v end
    end
  end
  return best
end

-- The totals the round starts from, per entity (seats of state.players, or the two teams when pooled):
-- `pad` = {seat = total} (the table's score panel), or the teams' totals.
local function entity_totals(state, opts, pad)
  if opts.teams == "pooled" then return copy(state.team_totals) end
  local out = {}
  for s, seat in ipairs(state.players) do out[s] = pad[seat] or 0 end
  return out
end

-- Begin the round's SCORE! phase (its first action turn): who plays, the totals and round scores.
function ScoreEngine.begin_round(state, opts, pad)
  local players = ScoreEngine.round_players(state, opts)
  local totals = entity_totals(state, opts, pad)
  local pooled = opts.teams == "pooled"
  local start = {}
  local count = pooled and 2 or #players
  for e = 1, count do
    local total = pooled and totals[e] or totals[index_of(state.players, players[e])]
    start[e] = opts.carry_over and total or 0
  end
  state.round = { players = players, turn = 0, start = start, running = copy(start), totals = totals }
  return state.round
end

-- Dice of the coming action turn (New order!: order; Randomness!: which card), rolled once per turn
-- and kept in state.pending until the turn is played. nil when the mode needs none.
function ScoreEngine.turn_dice(state, opts, players)
  if opts.order ~= "dice" and opts.pick ~= "dice" then return nil end
  if state.pending and state.pending.dice then return state.pending.dice end
  local sides = opts.pick == "dice" and opts.roster_size or opts.dice_sides
  local dice = {}
  for s = 1, #players do dice[s] = ScoreEngine.roll(state, sides) end
  state.pending = { dice = dice }
  return dice
end

function ScoreEngine.dice_message(players, dice, opts)
  local parts = {}
  for s, seat in ipairs(players) do parts[s] = tostring(seat) .. " " .. dice[s] end
  local kind = opts.pick == "dice" and "picks the card" or "sets the order"
  return "Dice (" .. kind .. "): " .. table.concat(parts, ", ")
end

-- Cards in a roster (an entry counts `count` cards, 1 by default).
function ScoreEngine.count_cards(roster)
  local n = 0
  for _, entry in ipairs(roster) do
    if entry then n = n + (entry.count or 1) end
  end
  return n
end

-- Which slot of each round player acts this turn: {k or false per round seat}, and roster counts.
function ScoreEngine.picks(opts, players, rosters, dice)
  local slot, counts = {}, {}
  for s, seat in ipairs(players) do
    local roster = rosters[seat] or {}
    counts[s] = ScoreEngine.count_cards(roster)
    slot[s] = false
    if opts.pick == "dice" then
      if roster[dice[s]] then slot[s] = dice[s] end
    else
      for k = 1, #roster do
        if roster[k] and not slot[s] then slot[s] = k end
      end
    end
  end
  return slot, counts
end

local STATUS = { denied = "denied", cancelled = "cancelled", no_target = "no valid target",
  void = "thrown", nullified = "nullified by the Bug!" }

-- One action turn of the round (C3-C19): the acting card of each round player's roster, the targets
-- (each seat's choice in state.targets, or Auto), resolve_action_turn, and the end of the round when
-- it ends there. `pad` = {seat = total}: the totals a new round starts from. Returns {flip, discard
-- (roster entries: the acting cards to turn face up, those leaving the roster), messages, result (the
-- engine's), round_over, pad (new totals by seat once the round is over), winner} or nil and a
-- message. Updates the state.
function ScoreEngine.action_turn(state, opts, cards, rosters, pad)
  if state.over then return nil, "the game is over: press New game" end
  local round = state.round or ScoreEngine.begin_round(state, opts, pad)
  local players = round.players
  if #players == 0 then return nil, "nobody is seated: take a seat (a colour) first" end
  local dice = ScoreEngine.turn_dice(state, opts, players)
  local slot, counts = ScoreEngine.picks(opts, players, rosters, dice or {})
  local any = false
  for s = 1, #players do
    if counts[s] > 0 then any = true end
  end
  if not any then
    if round.turn == 0 then state.round = false end
    return nil, "no card lies in a roster slot: put your roster face down in your slots, left to right"
  end

  local n = #players
  local teams = opts.teams and ScoreEngine.team_list(state, players) or nil
  local plays, own, unknown, n_unknown = {}, {}, {}, 0
  local protected = {}
  for s, seat in ipairs(players) do
    plays[s], own[s] = false, false
    if slot[s] then
      local entry = rosters[seat][slot[s]]
      local card = cards[entry.id or ""]
      if card == nil then
        n_unknown = n_unknown + 1
        unknown[n_unknown] = tostring(seat) .. "'s slot " .. slot[s]
      else
        own[s] = { card = card, entry = entry }
        protected[s] = has(card, "protect")
      end
    end
  end
  if #unknown > 0 then
    return nil, "not a SCORE! card: " .. table.concat(unknown, ", ")
  end

  -- Targets: the seat's selector, or Auto (by the card the seat applies).
  local standing = {}
  for s, seat in ipairs(players) do
    local e = opts.teams == "pooled" and teams[s] + 1 or s
    local running = round.running[e]
    if opts.carry_over then
      standing[s] = running
    elseif opts.teams == "pooled" then
      standing[s] = round.totals[e] + running
    else
      standing[s] = round.totals[index_of(state.players, seat)] + running
    end
  end
  local ctx = { players = players, teams = teams, protected = protected, standing = standing }
  local auto, targets = {}, {}
  for s, seat in ipairs(players) do
    local chosen = state.targets[seat]
    local at = chosen and chosen ~= ScoreEngine.AUTO and index_of(players, chosen) or nil
    if at then
      targets[s] = at - 1
    else
      auto[s] = true
      targets[s] = auto_target(own[s] and own[s].card, s - 1, ctx)
    end
  end
  local function build_plays()
    for s = 1, n do
      if own[s] then plays[s] = { card = own[s].card, target = targets[s] } else plays[s] = false end
    end
    return plays
  end
  local turn_state = { scores = copy(round.running), roster_counts = counts, turn = round.turn, teams = teams }
  if opts.order == "dice" then turn_state.dice = dice end
  local ok, result = pcall(ScoreEngine.resolve_action_turn, turn_state, build_plays(), opts)
  if not ok then return nil, "the rules engine refused this action turn: " .. tostring(result) end
  -- Auto targets follow a card received through CW!/CCW!: aim it by what it is, resolve again.
  local changed = false
  for _, report in ipairs(result.cards) do
    local holder = report.holder + 1
    if report.holder ~= report.seat and auto[holder] then
      local card = cards[report.card]
      if card and card.target then
        local t = auto_target(card, holder - 1, ctx)
        if t ~= targets[holder] then targets[holder], changed = t, true end
      end
    end
  end
  if changed then
    ok, result = pcall(ScoreEngine.resolve_action_turn, turn_state, build_plays(), opts)
    if not ok then return nil, "the rules engine refused this action turn: " .. tostring(result) end
  end

  local out = { flip = {}, discard = {}, messages = {}, result = result }
  if dice then out.messages[#out.messages + 1] = ScoreEngine.dice_message(players, dice, opts) end
  local n_flip, n_discard = 0, 0
  for s = 1, n do
    if own[s] then
      n_flip = n_flip + 1
      out.flip[n_flip] = own[s].entry
      if opts.discard then
        n_discard = n_discard + 1
        out.discard[n_discard] = own[s].entry
      end
    end
    if opts.pick == "dice" and round.turn == 0 then  -- C19: the whole roster is turned face up
      for _, entry in ipairs(rosters[players[s]] or {}) do
        if entry and not (own[s] and entry == own[s].entry) then
          n_flip = n_flip + 1
          out.flip[n_flip] = entry
        end
      end
    end
  end
  local lines, n_lines = {}, 0
  for _, report in ipairs(result.cards) do
    local card = cards[report.card]
    local line = tostring(players[report.seat + 1]) .. ": " .. card.name
    local holder = report.holder + 1
    if report.holder ~= report.seat then line = line .. " -> " .. tostring(players[holder]) end
    if card.target and targets[holder] ~= nil and report.status == "effect" then
      line = line .. " on " .. tostring(players[targets[holder] + 1])
    end
    if STATUS[report.status] then line = line .. " (" .. STATUS[report.status] .. ")" end
    n_lines = n_lines + 1
    lines[n_lines] = line
  end
  out.messages[#out.messages + 1] = "Action turn " .. (round.turn + 1) .. ": " .. table.concat(lines, "; ")
  state.pending = false
  round.turn = round.turn + 1

  local finished = false
  if result.bug ~= nil then
    local who = {}
    for k, seat in ipairs(result.bug.responsible) do who[k] = tostring(players[seat + 1]) end
    out.messages[#out.messages + 1] = "Bug! The rosters differ in size: " .. table.concat(who, ", ")
      .. " score -" .. result.bug.penalty .. "; this SCORE! phase is void"
    finished = true
  else
    round.running = result.scores
    if opts.action_turns then
      finished = round.turn >= opts.action_turns
    else
      finished = true
      for s = 1, n do
        local left = counts[s]
        if opts.discard and own[s] then left = left - 1 end
        if left > 0 then finished = false end
      end
    end
    out.messages[#out.messages + 1] = ScoreEngine.describe_running(state, opts, round)
  end
  if finished then ScoreEngine.end_round(state, opts, result.bug, out) end
  return out
end

function ScoreEngine.describe_running(state, opts, round)
  local parts = {}
  if opts.teams == "pooled" then
    for e = 1, #round.running do parts[e] = "team " .. e .. " " .. round.running[e] end
  else
    for s, seat in ipairs(round.players) do parts[s] = tostring(seat) .. " " .. round.running[s] end
  end
  return (opts.carry_over and "Scores: " or "Round scores: ") .. table.concat(parts, ", ")
end

-- The winners of a finished game (seats): the winner, the winning team's players when pooled or when
-- tied team-mates win together (C23).
local function winners_of(state, opts, status)
  local team = nil
  if opts.teams == "pooled" then
    team = status.winner
  elseif status.winner == nil then
    team = status.winning_team
  end
  if team == nil then
    if status.winner == nil then return {} end
    return { state.players[status.winner + 1] }
  end
  local out, n_out = {}, 0
  for _, seat in ipairs(state.players) do
    if state.teams[seat] == team then
      n_out = n_out + 1
      out[n_out] = seat
    end
  end
  return out
end

-- The end of a round's SCORE! phase, as resolve_round ends it (C14, C16, C17), then the game status
-- (C22-C24). Fills out.pad, out.messages, out.round_over (and out.winner); updates the state (its
-- winners once the game is over).
function ScoreEngine.end_round(state, opts, bug, out)
  local round = state.round
  local players = round.players
  local pooled = opts.teams == "pooled"
  local count = #round.start
  local running = round.running
  local floor, always = opts.floor, opts.floor_applies == "always"
  if bug ~= nil then
    local penalty = {}
    for e = 1, count do penalty[e] = 0 end
    for _, seat in ipairs(bug.responsible) do
      local e = seat + 1
      if pooled then e = state.teams[players[seat + 1]] + 1 end
      penalty[e] = penalty[e] - bug.penalty
    end
    running = {}
    for e = 1, count do
      running[e] = round.start[e] + penalty[e]
      if always and floor then running[e] = math.max(running[e], floor) end
    end
  elseif floor then
    local floored = {}
    for e = 1, count do floored[e] = math.max(running[e], floor) end
    running = floored
  end
  -- New totals, in the game's entity order (seats of state.players, or teams).
  local totals = copy(round.totals)
  for e = 1, count do
    local g = pooled and e or index_of(state.players, players[e])
    if opts.carry_over then totals[g] = running[e] else totals[g] = totals[g] + running[e] end
  end
  state.rounds = state.rounds + 1
  out.round_over = true
  out.pad = {}
  for s, seat in ipairs(state.players) do
    out.pad[seat] = pooled and totals[state.teams[seat] + 1] or totals[s]
  end
  if pooled then state.team_totals = totals end
  local shown = {}
  if pooled then
    for e = 1, #totals do shown[e] = ScoreEngine.team_names(state, e - 1) .. " " .. totals[e] end
  else
    for s, seat in ipairs(state.players) do shown[s] = tostring(seat) .. " " .. totals[s] end
  end
  out.messages[#out.messages + 1] = "Round " .. state.rounds .. " over. Totals: " .. table.concat(shown, ", ")

  local teams = opts.teams and ScoreEngine.team_list(state, state.players) or nil
  local contenders = nil
  if state.contenders then
    contenders = {}
    for k, c in ipairs(state.contenders) do
      contenders[k] = pooled and c or index_of(state.players, c) - 1
    end
  end
  local status = ScoreEngine.game_status(totals, state.rounds, opts, teams, contenders)
  state.round = false
  state.pending = false
  if status.finished then
    state.over = true
    state.contenders = false
    state.winners = winners_of(state, opts, status)
    out.winner = ScoreEngine.winner_message(state, opts, status, totals)
    out.messages[#out.messages + 1] = out.winner
  elseif #status.tiebreak > 0 then
    local names = {}
    state.contenders = {}
    for i, e in ipairs(status.tiebreak) do
      if pooled then
        state.contenders[i] = e
        names[i] = ScoreEngine.team_names(state, e)
      else
        state.contenders[i] = state.players[e + 1]
        names[i] = tostring(state.players[e + 1])
      end
    end
    out.messages[#out.messages + 1] = "Tie at " .. totals[status.tiebreak[1] + 1] .. " between "
      .. table.concat(names, " and ") .. ": they play one more round. Get ready!"
  else
    out.messages[#out.messages + 1] = "Next round: Get ready!"
  end
end

function ScoreEngine.winner_message(state, opts, status, totals)
  local why = status.reason == "target" and "reaches the target" or "has the best score"
  if opts.teams == "pooled" then
    return "SCORE! " .. ScoreEngine.team_names(state, status.winner) .. " wins with " .. totals[status.winner + 1]
      .. " points (" .. why .. ")!"
  end
  if status.winner == nil then
    return "SCORE! " .. ScoreEngine.team_names(state, status.winning_team)
      .. " wins: its tied leaders share the best score!"
  end
  local seat = state.players[status.winner + 1]
  local text = "SCORE! " .. tostring(seat) .. " wins with " .. totals[status.winner + 1] .. " points (" .. why .. ")"
  if opts.teams == "individual" then
    text = text .. ": " .. ScoreEngine.team_names(state, status.winning_team) .. " wins"
  end
  return text .. "!"
end

-- ---------------------------------------------------------------------------
-- Solo modes

-- How the solo modes read a card's steps (C26, C27): "lost" (a protect step: No!), "reshuffle"
-- (a pass), "block" (a deny), "loss" of N (a take, or a negative add on anyone but you: Fire!,
-- Bomb!, Steal!), "double" (a multiply), "gain" of N (a positive add on you: Score!), else "none".
function ScoreEngine.solo_reading(card)
  local order = { protect = "lost", pass = "reshuffle", deny = "block" }
  for _, key in ipairs({ "protect", "pass", "deny" }) do
    if has(card, key) then return order[key], 0 end
  end
  for _, st in ipairs(card.effect) do
    if st.take then return "loss", st.take end
    if st.add and st.add < 0 and (st.who or "you") ~= "you" then return "loss", -st.add end
  end
  if has(card, "multiply") then return "double", 0 end
  for _, st in ipairs(card.effect) do
    if st.add and st.add > 0 and (st.who or "you") == "you" then return "gain", st.add end
  end
  return "none", 0
end

-- Scorlitaire!/Scorliroad!: apply one flipped card (C26).
function ScoreEngine.solitaire_flip(state, card, opts)
  ScoreEngine.validate_card(card)
  local reading, amount = ScoreEngine.solo_reading(card)
  local score, last = state.score, state.last_score or 0
  local delta, outcome = 0, "score"
  if reading == "gain" then
    delta, last = amount, amount
  elseif reading == "double" then
    delta = last
  elseif reading == "loss" then
    delta, outcome = -amount, "lose"
  elseif reading == "block" or reading == "reshuffle" or reading == "lost" then
    outcome = reading
  end
  score = score + delta
  local status = "playing"
  if outcome == "lost" then
    status = "lost"
  elseif score >= opts.target then
    status = "won"
  end
  return { score = score, last_score = last, delta = delta, outcome = outcome, status = status }
end

-- Scorlitaire! CW!/CCW!: shuffle the face-down and discarded cards together; the flipped
-- pass card is discarded afterwards.
function ScoreEngine.solitaire_reshuffle(face_down, discarded, flipped, seed)
  local pile = copy_list(face_down)
  local n_pile = #pile
  for k, c in ipairs(discarded) do pile[n_pile + k] = c end
  return { face_down = ScoreEngine.shuffle(pile, seed), discarded = { flipped } }
end

-- Score Against! precedence (C27): class, then strength, then virtual before own.
local function against_rank(card, source, score)
  local reading, amount = ScoreEngine.solo_reading(card)
  local virtual = 0
  if source == "virtual" then virtual = 1 end
  if reading == "lost" or reading == "block" or reading == "reshuffle" then
    return { 3, 0, virtual }
  elseif reading == "loss" then
    return { 2, amount, virtual }
  elseif reading == "double" then
    return { 1, math.max(score, 0), virtual }
  end
  return { 1, amount, virtual }
end

local function rank_greater(a, b)
  for i = 1, 3 do
    if a[i] ~= b[i] then return a[i] > b[i] end
  end
  return false
end

-- Score Against!: resolve your flipped roster card against one virtual column.
function ScoreEngine.score_against_turn(score, own_card, column)
  local candidates = { { card = own_card, source = "roster" } }
  for k, c in ipairs(column) do candidates[k + 1] = { card = c, source = "virtual" } end
  local best, winner = nil, 1
  for index, cand in ipairs(candidates) do
    ScoreEngine.validate_card(cand.card)
    local rank = against_rank(cand.card, cand.source, score)
    if best == nil or rank_greater(rank, best) then best, winner = rank, index end
  end
  local card, source = candidates[winner].card, candidates[winner].source
  local reading, amount = ScoreEngine.solo_reading(card)
  local delta
  if best[1] == 3 then
    delta = 0
  elseif best[1] == 2 then
    delta = amount
    if source == "virtual" then delta = -amount end
  elseif reading == "double" then
    delta = score
  else
    delta = amount
  end
  local discarded, n_discarded = {}, 0
  for index, cand in ipairs(candidates) do
    if index ~= winner then
      n_discarded = n_discarded + 1
      discarded[n_discarded] = cand.card.id
    end
  end
  return { applied = { card = card.id, source = source }, delta = delta, score = score + delta,
    discarded = discarded }
end

-- Score Against!: a round's score, floored at the mode's floor (C27).
local function against_floored(score, opts)
  if opts.floor then return math.max(score, opts.floor) end
  return score
end

-- Score Against!: play a round; the round score is floored and added to `total`.
function ScoreEngine.score_against_round(total, roster, columns, mode)
  local score, turns = 0, {}
  for i = 1, math.min(#roster, #columns) do
    local turn = ScoreEngine.score_against_turn(score, roster[i], columns[i])
    turns[i] = turn
    score = turn.score
  end
  score = against_floored(score, mode)
  return { turns = turns, round_score = score, total = total + score }
end

-- ---------------------------------------------------------------------------
-- The engine contract (docs/scripting.md): a whole game of the modes dealt from the shared deck
--
-- A round: every round player lays a roster from their hand at once and unseen (to_act's kind is
-- "simultaneous"); once the last roster is in, its SCORE! phase resolves (action_turn until the round
-- is over), the totals move on, and the next round is dealt from the whole deck again, shuffled with
-- the game's own generator (state.rng). In Decking! (C29) each player builds the roster from a deck of
-- their own instead, keeping one card of each draw, right to left. The solo modes (below) have one seat.

local function refuse(clause, rule, text)
  return nil, { clause = clause, rule = rule, text = text }
end

-- The deck's card ids (every copy, minus the mode's deck_remove), shuffled with the game's generator.
local function shuffled_deck(state)
  local list, n = {}, 0
  for _, card in pairs(state.cards) do
    n = n + 1
    list[n] = card
  end
  table.sort(list, function(a, b) return a.id < b.id end)  -- pairs promises no order
  local ids = {}
  for i, card in ipairs(ScoreEngine.build_deck(list, state.opts)) do ids[i] = card.id end
  state.rng = Random.next(state.rng)
  return Random.shuffle(ids, state.rng)
end

-- Take the next `count` ids of `from` (fewer when it runs out) into the list `to`.
local function take_ids(from, to, count)
  local n = #to
  for _ = 1, math.min(count, #from) do
    n = n + 1
    to[n] = table.remove(from, 1)
  end
end

-- C29: every player's own deck, whole and shuffled (a tie-break's onlookers keep theirs), and each round
-- player's first draw in hand. Score Against! (C27) first deals each round player's virtual roster face
-- down from that deck: state.virtual[seat][col] = its rows' ids, row 1 first, column by column.
local function deal_own_decks(state, players)
  state.hands, state.chosen, state.decks, state.graves, state.kept = {}, {}, {}, {}, {}
  state.deck, state.virtual, state.discard, state.against = {}, {}, {}, false
  for _, seat in ipairs(state.players) do
    state.decks[seat] = shuffled_deck(state)
    state.graves[seat], state.kept[seat] = {}, {}
  end
  local rows = state.opts.virtual_rows or 0
  for _, seat in ipairs(players) do
    if rows > 0 then
      local columns = {}
      for col = 1, state.opts.roster_size do
        columns[col] = {}
        take_ids(state.decks[seat], columns[col], rows)
      end
      state.virtual[seat] = columns
    end
    state.hands[seat] = {}
    take_ids(state.decks[seat], state.hands[seat], state.opts.draw_per_slot)
  end
  return state
end

-- Scorlitaire!/Scorliroad! (C26): true when the mode lays the whole deck out face down.
local function solitaire(opts)
  return opts.solo == "scorlitaire" or opts.solo == "scorliroad"
end

-- Lay `ids` out face down on spots 1 to #ids of the layout (every other spot empty, no Deny! on any).
local function lay_out(state, ids)
  for spot = 1, state.spots do
    state.layout[spot] = ids[spot] or false
    state.covered[spot] = false
  end
end

-- Deal the next round into `state` (a copy): hands of the round players from the shuffled deck.
local function deal_round(state)
  local players = ScoreEngine.round_players(state, state.opts)
  if state.opts.deck_per_player then return deal_own_decks(state, players) end
  if solitaire(state.opts) then
    local ids = shuffled_deck(state)
    state.hands, state.chosen, state.deck, state.discard = {}, {}, {}, {}
    state.spots, state.layout, state.covered = #ids, {}, {}
    state.last, state.spot, state.deny = 0, false, false
    lay_out(state, ids)
    return state
  end
  local ids = shuffled_deck(state)
  local each = ScoreEngine.hand_size(state.opts, #players, state.deal)
  if each * #players > #ids then
    error(#players .. " players x " .. each .. " cards needs " .. (each * #players) .. "; the deck has " .. #ids)
  end
  local k = 0
  state.hands, state.chosen, state.deck = {}, {}, {}
  for _, seat in ipairs(players) do
    local hand = {}
    for i = 1, each do hand[i] = ids[k + i] end
    k = k + each
    state.hands[seat] = hand
  end
  for i = k + 1, #ids do state.deck[i - k] = ids[i] end
  return state
end

-- ---------------------------------------------------------------------------
-- The solo modes through the contract (C26-C28): one seat, to_act's kind "turn".
--
-- Scorlitaire!/Scorliroad!: state.layout[spot] is the face-down card id on each spot of the layout (rows of
-- layout_columns, spot 1 first; false once empty), state.covered[spot] the Deny! lying on it (or false),
-- state.discard the pile, state.last the last Score! flipped, state.spot the last flip's spot (false after a
-- shuffle), state.deny a flipped Deny! still to place (or false). Moves: {flip = spot}; after a Deny!,
-- {cover = spot}. Score Against!: Decking!'s keeps, against the virtual roster dealt before the first draw;
-- the full roster plays the round's action turns at once (against_step, one action turn each; the table plays
-- one a press through against_turn).

-- Scorliroad!: spots a and b of a layout in rows of `columns` touch (side by side, one above the other, or
-- corner to corner).
function ScoreEngine.next_to(a, b, columns)
  local ra, ca = math.floor((a - 1) / columns), (a - 1) % columns
  local rb, cb = math.floor((b - 1) / columns), (b - 1) % columns
  return a ~= b and math.abs(ra - rb) <= 1 and math.abs(ca - cb) <= 1
end

-- The spots the player may flip (C26): face down, no Deny! on it, in Scorliroad! next to the last flip.
local function flips(state)
  local out, add = Util.appender()
  local last = state.opts.solo == "scorliroad" and state.spot
  for spot, id in ipairs(state.layout) do
    if id and not state.covered[spot] and not (last and not ScoreEngine.next_to(spot, last, state.opts.layout_columns)) then
      add(spot)
    end
  end
  return out
end

-- The spots a flipped Deny! may cover: face down, no Deny! on it yet.
local function coverable(state)
  local out, add = Util.appender()
  for spot, id in ipairs(state.layout) do
    if id and not state.covered[spot] then add(spot) end
  end
  return out
end

-- C28: the solo game ends, won or lost (never tied); the event that says so.
local function solo_end(state, seat, won, text)
  state.over = true
  state.winners = won and { seat } or {}
  return { what = "game_over", winners = copy(state.winners), text = text }
end

-- CW!/CCW! (C26): every card of the layout (Deny!-covered ones and the Deny!s on them) and the discard pile
-- shuffled with the game's generator and laid out again; the pass card `id` alone on the pile.
local function reshuffle(state, id)
  local ids, add = Util.appender()
  for spot = 1, state.spots do
    if state.layout[spot] then add(state.layout[spot]) end
    if state.covered[spot] then add(state.covered[spot]) end
  end
  for _, other in ipairs(state.discard) do add(other) end
  state.rng = Random.next(state.rng)
  lay_out(state, Random.shuffle(ids, state.rng))
  state.discard, state.spot = { id }, false
end

-- After a flip or a cover: lost when no legal flip remains (C28).
local function stuck(state, seat, add)
  if not state.over and not state.deny and flips(state)[1] == nil then
    add(solo_end(state, seat, false, "Game over: no legal flip remains; " .. tostring(seat) .. " loses with "
      .. fmt(state.totals[seat]) .. " points."))
  end
end

local function solitaire_flip_move(state, seat, spot)
  local rule = state.name
  if state.deny then return refuse(26, rule, "put the Deny! you flipped on a face-down card first: {cover = spot}") end
  if type(spot) ~= "number" or not state.layout[spot] then
    return refuse(26, rule, "flip a face-down card of the layout: {flip = spot}")
  end
  if state.covered[spot] then
    return refuse(26, rule, "the card at spot " .. spot .. " is covered by Deny!: it stays out of play until the next shuffle")
  end
  local last = state.opts.solo == "scorliroad" and state.spot
  if last and not ScoreEngine.next_to(spot, last, state.opts.layout_columns) then
    return refuse(26, rule, "flip a card next to the one you flipped before (spot " .. state.spot .. ")")
  end
  state = copy(state)
  local id = state.layout[spot]
  local card = state.cards[id]
  state.layout[spot] = false
  local result = ScoreEngine.solitaire_flip({ score = state.totals[seat], last_score = state.last }, card, state.opts)
  state.totals[seat], state.last, state.spot = result.score, result.last_score, spot
  local events, add = Util.appender()
  local text = tostring(seat) .. " flips " .. card.name .. ": "
  if result.outcome == "block" then
    text = text .. "put it on a face-down card of your choice; that card stays out of play until the next shuffle."
    state.deny = id
  elseif result.outcome == "reshuffle" then
    text = text .. "the layout and the discard pile are shuffled and laid out again."
    reshuffle(state, id)
  else
    local n = #state.discard
    state.discard[n + 1] = id
    if result.outcome == "lost" then
      text = text .. tostring(seat) .. " loses!"
    else
      text = text .. (result.delta >= 0 and "+" or "") .. fmt(result.delta) .. " (score " .. fmt(result.score) .. ")."
    end
  end
  add({ what = "flipped", seat = seat, id = id, spot = spot, outcome = result.outcome, delta = result.delta, text = text })
  if result.status == "won" then
    add(solo_end(state, seat, true, "SCORE! " .. tostring(seat) .. " wins with " .. fmt(result.score) .. " points!"))
  elseif result.status == "lost" then
    add(solo_end(state, seat, false, "Game over: No! was flipped."))
  elseif state.deny and coverable(state)[1] == nil then  -- nothing left to cover: the Deny! is discarded
    local n = #state.discard
    state.discard[n + 1] = state.deny
    state.deny = false
  end
  stuck(state, seat, add)
  return state, events
end

local function solitaire_cover_move(state, seat, spot)
  local rule = state.name
  if not state.deny then return refuse(26, rule, "no Deny! waits to be placed: flip a card, {flip = spot}") end
  if type(spot) ~= "number" or not state.layout[spot] or state.covered[spot] then
    return refuse(26, rule, "put the Deny! on a face-down card that no Deny! covers: {cover = spot}")
  end
  state = copy(state)
  state.covered[spot], state.deny = state.deny, false
  local events, add = Util.appender()
  add({ what = "covered", seat = seat, spot = spot, id = state.covered[spot],
    text = tostring(seat) .. " puts Deny! on the card at spot " .. spot .. ": it stays out of play until the next shuffle." })
  stuck(state, seat, add)
  return state, events
end

-- Scorlitaire!/Scorliroad!'s play: {flip = spot} or, after a Deny!, {cover = spot}. A layout that leaves no
-- legal flip (a state built from outside, such as a table's) ends the game at the next move instead (C28).
local function solitaire_play(state, seat, move)
  if seat ~= state.players[1] then return refuse(21, "setup", tostring(seat) .. " is not playing this game") end
  if not state.deny and flips(state)[1] == nil then
    state = copy(state)
    local events, add = Util.appender()
    stuck(state, seat, add)
    return state, events
  end
  if type(move) == "table" and move.cover ~= nil then return solitaire_cover_move(state, seat, move.cover) end
  return solitaire_flip_move(state, seat, type(move) == "table" and move.flip)
end

-- Score Against!'s next action turn (C27), `seat`'s roster laid (state a copy): the leftmost card left in the
-- roster against the rightmost column of the virtual roster that still holds cards (score_against_turn),
-- both then on the discard pile; state.against counts the round's action turns and its running score. Once no
-- roster card or no column is left, the round ends: its score floored and saved, then the game's status
-- (C28). Appends the events to `events`; returns true when the round ended.
local function against_step(state, seat, events)
  local roster, virtual = state.chosen[seat].roster, state.virtual[seat]
  local running = state.against or { turn = 0, score = 0 }
  state.against = running
  local function next_card()
    for k, id in ipairs(roster) do
      if id then return k end
    end
  end
  local function next_column()
    for c = #virtual, 1, -1 do
      if virtual[c][1] then return c end
    end
  end
  local n, discard = #events, state.discard
  local k, c = next_card(), next_column()
  if k and c then
    local own, column, names = state.cards[roster[k]], {}, {}
    for r, id in ipairs(virtual[c]) do
      column[r], names[r] = state.cards[id], state.cards[id].name
    end
    local turn = ScoreEngine.score_against_turn(running.score, own, column)
    running.turn, running.score = running.turn + 1, turn.score
    local applied = state.cards[turn.applied.card]
    local whose = turn.applied.source == "roster" and (tostring(seat) .. "'s ") or "the virtual "
    local reading = ScoreEngine.solo_reading(applied)
    local effect = (turn.delta >= 0 and "+" or "") .. fmt(turn.delta)
    if turn.delta == 0 and (reading == "lost" or reading == "block" or reading == "reshuffle") then
      effect = "nothing happens"
    end
    n = n + 1
    events[n] = { what = "said", seat = seat, text = "Action turn " .. running.turn .. ": " .. tostring(seat) .. "'s "
      .. own.name .. " against virtual column " .. c .. " (" .. (names[1] and table.concat(names, ", ") or "empty")
      .. "): " .. whose .. applied.name .. " applies, " .. effect .. " (round score " .. fmt(turn.score) .. ")." }
    local d = #discard + 1
    discard[d], roster[k] = roster[k], false
    for r, id in ipairs(virtual[c]) do discard[d + r] = id end
    virtual[c] = {}
    if next_card() and next_column() then return false end
  end
  local round_score = against_floored(running.score, state.opts)
  local total = state.totals[seat] + round_score
  state.rounds, state.totals[seat], state.against = state.rounds + 1, total, false
  n = n + 1
  events[n] = { what = "round_over", totals = copy(state.totals), text = "Round " .. state.rounds .. " is over: "
    .. tostring(seat) .. " scores " .. fmt(round_score) .. "; the score is " .. fmt(total) .. "." }
  local status = ScoreEngine.game_status({ total }, state.rounds, state.opts)
  if status.finished then
    local text = status.reason == "target"
      and ("SCORE! " .. tostring(seat) .. " wins Score Against! with " .. fmt(total) .. " points in "
        .. state.rounds .. " round" .. (state.rounds == 1 and "" or "s") .. "!")
      or ("Game over: " .. fmt(total) .. " points after " .. state.rounds .. " rounds; Score Against! is lost ("
        .. fmt(state.opts.target) .. " needed).")
    events[n + 1] = solo_end(state, seat, status.reason == "target", text)
  end
  return true
end

-- against_turn(state, seat) -> new state, events | nil, refusal: Score Against!'s next action turn of `seat`'s
-- laid roster (against_step), the next round dealt once this one ends. `play`'s last keep plays the whole
-- round through it; the table plays one action turn a press.
function ScoreEngine.against_turn(state, seat)
  if state.over then return refuse(22, "winning", "the game is over") end
  if state.opts.solo ~= "score-against" then return refuse(27, state.name, "action turns one at a time are Score Against!'s") end
  if seat ~= state.players[1] then return refuse(21, "setup", tostring(seat) .. " is not playing this game") end
  if state.chosen[seat] == nil then return refuse(29, state.name, "fill your roster first: {keep = card id}") end
  state = copy(state)
  local events = {}
  if against_step(state, seat, events) and not state.over then deal_round(state) end
  return state, events
end

-- setup(data, seats, opts) -> state | nil, refusal. seats: clockwise (TTS colours at the table); opts:
-- mode (a mode id; default classic), seed (every shuffle and die; default 1), teams ({seat = 0 | 1};
-- default alternating round the table).
function ScoreEngine.setup(data, seats, opts)
  opts = opts or {}
  local mode = opts.mode or (ScoreEngine.mode(data, "classic") and "classic" or data.modes[1].id)
  if ScoreEngine.mode(data, mode) == nil then return refuse(1, "modes", "this deck has no mode " .. tostring(mode)) end
  local options = ScoreEngine.options(data, mode)
  local teams = {}
  for s, seat in ipairs(seats) do teams[seat] = (opts.teams and opts.teams[seat]) or (s - 1) % 2 end
  local team_list = options.teams and ScoreEngine.team_list({ teams = teams }, seats) or nil
  local ok, problem = pcall(ScoreEngine.validate_setup, options, #seats, team_list)
  if not ok then return refuse(21, "setup", tostring(problem)) end
  local state = { mode = mode, name = ScoreEngine.mode(data, mode).name, opts = options, cards = ScoreEngine.deck_cards(data), deal = copy(data.setup.deal),
    players = copy(seats), teams = teams, targets = {}, rounds = 0, over = false, round = false,
    contenders = false, rng = Random.seed(opts.seed or 1), team_totals = { 0, 0 }, pending = false, totals = {},
    winners = {} }
  for _, seat in ipairs(seats) do state.totals[seat] = 0 end
  local dealt, message = pcall(deal_round, state)
  if not dealt then return refuse(21, "setup", tostring(message)) end
  return state
end

-- to_act(state) -> seats, "simultaneous": the round players who have not laid their roster yet; or
-- {}, "over". A solo game: {its seat}, "turn".
function ScoreEngine.to_act(state)
  if state.over then return {}, "over" end
  if state.opts.solo then return { state.players[1] }, "turn" end
  local out, add = Util.appender()
  for _, seat in ipairs(ScoreEngine.round_players(state, state.opts)) do
    if state.chosen[seat] == nil then add(seat) end
  end
  return out, "simultaneous"
end

-- legal_moves(state, seat) -> one move description (too many rosters to list): {roster = {choose = k,
-- from = the hand's card ids, ordered = true}, target = {one_of = {false, seat, ...}}}: a roster of k
-- cards of the hand, in slot order, and the seat the targeted cards aim at (false: Auto, as the table's
-- selector). In Decking! and Score Against!: {keep = {one_of = the draw's card ids}}. In Scorlitaire! and
-- Scorliroad!: every {flip = spot} the layout allows, or after a Deny! every {cover = spot}. {} when the seat
-- has nothing to choose.
function ScoreEngine.legal_moves(state, seat)
  if state.over or seat ~= state.players[1] and state.opts.solo then return {} end
  if solitaire(state.opts) then
    local out, add = Util.appender()
    local key, spots = "flip", flips(state)
    if state.deny then key, spots = "cover", coverable(state) end
    for _, spot in ipairs(spots) do add({ [key] = spot }) end
    return out
  end
  if state.hands[seat] == nil or state.chosen[seat] ~= nil then return {} end
  if state.opts.deck_per_player then return { { keep = { one_of = copy(state.hands[seat]) } } } end
  local targets = { false }
  for i, s in ipairs(state.players) do targets[i + 1] = s end
  return { { roster = { choose = math.min(state.opts.roster_size, #state.hands[seat]), from = copy(state.hands[seat]),
    ordered = true }, target = { one_of = targets } } }
end

-- The SCORE! phase of the rosters laid (state a copy): every action turn, then the totals; events.
local function score_round(state, events)
  local rosters = {}
  for seat, chosen in pairs(state.chosen) do
    local roster = {}
    for k, id in ipairs(chosen.roster) do roster[k] = { id = id } end
    rosters[seat] = roster
    state.targets[seat] = chosen.target or ScoreEngine.AUTO
  end
  local out
  local n_events = #events
  local limit = state.opts.action_turns or state.opts.roster_size  -- a round's action turns at the most
  for _ = 1, limit do
    local problem
    out, problem = ScoreEngine.action_turn(state, state.opts, state.cards, rosters, state.totals)
    if out == nil then error(problem) end
    for _, text in ipairs(out.messages) do
      n_events = n_events + 1
      events[n_events] = { what = "said", text = text }
    end
    for _, entry in ipairs(out.discard) do  -- C13: a discarded card leaves its slot
      for _, roster in pairs(rosters) do
        for k, slot in ipairs(roster) do
          if slot == entry then roster[k] = false end
        end
      end
    end
    if out.round_over then break end
  end
  if not out.round_over then error("the round did not end in " .. limit .. " action turns") end
  for seat, total in pairs(out.pad) do state.totals[seat] = total end
  events[#events + 1] = { what = "round_over", totals = copy(state.totals), bug = out.result.bug ~= nil,
    text = "Round " .. state.rounds .. " is over." }
  if state.over then
    events[#events + 1] = { what = "game_over", winners = copy(state.winners), text = out.winner }
  end
end

-- keep_card(state, seat, id) -> new state, events | nil, refusal: Decking!'s keep (C29) alone: `seat` keeps the
-- card `id` of its draw in its rightmost empty roster slot; the rest of the draw goes to its graveyard and,
-- while slots are empty and its deck has cards, it draws again. events: {what = "kept", seat, slot, draw (the
-- cards drawn, 0 once the roster is full), text}. It reads state.opts and the seat's hands, kept, graves and
-- decks alone. `play`'s keep lays the full roster; the table's Keep plays this.
function ScoreEngine.keep_card(state, seat, id)
  local hand = state.hands[seat]
  local at = hand and index_of(hand, id)
  if not at then return refuse(29, "Decking!", "keep one card of your draw: {keep = card id}") end
  state = copy(state)
  hand = state.hands[seat]
  local kept, grave = state.kept[seat], state.graves[seat]
  kept[#kept + 1] = table.remove(hand, at)
  take_ids(hand, grave, #hand)
  local size = state.opts.roster_size
  if #kept < size and #state.decks[seat] > 0 then take_ids(state.decks[seat], hand, state.opts.draw_per_slot) end
  local slot, who = size - #kept + 1, tostring(seat)
  local text = who .. " keeps a card in roster slot " .. slot .. "; the rest of the draw goes to the graveyard; "
    .. (#hand > 0 and (who .. " draws " .. #hand) or "the roster is full") .. "."
  return state, { { what = "kept", seat = seat, slot = slot, draw = #hand, text = text } }
end

-- Decking! (C29): keep_card; a full roster is laid (Auto targets); the last one laid plays the round.
local function keep(state, seat, move)
  local events
  state, events = ScoreEngine.keep_card(state, seat, type(move) == "table" and move.keep)
  if state == nil or events[1].draw > 0 then return state, events end
  local kept = state.kept[seat]
  local roster = {}
  for k = 1, #kept do roster[k] = kept[#kept + 1 - k] end  -- filled from the right: the last kept is slot 1
  state.chosen[seat] = { roster = roster, target = false }
  state.kept[seat] = {}
  if state.opts.solo then
    while not against_step(state, seat, events) do end
    if not state.over then deal_round(state) end
    return state, events
  end
  if #ScoreEngine.to_act(state) > 0 then return state, events end
  score_round(state, events)
  if not state.over then deal_round(state) end
  return state, events
end

-- play(state, seat, move) -> new state, events | nil, refusal. move: {roster = {ids}, target = seat or
-- false}; in Decking! and Score Against!, {keep = card id}; in Scorlitaire! and Scorliroad!, {flip = spot} and
-- {cover = spot}. The last roster of a round plays the round's SCORE! phase and deals the next round.
-- events: {what = "roster" | "kept" | "flipped" | "covered" | "said" | "round_over" | "game_over", seat, text, ...}.
function ScoreEngine.play(state, seat, move)
  if state.over then return refuse(22, "winning", "the game is over") end
  if solitaire(state.opts) then return solitaire_play(state, seat, move) end
  local hand = state.hands[seat]
  if hand == nil then return refuse(21, "setup", tostring(seat) .. " is not playing this round") end
  if state.chosen[seat] ~= nil then return refuse(3, "action turn", "your roster is laid: wait for the others") end
  if state.opts.deck_per_player then return keep(state, seat, move) end
  if type(move) ~= "table" or type(move.roster) ~= "table" then
    return refuse(3, "action turn", "lay a roster: {roster = {card ids}, target = a seat or false}")
  end
  local size = math.min(state.opts.roster_size, #hand)
  if #move.roster ~= size then return refuse(3, "action turn", "a roster holds " .. size .. " cards") end
  local left = {}
  for _, id in ipairs(hand) do left[id] = (left[id] or 0) + 1 end
  for _, id in ipairs(move.roster) do
    if (left[id] or 0) < 1 then return refuse(3, "action turn", tostring(id) .. " is not in your hand") end
    left[id] = left[id] - 1
  end
  if move.target and not contains(state.players, move.target) then
    return refuse(4, "targets", tostring(move.target) .. " is not playing")
  end
  state = copy(state)
  local rest, n = {}, 0
  for _, id in ipairs(hand) do
    if left[id] > 0 then
      left[id] = left[id] - 1
      n = n + 1
      rest[n] = id
    end
  end
  state.hands[seat] = rest
  state.chosen[seat] = { roster = copy(move.roster), target = move.target or false }
  local events = { { what = "roster", seat = seat, text = tostring(seat) .. " lays a roster of " .. size .. " cards." } }
  if #ScoreEngine.to_act(state) > 0 then return state, events end
  score_round(state, events)
  if not state.over then deal_round(state) end
  return state, events
end

-- scores(state) -> points, winners: each seat's total (its team's when the team scores are pooled), and
-- the winners once the game is over.
function ScoreEngine.scores(state)
  return copy(state.totals), state.over and copy(state.winners) or {}
end

-- Every card of the game, wherever it is: the deck, the hands and the rosters laid (ids; a card of
-- several copies is listed once per copy).
function ScoreEngine.all_ids(state)
  local out, add = Util.appender()
  local function add_all(list)
    for _, id in ipairs(list) do
      if id then add(id) end
    end
  end
  add_all(state.deck)
  add_all(state.discard or {})  -- the solo modes' pile
  if solitaire(state.opts) then  -- the layout, the Deny!s on it and a Deny! still to place
    for spot = 1, state.spots do
      if state.layout[spot] then add(state.layout[spot]) end
      if state.covered[spot] then add(state.covered[spot]) end
    end
    if state.deny then add(state.deny) end
  end
  for _, seat in ipairs(state.players) do
    if state.hands[seat] then add_all(state.hands[seat]) end
    if state.chosen[seat] then add_all(state.chosen[seat].roster) end
    for _, own in ipairs({ state.decks, state.graves, state.kept }) do  -- Decking!: a deck of one's own
      if own and own[seat] then add_all(own[seat]) end
    end
    for _, column in ipairs(state.virtual and state.virtual[seat] or {}) do add_all(column) end  -- Score Against!
  end
  return out
end

-- determinize(state, seat, seed) -> a copy of `state` as `seat` may know it: every card it cannot see dealt
-- again with `seed`, each to a place where such a card lies unseen, so that the counts of every hand, roster,
-- deck and layout, and all_ids, stay as they are. Unseen by `seat`: the shared deck's order, the others' hands
-- and laid rosters (all from one pool); in Decking!, each other player's own deck, draw and kept or laid cards
-- (a pool per player: decks are not mixed) and the order of its own deck; in Score Against!, its deck and its
-- virtual roster; in Scorlitaire!/Scorliroad!, the face-down layout (Deny!-covered cards included). Every
-- graveyard, discard pile and Deny! lies face up. The game's generator is reseeded too: the deals and dice
-- to come are unknown.
function ScoreEngine.determinize(state, seat, seed)
  local out = copy(state)
  local rng = Random.seed(seed)
  -- Deal the ids lying in `places` (lists; false entries stay) again among those places.
  local function redeal(places)
    local ids, add = Util.appender()
    for _, list in ipairs(places) do
      for _, id in ipairs(list) do
        if id then add(id) end
      end
    end
    table.sort(ids)  -- from what the seat knows alone: not the order the hidden cards lie in
    rng = Random.shuffle_in_place(ids, rng)
    local k = 0
    for _, list in ipairs(places) do
      for i, id in ipairs(list) do
        if id then
          k = k + 1
          list[i] = ids[k]
        end
      end
    end
  end
  if solitaire(out.opts) then
    redeal({ out.layout })
  elseif out.opts.deck_per_player then
    for _, other in ipairs(out.players) do
      local places, n = { out.decks[other] }, 1
      if other ~= seat then
        places[2], places[3], n = out.hands[other] or {}, out.kept[other], 3
        if out.chosen[other] then
          n = n + 1
          places[n] = out.chosen[other].roster
        end
      end
      for _, column in ipairs(out.virtual and out.virtual[other] or {}) do
        n = n + 1
        places[n] = column
      end
      redeal(places)
    end
  else
    local places, n = { out.deck }, 1
    for _, other in ipairs(out.players) do
      if other ~= seat then
        n = n + 1
        places[n] = out.hands[other] or {}
        if out.chosen[other] then
          n = n + 1
          places[n] = out.chosen[other].roster
        end
      end
    end
    redeal(places)
  end
  out.rng = Random.next(rng)
  return out
end

-- ---------------------------------------------------------------------------
-- view(state, seat): what `seat` sees of the table (docs/scripting.md)

local function face_down(n)
  local out = {}
  for i = 1, n do out[i] = { down = true } end
  return out
end

-- The ids of `list` (false entries left out) as cards: face up, or lying face down but known (`known`),
-- or face down and unknown (`hidden`: nothing but {down = true}).
local function seen(list, how)
  local out, add = Util.appender()
  for _, id in ipairs(list or {}) do
    if id then
      if how == "hidden" then add({ down = true })
      else add({ id = id, card = id, down = how == "known" or nil }) end
    end
  end
  return out
end

-- A roster as it lies, slot 1 first: the laid one, else in Decking! the cards kept so far (the last kept
-- lies in the leftmost filled slot, C29).
local function roster_of(state, seat)
  if state.chosen[seat] then return state.chosen[seat].roster end
  local kept, out = state.kept and state.kept[seat] or {}, {}
  for k = 1, #kept do out[k] = kept[#kept + 1 - k] end
  return out
end

-- The lines of a game: the mode's name, the round (of how many), the target, the teams, a tie-break's players; the seat's own
-- target choice once its roster is laid. Scorlitaire!/Scorliroad! add the last Score! and the spot to flip next to.
local function view_lines(state, seat)
  local opts, lines, line = state.opts, Util.appender()
  line(state.name)
  if state.over then line("The game is over after " .. state.rounds .. " round" .. (state.rounds == 1 and "" or "s"))
  elseif opts.max_rounds then line("Round " .. (state.rounds + 1) .. " of " .. opts.max_rounds)
  else line("Round " .. (state.rounds + 1)) end
  if opts.teams then
    local team_list = ScoreEngine.team_list(state, state.players)
    for team = 0, 1 do
      line(ScoreEngine.team_names(state, team) .. (opts.teams == "pooled"
        and (": target " .. fmt(ScoreEngine.entity_target(opts, team, team_list)) .. " points") or ""))
    end
  end
  local target = opts.teams ~= "pooled" and ScoreEngine.entity_target(opts, 0)
  if target then line("Target: " .. fmt(target) .. " points") end
  if state.contenders and state.contenders[1] ~= nil and not state.over then
    local names = {}
    for i, s in ipairs(ScoreEngine.round_players(state, opts)) do names[i] = tostring(s) end
    line("Tie-break: " .. table.concat(names, ", ") .. " play on")
  end
  local chosen = not opts.solo and state.chosen[seat]
  if chosen then
    line(tostring(seat) .. "'s targeted cards aim at " .. (chosen.target and tostring(chosen.target) or "Auto"))
  end
  if solitaire(opts) then
    line("Last Score!: " .. fmt(state.last))
    if opts.solo == "scorliroad" and state.spot then line("Flip next to spot " .. state.spot) end
  end
  return lines
end

-- view(state, seat) -> {zones, lines}. Classic and the modes dealt from the shared deck: the deck (face
-- down), then each player's hand (the seat's own face up, the others' face down) and laid roster (the
-- seat's own face down but known, the others' unknown: the rosters are laid unseen, C3, and a round
-- resolves within the move that lays the last one). Decking! and Score Against! (C29, C27): each player's
-- own deck, draw, roster (the cards kept so far) and graveyard (face up), and in Score Against! the virtual
-- roster's columns (face down) and the discard pile. Scorlitaire!/Scorliroad! (C26): each spot of the
-- layout, a face-down card with the Deny! on it face up, then the Deny! still to place and the discard pile
-- (the flipped cards, face up). What determinize redeals never shows.
function ScoreEngine.view(state, seat)
  local opts, zones, zone = state.opts, Util.appender()
  if solitaire(opts) then
    for spot = 1, state.spots do
      local cards = seen({ state.covered[spot] })  -- bottom to top: the face-down card, the Deny! covering it
      if state.layout[spot] then table.insert(cards, 1, { down = true }) end
      zone({ name = "spot " .. spot, cards = cards })
    end
    zone({ name = "Deny! to place", cards = seen({ state.deny }) })
    zone({ name = "discard pile", cards = seen(state.discard) })
    return { zones = zones, lines = view_lines(state, seat) }
  end
  if opts.deck_per_player then
    if (opts.virtual_rows or 0) > 0 then zone({ name = "discard pile", cards = seen(state.discard) }) end
    for _, other in ipairs(state.players) do
      local mine, name = other == seat, tostring(other) .. "'s "
      zone({ name = name .. "deck", owner = other, cards = face_down(#state.decks[other]) })
      for col, column in ipairs(state.virtual[other] or {}) do
        zone({ name = name .. "virtual column " .. col, owner = other, cards = face_down(#column) })
      end
      zone({ name = name .. "draw", owner = other, cards = seen(state.hands[other], mine and "up" or "hidden") })
      zone({ name = name .. "roster", owner = other, cards = seen(roster_of(state, other), mine and "known" or "hidden") })
      zone({ name = name .. "graveyard", owner = other, cards = seen(state.graves[other]) })
    end
    return { zones = zones, lines = view_lines(state, seat) }
  end
  zone({ name = "deck", cards = face_down(#state.deck) })
  for _, other in ipairs(state.players) do
    local mine, name = other == seat, tostring(other) .. "'s "
    zone({ name = name .. "hand", owner = other, cards = seen(state.hands[other], mine and "up" or "hidden") })
    zone({ name = name .. "roster", owner = other, cards = seen(roster_of(state, other), mine and "known" or "hidden") })
  end
  return { zones = zones, lines = view_lines(state, seat) }
end

return ScoreEngine
