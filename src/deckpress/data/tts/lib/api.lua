-- deckpress's API for the games' table scripts (module lib.api), in the manner of argonui/SCED's
-- *Api.ttslua files: every function a table script (tts/<deck>/table.lua) may call on the Global
-- script, with its parameters. A table script goes through this module, never through the Global
-- script's own variables (DATA, scores) or functions (gatherMainDeck, refreshScores), so that those
-- can change without breaking a game.
--
--   local Api = use("lib.api")
--   local deal = Api.data().setup.deal     -- every game fact comes from the deck's YAML
--   Api.add_score("White", 3)
--
-- ---- The hook contract ---------------------------------------------------------------------------
-- The Global script loads tts/<deck>/table.lua, when the deck has one, as GAME = use("<deck>.table").
-- The table it returns may define these hooks; every one is optional:
--
--   GAME.load(text)         onLoad: `text` is what GAME.save() returned when the game was saved ("" on
--                           a new table). Called after the scores are restored.
--   GAME.save() -> text     onSave: the table script's own state, as a string (lib.saved writes a state
--                           of plain data as one, and reads it back); the Global script stores it after
--                           the scores and hands it back to load. A reloaded game goes on where it was.
--   GAME.seated()           onPlayerChangeColor: a player sat down, stood up or changed colour.
--   GAME.get_ready          function(color, finish): what the Get ready! button does, pressed by
--                           `color`; call finish() once everything it moved has arrived (the button is
--                           refused until then: lib.table.flow). `false`: the game's own controls
--                           replace the button, which is hidden. Absent: the generic Get ready!.
--   GAME.places() -> places `deckpress test`: where players put cards, by name ({pile = place, ...}; a
--                           seat's own as "<place> of <Colour>"), each place {x =, y =, z =} where it
--                           lies now, with `radius` (default 1.5): a card this close to it lies there
--                           (or `dx` and `dz`: an area, a card within dx along x and dz along z of it).
--                           A scenario's `put ... on: pile` lays cards there, `expect: on:` reads them.
--
-- The handlers of the game's own XmlUI controls (tts/<deck>/ui.xml.j2, included after the main panel)
-- are global functions the table script defines: handler(player, value, id), like every XmlUI
-- handler (docs/tts.md).
-- ---------------------------------------------------------------------------------------------------
local Setup = use("lib.setup")

local Api = {}

--- The deck's data as deckpress bundled it into the save (written by its Lua literal escaper): the
--- seats, setup (deal, remove, options), modes, components with each card's fields and GUIDs, layout.
---@return table DATA
function Api.data()
  return DATA
end

--- A place given on the full save's table, {x, y, z}, where it lies for this game: the same in the full
--- save, around the box when the game runs in its box (lib.box). DATA.layout's places and lib.seating's
--- are already there; a table script's own fixed places go through this.
---@param p number[] {x, y, z} on the full save's table
---@return number[] {x, y, z}
function Api.at(p)
  return use("lib.box").at(p)
end

--- The seated colours that have a hand zone at this table, in clockwise seat order (DATA.seats).
---@return string[] colours
function Api.seated()
  return Setup.order_seated(DATA.seats, getSeatedPlayers())
end

--- A seat's score as the score panel shows it (0 for a colour without a seat).
---@param color string a seat colour
---@return number
function Api.score(color)
  return use("lib.scores").get(scores, color)
end

--- Set a seat's score and show it on the panel.
---@param color string a seat colour
---@param value number the new score
---@return boolean false when the colour has no seat at this table
function Api.set_score(color, value)
  local ok = use("lib.scores").set(scores, color, value)
  refreshScores()
  return ok
end

--- Add `delta` to a seat's score and show it on the panel.
---@param color string a seat colour
---@param delta number points to add (negative to take away)
---@return boolean false when the colour has no seat at this table
function Api.add_score(color, delta)
  local ok = use("lib.scores").add(scores, color, delta)
  refreshScores()
  return ok
end

--- Every score back to 0, shown on the panel.
function Api.reset_scores()
  use("lib.scores").reset(scores)
  refreshScores()
end

--- Gather every card of the main component (decks and loose cards, on the table and in hands) into
--- one face-down deck where the save puts it. Asynchronous: `done(deck)` runs once the deck has formed
--- and holds them all; `done(nil, message)` when there is nothing to gather.
---@param done fun(deck: table|nil, problem: string|nil)
function Api.gather_main_deck(done)
  return gatherMainDeck(done)
end

return Api
