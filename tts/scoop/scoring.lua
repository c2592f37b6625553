-- Scoop scoring ("Count"): pure game logic for Tabletop Simulator (MoonSharp, Lua 5.2).
--
-- A line-by-line port of src/deckpress/engines/scoop.py: same function, same data shapes
-- (Lua tables for dicts and lists), same results (tests/test_games_lua.py checks it on
-- thousands of random deals).  The rules interpretations are the numbered clauses of
-- docs/rules/scoop.md ("C<n>").  No TTS calls, no goto, no bitwise operators, no
-- io/load/require: the file defines one local table and returns it so a bundler can wrap it.
--
-- A card is {rank = "Q", suit = "hearts"}; a player is {go_pile = {cards}, game_pile = {cards},
-- name = optional string}.  Players are numbered from 1 in the order given (C12).
-- Errors are raised with error("...") where Python raises ValueError.

local Util = use("lib.util")
local is_int = Util.is_int

local ScoopScoring = {}

ScoopScoring.RANKS = { "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K" }
ScoopScoring.FACES = { "J", "Q", "K" }
local KNOWN = {}
for _, r in ipairs(ScoopScoring.RANKS) do KNOWN[r] = true end

-- C1: "A", "2".."10", "J", "Q", "K"; whole numbers 2-10 and lower case are accepted.
function ScoopScoring.normalize_rank(rank)
  if is_int(rank) then rank = string.format("%d", rank) end
  if type(rank) ~= "string" then error("a card's rank must be A, 2-10, J, Q or K") end
  rank = string.upper(rank)
  if not KNOWN[rank] then error("unknown rank '" .. rank .. "': use A, 2-10, J, Q or K") end
  return rank
end

-- C13: a scoring table must give whole points for every rank in both piles; `faces` (the face-card
-- ranks, default J, Q, K) is optional.
function ScoopScoring.check_scoring(scoring)
  if type(scoring) ~= "table" then error("scoring must be a table {go = {...}, game = {...}}") end
  for _, pile in ipairs({ "go", "game" }) do
    local t = scoring[pile]
    if type(t) ~= "table" then error("scoring." .. pile .. " must be a table of points by rank") end
    for _, rank in ipairs(ScoopScoring.RANKS) do
      if not is_int(t[rank]) then error("scoring." .. pile .. "." .. rank .. " must be a whole number") end
    end
  end
  if scoring.faces ~= nil then
    if type(scoring.faces) ~= "table" then error("scoring.faces must be a list of ranks") end
    for _, rank in ipairs(scoring.faces) do ScoopScoring.normalize_rank(rank) end
  end
  return scoring
end

-- The face-card ranks of `scoring` as a set {J = true, ...}.
function ScoopScoring.face_set(scoring)
  local set = {}
  for _, rank in ipairs((scoring and scoring.faces) or ScoopScoring.FACES) do
    set[ScoopScoring.normalize_rank(rank)] = true
  end
  return set
end

local function points(n)
  if n == 1 or n == -1 then return string.format("%d point", n) end
  return string.format("%d points", n)
end

local function faces(n)
  if n == 1 then return "1 face card" end
  return string.format("%d face cards", n)
end

