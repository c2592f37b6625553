"""The tiny project the bad-input corpus breaks: one deck of two cards, a front and a back template, a
token set, rules, a mode and a print profile of its own. Each file is small enough to read at a glance;
the cases in tests/bad_input/cases.py edit one of them."""

DECK = """\
game:
  name: Tiny
  version: "1.0"
  players: {min: 2, max: 4}
  author: Tester
card_size: mini
bleed: 2
components:
  - id: deck
    name: Deck
    template: tiny-card
    back: tiny-back
    fields:
      value: {type: integer, doc: The value., default: 0}
      power: {type: number, doc: The power., default: 1.5}
    cards:
      - name: One
        value: 1
        count: 2
      - name: Two
        value: 2
  - id: chips
    name: Chips
    type: tokens
    template: tiny-token
    size: {width: 20, height: 20}
    shape: circle
    token: {thickness: 0.2}
    cards:
      - name: Chip
        count: 3
rules:
  - heading: Play
    body:
      - Play a card.
      - list: [Draw one, Play one]
modes:
  - id: basic
    name: Basic
    options: {target: 10}
setup:
  deal: {2: 1, 4: 0}
  options: {hand: 3}
print:
  profiles: [tiny]
"""

CARD = """\
description: The front of a tiny card.
styles:
  default: {ink: "#202020"}
style_by: "{{ 'default' }}"
elements:
  - {type: rect, name: background, box: bleed, fill: "#ffffff"}
  - type: text
    name: title
    text: "{{ card.name }}"
    x: 5
    y: 5
    w: 30
    h: 10
    size: 10
    color: "{{ style.ink }}"
"""

BACK = """\
elements:
  - {type: rect, name: background, box: bleed, fill: "#204080"}
"""

TOKEN = """\
elements:
  - {type: ellipse, name: disc, box: trim, fill: "#c04040"}
"""

PROFILE = """\
description: A4, double-sided, for the tiny deck.
page: a4
layout: duplex
margin: 5
back_offset: [0, 0]
"""

FILES = {
    "decks/tiny.yaml": DECK,
    "templates/tiny-card.yaml": CARD,
    "templates/tiny-back.yaml": BACK,
    "templates/tiny-token.yaml": TOKEN,
    "print/tiny.yaml": PROFILE,
}
