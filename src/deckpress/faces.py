"""The face stage: one PNG per unique card face and per back, reused from the last build when unchanged;
and the tiles builders cut from faces (a TTS sheet's slot, a thumbnail's card), made beside each face
while it is in memory and kept in the output folder's cache/ for the next build. A tile whose sides come
within a cutter's tolerance of the face's trim is the face cropped (`crop_box`): kept as pixels, it has no
file of its own (`tile` says where each tile is read from).

A builder asks for a tile by its size, or by a `Cut` that also says how it is kept. Its pixels: not a
PNG, as only deckpress reads them, to compose the sheets of this build and of the next one, but its RGB
rows compressed with zstd at level 1 after a small header (`write_tile`, `read_tile`), several times as
fast as a PNG and no larger (bench/README.md). Or a JPEG of a quality (`jpeg_tile`): a
slot of a TTS JPEG sheet, which the TTS builder splices from its slots' JPEGs (builders/tts/sheets.py), so the
sheet's encoding is done here, in the drawing processes, a tile at a time."""

from __future__ import annotations

import os
import struct
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from . import png
from .deck import LoadedDeck
from .inputs import (Vouched, built_digest, copy_file, digest, image_record, images_unchanged, package_digest,
                     plain, sha256_file)
from .processes import shared_out
from .options import Invalid
from .schema import Card, Component, Template


PER_WORKER = 6  # fewer faces than this per extra process are drawn faster in this one
CACHE = "cache"  # the output folder's cache: the tiles, and the faces the PDFs convert (pdf/canvas.py Converted)
REDUCING_GAP = 3.0  # see cut
TILE_MAGIC = b"deckpress tile\n\0"  # then the width and height (big-endian 32 bits), then the zstd frame
TILE_LEVEL = 1
THUMBNAIL_SCALE = 1 / 3  # see cut
Size = tuple[int, int]


@dataclass(frozen=True)
class Face:
    """One rendered image: a card's front, or a back shared by the cards that use it."""

    component: Component
    card: Card | None  # None for a back
    template: str
    path: str  # relative to the deck's output folder, e.g. faces/deck/score-3.png


@dataclass
class Faces:
    """Every face of a deck, found by component and card."""

    fronts: dict[tuple[str, str], Face] = field(default_factory=dict)
    backs: dict[tuple[str, str], Face] = field(default_factory=dict)

    def front(self, component: Component, card: Card) -> Face:
        return self.fronts[(component.id, card.id)]

    def back(self, component: Component, card: Card) -> Face | None:
        """The card's back; tokens without a back template show their front on both sides."""
        if card.back is None:
            return None
        return self.backs[(component.id, card.back)]

    def all(self) -> list[Face]:
        return [*self.fronts.values(), *self.backs.values()]

    def printed(self, component: Component, card: Card) -> tuple[str, str | None]:
        """The face paths a printed copy of the card shows: its front and its back (None: it prints nothing
        there), a token without a back showing its front on both sides."""
        front = self.front(component, card).path
        back = self.back(component, card)
        return front, back.path if back else (front if component.type == "tokens" else None)

    def at(self, path: str) -> Face:
        """The face whose file is `path`."""
        return self._by_path[path]

    @cached_property
    def _by_path(self) -> dict[str, Face]:
        return {face.path: face for face in self.all()}


def plan_faces(deck: LoadedDeck) -> Faces:
    faces = Faces()
    for component in deck.model.components:
        backs = sorted({c.back for c in component.cards if c.back})
        for card in component.cards:
            faces.fronts[(component.id, card.id)] = Face(component, card, card.template,
                                                         f"faces/{component.id}/{card.id}.png")
        for back in backs:
            name = "back" if len(backs) == 1 else f"back-{back}"
            faces.backs[(component.id, back)] = Face(component, None, back, f"faces/{component.id}/{name}.png")
    return faces


