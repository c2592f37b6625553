"""`deckpress preview`: a contact sheet of every face and a hand fan, or one card at full size, as PNG.

Only the face stage runs: faces the last build drew and that are still up to date are read from
OUT/<deck>/faces/, the others are drawn in memory. Nothing under OUT/<deck>/ is touched. A preview file
carries deckpress's mark in its PNG text, so a file that is not a preview is never overwritten.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from .build import MANIFEST, read_manifest
from .deck import LoadedDeck
from .faces import Face, FaceStage, face_images as drawn_images, plan_faces
from .fonts import builtin_fonts, truetype
from .builders.pdf.pdfx import Cmyk

MARK = ("Software", "deckpress preview")
THUMB_W = 240  # px, one face on the contact sheet
COLUMNS = 8
MAX_SHEET = 30 * COLUMNS  # faces on a contact sheet (about 70 MB of pixels); the rest are counted under it
CHUNK = 32  # faces drawn at a time: only their thumbnails are kept, so memory stays bounded
HAND = 7  # cards in the hand fan
BACKGROUND = (38, 70, 52)  # a card table's green


class PreviewError(Exception):
    """The preview can't be written; the message says why and what to do."""


def face_images(deck: LoadedDeck, out_root: Path, faces: list[Face]) -> dict[str, Image.Image]:
    """The faces as images, read from the last build where still up to date, else drawn in memory."""
    folder = out_root / deck.name
    manifest = read_manifest(folder) if (folder / MANIFEST).is_file() else {}
    records = manifest.get("faces", {})
    stage = FaceStage(deck, out=None, previous=folder if records else None, previous_faces=records,
                      previous_files=manifest.get("artifacts"))
    return drawn_images(stage, faces)


class Draft:
    """A low-ink draft profile's faces (`ink_coverage`), lightened as its PDF places them (ink.py)."""

    def __init__(self, coverage: float):
        self.coverage = coverage

    def proof(self, image: Image.Image) -> Image.Image:
        from .ink import lightened

        return lightened(image, self.coverage)


def soft_proof(deck: LoadedDeck, name: str | None) -> Cmyk | Draft | None:
    """How the deck's print profile `name` prints the faces (None: no proof): in its CMYK, or lightened for a
    draft; PreviewError when it prints them as they are drawn."""
    if name is None:
        return None
    from .builders.pdf.profiles import load_profile

    profile = load_profile(deck, name, deck.model.where)
    if profile.spec.ink_coverage is not None:
        return Draft(profile.spec.ink_coverage / 100)
    if profile.cmyk_profile is None:
        raise PreviewError(f"print profile {name!r} prints the faces as they are drawn; name one that prints in "
                           "CMYK (`pdfx: true`, e.g. drivethrucards) or a draft (`ink_coverage`, e.g. draft-a4)")
    return Cmyk(profile.cmyk_profile, profile.spec.ink_limit)


def _writable(target: Path) -> None:
    if target.exists():
        try:
            with warnings.catch_warnings():  # only its text is read, not its pixels, however many
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                with Image.open(target) as image:
                    ours = image.info.get(MARK[0]) == MARK[1]
        except (OSError, Image.DecompressionBombError):
            ours = False
        if not ours:
            raise PreviewError(f"{target}: exists and is not a deckpress preview; name another file with --out")
    for folder in reversed(target.parents):
        if folder.exists() and not folder.is_dir():
            raise PreviewError(f"{target}: {folder} is a file where a folder is needed; move it, or name another "
                               "file with --out (or another folder with --build-dir)")


