-- Skorch's table script (module skorch.table, loaded by the Global script as GAME): the "Deal", "Play",
-- "Pick up" and "Face-off" controls of tts/skorch/ui.xml.j2. A thin TTS layer: skorch.setup decides
-- where every card goes at the deal and skorch.engine referees the play (docs/rules/skorch.md); this
-- file only reads which cards the players put on the discard pile and moves the cards.
local SkorchSetup, SkorchEngine = use("skorch.setup"), use("skorch.engine")
local Api, Seating, Setup, Table, Turns = use("lib.api"), use("lib.seating"), use("lib.setup"), use("lib.table"),
  use("lib.turns")

local M = {}

M.get_ready = false  -- no generic Get ready! button: "Deal" replaces it

-- Where things lie, in seat-local units (lib.seating): x to the owner's right, d towards the centre.
M.SLOT_STEP = 2.6     -- between two prison slots
M.FRONT_D = 6.0       -- the front row (unlocked), nearer the owner
M.BACK_D = 9.6        -- the back row (locked), behind it
M.HAND_STEP = 1.6     -- between two cards put into a hand
M.DISCARD_DX = 3.0    -- the discard pile lies this far right (+x) of the draw pile
M.FACEOFF_HOME = {0, 1.5, -5}  -- where the Face-off card waits when it is left out (on the save's table)

M.PILE_RADIUS = 1.5   -- a card within this distance of the discard pile's place lies on the pile
M.BURNED_DZ = 3.0     -- burned cards lie face down this far (+z) from the discard pile

local faceoff = false  -- the Face-off expansion is shuffled in (the "Face-off" toggle)
local pile_at = nil    -- where the discard pile lies: {x, y, z}

-- Whose turn it is and what to beat, or who has won.
local function turn_line(game)
  if game.winner then return game.winner .. " has won" end
  return game.turn .. "'s turn: " .. (game.value > 0 and ("beat " .. game.value) or "any card")
end

-- The referee of the turns (lib.turns over skorch.engine): the engine decides, this layer reads which
-- cards the players put on the discard pile and moves the cards.
local referee = Turns.referee(SkorchEngine, {turn_id = "skorch_turn", idle = "Deal to start", line = turn_line,
                                             first = "Deal first: the table referees a game it dealt"})
M.state, M.show_turn = referee.state, referee.show_turn

local note, say, warn, take = Setup.field, Table.say, Table.warn, Table.take

-- The deck's set-up facts (decks/skorch.yaml: the prison layout, the deal order, the hand size), read
-- once per deck data (every card's place asks for them).
local known_rules, rules_of = nil, nil
local function rules()
  if rules_of ~= Api.data() then known_rules, rules_of = SkorchSetup.rules(Api.data()), Api.data() end
  return known_rules
end

-- The world place and rotation of prison slot `slot` of row "back"/"front" for `color`.
function M.prison_place(color, row, slot, face_up)
  local d = row == "back" and M.BACK_D or M.FRONT_D
  local size = #rules()[row]
  return Seating.place(Api.data(), color, (slot - (size + 1) / 2) * M.SLOT_STEP, d),
         {0, Seating.facing(Api.data(), color), face_up and 0 or 180}
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
        obj.setPosition(Api.at(M.FACEOFF_HOME))
        obj.setRotation({0, 180, 180})
      end
    end
  end
  if not faceoff then
    for _, entry in ipairs(deck.getObjects()) do
      if note(entry.gm_notes, "kind") == "faceoff" then
        take(deck, entry.guid, Api.at(M.FACEOFF_HOME), {0, 180, 180})
        count = count - 1
      end
    end
  end
  Table.wait(function() return Table.formed(deck, count) end, done, "The Face-off card")
end

-- The gathered deck as skorch.setup cards (ids are GUIDs: the deck holds six copies of each attack).
local function plan_cards(deck)
  local cards = {}
  for i, entry in ipairs(deck.getObjects()) do
    cards[i] = {id = entry.guid, kind = note(entry.gm_notes, "kind"),
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
  referee.start(nil)
  local cards = plan_cards(deck)  -- deal_plan leaves them as they are: the engine's setup gets them too
  local ok, plan = pcall(SkorchSetup.deal_plan, seats, cards,
                         {dealer = dealer, seed = math.random(1, 2147483646)}, rules())
  if not ok then warn("Deal: " .. tostring(plan)) return finish() end
  local pile = deck.getPosition()
  pile_at = {pile.x + M.DISCARD_DX, pile.y, pile.z}
  local j = Table.join(function()
    referee.start(SkorchEngine.setup(Api.data(), seats, {cards = cards, plan = plan}))
    finish(plan)
  end)
  local hand_places = {}  -- each seat's hand zone read once
  for _, seat in ipairs(seats) do hand_places[seat] = Table.hand_places(seat, #plan.players[1].hand, M.HAND_STEP) end
  for _, move in ipairs(plan.deals) do
    local position, rotation
    if move.row == "discard" then
      position, rotation = {pile.x + M.DISCARD_DX, pile.y, pile.z}, {0, 180, 0}
    elseif move.row == "hand" then
      position, rotation = hand_places[move.seat](move.slot)
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

-- --- Refereeing the play: the engine decides, this layer reads the table and moves the cards -------

-- Where card `id` is in `state`: seat, place ("hand", "front", "back"), slot; or nil (pile, draw, burned).
local function where(state, id)
  for _, seat in ipairs(state.order) do
    local player = state.players[seat]
    for i, c in ipairs(player.hand) do
      if c.id == id then return seat, "hand", i end
    end
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot, c in ipairs(player[row]) do
        if c and c.id == id then return seat, row, slot end
      end
    end
  end
  return nil
end

-- The ids of a list of cards, as a set.
local function ids(list)
  local out = {}
  for _, c in ipairs(list) do out[c.id] = true end
  return out
end

local function near(p, spot, radius)
  local dx, dz = p.x - spot[1], p.z - spot[3]
  return dx * dx + dz * dz <= radius * radius
end

-- Every card object of the game (decks and loose cards): the main deck's and the Face-off card's, in
-- no order (TTS promises none): its users look cards up in them, each GUID asked once.
local function game_objects()
  local out, seen, count = {}, {}, 0
  for _, tag in ipairs({Api.data().main, "faceoff"}) do
    for _, obj in ipairs(getObjectsWithTag(tag)) do
      local guid = obj.getGUID()
      if not seen[guid] then
        seen[guid] = true
        count = count + 1
        out[count] = obj
      end
    end
  end
  return out
end

-- The cards lying on the discard pile's place: {guid = object} (a loose card is its own object; a card
-- in a deck there - a card dropped on a card forms one - has that deck as its object).
local function on_pile()
  local out = {}
  for _, obj in ipairs(game_objects()) do
    if not obj.spawning and near(obj.getPosition(), pile_at, M.PILE_RADIUS) then
      if obj.type == "Card" then
        out[obj.getGUID()] = obj
      elseif obj.type == "Deck" then
        for _, entry in ipairs(obj.getObjects()) do out[entry.guid] = obj end
      end
    end
  end
  return out
end

local function hand_spot(color)
  local h = Player[color].getHandTransform()
  return {h.position.x, h.position.y, h.position.z}, {0, Table.upright(color), 0}
end

-- Where card `id` belongs in `state`: its hand or its prison slot (position, rotation).
local function home_of(state, id)
  local seat, place, slot = where(state, id)
  if place == "hand" then return hand_spot(seat) end
  return M.prison_place(seat, place, slot, state.players[seat][place][slot].face_up)
end

-- The move the cards `color` put on the pile make (docs/tts-games.md): their own cards are played;
-- with an Undead, another player's prison card there is the one taken and a prison card of their own
-- the one given; with a Face-off, a prison card of their own there is the one played, and a face-down
-- card of their prison turned face up in its slot the other one revealed.
local function read_move(game, color, new)
  local own, others, own_count, others_count = {}, {}, 0, 0
  for _, id in ipairs(new) do
    local seat = where(game, id)
    if seat == color then
      own_count = own_count + 1
      own[own_count] = id
    elseif seat ~= nil then
      others_count = others_count + 1
      others[others_count] = id
    end
  end
  local special
  for _, id in ipairs(own) do
    local seat, place, slot = where(game, id)
    local c = place == "hand" and game.players[seat].hand[slot] or game.players[seat][place][slot]
    if c.kind == "undead" or c.kind == "faceoff" then special = c end
  end
  if special == nil then return {cards = own}, others end
  local move, rest, rest_count = {cards = {special.id}}, {}, 0
  for _, id in ipairs(own) do
    if id ~= special.id then
      rest_count = rest_count + 1
      rest[rest_count] = id
    end
  end
  if special.kind == "undead" then
    move.take, move.give = others[1], rest[1]
    return move, {others[2], rest[2]}
  end
  move.choose = rest[1]
  local extra, extra_count = {}, 0
  for k = 2, rest_count do
    extra_count = extra_count + 1
    extra[extra_count] = rest[k]
  end
  for _, id in ipairs(others) do
    extra_count = extra_count + 1
    extra[extra_count] = id
  end
  for _, row in ipairs(SkorchEngine.ROWS) do  -- the other card revealed: turned face up in its slot
    for _, c in ipairs(game.players[color][row]) do
      local obj = c and not c.face_up and c.id ~= move.choose and getObjectFromGUID(c.id)
      if obj and obj.type == "Card" then
        local z = obj.getRotation().z % 360
        if (z < 90 or z > 270) and move.choose ~= nil then move.reveal = {c.id, move.choose} end
      end
    end
  end
  return move, extra
end

-- Put the cards of a refused move back where the engine says they are; done() once they are there.
local function put_back(game, new, found, done)
  local j = Table.join(done)
  for _, id in ipairs(new) do
    if where(game, id) ~= nil then
      local position, rotation = home_of(game, id)
      Table.move_card(found[id], id, position, rotation, j)
    end
  end
  -- a Face-off's card turned up in its slot goes face down again
  for _, seat in ipairs(game.order) do
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot, c in ipairs(game.players[seat][row]) do
        local obj = c and not c.face_up and getObjectFromGUID(c.id)
        if obj and obj.type == "Card" then obj.setRotation(select(2, M.prison_place(seat, row, slot, false))) end
      end
    end
  end
  j.start()
end

-- Each card's place in `state` as one string (seat, hand or row and slot, face up): {id = text}; the
-- cards of the piles have none. (One walk over the state: where() for every card would be quadratic.)
local function spots(state)
  local out = {}
  for _, seat in ipairs(state.order) do
    local player = state.players[seat]
    for _, c in ipairs(player.hand) do out[c.id] = out[c.id] or seat .. " hand" end
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot, c in ipairs(player[row]) do
        if c then out[c.id] = out[c.id] or seat .. " " .. row .. " " .. slot .. " " .. tostring(c.face_up) end
      end
    end
  end
  return out
end

-- Move every card whose place changed from `before` to `after` (the engine's states); done() once they
-- have all arrived.
local function carry_out(before, after, found, done)
  local j = Table.join(done)
  local burn = {pile_at[1], pile_at[2], pile_at[3] + M.BURNED_DZ}
  local was, now = spots(before), spots(after)
  local burned, burned_before = ids(after.burned), ids(before.burned)
  for guid, holder in pairs(found) do  -- the pile: burned, picked up, or face up where it is
    if burned[guid] and not burned_before[guid] then
      Table.move_card(holder, guid, burn, {0, 180, 180}, j)
    elseif now[guid] ~= nil then
      local position, rotation = home_of(after, guid)
      Table.move_card(holder, guid, position, rotation, j)
    elseif holder.type == "Card" then
      holder.setRotation({0, 180, 0})
    end
  end
  local holder_of  -- a card's object (lib.table.holders), the table read once, at the first card moved
  for _, id in ipairs(SkorchEngine.all_ids(after)) do  -- drawn cards, Undead trades, Face-off reveals
    if found[id] == nil and now[id] ~= nil and now[id] ~= was[id] then
      holder_of = holder_of or Table.holders(game_objects())
      local holder = holder_of(id)
      if holder ~= nil then
        local position, rotation = home_of(after, id)
        Table.move_card(holder, id, position, rotation, j)
      end
    end
  end
  j.start()
end

-- "Play": the cards `color` put on the discard pile, checked by the engine; refused, they go back
-- with the rule's message; accepted, the table carries the move out. finish() once the cards are there.
function M.play(color, finish)
  local found, new = {}, {}
  referee.move(color, finish, {
    read = function(game)
      found = on_pile()
      local count, piled = 0, ids(game.pile)
      for guid, _ in pairs(found) do
        if not piled[guid] then
          count = count + 1
          new[count] = guid
        end
      end
      table.sort(new)
      if #new == 0 then return nil, "put the cards you play on the discard pile first, then press Play" end
      local move, extra = read_move(game, color, new)
      if #extra > 0 then return nil, "put only your own cards on the pile (and, with an Undead, the card you take)" end
      return move
    end,
    put_back = function(game, done)
      put_back(game, new, found, done)
      return #new > 0
    end,
    carry_out = function(before, after, _, done) carry_out(before, after, found, done) end})
end

-- "Pick up": the whole discard pile into `color`'s hand, when nothing beats it (clause 19).
function M.pick_up(color, finish)
  referee.move(color, finish, {
    read = function() return {pick_up = true} end,
    carry_out = function(before, after, _, done)
      local found, find = {}, Table.holders(game_objects())
      for _, c in ipairs(before.pile) do found[c.id] = find(c.id) end
      carry_out(before, after, found, done)
    end})
end

function M.set_faceoff(on)
  faceoff = on == true
  UI.setValue("skorch_faceoff", faceoff and "Face-off: in" or "Face-off: out")
end

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Where players put cards, by name (`deckpress test`'s scenarios): the discard pile and the burned cards
-- once dealt, where the deck is gathered ("draw"), and every seat's prison slots ("front 1 of White" to
-- "back 5 of White").
function M.places()
  local home = Api.data().layout.home
  local out = {draw = {x = home[1], y = home[2], z = home[3], radius = M.PILE_RADIUS}}
  if pile_at ~= nil then
    out.pile = {x = pile_at[1], y = pile_at[2], z = pile_at[3], radius = M.PILE_RADIUS}
    out.burned = {x = pile_at[1], y = pile_at[2], z = pile_at[3] + M.BURNED_DZ, radius = M.PILE_RADIUS}
  end
  for _, color in ipairs(Api.data().seats) do
    for _, row in ipairs(SkorchEngine.ROWS) do
      for slot = 1, #rules()[row] do
        local p = M.prison_place(color, row, slot, false)
        out[row .. " " .. slot .. " of " .. color] = {x = p[1], y = p[2], z = p[3], radius = M.SLOT_STEP / 2}
      end
    end
  end
  return out
end

-- Saved with the game (lib.saved): the Face-off toggle, the engine's state and where the discard pile lies;
-- a reloaded table goes on where it was.
function M.save()
  return referee.save({faceoff = faceoff, pile_at = pile_at})
end

function M.load(text)
  local saved = referee.load(text)
  pile_at = type(saved.pile_at) == "table" and saved.pile_at or nil
  M.set_faceoff(saved.faceoff == true)
end

-- --- XmlUI handlers (tts/skorch/ui.xml.j2) ------------------------------------------------------------

Turns.buttons({
  {"uiSkorchDeal", "Deal", M.deal},
  {"uiSkorchPlay", "Play", M.play},
  {"uiSkorchPickUp", "Pick up", M.pick_up},
  {"uiSkorchFaceoff", "Face-off", function(color)
    M.set_faceoff(not faceoff)
    Table.say(color .. (faceoff and " shuffles the Face-off card in at the next Deal" or " leaves the Face-off card out"))
  end, true},
})

return M