@dataclass(frozen=True)
class Cut:
    """A tile a builder wants cut from a face: its size, and how the face stage keeps it: its pixels
    (`quality` None: `write_tile`), or a JPEG of `quality` (`jpeg_tile`). A builder may ask for a size alone:
    its pixels."""

    size: Size
    quality: int | None = None

    @staticmethod
    def of(wanted: Cut | Size) -> Cut:
        return wanted if isinstance(wanted, Cut) else Cut(tuple(wanted))

    @property
    def order(self) -> tuple:
        return self.size, self.quality or 0

    def crop(self, face_size: Size, bleed_px: float, inside_px: float) -> tuple[int, int, int, int] | None:
        """The box of the face's own file that is this tile, which then has no file of its own in cache/: the
        face cropped (crop_box). None when the face stage writes the tile (a JPEG always)."""
        return crop_box(face_size, bleed_px, self.size, inside_px) if self.quality is None else None


def tile_path(face_path: str, cut: Cut) -> str:
    """Where the tile `cut` from a face is kept: cache/faces/deck/score-3@409x558.zst, or, a JPEG of quality
    90, cache/faces/deck/score-3@408x576q90.jpg."""
    stem = f"{CACHE}/{face_path.removesuffix('.png')}@{cut.size[0]}x{cut.size[1]}"
    return f"{stem}.zst" if cut.quality is None else f"{stem}q{cut.quality}.jpg"


def jpeg_tile(image, quality: int) -> bytes:
    """The RGB `image` as a JPEG tile a TTS sheet is spliced from (tts/sheets.splice): 4:4:4 (coloured text
    stays sharp), the standard Huffman tables (so every tile's header is the same), and a restart marker
    after every row of 8 px blocks."""
    import io

    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=quality, subsampling=0, optimize=False, restart_marker_rows=1)
    return buffer.getvalue()


def _zstd():
    """Python's own zstd, compression.zstd (3.14 and later), or its backport before (backports.zstd)."""
    try:
        from compression import zstd
    except ImportError:
        from backports import zstd
    return zstd


def write_tile(image) -> bytes:
    """The RGB `image` as a tile file's bytes: the same bytes for the same pixels (zstd in one thread)."""
    if image.mode != "RGB":
        raise ValueError(f"a tile is an RGB image, not {image.mode}")
    frame = _zstd().compress(image.tobytes(), level=TILE_LEVEL)
    return TILE_MAGIC + struct.pack(">II", *image.size) + frame


def read_tile(path: Path):
    """The tile file at `path` (see write_tile) as an RGB image; ValueError for a damaged one."""
    from PIL import Image

    zstd = _zstd()

    data = Path(path).read_bytes()
    start = len(TILE_MAGIC) + 8
    if not data.startswith(TILE_MAGIC) or len(data) < start:
        raise ValueError(f"{Path(path).name} is not a tile deckpress wrote")
    width, height = struct.unpack(">II", data[len(TILE_MAGIC):start])
    try:
        frame = zstd.ZstdDecompressor()
        rows = frame.decompress(data[start:], max_length=3 * width * height)
    except zstd.ZstdError as err:
        raise ValueError(f"{Path(path).name} is damaged ({err})") from None
    if len(rows) != 3 * width * height or not frame.eof or frame.unused_data:
        raise ValueError(f"{Path(path).name} is damaged (its rows are not {width} x {height} pixels)")
    return Image.frombuffer("RGB", (width, height), rows, "raw", "RGB", 0, 1)


# How far a cut may land from the trim: 1/16 in, the tolerance print shops give (psprint.com's help centre,
# 'Printing with Borders': 'a mechanical tolerance of about 1/16 of an inch'; clearprint.com: +/- 1/16 in).
CUTTER_TOLERANCE_MM = 25.4 / 16
INTO_BLEED_PX = 3.5  # how far a cropped tile may reach into the bleed on a side, which TTS would show


