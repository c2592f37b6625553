-- Scoop's table script (module scoop.table, loaded by the Global script as GAME): the player mats and
-- the "New game", "Draw", "Place", "SCOOP", "SWITCH" and "Count" controls of tts/scoop/ui.xml.j2. A thin
-- TTS layer: scoop.piles says which pile a place belongs to, scoop.engine referees each turn and
-- scoop.scoring scores (docs/rules/scoop.md); this file reads the table and moves the cards.
local ScoopScoring = use("scoop.scoring")
local ScoopEngine = use("scoop.engine")
local Piles = use("scoop.piles")
local Api, Seating, Setup, Table, Turns = use("lib.api"), use("lib.seating"), use("lib.setup"), use("lib.table"),
  use("lib.turns")

local M = {}

M.get_ready = false  -- no generic Get ready! button: Scoop deals nothing: Count and New game replace it

-- The points "Count" added for the game being played ({color = points}), taken back if it counts again:
-- scores add up over the games (G-Scoop-5), and counting one game twice never adds it twice.
local counted = {}

M.DRAWN_D = 11.5     -- seat-local d of the card a player has drawn (in front of the mat)
M.PILE_STEP = 0.03   -- height between two cards of a pile

local say, warn = Table.say, Table.warn

-- The turn line: whose turn it is and how many cards are left, or that the game is over.
local function turn_line(game)
  if game.over then return "Game over: press Count" end
  return game.turn .. (game.drawn and " plays the card drawn" or ": Draw") .. " (" .. #game.deck .. " left)"
end

-- The referee of the turns (lib.turns over scoop.engine): the engine decides, this layer reads the
-- table and moves the cards.
local referee = Turns.referee(ScoopEngine, {turn_id = "scoop_turn", idle = "New game to start", line = turn_line,
                                            first = "New game first: the table referees a game it shuffled"})
M.state, M.show_turn = referee.state, referee.show_turn

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
  local counts = {}  -- of each pile's list (MoonSharp's #list costs time in its length)
  local radius = Api.data().layout.seat_radius
  for _, obj in ipairs(Table.by_guid(getObjects())) do
    local notes = {}
    if obj.type == "Card" then notes = {obj.getGMNotes()}
    elseif obj.type == "Deck" then
      for i, entry in ipairs(obj.getObjects()) do notes[i] = entry.gm_notes end
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
          counts[list] = (counts[list] or 0) + 1
          list[counts[list]] = card
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
    deck.setPosition(Api.at({0, 1.5, 0}))
    deck.shuffle()
    counted = {}
    local cards = {}
    for i, entry in ipairs(deck.getObjects()) do  -- top card first
      local card = Piles.card(entry.gm_notes, Api.data().main)
      cards[i] = {id = entry.guid, suit = card.suit, rank = card.rank,
                           value = Setup.field(entry.gm_notes, "value")}
    end
    local state, refusal = ScoopEngine.setup(Api.data(), Api.seated(), {cards = cards})
    if state == nil then warn("New game: " .. Turns.refusal_text(refusal) .. "; take seats and press New game again") end
    referee.start(state)
    say(color .. " shuffled the deck for a new game: take one card from the top each turn.")
    finish()
  end)
end

-- --- Refereeing the turns: the engine decides, this layer reads the table and moves the cards -------

local function facing(color)
  return {0, Seating.facing(Api.data(), color), 0}
end

local function drawn_place(color)
  return Seating.place(Api.data(), color, 0, M.DRAWN_D), facing(color)
end

-- Where card k of a pile {player = colour, pile} goes: on its area, k cards high, face up to its owner.
local function pile_place(ref, k)
  return Piles.place(Api.data().seats, Api.data().layout.seat_radius, ref.player, ref.pile, 1.0 + k * M.PILE_STEP),
         facing(ref.player)
end

-- The card `guid`'s object: loose, or the deck of the main component holding it.
local function holder_of(guid)
  return Table.holder_of(guid, Table.tagged(Api.data().main))
end

-- holder_of for many cards at once, each deck read once. (Moving cards meanwhile is safe: the last card
-- of a deck emptied by a take is a loose card at once, which the finder asks TTS for first.)
local function holders()
  return Table.holders(Table.tagged(Api.data().main))
