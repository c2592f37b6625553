-- Skorch's table script (module skorch.table, loaded by the Global script as GAME): the "Deal" and
-- "Face-off" controls of tts/skorch/ui.xml.j2. A thin TTS layer: skorch.setup decides where every card
-- goes (docs/rules/skorch.md), this file only finds the cards and moves them.
local SkorchSetup = use("skorch.setup")
local Setup = use("lib.setup")
local Seating = use("lib.seating")
local Table = use("lib.table")
local Api = use("lib.api")

local M = {}

M.get_ready = false  -- no generic Get ready! button: "Deal" replaces it

-- Where things lie, in seat-local units (lib.seating): x to the owner's right, d towards the centre.
M.SLOT_STEP = 2.6     -- between two prison slots
M.FRONT_D = 6.0       -- the front row (unlocked), nearer the owner
M.BACK_D = 9.6        -- the back row (locked), behind it
M.HAND_STEP = 1.6     -- between two cards put into a hand
M.DISCARD_DX = 3.0    -- the discard pile lies this far right (+x) of the draw pile
M.FACEOFF_HOME = {0, 1.5, -5}  -- where the Face-off card waits when it is left out

local faceoff = false  -- the Face-off expansion is shuffled in (the "Face-off" toggle)

local note, say, warn, take = Setup.field, Table.say, Table.warn, Table.take

-- The deck's set-up facts (decks/skorch.yaml: the prison layout, the deal order, the hand size).
local function rules()
  return SkorchSetup.rules(Api.data())
end

-- The world place and rotation of prison slot `slot` of row "back"/"front" for `color`.
function M.prison_place(color, row, slot, face_up)
  local d = row == "back" and M.BACK_D or M.FRONT_D
  local size = #rules()[row]
  return Seating.place(Api.data(), color, (slot - (size + 1) / 2) * M.SLOT_STEP, d),
         {0, Seating.facing(Api.data(), color), face_up and 0 or 180}
end

local function hand_place(color, slot, size)
  return Table.hand_place(color, slot, size, M.HAND_STEP)
end

-- Put the Face-off card into the deck (expansion on) or take it out to its place (off); done() once
-- the deck holds what it should (putObject takes frames).
local function sort_faceoff(deck, done)
  local count = deck.getQuantity()
  for _, obj in ipairs(Table.tagged("faceoff")) do
    if obj.type == "Card" then
      if faceoff then
        deck.putObject(obj)
        count = count + 1
      else
        obj.setPosition(M.FACEOFF_HOME)
        obj.setRotation({0, 180, 180})
      end
    end
  end
  if not faceoff then
    for _, entry in ipairs(deck.getObjects()) do
      if note(entry.gm_notes, "kind") == "faceoff" then
        take(deck, entry.guid, M.FACEOFF_HOME, {0, 180, 180})
        count = count - 1
      end
    end
  end
  Table.wait(function() return Table.formed(deck, count) end, done, "The Face-off card")
end

-- The gathered deck as skorch.setup cards (ids are GUIDs: the deck holds six copies of each attack).
local function plan_cards(deck)
  local cards = {}
  for _, entry in ipairs(deck.getObjects()) do
    cards[#cards + 1] = {id = entry.guid, kind = note(entry.gm_notes, "kind"),
                         value = note(entry.gm_notes, "value")}
  end
  return cards
end

-- "Deal": gather and shuffle the deck, build every seated player's prison, deal the hands and turn
-- the first discard. The clicking player deals (or the first seated player, if they aren't seated).
-- finish(plan) once every card lies where it goes (finish() when the deal can't be made).
function M.deal(color, finish)
  local seats = Api.seated()
  local min = rules().min_players
  if #seats < min then
    warn("Skorch needs at least " .. min .. " seated players")
    return finish()
  end
  Api.gather_main_deck(function(deck, problem)
    if deck == nil then warn(problem) return finish() end
    sort_faceoff(deck, function() M.deal_from(deck, seats, color, finish) end)
  end)
end

-- Deal's moves once the deck holds every card.
function M.deal_from(deck, seats, color, finish)
  deck.shuffle()
  local dealer = Seating.index(seats, color) and color or seats[1]
  local ok, plan = pcall(SkorchSetup.deal_plan, seats, plan_cards(deck),
                         {dealer = dealer, seed = math.random(1, 2147483646)}, rules())
  if not ok then warn("Deal: " .. tostring(plan)) return finish() end
  local pile = deck.getPosition()
  local j = Table.join(function() finish(plan) end)
  for _, move in ipairs(plan.deals) do
    local position, rotation
    if move.row == "discard" then
      position, rotation = {pile.x + M.DISCARD_DX, pile.y, pile.z}, {0, 180, 0}
    elseif move.row == "hand" then
      position, rotation = hand_place(move.seat, move.slot, #plan.players[1].hand)
    else
      position, rotation = M.prison_place(move.seat, move.row, move.slot, move.face_up)
    end
    take(deck, move.id, position, rotation, j.add())
  end
  local first = plan.players[1]
  say(dealer .. " dealt: a prison of " .. (#first.back + #first.front) .. " and " .. #first.hand
      .. " cards in hand to each of " .. #seats .. " players. "
      .. plan.explanation)
  if plan.value_to_beat > 0 then
    say(plan.first_player .. " starts: play a card of " .. plan.value_to_beat .. " or higher.")
  else
    say(plan.first_player .. " starts: any card may be played.")
  end
  j.start()
end

function M.set_faceoff(on)
  faceoff = on == true
  UI.setValue("skorch_faceoff", faceoff and "Face-off: in" or "Face-off: out")
end

-- --- Hooks for the Global script ------------------------------------------------------------------

function M.load(text)
  M.set_faceoff(text == "faceoff")
end

function M.save()
  return faceoff and "faceoff" or ""
end

-- --- XmlUI handlers (tts/skorch/ui.xml.j2) ------------------------------------------------------------

function uiSkorchDeal(player, value, id)
  Table.flow("Deal", function(finish) M.deal(player.color, finish) end)
end

function uiSkorchFaceoff(player, value, id)
  if Table.busy() then warn("Wait a moment: the cards are still being dealt") return end
  M.set_faceoff(not faceoff)
  say(player.color .. (faceoff and " shuffles the Face-off card in at the next Deal"
                               or " leaves the Face-off card out"))
end

return M