def crop_allowance(safe_mm: float) -> float:
    """How far inside the trim, in px on each side, a tile may be cut from its face instead of resampled
    (crop_box): half the deck's safe margin (its text keeps inside that margin, so none is cut), at most a
    cutter's tolerance (1/16 in: SCORE!'s 728 x 1024 slot loses 0.7 mm a side of its 744 x 1039 trim, as a
    printed card may), at least INTO_BLEED_PX."""
    from .render import mm_to_px

    return max(INTO_BLEED_PX, min(mm_to_px(safe_mm) / 2, mm_to_px(CUTTER_TOLERANCE_MM)))


def cut_margins(model) -> tuple[float, float]:
    """What cutting a face of the deck `model` to a tile depends on besides the face and the tile's size, in
    px: its bleed, and how far inside the trim a tile may be cropped (crop_allowance). The face stage cuts
    with them, and the images made of tiles are keyed by them."""
    from .render import mm_to_px

    return mm_to_px(model.bleed), crop_allowance(model.safe)


def crop_box(face_size: Size, bleed_px: float, size: Size, inside_px: float) -> tuple[int, int, int, int] | None:
    """The box of a face of `face_size` px that is its tile of `size` as it is: the face's pixels centred on
    the trim, when that reaches at most INTO_BLEED_PX into the bleed on a side, or cuts at most `inside_px`
    (crop_allowance) off the trim's edge on a side (a token or a TTS card at about the card's size: a crop is
    free, and as sharp as the face). None when the tile must be scaled."""
    trim = (face_size[0] - 2 * bleed_px, face_size[1] - 2 * bleed_px)
    if any(side > face or side - whole > 2 * INTO_BLEED_PX or whole - side > 2 * inside_px
           for side, whole, face in zip(size, trim, face_size)):
        return None
    left, top = round((face_size[0] - size[0]) / 2), round((face_size[1] - size[1]) / 2)
    return (left, top, left + size[0], top + size[1])


@dataclass(frozen=True)
class Tile:
    """Where a builder reads a tile: its file in cache/, or the face's file and the box cropped from it."""

    path: Path
    box: tuple[int, int, int, int] | None = None

    def read(self):
        """The tile's pixels as an RGB image (not a JPEG tile's: its bytes are `path`'s)."""
        return read_tile(self.path) if self.box is None else png.read(self.path).crop(self.box)


def tile(folder: Path, face: Face, wanted: Cut | Size, model) -> Tile:
    """The tile `wanted` of the face of the deck `model`, in the build `folder` (the face stage made it there)."""
    from .render import face_pixels

    wanted = Cut.of(wanted)
    box = wanted.crop(face_pixels(face.component.size, model.bleed), *cut_margins(model))
    return Tile(folder / face.path, box) if box is not None else Tile(folder / tile_path(face.path, wanted))


def cut(image, bleed_px: float, size: Size, inside_px: float):
    """The face `image` cut to its trim at `size`: cropped where crop_box says so (`inside_px`: its
    crop_allowance), else resampled in one step. Cropped, a slot costs nothing and keeps the face's own
    pixels: the shipped decks' slots (0.97 to 0.99 of the trim) are, as is a 1,000-card deck's 728 x 1024
    slot of a poker card. A sheet's slot further from the trim (a card scaled to more than THUMBNAIL_SCALE,
    as small as 0.54 where 70 cards share a sheet) is resampled with a box filter (each pixel the average of
    the face's pixels it covers): the fastest of Pillow's filters, crisper text than bilinear's near the
    card's size and like Lanczos's far from it, and TTS shows the texture smaller than this anyway (its
    mipmaps). A thumbnail's card (a sixth of the face, five a save) keeps bicubic's sharper edges; it is first
    reduced by a whole factor (averages of pixel blocks), leaving at least three times the size to resample
    (Pillow's reducing_gap), which halves its time and keeps its pixels within 4 of 255 of resampling the
    whole face. bench/README.md ("Cutting a face to a tile") gives the figures."""
    from PIL import Image

    crop = crop_box(image.size, bleed_px, size, inside_px)
    if crop is not None:
        return image.crop(crop)
    box = (bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px)
    small = size[0] < THUMBNAIL_SCALE * (box[2] - box[0])
    resample = Image.Resampling.BICUBIC if small else Image.Resampling.BOX
    return image.resize(size, resample, box=box, reducing_gap=REDUCING_GAP)