end

-- Move card `guid` (loose, or in a deck: holder_of is a holders() finder) to position, rotation; j counts
-- the moves that take frames.
local function move_card(guid, position, rotation, j, holder_of)
  local holder = holder_of(guid)
  if holder ~= nil then Table.move_card(holder, guid, position, rotation, j) end
end

-- The pile {player = colour, pile} of the game whose area the card `guid` lies on, or nil (holder_of: a
-- holders() finder).
local function lies_on(game, guid, holder_of)
  local holder = holder_of(guid)
  if holder == nil then return nil end
  local p = holder.getPosition()
  local color, pile = Piles.pile_at(Api.data().seats, Api.data().layout.seat_radius, p.x, p.z)
  if color == nil or game.players[color] == nil then return nil end
  return {player = color, pile = pile}
end

local function same(a, b)
  return a ~= nil and b ~= nil and a.player == b.player and a.pile == b.pile
end

-- Every card of the piles in `state`: {id = {ref, k}}.
local function pile_cards(state)
  local out = {}
  for _, seat in ipairs(state.seats) do
    for _, pile in ipairs(state.rules.piles) do
      for i, c in ipairs(state.players[seat][pile]) do out[c.id] = {ref = {player = seat, pile = pile}, k = i} end
    end
  end
  return out
end

-- Lay every card whose place changed from `before` to `after` where it now belongs (the card drawn in
-- front of its player); done() once there.
local function lay_out(before, after, done)
  local j, find = Table.join(done), holders()
  if after.drawn and not before.drawn then
    local position, rotation = drawn_place(after.turn)
    move_card(after.drawn.id, position, rotation, j, find)
  end
  local was = pile_cards(before)
  for id, now in pairs(pile_cards(after)) do
    local old = was[id]
    if old == nil or not same(old.ref, now.ref) or old.k ~= now.k then
      local position, rotation = pile_place(now.ref, now.k)
      move_card(id, position, rotation, j, find)
    end
  end
  j.start()
end

local function carry_out(before, after, events, done)
  if after.over then say("The deck is used up: press Count to score the game.") end
  lay_out(before, after, done)
end

-- "Draw": the top card of the deck, face up in front of the player whose turn it is.
function M.draw(color, finish)
  referee.move(color, finish, {
    read = function(game)
      if not game.drawn and game.deck[1] ~= nil and holder_of(game.deck[1].id) == nil then
        return nil, "the deck is not on the table"
      end
      return {draw = true}
    end,
    carry_out = carry_out})
end

