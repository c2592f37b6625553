"""SVG art drawn by resvg at the size it is painted, bounded and sandboxed.

resvg (through resvg-py) does all the drawing; this module only decides what it may be given:
- nothing outside the SVG: an `href` (of `<image>` or `<feImage>`, the only elements resvg loads a file
  for) must point inside the document (`#id`) or hold its data (`data:`); anything else, a path, a
  `file:` or `http:` URL, fails before resvg sees the SVG, so no file is read and no URL fetched;
  resvg itself never fetches URLs, never follows a CSS `@import`, loads no system font (only
  deckpress's DejaVu fonts, for SVG `<text>`: the same pixels on every machine), and an SVG embedded
  in an SVG may load nothing at all;
- a bounded amount: the file's (and an embedded SVG's) size, its elements and their nesting are
  counted as it is read, an embedded bitmap is held to the pixels a template's image may have, and
  resvg runs on a thread with a stack deep enough for the nesting it accepts (past that it stops with
  "nodes limit reached"); the drawn image is never larger than its box.
An SVG is drawn once per file, size, fit and colour in a process: faces that paint it again take a copy.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import tempfile
import threading
import warnings
import zlib
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote_to_bytes

from PIL import Image

from .draw import MAX_IMAGE_PIXELS as MAX_PIXELS  # of a drawn SVG and of a bitmap embedded in one
from .fonts import builtin_fonts
from .options import Invalid

MAX_SVG_BYTES = 5_000_000  # of an SVG file (or an embedded one), unzipped: far more than icons or card art need
MAX_SVG_ELEMENTS = 100_000
MAX_SVG_DEPTH = 256  # elements inside elements
STACK_BYTES = 128 << 20  # resvg's thread: resvg recurses once per level of the tree it builds
PROBE_PX = 256  # the box an SVG is drawn in first to learn its shape, for `cover`, `stretch` and icons
CACHE_PIXELS = 16_000_000  # of drawn SVGs kept for the next face (64 MB)
SUFFIXES = (".svg", ".svgz")
_GZIP = b"\x1f\x8b"


def is_svg(path: str | Path) -> bool:
    return Path(path).suffix.lower() in SUFFIXES


def checked(data: bytes, name: str) -> str:
    """The SVG text of `data` (an SVG file's bytes, gzipped or not) once it is within bounds and refers
    to nothing outside itself; Invalid with what is wrong and what to do."""
    return _check(data, name, embedded=False)


def _check(data: bytes, name: str, embedded: bool) -> str:
    from xml.etree.ElementTree import ParseError, XMLPullParser  # only when a deck draws SVG

    what = f"the SVG embedded in {name}" if embedded else name
    if data[:2] == _GZIP:
        data = _gunzip(data, what)
    if len(data) > MAX_SVG_BYTES:
        raise Invalid(f"{what} is {len(data)} bytes, more than the {MAX_SVG_BYTES} an SVG may have; "
                      "simplify it or export it as PNG")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise Invalid(f"{what} is not UTF-8 text; save it as UTF-8 SVG") from None
    parser = XMLPullParser(events=("start", "end"))
    depth = elements = 0
    try:
        for at in range(0, len(text) + 1, 1 << 16):  # read in pieces: a bomb stops at its first pieces
            parser.feed(text[at:at + (1 << 16)])
            for event, element in parser.read_events():
                if event == "end":
                    depth -= 1
                    element.clear()
                    continue
                depth += 1
                elements += 1
                if elements == 1 and _local(element.tag) != "svg":
                    raise Invalid(f"{what} is not an SVG (its root is <{_local(element.tag)}>, not <svg>); "
                                  "give an SVG file")
                if depth > MAX_SVG_DEPTH or elements > MAX_SVG_ELEMENTS:
                    raise Invalid(f"{what} has more than {MAX_SVG_ELEMENTS} elements or nests them more than "
                                  f"{MAX_SVG_DEPTH} deep; simplify it or export it as PNG")
                for key, value in element.attrib.items():
                    if _local(key) == "href":
                        _check_href(value.strip(), _local(element.tag), what)
        parser.close()
    except ParseError as err:
        line, column = err.position
        raise Invalid(f"{what} is not well-formed XML (line {line}, column {column + 1}: "
                      f"{str(err).split(':')[0]}); fix it or export it again") from None
    if elements == 0:
        raise Invalid(f"{what} is empty; give an SVG file")
    return text


def _local(name: str) -> str:
    """A tag or attribute name without its namespace."""
    return name.rsplit("}", 1)[-1]


def _check_href(href: str, tag: str, what: str) -> None:
    if href.startswith("#"):
        return
    if not href.lower().startswith("data:"):
        raise Invalid(f"{what} refers to {href[:60]!r} (in <{tag}>), outside itself; deckpress reads nothing "
                      "an SVG refers to: embed the image in the SVG (Inkscape: Extensions > Images > Embed "
                      "Images) or draw it as an image element of its own")
    header, _, payload = href.partition(",")
    try:
        data = base64.b64decode(payload, validate=False) if header.lower().endswith(";base64") \
            else unquote_to_bytes(payload)
    except ValueError:
        raise Invalid(f"{what} embeds an image in <{tag}> whose data is not base64; embed it again") from None
    if data[:2] == _GZIP:
        data = _gunzip(data, what)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as bitmap:
                width, height = bitmap.size
    except Image.DecompressionBombError:
        raise Invalid(f"{what} embeds a bitmap with more pixels than Pillow will open; scale it down") from None
    except (OSError, ValueError, SyntaxError, EOFError):  # not a bitmap Pillow reads: resvg takes it as SVG
        _check(data, what, embedded=True)
        return
    if width * height > MAX_PIXELS:
        raise Invalid(f"{what} embeds a bitmap of {width} x {height} pixels, more than the {MAX_PIXELS} an image "
                      "may have; scale it down")


def _gunzip(data: bytes, what: str) -> bytes:
    """Gzipped SVG (.svgz) unzipped, no further than MAX_SVG_BYTES + 1."""
    inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = inflate.decompress(data, MAX_SVG_BYTES + 1)
    except zlib.error:
        raise Invalid(f"{what} is a damaged gzip (.svgz) file; save it again") from None
    if len(out) > MAX_SVG_BYTES:
        raise Invalid(f"{what} unzips to more than the {MAX_SVG_BYTES} bytes an SVG may have; simplify it or "
                      "export it as PNG")
    return out


def _resvg(text: str, **size: int) -> Image.Image:
    """The SVG drawn by resvg to fit `width` and/or `height` pixels, keeping its shape, as RGBA; on a
    thread of its own with a deep stack."""
    import resvg_py  # only when a deck draws SVG

    fonts = builtin_fonts()
    result: dict = {}

    def draw() -> None:
        try:
            result["png"] = resvg_py.svg_to_bytes(
                svg_string=text, skip_system_fonts=True, font_files=[str(p) for p in fonts.values()],
                font_family="DejaVu Sans", sans_serif_family="DejaVu Sans", serif_family="DejaVu Serif",
                monospace_family="DejaVu Sans Mono", cursive_family="DejaVu Sans", fantasy_family="DejaVu Sans",
                **size)
        except ValueError as err:
            result["error"] = err

    previous = threading.stack_size(STACK_BYTES)
    try:
        thread = threading.Thread(target=draw, name="resvg")
        thread.start()
    finally:
        threading.stack_size(previous)
    thread.join()
    if "error" in result:
        raise Invalid(f"resvg cannot draw it ({result['error']}); fix the SVG or export it as PNG")
    image = Image.open(io.BytesIO(result["png"]))
    return image.convert("RGBA")


def draw(text: str, size: tuple[int, int], fit: str, name: str) -> Image.Image:
    """The checked SVG `text` drawn into a box of `size` pixels as an image element's `fit` says:
    `contain` (all of it, keeping its shape: the image may be smaller than the box across or down),
    `cover` (filling the box, its middle kept) or `stretch` (filling the box, distorted). Every pixel is
    drawn by resvg at its final size, but for `stretch`, which draws the SVG as `cover` would and shrinks
    it along one axis."""
    width, height = size
    if width * height > MAX_PIXELS:
        raise Invalid(f"{name} would be drawn {width} x {height} pixels, more than the {MAX_PIXELS} an image may "
                      "have; make its box smaller")
    if fit == "contain":
        return _resvg(text, width=width, height=height)
    probe = _resvg(text, width=PROBE_PX, height=PROBE_PX)
    across = probe.width / probe.height >= width / height  # wider than the box: its height fills the box's
    # Drawn to fill the box one way, in a box as long the other way as MAX_PIXELS allows (resvg keeps its
    # shape, so only what the SVG needs is drawn): an SVG so thin that it is longer still is refused.
    if across:
        image = _resvg(text, width=MAX_PIXELS // height, height=height)
        short = image.height < height - 1
    else:
        image = _resvg(text, width=width, height=MAX_PIXELS // width)
        short = image.width < width - 1
    if short:
        raise Invalid(f"{name} is so {'wide' if across else 'tall'} that filling a {width} x {height} pixel box "
                      f"takes more than the {MAX_PIXELS} pixels an image may have; use fit: contain")
    if image.width < width or image.height < height:  # a pixel short, from rounding the shape
        image = image.resize((max(width, image.width), max(height, image.height)), Image.LANCZOS)
    if fit == "stretch":
        return image.resize((width, height), Image.LANCZOS)
    left, top = (image.width - width) // 2, (image.height - height) // 2
    return image.crop((left, top, left + width, top + height))


def recolour(image: Image.Image, colour: tuple, name: str) -> Image.Image:
    """A one-colour drawing (its opaque pixels all of one colour) in `colour` (RGB or RGBA), its coverage
    kept; Invalid for a drawing of several colours."""
    colours = {rgba[:3] for _, rgba in image.getcolors(image.width * image.height) if rgba[3] == 255}
    if len(colours) > 1:
        raise Invalid(f"`color` paints a one-colour SVG, and {name} has {len(colours)} colours; remove `color`, "
                      "or use a one-colour SVG (game-icons.net: download it with a transparent background)")
    alpha = image.getchannel("A")
    if len(colour) == 4 and colour[3] < 255:
        alpha = alpha.point([round(v * colour[3] / 255) for v in range(256)])
    out = Image.new("RGBA", image.size, (*colour[:3], 0))
    out.putalpha(alpha)
    return out


_CACHE: OrderedDict[tuple, Image.Image] = OrderedDict()
_cache_lock = threading.Lock()


def load_svg(file: Path, size: tuple[int, int], fit: str, colour: tuple | None, name: str) -> Image.Image:
    """The SVG file drawn into a box of `size` pixels (see `draw`), in `colour` if given (see `recolour`),
    as a new RGBA image; drawn once per file content, size, fit and colour, then copied."""
    stat = os.stat(file)
    key = (str(file), stat.st_mtime_ns, stat.st_size, size, fit, colour)
    with _cache_lock:
        if key in _CACHE:
            _CACHE.move_to_end(key)
            return _CACHE[key].copy()
    image = draw(checked(file.read_bytes(), name), size, fit, name)
    if colour is not None:
        image = recolour(image, colour, name)
    with _cache_lock:
        _CACHE[key] = image
        while sum(i.width * i.height for i in _CACHE.values()) > CACHE_PIXELS and len(_CACHE) > 1:
            _CACHE.popitem(last=False)
    return image.copy()


_FOLDERS: list[Path] = []  # where png_file writes, while `png_files` lasts


@contextmanager
def png_files() -> Iterator[None]:
    """A temporary folder for `png_file` while the block runs, removed after it: reportlab reads each image
    into memory as it parses the paragraph that names it."""
    with tempfile.TemporaryDirectory(prefix="deckpress-svg-", ignore_cleanup_errors=True) as folder:
        _FOLDERS.append(Path(folder))
        try:
            yield
        finally:
            _FOLDERS.pop()


def png_file(file: Path, height: int, colour: tuple | None, name: str) -> tuple[str, float]:
    """The SVG file drawn `height` pixels high (in `colour`, if given) as a PNG file, for reportlab, which
    reads images from files only (inside `png_files`, named by its content); and its width over its
    height."""
    probe = load_svg(file, (PROBE_PX, PROBE_PX), "contain", None, name)
    aspect = probe.width / probe.height
    buffer = io.BytesIO()
    load_svg(file, (max(1, round(height * aspect)), height), "contain", colour, name).save(buffer, "PNG")
    target = _FOLDERS[-1] / f"{hashlib.sha256(buffer.getvalue()).hexdigest()[:32]}.png"
    if not target.is_file():
        target.write_bytes(buffer.getvalue())
    return str(target), aspect