@dataclass(frozen=True)
class _Job:
    """What a drawing process does for one face: draw it (else read the previous build's), write it to the
    stage's output folder or give it back as an image, and write the tiles `cuts` from it. The processes
    write the files themselves: sending them back would cost the parent more than writing."""

    face: Face
    draw: bool = True
    output: str | None = "file"  # "file", "image" or None
    cuts: tuple[Cut, ...] = ()


@dataclass
class _Done:
    image: object = None
    record: dict | None = None


class FaceCheck:
    """`deckpress check`'s drawing of every face, once, in memory: the builders' checks ask here to see some
    of the faces as they are drawn (`see`) and add their warnings (`warnings`); `run` draws."""

    def __init__(self, deck: LoadedDeck):
        self.deck = deck
        self.planned = plan_faces(deck).all()
        self.warnings: list[str] = []
        self._looks: dict[str, list[Callable[[Face, object], None]]] = {}
        self._ends: list[Callable[[], list[str]]] = []

    def see(self, faces: list[Face], look: Callable[[Face, object], None],
            end: Callable[[], list[str]] | None = None) -> None:
        """Call `look(face, image)` with each of `faces` (RGB) when it is drawn (the image is not kept), then
        `end()` once every face is, for the warnings of what it saw."""
        for face in faces:
            self._looks.setdefault(face.path, []).append(look)
        if end is not None:
            self._ends.append(end)

    def run(self) -> list[str]:
        """Draw every face: raises DeckError for text that does not fit, missing images..., and for all the
        text outside the safe zone; returns the faces' warnings, each once, then the builders'."""
        stage = FaceStage(self.deck, out=None, previous=None, previous_faces={})
        jobs = [_Job(face, output="image" if face.path in self._looks else None) for face in self.planned]
        records = {}
        with closing(_run(stage, jobs)) as results:  # on an error or Ctrl-C, the workers stopped at once
            for face, done in zip(self.planned, results):
                records[face.path] = done.record
                for look in self._looks.get(face.path, ()):
                    look(face, done.image)
        FaceStage.check_safe_zone(records)
        for end in self._ends:
            self.warnings.extend(end())
        return FaceStage.recorded_warnings(records, shrinking=True) + self.warnings


def _without_styles(template: Template, text: str) -> tuple[str, int]:
    """A template file's text but for its `styles:` block, and how many lines that block takes: a face's key
    holds the style it draws with instead (FaceStage._style), and the lines below stay where they were only
    while the block keeps its length (a face's record locates its warnings by line)."""
    where = template.source.key_where.get("styles")
    if where is None:
        return text, 0
    lines = text.splitlines(keepends=True)
    following = [w.line for w in template.source.key_where.values() if w.line > where.line]
    end = min(following) if following else len(lines) + 1
    return "".join(lines[:where.line - 1] + lines[end - 1:]), end - where.line


