"""Card sizes and the back pages' largest shift: what the command line offers before any deck is read
(schema.py, which validates decks, takes them from here)."""

# Card sizes in millimetres (trim), width x height: the first five from the print notes, the European
# board-game sizes (Euro, mini Euro, Japanese) as the print shops sell them, the business cards' as printed in the
# US (3.5 x 2 in) and Europe (85 x 55 mm), stood upright like the others.
CARD_SIZES: dict[str, tuple[float, float]] = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "tarot": (69.85, 120.65),
    "mini": (44.45, 63.5),
    "square": (63.5, 63.5),
    "euro": (59.0, 92.0),
    "mini-euro": (44.0, 68.0),
    "japanese": (59.0, 86.0),
    "business": (50.8, 88.9),
    "business-eu": (55.0, 85.0),
}

MAX_BACK_OFFSET = 20  # mm a print profile or --back-offset may shift the back pages, either way
