"""The groups of options element types share: paint (fill and outline), text (letters, font, colour)
and image (a file and how it fills its box). An element type's record is `Element` and the groups it
takes (elements/rect.py: `class RectElement(PaintOptions, Element)`)."""

from __future__ import annotations

from ..options import Bool, Choice, Record, Str
from .base import EXPR, Expr
from .paint import Dash, Fill


class StrokeOptions(Record):
    """The outline of a shape, or a line."""

    stroke = Str("Outline colour." + EXPR, default=None)
    stroke_width = Expr("Outline width in mm." + EXPR, default=0.5)
    dash = Dash("Dash pattern of the outline: lengths in mm of dash, gap, dash, gap..., e.g. [2, 1].",
                default=None)


class PaintOptions(StrokeOptions):
    """The fill and the outline of a shape."""

    fill = Fill("Fill colour `#rrggbb` or `#rrggbbaa`, or a gradient (see Gradient)." + EXPR, default=None)


JOIN = Choice("How the outline turns at corners: `miter` (sharp), `round` or `bevel` (cut off).",
              ["miter", "round", "bevel"], default="miter")  # an option of the shapes with corners


class TextOptions(Record):
    """The letters of a text or an icon: what, in which font and colour."""

    text = Str("The text (text) or glyph (icon)." + EXPR, default="")
    font = Str("Font name: sans, sans-bold, sans-oblique, serif, serif-bold, serif-italic, mono, "
               "mono-bold, one the deck adds, or an installed font by its family name (`Open Sans`).",
               default="sans")
    color = Fill("Text colour, or a gradient (see Gradient)." + EXPR, default="#000000")
    outline = Str("Colour of an outline around the letters, for text over art." + EXPR, default=None)
    outline_width = Expr("Width of the outline in mm." + EXPR, default=0.3)
    safe = Bool("Keep it inside the safe zone: the build fails when its box reaches outside. `false` for a "
                "decorative text or icon that may be cut.", default=True)


class ImageOptions(Record):
    """An image file and how it fills its box."""

    src = Str("Image file (PNG, JPEG, SVG...), relative to the deck file; it may be anywhere inside the project."
              + EXPR, default=None)
    fit = Choice("How an image fills its box: `contain` shows all of it, centred; `cover` fills the box and "
                 "crops what overflows; `stretch` fills the box and distorts.",
                 ["contain", "cover", "stretch"], default="contain")
    color = Str("Paint a one-colour image (an SVG icon, say) in this colour `#rrggbb` or `#rrggbbaa`; default: "
                "its own colours." + EXPR, default=None)
    placeholder = Bool("When the image file does not exist yet, draw a grey box labelled with its name and "
                       "warn, instead of failing the build.", default=False)