class ReadFields(dict):
    """A card's fields as a template sees them (`card`), noting the names read, looked up or asked for: the
    face's pixels depend on those alone (drawing is deterministic: the same values read take the same path
    through the template, which reads the same names). Looking at them all at once (iterating, counting,
    copying, printing, comparing the whole) reads every one: `read` is then None."""

    def __init__(self, fields: dict):
        super().__init__(fields)
        self.read: set[str] | None = {"id", "name"}  # the face's label in its warnings names the card

    def _note(self, name) -> None:
        if self.read is not None:
            self.read.add(str(name))

    def _all(self) -> None:
        self.read = None

    def __getitem__(self, name):
        self._note(name)
        return super().__getitem__(name)

    def get(self, name, default=None):
        self._note(name)
        return super().get(name, default)

    def __contains__(self, name) -> bool:
        self._note(name)
        return super().__contains__(name)

    def __iter__(self):
        self._all()
        return super().__iter__()

    def __len__(self) -> int:
        self._all()
        return super().__len__()

    def __eq__(self, other) -> bool:
        self._all()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._all()
        return super().__repr__()

    def __or__(self, other):
        self._all()
        return super().__or__(other)

    def __ror__(self, other):
        self._all()
        return super().__ror__(other)

    def keys(self):
        self._all()
        return super().keys()

    def values(self):
        self._all()
        return super().values()

    def items(self):
        self._all()
        return super().items()

    def copy(self):
        self._all()
        return dict(super().items())

    def __reduce__(self):
        self._all()
        return dict, (dict(super().items()),)


def face_images(stage: "FaceStage", faces: list[Face]) -> dict[str, object]:
    """The faces as RGB images: read from the stage's previous build where still up to date, else drawn;
    DeckError for text drawn outside the safe zone, as a build gives."""
    images, todo = {}, []
    for face in faces:
        if stage.reusable(face, stage.key(face, stage.reads(face))):
            images[face.path] = png.read(stage.previous / face.path)
        else:
            todo.append(_Job(face, output="image"))
    records = {}
    with closing(_run(stage, todo)) as results:
        for job, done in zip(todo, results):
            images[job.face.path], records[job.face.path] = done.image, done.record
    FaceStage.check_safe_zone(records)
    return images


