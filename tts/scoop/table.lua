-- Scoop's table script (module scoop.table, loaded by the Global script as GAME): the player mats and
-- the "Count" and "New game" controls of tts/scoop/ui.xml.j2. A thin TTS layer: scoop.piles says which pile a place
-- belongs to, scoop.scoring scores (docs/rules/scoop.md); this file reads the table.
local ScoopScoring = use("scoop.scoring")
local ScoopEngine = use("scoop.engine")
local Piles = use("scoop.piles")
local Setup = use("lib.setup")
local Seating = use("lib.seating")
local Table = use("lib.table")
local Api = use("lib.api")

local M = {}

M.get_ready = false  -- no generic Get ready! button: Scoop deals nothing: Count and New game replace it

-- The points "Count" added for the game being played ({color = points}), taken back if it counts again:
-- scores add up over the games (G-Scoop-5), and counting one game twice never adds it twice.
local counted = {}

local say, warn = Table.say, Table.warn

-- Lay one player mat in front of every seat (Go Pile left, Game Pile right), locked. Done once, when
-- the game is first loaded (the mats come as one stack); seats beyond the mats there are get none.
function M.lay_mats()
  local n, radius = #Api.data().seats, Api.data().layout.seat_radius
  local function place(i)
    return Piles.place(Api.data().seats, radius, Api.data().seats[i], nil, 1.0), {0, Seating.rotation_y(i, n), 0}
  end
  Table.lay_pieces("mats", n, place, function()
    for _, mat in ipairs(Table.tagged("mats")) do mat.setLock(true) end
  end)
end

-- The cards in every pile area: {color = {go = {cards}, game = {cards}}}, and how many cards of the
-- deck lie elsewhere on the table (the draw pile included).
function M.read_piles()
  local piles, elsewhere = {}, 0
  local radius = Api.data().layout.seat_radius
  for _, obj in ipairs(Table.by_guid(getObjects())) do
    local notes = {}
    if obj.type == "Card" then notes = {obj.getGMNotes()}
    elseif obj.type == "Deck" then
      for _, entry in ipairs(obj.getObjects()) do notes[#notes + 1] = entry.gm_notes end
    end
    local p = obj.getPosition()
    local color, pile = Piles.pile_at(Api.data().seats, radius, p.x, p.z)
    for _, text in ipairs(notes) do
      local card = Piles.card(text, Api.data().main)
      if card ~= nil then
        if color == nil then
          elsewhere = elsewhere + 1
        else
          piles[color] = piles[color] or {go = {}, game = {}}
          local list = piles[color][pile]
          list[#list + 1] = card
        end
      end
    end
  end
  return piles, elsewhere
end

-- "Count": score the seated players' piles, announce the result and add each player's points for this
-- game to their score (replacing this game's earlier count, if any).
function M.count()
  local seated = Api.seated()
  if #seated == 0 then warn("nobody is seated: take a seat (a colour) first") return false end
  local piles, elsewhere = M.read_piles()
  local ok, result = pcall(function()
    return ScoopScoring.score(Piles.players(seated, piles), ScoopEngine.rules(Api.data()).scoring)
  end)
  if not ok then warn("Count: " .. tostring(result)) return false end
  for color, points in pairs(counted) do Api.add_score(color, -points) end
  counted = {}
  for k, color in ipairs(seated) do
    counted[color] = result.players[k].score
    Api.add_score(color, counted[color])
  end
  if elsewhere > 0 then
    say("Count (" .. elsewhere .. (elsewhere == 1 and " card is" or " cards are")
        .. " not on anyone's piles yet):")
  end
  say(result.explanation)
  return result
end

-- "New game": every card back into the deck, shuffled, face down in the middle; the next Count adds a
-- new game's points. finish() once the deck is there.
function M.new_game(color, finish)
  Api.gather_main_deck(function(deck, problem)
    if deck == nil then warn(problem) return finish() end
    deck.setPosition({0, 1.5, 0})
    deck.shuffle()
    counted = {}
    say(color .. " shuffled the deck for a new game: take one card from the top each turn.")
    finish()
  end)
end

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Saved state: "mats laid;counted=White:3,Red:0" (the mats are laid once, when the game first loads).
function M.save()
  local parts = {}
  for _, color in ipairs(Api.data().seats) do
    if counted[color] ~= nil then parts[#parts + 1] = color .. ":" .. string.format("%d", counted[color]) end
  end
  return "mats laid;counted=" .. table.concat(parts, ",")
end

function M.load(text)
  if text == nil or text == "" then M.lay_mats() end  -- a new game, not a reloaded one
  counted = {}
  for color, points in string.gmatch(string.match(text or "", "counted=(.*)$") or "", "(%a+):(%-?%d+)") do
    counted[color] = tonumber(points)
  end
end

-- --- XmlUI handlers (tts/scoop/ui.xml.j2) -------------------------------------------------------------

function uiScoopCount(player, value, id)
  if Table.busy() then warn("Wait a moment: the deck is still being gathered") return end
  M.count()
end

function uiScoopNewGame(player, value, id)
  Table.flow("New game", function(finish) M.new_game(player.color, finish) end)
end

return M
