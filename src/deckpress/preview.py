"""`deckpress preview`: a contact sheet of every face and a hand fan, or one card at full size, as PNG.

Only the face stage runs: faces the last build drew and that are still up to date are read from
OUT/<deck>/faces/, the others are drawn in memory. Nothing under OUT/<deck>/ is touched. A preview file
carries deckpress's mark in its PNG text, so a file that is not a preview is never overwritten.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from .build import MANIFEST, _read_manifest
from .deck import LoadedDeck
from .faces import Face, FaceStage, face_images as drawn_images, plan_faces
from .fonts import builtin_fonts, truetype

MARK = ("Software", "deckpress preview")
THUMB_W = 240  # px, one face on the contact sheet
COLUMNS = 8
HAND = 7  # cards in the hand fan
BACKGROUND = (38, 70, 52)  # a card table's green


class PreviewError(Exception):
    """The preview can't be written; the message says why and what to do."""


def face_images(deck: LoadedDeck, out_root: Path, faces: list[Face]) -> dict[str, Image.Image]:
    """The faces as images, read from the last build where still up to date, else drawn in memory."""
    folder = out_root / deck.name
    manifest = _read_manifest(folder) if (folder / MANIFEST).is_file() else {}
    records = manifest.get("faces", {})
    stage = FaceStage(deck, out=None, previous=folder if records else None, previous_faces=records,
                      previous_files=manifest.get("artifacts"))
    return drawn_images(stage, faces)


def _writable(target: Path) -> None:
    if target.exists():
        try:
            with Image.open(target) as image:
                ours = image.info.get(MARK[0]) == MARK[1]
        except OSError:
            ours = False
        if not ours:
            raise PreviewError(f"{target} exists and is not a deckpress preview; name another file with --out")


def _save(image: Image.Image, target: Path) -> Path:
    _writable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    info = PngInfo()
    info.add_text(*MARK)
    temporary = target.with_name(f".{target.name}.deckpress-tmp")
    image.save(temporary, format="PNG", pnginfo=info, optimize=False)
    temporary.replace(target)
    return target


def _label_font(size: int):
    return truetype(str(builtin_fonts()["sans"]), size)


def contact_sheet(faces: list[Face], images: dict[str, Image.Image]) -> Image.Image:
    """Every face, fronts then backs, with its name and count under it."""
    thumbs = []
    for face in faces:
        image = images[face.path]
        height = round(image.height * THUMB_W / image.width)
        thumbs.append((face, image.resize((THUMB_W, height), Image.LANCZOS)))
    cell_h = max(t.height for _, t in thumbs) + 34
    columns = min(COLUMNS, len(thumbs))
    rows = math.ceil(len(thumbs) / columns)
    sheet = Image.new("RGB", (columns * (THUMB_W + 16) + 16, rows * cell_h + 16), (245, 245, 240))
    draw = ImageDraw.Draw(sheet)
    font = _label_font(15)
    for i, (face, thumb) in enumerate(thumbs):
        x, y = 16 + (i % columns) * (THUMB_W + 16), 16 + (i // columns) * cell_h
        sheet.paste(thumb, (x, y))
        label = (f"{face.card.name} x{face.card.count}" if face.card else f"back of {face.component.id}")
        while font.getlength(label) > THUMB_W and len(label) > 4:
            label = label[:-2] + "…"
        draw.text((x + THUMB_W / 2, y + thumb.height + 6), label, font=font, fill=(40, 40, 40), anchor="ma")
    return sheet


def hand_fan(faces: list[Face], images: dict[str, Image.Image]) -> Image.Image:
    """Up to seven fronts of the first component fanned out as a player holds them."""
    fronts = [f for f in faces if f.card is not None]
    first = [f for f in fronts if f.component.id == fronts[0].component.id][:HAND]
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


def preview(deck: LoadedDeck, out_root: Path, card_id: str | None, target: Path | None) -> list[Path]:
    """Write the preview PNGs; returns their paths."""
    faces = plan_faces(deck).all()
    if card_id is not None:
        chosen = [f for f in faces if f.card is not None and f.card.id == card_id]
        if not chosen:
            known = ", ".join(sorted({f.card.id for f in faces if f.card is not None}))
            raise PreviewError(f"{deck.name} has no card {card_id!r}; use one of: {known}")
        images = face_images(deck, out_root, chosen[:1])
        return [_save(images[chosen[0].path], target or out_root / f"{deck.name}-{card_id}.png")]
    images = face_images(deck, out_root, faces)
    sheet_path = target or out_root / f"{deck.name}-preview.png"
    hand_path = sheet_path.with_name(f"{sheet_path.stem}-hand.png")
    return [_save(contact_sheet(faces, images), sheet_path), _save(hand_fan(faces, images), hand_path)]