class FaceStage:
    """Renders the faces into `out`, copying those whose inputs did not change from `previous`: a face or
    tile is taken from there only with the bytes the previous build's manifest lists (`previous_files`, its
    artifacts), never a file an interrupted or failed write left otherwise."""

    def __init__(self, deck: LoadedDeck, out: Path | None, previous: Path | None, previous_faces: dict,
                 previous_files: dict | None = None, vouched: Vouched | None = None):
        self.deck = deck
        self.out = out
        self.previous = previous
        self.previous_faces = previous_faces
        self.previous_files = previous_files if isinstance(previous_files, dict) else {}
        self.vouched = vouched  # the digests of the previous build's files its stamp vouches for
        from .render import DPI, FaceRenderer  # Pillow only once faces are drawn

        self.dpi = DPI
        self.bleed_px, self.inside_px = cut_margins(deck.model)
        self.renderer = FaceRenderer(deck, collect_unsafe=True)
        self.records: dict[str, dict] = {}
        self._base = self._base_key()
        self._templates = {name: _without_styles(deck.templates[name], path.read_text(encoding="utf-8"))
                           for name, path in deck.template_paths.items()}

    def _base_key(self) -> str:
        """The part of every face's key that all faces of the deck share."""
        model = self.deck.model
        fonts = {name: sha256_file(path) for name, path in sorted(self.deck.fonts.items()) if path.is_file()}
        icons = {name: [i.glyph, i.font, i.color, i.image] for name, i in sorted(model.icons.items()) if i}
        return digest([package_digest(), self.dpi, model.bleed, model.safe, self.deck.lang, fonts, self.renderer.game,
                       icons])

    def key(self, face: Face, reads: list[str] | None = None) -> str:
        """Everything that can change the face's pixels, but for the images it draws (recorded apart): of its
        template, the text but for the styles, and the one style the face draws with (the others' edits leave
        it as it is); of its card, the fields `reads` names (those its last drawing read, ReadFields), or all
        of them (None)."""
        fields = face.card.fields() if face.card else None
        key = {
            "base": self._base,
            "template": [*self._templates[face.template], self._style(face)],
            "card": fields,
            "component": [face.component.id, face.component.name, face.component.size],
        }
        if fields is not None and reads is not None:
            key["card"] = {name: fields[name] for name in reads if name in fields}
            key["reads"] = reads
        return digest(key)

    def reads(self, face: Face) -> list[str] | None:
        """The card fields the previous build's drawing of the face read (None: all, or no such drawing)."""
        reads = (self.previous_faces.get(face.path) or {}).get("reads")
        return reads if isinstance(reads, list) and all(isinstance(name, str) for name in reads) else None

    def _style(self, face: Face):
        """The style of its template the face draws with (`style` in its expressions), as plain data; its
        style_by's mistake, which drawing it reports, as itself."""
        template = self.deck.templates[face.template]
        if not template.styles:
            return None
        component = {"id": face.component.id, "name": face.component.name}
        try:
            return plain(self.renderer.context(template, face.card.fields() if face.card else {}, component,
                                               face.component.size)["style"])
        except Invalid as err:
            return str(err)

    def reusable(self, face: Face, key: str) -> bool:
        """Whether the face drawn by the previous build can be used as it is."""
        old = self.previous_faces.get(face.path)
        if not old or old.get("key") != key or self.previous is None:
            return False
        if not self._kept(face.path):
            return False
        return images_unchanged(old.get("images", {}), self.deck.path)

    def _kept(self, relative: str) -> bool:
        """Whether the previous build holds the file `relative` with the bytes its manifest lists."""
        info = self.previous_files.get(relative)
        path = self.previous / relative
        return isinstance(info, dict) and path.is_file() and built_digest(path, self.vouched) == info.get("sha256")

    def face_size(self, face: Face) -> Size:
        """The pixel size of the face, bleed included."""
        from .render import face_pixels

        return face_pixels(face.component.size, self.deck.model.bleed)

    def draw(self, face: Face):
        """The face as an RGB image, and its record: its key but for the image files it drew (with their
        sha256), and warnings, located."""
        component = {"id": face.component.id, "name": face.component.name}
        card = ReadFields(face.card.fields() if face.card else {})
        label = f"card {face.card.name!r}" if face.card else f"back of {face.component.id!r}"
        where = face.card.where if face.card else face.component.source.at("back")
        image = self.renderer.render(face.template, card, component, face.component.size, where, label)
        r = self.renderer
        record = {"images": image_record(r.images_read, r.images_missing, self.deck.path)}
        if face.card is not None and card.read is not None:
            record["reads"] = sorted(card.read)
        warnings = [f"{where}: warning: {label}: {text}" for text in r.warnings]
        warnings = [w for w in warnings if w not in self.deck.warnings]  # said once, by the deck's loading
        if warnings:
            record["warnings"] = warnings
        if r.shrunk:
            record["shrunk"] = dict(r.shrunk)
        if r.unsafe:
            record["unsafe"] = {key: [*crossing, label] for key, crossing in r.unsafe.items()}
        return image, record

    def work(self, job: _Job) -> _Done:
        done = _Done()
        if job.draw:
            image, done.record = self.draw(job.face)
        else:
            image = png.read(self.previous / job.face.path)
        if job.output == "file":
            (self.out / job.face.path).write_bytes(png.encode(image, self.dpi))  # the PDFs carry its data as is
        elif job.output == "image":
            done.image = image
        for wanted in job.cuts:
            target = self.out / tile_path(job.face.path, wanted)  # its folder made by build(), in the deck's process
            tile = cut(image, self.bleed_px, wanted.size, self.inside_px)
            target.write_bytes(write_tile(tile) if wanted.quality is None else jpeg_tile(tile, wanted.quality))
        return done

    def build(self, faces: list[Face], progress: Callable[[int, int], None],
              tiles: dict[str, set[Cut | Size]] | None = None, drawn_one: Callable[[Face], None] | None = None) -> int:
        """Write every face, reusing unchanged ones, and the `tiles` of each (by face path) into cache/;
        returns how many faces were drawn. Faces are drawn in parallel processes where the system can fork
        them: each face is independent of the others. `drawn_one(face)` is called as each face drawn is in
        its file."""
        tiles = tiles or {}
        todo = []
        keys: dict[str, tuple[list[str] | None, str]] = {}  # by face path: the fields its key covers, the key
        for face in faces:
            target = self.out / face.path
            target.parent.mkdir(parents=True, exist_ok=True)
            reads = self.reads(face)
            key = self.key(face, reads)
            keys[face.path] = reads, key
            cuts = sorted({Cut.of(wanted) for wanted in tiles.get(face.path, ())}, key=lambda c: c.order)
            cuts = [c for c in cuts if c.crop(self.face_size(face), self.bleed_px, self.inside_px) is None]
            if not self.reusable(face, key):
                todo.append(_Job(face, cuts=tuple(cuts)))
                continue
            copy_file(self.previous / face.path, target)
            self.records[face.path] = self.previous_faces[face.path]
            missing = []
            for wanted in cuts:
                if self._kept(tile_path(face.path, wanted)):
                    copy_file(self.previous / tile_path(face.path, wanted), self.out / tile_path(face.path, wanted))
                else:
                    missing.append(wanted)
            if missing:
                todo.append(_Job(face, draw=False, output=None, cuts=tuple(missing)))
        for job in todo:  # the tiles' folders, made here: a drawing process never makes a folder, so none can
            for wanted in job.cuts:  # make the staging folder again after the deck's process removed it on a stop
                (self.out / tile_path(job.face.path, wanted)).parent.mkdir(parents=True, exist_ok=True)
        drawn = sum(job.draw for job in todo)
        count = 0
        with closing(_run(self, todo)) as results:  # on an error or Ctrl-C, once closed: no process writes any more
            for job, done in zip(todo, results):
                if job.draw:
                    reads, key = keys[job.face.path]
                    if done.record.get("reads") != reads:  # its drawing read other fields than the last one
                        key = self.key(job.face, done.record.get("reads"))
                    self.records[job.face.path] = {"key": key, **done.record}
                    count += 1
                    progress(count, drawn)
                    if drawn_one is not None:
                        drawn_one(job.face)
        return drawn

    @staticmethod
    def check_safe_zone(records: dict) -> None:
        """Raise DeckError with one line per element drawn outside the safe zone in the records, naming its
        faces (a build draws every face, and then fails)."""
        from .render import unsafe_error

        crossings: dict[str, list] = {}
        for record in records.values():
            for key, (*crossing, label) in record.get("unsafe", {}).items():
                crossings.setdefault(key, [*crossing, []])[-1].append(label)
        if crossings:
            raise unsafe_error(crossings)

    @staticmethod
    def recorded_warnings(records: dict, shrinking: bool = False) -> list[str]:
        """The warnings in face records (drawn now or reused), each once, in face order; with `shrinking`
        (deckpress check), then one line per text element that had to shrink its text to fit, with on how
        many faces and how far (a build does not repeat these on every run)."""
        lines = list(dict.fromkeys(w for record in records.values() for w in record.get("warnings", [])))
        if not shrinking:
            return lines
        shrunk: dict[str, list[float]] = {}
        for record in records.values():
            for key, size in record.get("shrunk", {}).items():
                shrunk.setdefault(key, []).append(size)
        for key, sizes in shrunk.items():
            where, name, wanted = key.split("|")
            lines.append(f"{where}: warning: element {name!r} shrinks its text below size {wanted} pt on "
                         f"{len(sizes)} face{'s' if len(sizes) > 1 else ''} (to {min(sizes):g} pt at the "
                         f"smallest); shorten those texts, enlarge the box, or give it a `min_size` to say how "
                         "small it may get")
        return lines


def _run(stage: FaceStage, jobs: list[_Job]):
    """Do `jobs`, giving their results in order; with several cores and fork available, in worker
    processes (stopped at once when the generator is left early: on an error or Ctrl-C)."""
    workers = min(os.cpu_count() or 1, len(jobs) // PER_WORKER)
    yield from shared_out(lambda index: stage.work(jobs[index]), len(jobs), workers)
