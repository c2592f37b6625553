"""The element types of a template, one module each: its record (the options it takes: `Element`'s and
those of the groups in groups.py it is built from) and its painter. Importing this package registers every
type in `Element.TYPES`."""

from ..options import Choice
from .base import Element, ElementOption, Painter, Shadow
from .groups import ImageOptions, PaintOptions, StrokeOptions, TextOptions
from .paint import Gradient
from .rect import RectElement
from .ellipse import EllipseElement
from .line import LineElement
from .text import TextElement
from .icon import IconElement
from .image import ImageElement
from .polygon import PolygonElement
from .star import StarElement
from .path import PathElement

Element.OPTIONS["type"] = Choice("What to draw: one of the element types.", list(Element.TYPES))
GROUPS = [Element, StrokeOptions, PaintOptions, TextOptions, ImageOptions]
RECORDS = list(Element.TYPES.values())

__all__ = ["GROUPS", "RECORDS", "Element", "ElementOption", "EllipseElement", "Gradient", "IconElement",
           "ImageElement", "ImageOptions", "LineElement", "PaintOptions", "Painter", "PathElement", "PolygonElement",
           "RectElement", "Shadow", "StarElement", "StrokeOptions", "TextElement", "TextOptions"]
