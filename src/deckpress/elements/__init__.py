"""The element types of a template, one module each: its record (the options it takes, built from the
groups in base.py) and its painter. Importing this package registers every type in `Element.TYPES`."""

from ..options import Choice
from .base import Element, ElementOption, ImageOptions, Painter, PaintOptions, TextOptions
from .rect import RectElement
from .ellipse import EllipseElement
from .line import LineElement
from .text import TextElement
from .icon import IconElement
from .image import ImageElement

Element.OPTIONS["type"] = Choice("What to draw: one of the element types.", list(Element.TYPES))
GROUPS = [Element, PaintOptions, TextOptions, ImageOptions]
RECORDS = list(Element.TYPES.values())

__all__ = ["GROUPS", "RECORDS", "Element", "ElementOption", "EllipseElement", "IconElement", "ImageElement",
           "ImageOptions", "LineElement", "PaintOptions", "Painter", "RectElement", "TextElement", "TextOptions"]