local function names(list)
  if #list == 1 then return list[1] end
  local head = {}
  for i = 1, #list - 1 do head[i] = list[i] end
  return table.concat(head, ", ") .. " and " .. list[#list]
end

local function pile_ranks(player, key, number)
  local pile = player[key]
  if pile == nil then pile = {} end
  if type(pile) ~= "table" then
    error(string.format("player %d: %s must be a list of cards", number, key))
  end
  local ranks = {}
  for i, card in ipairs(pile) do
    if type(card) ~= "table" then
      error(string.format("player %d: every card in %s must be a table {rank, suit}", number, key))
    end
    ranks[i] = ScoopScoring.normalize_rank(card.rank)
  end
  return ranks
end

-- score(players, scoring) -> {players = {{name, go_points, game_points, go_faces, game_faces,
--   faces, winner, score}}, winners = {player numbers}, decided_by = "go_pile" |
--   "face_cards" | "shared", explanation = string}
function ScoopScoring.score(players, scoring)
  ScoopScoring.check_scoring(scoring)
  local is_face = ScoopScoring.face_set(scoring)
  if type(players) ~= "table" or #players == 0 then error("Scoop needs at least one player to score") end
  local rows = {}
  for number, player in ipairs(players) do
    if type(player) ~= "table" then
      error(string.format("player %d must be a table {go_pile, game_pile}", number))
    end
    local name = player.name
    if type(name) ~= "string" or name == "" then name = string.format("Player %d", number) end
    local go = pile_ranks(player, "go_pile", number)
    local game = pile_ranks(player, "game_pile", number)
    local row = { name = name, go_points = 0, game_points = 0, go_faces = 0, game_faces = 0,
      faces = 0, winner = false, score = 0 }
    for _, r in ipairs(go) do
      row.go_points = row.go_points + scoring.go[r]
      if is_face[r] then row.go_faces = row.go_faces + 1 end
    end
    for _, r in ipairs(game) do
      row.game_points = row.game_points + scoring.game[r]
      if is_face[r] then row.game_faces = row.game_faces + 1 end
    end
    row.faces = row.go_faces + row.game_faces
    rows[number] = row
  end

  local lines, line_count = {}, 0
  local function line(text)
    line_count = line_count + 1
    lines[line_count] = text
  end
  for _, row in ipairs(rows) do
    line(string.format("%s: Go Pile %s, Game Pile %s, %s in both piles.",
      row.name, points(row.go_points), points(row.game_points), faces(row.faces)))
  end
  -- C7: the most Go Pile points.
  local best_go = rows[1].go_points
  for _, row in ipairs(rows) do best_go = math.max(best_go, row.go_points) end
  local leaders, leader_count = {}, 0
  for i, row in ipairs(rows) do
    if row.go_points == best_go then
      leader_count = leader_count + 1
      leaders[leader_count] = i
    end
  end
  local winners, decided_by
  if #leaders == 1 then
    winners = leaders
    decided_by = "go_pile"
    line(string.format("%s has the most Go Pile points (%d).", rows[leaders[1]].name, best_go))
  else
    -- C8: among the leaders only, the most face cards in both piles.
    local best_faces = rows[leaders[1]].faces
    for _, i in ipairs(leaders) do best_faces = math.max(best_faces, rows[i].faces) end
    winners = {}
    local tied, winner_count = {}, 0
    for k, i in ipairs(leaders) do
      tied[k] = rows[i].name
      if rows[i].faces == best_faces then
        winner_count = winner_count + 1
        winners[winner_count] = i
      end
    end
    if #winners == 1 then
      decided_by = "face_cards"
      line(string.format("Go Pile tie at %d between %s; %s has the most face cards (%d).",
        best_go, names(tied), rows[winners[1]].name, best_faces))
    else
      -- C9: still tied: every one of them wins and scores.
      decided_by = "shared"
      local still = {}
      for k, i in ipairs(winners) do still[k] = rows[i].name end
      line(string.format(
        "Go Pile tie at %d between %s; %s also tie on face cards (%d), so each scores their Game Pile.",
        best_go, names(tied), names(still), best_faces))
    end
  end
  -- C10: only the winner(s) score, and they score their Game Pile.
  for _, i in ipairs(winners) do
    rows[i].winner = true
    rows[i].score = rows[i].game_points
    line(string.format("%s wins and scores %s from the Game Pile.",
      rows[i].name, points(rows[i].game_points)))
  end
  if #winners < #rows then line("Nobody else scores.") end
  return {
    players = rows,
    winners = winners,
    decided_by = decided_by,
    explanation = table.concat(lines, "\n"),
  }
end

return ScoopScoring