def _save(image: Image.Image, target: Path) -> Path:
    _writable(target)
    info = PngInfo()
    info.add_text(*MARK)
    temporary = target.with_name(f".{target.name}.deckpress-tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        image.save(temporary, format="PNG", pnginfo=info, optimize=False)
        temporary.replace(target)
    except OSError as err:
        temporary.unlink(missing_ok=True)
        raise PreviewError(f"{target}: cannot write the preview ({err.strerror or err}); name another file with "
                           "--out") from None
    return target


def _label_font(size: int):
    return truetype(str(builtin_fonts()["sans"]), size)


def thumbnail(image: Image.Image) -> Image.Image:
    return image.resize((THUMB_W, round(image.height * THUMB_W / image.width)), Image.LANCZOS)


def contact_sheet(faces: list[Face], thumbs: dict[str, Image.Image], more: int = 0) -> Image.Image:
    """Every face, fronts then backs, with its name and count under it (`thumbs`: each face's thumbnail);
    `more` faces left off are counted under them."""
    thumbs = [(face, thumbs[face.path]) for face in faces]
    cell_h = max(t.height for _, t in thumbs) + 34
    columns = min(COLUMNS, len(thumbs))
    rows = math.ceil(len(thumbs) / columns)
    sheet = Image.new("RGB", (columns * (THUMB_W + 16) + 16, rows * cell_h + 16 + (30 if more else 0)),
                      (245, 245, 240))
    draw = ImageDraw.Draw(sheet)
    font = _label_font(15)
    if more:
        draw.text((16, rows * cell_h + 16), f"and {more} more faces: deckpress preview DECK --card ID shows any "
                  "card", font=font, fill=(40, 40, 40))
    for i, (face, thumb) in enumerate(thumbs):
        x, y = 16 + (i % columns) * (THUMB_W + 16), 16 + (i // columns) * cell_h
        sheet.paste(thumb, (x, y))
        label = (f"{face.card.name} x{face.card.count}" if face.card else f"back of {face.component.id}")
        while font.getlength(label) > THUMB_W and len(label) > 4:
            label = label[:-2] + "…"
        draw.text((x + THUMB_W / 2, y + thumb.height + 6), label, font=font, fill=(40, 40, 40), anchor="ma")
    return sheet


def hand_fan(first: list[Face], images: dict[str, Image.Image]) -> Image.Image:
    """The fronts `first` (up to seven of the first component) fanned out as a player holds them."""
    card_w = 300
    cards = [images[f.path].resize((card_w, round(images[f.path].height * card_w / images[f.path].width)),
                                   Image.LANCZOS).convert("RGBA") for f in first]
    card_h = max(c.height for c in cards)
    spread = 10  # degrees between neighbours
    radius = card_h * 2.2
    layer = Image.new("RGBA", (round(2 * radius + 2 * card_h), round(radius + 2 * card_h)), (0, 0, 0, 0))
    pivot = (layer.width / 2, radius + card_h)
    for i, card in enumerate(cards):
        angle = spread * (i - (len(cards) - 1) / 2)
        turned = card.rotate(-angle, resample=Image.BICUBIC, expand=True)
        cx = pivot[0] + radius * math.sin(math.radians(angle))
        cy = pivot[1] - radius * math.cos(math.radians(angle))
        layer.alpha_composite(turned, (round(cx - turned.width / 2), round(cy - turned.height / 2)))
    left, top, right, bottom = layer.getbbox()
    margin = 30
    table = Image.new("RGBA", (right - left + 2 * margin, bottom - top + 2 * margin), BACKGROUND + (255,))
    table.alpha_composite(layer.crop((left, top, right, bottom)), (margin, margin))
    return table.convert("RGB")


def preview(deck: LoadedDeck, out_root: Path, card_id: str | None, target: Path | None,
            proof: Cmyk | Draft | None = None, condition: str | None = None) -> list[Path]:
    """Write the preview PNGs; returns their paths. With `proof`, every face is shown as its print profile prints it
    (in its CMYK, a soft proof, or lightened for a draft); with `condition`, each picture as a player with that
    colour blindness sees it (colour_blind.py), in files whose default names end in -CONDITION."""
    faces = plan_faces(deck).all()
    suffix = f"-{condition}" if condition else ""

    def images_of(faces: list[Face]) -> dict[str, Image.Image]:
        images = face_images(deck, out_root, faces)
        return images if proof is None else {path: proof.proof(image) for path, image in images.items()}

    def save(image: Image.Image, target: Path) -> Path:
        if condition is not None:  # the picture once made: a sheet holds a tenth of the pixels of its faces
            from .colour_blind import simulate

            image = simulate(image, condition)
        return _save(image, target)

    if card_id is not None:
        chosen = [f for f in faces if f.card is not None and f.card.id == card_id]
        if not chosen:
            known = ", ".join(sorted({f.card.id for f in faces if f.card is not None}))
            raise PreviewError(f"{deck.name} has no card {card_id!r}; use one of: {known}")
        images = images_of(chosen[:1])
        return [save(images[chosen[0].path], target or out_root / f"{deck.name}-{card_id}{suffix}.png")]
    shown = faces[:MAX_SHEET]
    fronts = [f for f in faces if f.card is not None]
    hand = [f for f in fronts if f.component.id == fronts[0].component.id][:HAND]
    images = images_of(hand)
    thumbs = {face.path: thumbnail(images[face.path]) for face in hand}
    for start in range(0, len(shown), CHUNK):
        chunk = [face for face in shown[start:start + CHUNK] if face.path not in thumbs]
        thumbs.update((path, thumbnail(image)) for path, image in images_of(chunk).items())
    sheet_path = target or out_root / f"{deck.name}-preview{suffix}.png"
    hand_path = sheet_path.with_name(f"{sheet_path.stem}-hand.png")
    return [save(contact_sheet(shown, thumbs, len(faces) - len(shown)), sheet_path),
            save(hand_fan(hand, images), hand_path)]
