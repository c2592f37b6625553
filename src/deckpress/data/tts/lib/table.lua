-- TTS-facing helpers shared by the Global script and the games' table scripts. Like every file named
-- table.lua, this one talks to the table; the decisions stay in the pure modules.
local M = {}

function M.say(message)
  broadcastToAll(message, {1, 1, 1})
end

function M.warn(message)
  broadcastToAll(message, {1, 0.4, 0.3})
end

-- Move the card `guid` out of `deck` to `position` and `rotation`. Once taking the card before it
-- turned the deck into its last card (TTS's `remainder`), that card is moved instead.
function M.take(deck, guid, position, rotation)
  local rest = deck.remainder
  if rest ~= nil and rest.getGUID() == guid then
    rest.setPosition(position)
    rest.setRotation(rotation)
    return rest
  end
  return deck.takeObject({guid = guid, position = position, rotation = rotation, smooth = false})
end

-- The y rotation at which a card reads upright to the holder of `color`'s hand.
function M.upright(color)
  return (Player[color].getHandTransform().rotation.y + 180) % 360
end

-- Where card k of `count` goes when cards are laid left to right into `color`'s hand, `step` apart,
-- and the rotation that shows it upright to that player.
function M.hand_place(color, k, count, step)
  local hand = Player[color].getHandTransform()
  local x = (k - (count + 1) / 2) * step
  return {hand.position.x + hand.right.x * x, hand.position.y, hand.position.z + hand.right.z * x},
         {0, M.upright(color), 0}
end

return M
