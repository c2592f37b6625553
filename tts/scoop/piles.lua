-- Scoop's piles on the table: pure geometry and card reading for the "Count" control (no TTS calls).
-- Every seat has two areas in front of it, on its player mat: the Go Pile on the player's left and
-- the Game Pile on the right. Seat-local units as in lib.seating: x to the player's right, d from the
-- hand zone towards the centre of the table.
local Seating = use("lib.seating")
local Setup = use("lib.setup")

local M = {}

M.MAT_D = 6.5                  -- the mat's centre, straight in front of the player
M.AREA = {x = 5.5, near = 3.5, far = 9.5}  -- both areas: |x| <= 5.5, 3.5 <= d <= 9.5
M.GO_X, M.GAME_X = -2.9, 2.9   -- the middle of each area (where a pile is put)

-- The seat colour and pile ("go" or "game") whose area holds the world point (wx, wz), or nil.
function M.pile_at(seats, radius, wx, wz)
  for i, color in ipairs(seats) do
    local x, d = Seating.offset(i, #seats, radius, wx, wz)
    if math.abs(x) <= M.AREA.x and d >= M.AREA.near and d <= M.AREA.far then
      return color, (x < 0 and "go" or "game")
    end
  end
  return nil
end

-- World position of a pile ("go"/"game") or of the mat (nil) of `color`.
function M.place(seats, radius, color, pile, y)
  local i = Seating.index(seats, color)
  local x = pile == "go" and M.GO_X or pile == "game" and M.GAME_X or 0
  return Seating.position(i, #seats, radius, x, M.MAT_D, y)
end

-- The card {rank, suit} a playing card's GM notes describe (component `component`), or nil.
function M.card(gm_notes, component)
  if Setup.field(gm_notes, "component") ~= component then return nil end
  local rank, suit = Setup.field(gm_notes, "rank"), Setup.field(gm_notes, "suit")
  if rank == nil then return nil end
  if type(rank) == "number" then rank = string.format("%d", rank) end
  return {rank = rank, suit = suit}
end

-- scoring.score's players list for `seated` (colours, in seat order) from {color = {go = {cards},
-- game = {cards}}}.
function M.players(seated, piles)
  local out = {}
  for k, color in ipairs(seated) do
    local mine = piles[color] or {}
    out[k] = {name = color, go_pile = mine.go or {}, game_pile = mine.game or {}}
  end
  return out
end

return M
