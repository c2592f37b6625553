-- ${game_name}'s table script: what Tabletop Simulator runs for the game (deckpress loads it as GAME when
-- the deck says `script: ${deck}`). The rules are not here: engine.lua decides every move; this file only
-- reads what a player did on the table, asks the engine, and moves the cards as the engine's new state
-- says. lib.turns (deckpress's runtime library) does what every table does: the guard, the refusal said
-- and the cards put back, the events said, the turn line, save and load.
--
-- TTS is asynchronous: a card taken out of a deck or dealt arrives frames later, and a deck left with one
-- card is gone. Move cards with lib.table (take, deal, join) and call finish() only once they have
-- arrived: the buttons stay refused until then. `deckpress test` plays the scenarios of tests/ against a
-- fake of TTS that is at least as strict, with moves arriving a frame and 20 frames late.
local Engine = use("${deck}.engine")
local Api, Setup, Table, Turns = use("lib.api"), use("lib.setup"), use("lib.table"), use("lib.turns")
local Util = use("lib.util")

local M = {}

M.get_ready = false   -- no generic Get ready! button: "New game" deals
M.PILE_DX = 3.0       -- the pile lies this far right (+x) of the draw pile (where the deck is gathered)
M.PILE_RADIUS = 1.5   -- a card this close to the pile's middle lies on the pile
M.HAND_STEP = 1.2     -- between two cards laid into a hand

-- The turn line: whose turn it is, what to beat and the draw pile, or who won.
local function turn_line(state)
  if state.over then return table.concat(state.winners, " and ") .. (#state.winners > 1 and " win" or " wins") end
  local top = state.pile[#state.pile]
  return state.turn .. "'s turn: " .. ((top and top.value > 0) and ("beat " .. top.value) or "any card")
    .. " (" .. #state.draw .. " to draw)"
end

local referee = Turns.referee(Engine, {turn_id = "game_turn", idle = "New game to start", line = turn_line,
                                       first = "New game first: the table referees a game it dealt"})
M.state, M.show_turn = referee.state, referee.show_turn

local function pile_spot()
  local home = Api.data().layout.home
  return {home[1] + M.PILE_DX, home[2], home[3]}
end

-- Move the card `guid` (loose, or in the deck) to `position`, face up and upright to `color` (the
-- pile's reader when nil); j counts the moves that take frames.
local function move_card(guid, position, color, j)
  local rotation = {0, color and Table.upright(color) or 180, 0}
  local holder = Table.holder_of(guid, Table.tagged(Api.data().main))
  if holder ~= nil then Table.move_card(holder, guid, position, rotation, j) end
end

-- Lay `color`'s hand out as the engine holds it; j counts the moves that take frames.
local function lay_hand(state, color, j)
  local hand = state.hands[color]
  for k, card in ipairs(hand) do
    move_card(card.id, (Table.hand_place(color, k, #hand, M.HAND_STEP)), color, j)
  end
end

-- "New game": gather and shuffle the deck, let the engine deal the seated players, and deal their cards
-- into their hands; the rest stays face down as the draw pile. finish() once every card is there.
function M.new_game(color, finish)
  Api.gather_main_deck(function(deck, problem)
    if deck == nil then Table.warn(problem) return finish() end
    deck.shuffle()
    local cards, add = Util.appender()  -- (TTS's #t costs time: appender counts for us)
    for _, entry in ipairs(deck.getObjects()) do  -- top card first; a card's id is its GUID at the table
      add({id = entry.guid, value = Setup.field(entry.gm_notes, "value")})
    end
    local state, refusal = Engine.setup(Api.data(), Api.seated(), {cards = cards})
    if state == nil then Table.warn("New game: " .. Turns.refusal_text(refusal)) return finish() end
    referee.start(state)
    for _, seat in ipairs(state.seats) do Api.set_score(seat, 0) end
    Table.say(color .. " dealt a new game: beat the top card of the pile, or draw.")
    local j = Table.join(finish)
    for _, seat in ipairs(state.seats) do lay_hand(state, seat, j) end
    j.start()
  end)
end

-- "Play": the card `color` put on the pile, checked by the engine; refused, it goes back into the hand.
function M.play(color, finish)
  local moved = nil  -- the card the player put on the pile
  referee.move(color, finish, {
    read = function(state)
      local on_pile = {}
      for _, card in ipairs(state.pile) do on_pile[card.id] = true end
      local new, add = Util.appender()
      for _, obj in ipairs(Table.tagged(Api.data().main)) do
        local p, spot = obj.getPosition(), pile_spot()
        local near = (p.x - spot[1]) * (p.x - spot[1]) + (p.z - spot[3]) * (p.z - spot[3]) <= M.PILE_RADIUS ^ 2
        if near and obj.type == "Card" and not on_pile[obj.getGUID()] then add(obj.getGUID()) end
      end
      if #new ~= 1 then return nil, "put one card of your hand on the pile, then press Play" end
      moved = new[1]
      return {play = moved}
    end,
    put_back = function(state, done)  -- the card back into the hand it came from, if it came from one
      if moved == nil then return done() end
      local j = Table.join(done)
      for _, seat in ipairs(state.seats) do lay_hand(state, seat, j) end
      j.start()
      return true
    end,
    carry_out = function(_, after, events, done)
      local j = Table.join(done)
      move_card(moved, pile_spot(), nil, j)  -- squared up on the pile
      if events[1].what == "played" then Api.set_score(color, after.coins[color]) end  -- the score panel: coins
      j.start()
    end})
end

-- "Draw": the top card of the draw pile into `color`'s hand, when they cannot play.
function M.draw(color, finish)
  referee.move(color, finish, {
    read = function() return {draw = true} end,
    carry_out = function(_, after, events, done)
      local j = Table.join(done)
      if events[1].what == "drew" then lay_hand(after, color, j) end
      j.start()
    end})
end

-- --- Hooks for deckpress's Global script: the engine's state is saved with the game ------------------

-- Where players put cards, by name, for `deckpress test`'s scenarios (put: {card: ..., on: pile}; expect:
-- {on: {pile: 1}}): each place and how far from it its cards lie.
function M.places()
  local home = Api.data().layout.home
  return {pile = {x = home[1] + M.PILE_DX, y = home[2], z = home[3], radius = M.PILE_RADIUS},
          draw = {x = home[1], y = home[2], z = home[3], radius = M.PILE_RADIUS}}
end

function M.save()
  return referee.save()
end

function M.load(text)
  referee.load(text)
end

-- --- The buttons of ui.xml.j2: each runs as a flow (pressed again while its cards move, it waits) -------

Turns.buttons({
  {"uiGameNewGame", "New game", M.new_game},
  {"uiGamePlay", "Play", M.play},
  {"uiGameDraw", "Draw", M.draw},
})

return M
