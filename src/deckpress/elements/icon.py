"""`icon`: one glyph (or a few) of a font, scaled to fill its box."""

from __future__ import annotations

from ..expr import render_text
from ..fonts import truetype
from .base import Element, Painter
from .groups import TextOptions
from .text import Glyphs, put


class IconPainter(Painter):
    def draw(self, draw, layer, box) -> None:
        glyph = render_text(self.e.text, self.ctx).strip()
        if not glyph:
            return
        path = self.font_path()
        self.check_glyphs(glyph, path)
        x0, y0, x1, y1 = self.px(box)
        probe = truetype(path, 400)
        left, top, right, bottom = probe.getbbox(glyph)
        fit = min((x1 - x0) / max(1, right - left), (y1 - y0) / max(1, bottom - top))
        font = truetype(path, max(1.0, 400 * fit))
        left, top, right, bottom = font.getbbox(glyph)
        x = (x0 + x1) / 2 - (left + right) / 2
        y = (y0 + y1) / 2 - (top + bottom) / 2
        put(self, draw, layer, box, [Glyphs(x, y, glyph, font, anchor="la")], [], None)


class IconElement(TextOptions, Element):
    """One glyph (the `text`, one character or a few), scaled, keeping its shape, to fill its box."""

    TYPE, DRAWS, painter = "icon", "one glyph, scaled to fill its box", IconPainter
