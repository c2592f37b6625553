"""`image`: an image file, contained in, covering or stretched over its box."""

from __future__ import annotations

from pathlib import Path

from PIL import Image

from .. import svg
from ..draw import composite, edge, load_image, smooth
from ..expr import render_text
from ..fonts import truetype
from ..options import Invalid
from ..paths import OutsideProject, confine, project_root
from .base import Element, Painter
from .groups import ImageOptions


class ImagePainter(Painter):
    def draw(self, draw, layer, box) -> None:
        rel = render_text(self.e.src or "", self.ctx)
        deck = self.r.deck
        try:
            file = confine(deck.root / rel, deck.path)
        except OutsideProject:
            raise Invalid(f"image {rel!r} leads outside the project; keep images inside "
                          f"{project_root(deck.path)}") from None
        if rel and file.exists() and not file.is_file():  # placeholder or not: there is no art to wait for
            what = "a folder" if file.is_dir() else "no regular file"
            raise Invalid(f"image {rel!r} is {what}, not an image file; name the image file in `src`")
        if not rel or not file.is_file():
            if self.e.placeholder and rel:
                self.r.images_missing.add(file)
                self.r.warnings.append(f"image {rel!r} does not exist yet; drew a placeholder")
                self.draw_placeholder(draw, layer, box, rel)
                return
            raise Invalid(f"image {rel!r} not found (looked in {file.parent}); add the file, fix `src`, or "
                          "set `placeholder: true` while the art is not done")
        self.r.images_read.add(file)
        x0, y0, x1, y1 = (edge(v) for v in self.px(box))
        width, height = max(1, x1 - x0), max(1, y1 - y0)
        colour = self.color(self.e.color)
        if svg.is_svg(file):  # drawn at the box's size, as `fit` says
            img = svg.load_svg(file, (width, height), self.e.fit, colour, f"SVG {rel!r}")
        else:
            img = self.fitted(load_image(file, rel), width, height)
            if colour is not None:
                img = svg.recolour(img, colour, f"image {rel!r}")
        composite(layer, img, x0 + (width - img.width) // 2, y0 + (height - img.height) // 2)

    def fitted(self, img: Image.Image, width: int, height: int) -> Image.Image:
        """A bitmap resized once into a box of `width` x `height` pixels as `fit` says."""
        if self.e.fit == "stretch":
            return img.resize((width, height), Image.LANCZOS)
        if self.e.fit == "cover":
            scale = max(width / img.width, height / img.height)
            img = img.resize((max(width, round(img.width * scale)), max(height, round(img.height * scale))),
                             Image.LANCZOS)
            left, top = (img.width - width) // 2, (img.height - height) // 2
            return img.crop((left, top, left + width, top + height))
        scale = min(width / img.width, height / img.height)
        return img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))), Image.LANCZOS)

    def draw_placeholder(self, draw, layer, box, rel: str) -> None:
        x0, y0, x1, y1 = self.px(box)
        left, top, right, bottom = (edge(v) for v in (x0, y0, x1, y1))
        if right > left and bottom > top:
            draw.rectangle((left, top, right - 1, bottom - 1), fill=(200, 200, 200), outline=(120, 120, 120),
                           width=max(1, round(0.4 * self.scale)))
        smooth(layer, "line", (x0, y0, x1, y1), None, (150, 150, 150), 0.3 * self.scale)
        smooth(layer, "line", (x0, y1, x1, y0), None, (150, 150, 150), 0.3 * self.scale)
        label = Path(rel).name
        font = truetype(str(self.r.deck.fonts["sans"]), self.pt_to_px(7))
        while font.size > 4 and font.getlength(label) > (x1 - x0) * 0.9:
            font = truetype(str(self.r.deck.fonts["sans"]), font.size - 2)
        draw.text(((x0 + x1) / 2, (y0 + y1) / 2), label, font=font, fill=(60, 60, 60), anchor="mm")



class ImageElement(ImageOptions, Element):
    """An image file, relative to the deck file, inside the project."""

    TYPE, DRAWS, painter = "image", "an image file", ImagePainter