-- What `color`, whose turn it is, did with the drawn card (`kind`: "place", "scoop" or "switch"), read
-- off the table: the move, or nil and the refusal; `moved` gets the pile cards moved onto another pile (the scooped
-- cards, or the SWITCH's mark).
local function read_act(game, color, kind, moved)
  local find = holders()
  local on = lies_on(game, game.drawn.id, find)
  local from, moved_count = nil, #moved
  for id, at in pairs(pile_cards(game)) do
    if not same(lies_on(game, id, find), at.ref) then
      moved_count = moved_count + 1
      moved[moved_count] = id
      if from ~= nil and not same(from, at.ref) then from = false elseif from == nil then from = at.ref end
    end
  end
  table.sort(moved)
  local function refuse(clause, rule, text) return nil, {clause = clause, rule = rule, text = text} end
  if on == nil then return refuse(15, "placing", "put the card you drew on a pile first") end
  if kind == "place" then
    if on.player ~= color then return refuse(15, "placing", "put it on one of your own piles") end
    if #moved > 0 then return refuse(15, "placing", "only the card you drew moves") end
    return {place = on.pile}
  elseif kind == "scoop" then
    if #moved == 0 then return refuse(16, "SCOOP", "put the cards you scoop on the card you drew") end
    if from == false then return refuse(17, "SCOOP more", "scoop the cards of one pile") end
    local list, top, places = game.players[from.player][from.pile], true, pile_cards(game)
    for _, id in ipairs(moved) do  -- the block scooped lies together on top of its pile
      top = top and places[id].k > #list - #moved
    end
    if not top then return refuse(17, "SCOOP more", "scoop the top cards of a pile, together") end
    return {scoop = {from = from, to = on, count = #moved}}
  end
  local with = from
  if #moved == 0 then
    local candidates, found = {}, 0
    for _, seat in ipairs(game.seats) do
      for _, pile in ipairs(game.rules.piles) do
        local ref, list = {player = seat, pile = pile}, game.players[seat][pile]
        if not same(ref, on) and #list > 0 and list[#list].value == game.drawn.value then
          found = found + 1
          candidates[found] = ref
        end
      end
    end
    with = candidates[1]
    if #candidates > 1 then
      return refuse(18, "SWITCH", "several piles show a " .. game.drawn.rank
        .. "; put the top card of the one you switch with on your card too")
    end
    if with == nil then with = {player = on.player, pile = on.pile == "go" and "game" or "go"} end
  end
  if on.player ~= color then return refuse(18, "SWITCH", "put the card you drew on one of your own piles") end
  if from == false or #moved > 1 then return refuse(18, "SWITCH", "mark one pile to switch with") end
  return {switch = {own = on.pile, with = with}}
end

-- Place, SCOOP or SWITCH (`kind`): read what `color` did with the drawn card, let the engine check it,
-- and carry it out, or put the cards back with the rule's message.
function M.act(color, kind, finish)
  local moved, read = {}, false
  referee.move(color, finish, {
    read = function(game)
      if game.over or game.turn ~= color or not game.drawn then  -- the engine says what is wrong
        return nil, select(2, ScoopEngine.check(game, color, {place = "go"}))
      end
      read = true
      return read_act(game, color, kind, moved)
    end,
    put_back = function(game, done)  -- the drawn card, and any pile card moved off its pile
      if not read then return done() end
      local j, find = Table.join(done), holders()
      if game.drawn then
        local position, rotation = drawn_place(game.turn)
        move_card(game.drawn.id, position, rotation, j, find)
      end
      local places = pile_cards(game)
      for _, id in ipairs(moved) do
        local position, rotation = pile_place(places[id].ref, places[id].k)
        move_card(id, position, rotation, j, find)
      end
      j.start()
      return true
    end,
    carry_out = carry_out})
end

-- --- Hooks for the Global script ------------------------------------------------------------------

-- Where players put cards, by name (`deckpress test`'s scenarios): the deck's place in the middle, and each
-- seat's "go pile of White", "game pile of White" (on its mat) and "drawn card of White" (in front of it).
function M.places()
  local data = Api.data()
  local deck = Api.at({0, 1.5, 0})
  local out = {deck = {x = deck[1], y = deck[2], z = deck[3]}}
  for _, color in ipairs(data.seats) do
    for _, pile in ipairs({"go", "game"}) do
      local p = Piles.place(data.seats, data.layout.seat_radius, color, pile, 1.0)
      out[pile .. " pile of " .. color] = {x = p[1], y = p[2], z = p[3], radius = 2.5}
    end
    local drawn = drawn_place(color)
    out["drawn card of " .. color] = {x = drawn[1], y = drawn[2], z = drawn[3]}
  end
  return out
end

-- Saved with the game (lib.saved): what Count added, the engine's state and its players' colours; a
-- reloaded table goes on where it was. The mats are laid once, when the game is first loaded (no state).
function M.save()
  return referee.save({counted = counted})
end

function M.load(text)
  if text == nil or text == "" then M.lay_mats() end  -- a new game, not a reloaded one
  local saved = referee.load(text)
  counted = type(saved.counted) == "table" and saved.counted or {}
end

-- --- XmlUI handlers (tts/scoop/ui.xml.j2) -------------------------------------------------------------

Turns.buttons({
  {"uiScoopNewGame", "New game", M.new_game},
  {"uiScoopDraw", "Draw", M.draw},
  {"uiScoopPlace", "Place", function(color, finish) M.act(color, "place", finish) end},
  {"uiScoopScoop", "SCOOP", function(color, finish) M.act(color, "scoop", finish) end},
  {"uiScoopSwitch", "SWITCH", function(color, finish) M.act(color, "switch", finish) end},
  {"uiScoopCount", "Count", function() M.count() end, true},
})

return M
