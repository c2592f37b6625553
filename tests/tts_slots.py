"""Which face each card of a built TTS save shows: its CardID decoded to (sheet, slot) as TTS reads it
(key * 100 + slot, slots left to right, top to bottom), the slot cut from the sheet image, and compared
with the card's own face scaled down the way the sheet was made. Shared by the tests of real saves."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse

from PIL import Image, ImageChops, ImageStat

TTS_COLUMNS, TTS_ROWS = 10, 7  # TTS's limit for a card sheet (its knowledge base: Custom Deck)
SMALL = 48  # px: the width faces and slots are compared at against the other slots of a sheet
OWN = 2.5  # mean difference (of 255) a slot may show from its own face: JPEG's noise, not another face


def states(objects: list[dict]):
    for state in objects:
        yield state
        yield from states(state.get("ContainedObjects", []))


def image_path(url: str) -> Path:
    assert url.startswith("file:///"), url
    return Path(unquote(urlparse(url).path))


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference of two RGB images of one size, 0 to 255."""
    return sum(ImageStat.Stat(ImageChops.difference(a, b)).mean) / 3


def scaled(face: Image.Image, bleed_px: float, safe_px: float, size: tuple[int, int]) -> Image.Image:
    """The face cut to its trim and scaled to `size`; where that is the trim with at most 3.5 px of bleed, or
    less half the safe margin (at most 1/16 in, 18.75 px) on each side, its pixels as they are, centred on
    the trim."""
    box = (bleed_px, bleed_px, face.width - bleed_px, face.height - bleed_px)
    inside = max(3.5, min(safe_px / 2, 300 / 16))
    if all(-2 * inside <= side - (high - low) <= 7
           for side, low, high in ((size[0], box[0], box[2]), (size[1], box[1], box[3]))):
        left, top = round((face.width - size[0]) / 2), round((face.height - size[1]) / 2)
        return face.convert("RGB").crop((left, top, left + size[0], top + size[1]))
    return face.convert("RGB").resize(size, Image.Resampling.BOX, box=box)  # as faces.cut does a slot


@dataclass
class Slot:
    sheet: Path
    index: int
    columns: int
    rows: int


def slot_of(card: dict, side: str) -> Slot:
    """Where TTS finds the card's `side` ("FaceURL" or "BackURL"): its sheet and slot from its CardID."""
    key, index = divmod(card["CardID"], 100)
    entry = card["CustomDeck"][str(key)]
    assert 1 <= entry["NumWidth"] <= TTS_COLUMNS and 1 <= entry["NumHeight"] <= TTS_ROWS, entry
    return Slot(image_path(entry[side]), index, entry["NumWidth"], entry["NumHeight"])


def cut_slot(sheet: Image.Image, slot: Slot, index: int | None = None) -> Image.Image:
    w, h = sheet.width // slot.columns, sheet.height // slot.rows
    assert (w * slot.columns, h * slot.rows) == sheet.size, "the sheet is not a whole grid of slots"
    col, row = divmod(slot.index if index is None else index, slot.columns)[::-1]
    return sheet.crop((col * w, row * h, (col + 1) * w, (row + 1) * h))


def check_every_card_shows_its_face(save: dict, faces: dict[tuple[str, str], Path], bleed_px: float,
                                    safe_px: float, side: str = "FaceURL") -> int:
    """Assert that every card of the save shows, at the slot its CardID names, the face `faces` gives for
    its (component, card id) (read from its GMNotes): the slot looks like that face, at full size and at
    every edge, and no other slot of the sheet showing another face looks as much like it. Returns how
    many cards were checked."""
    cards = [s for s in states(save["ObjectStates"]) if s["Name"] == "Card"]
    sheets: dict[Path, Image.Image] = {}
    expected: dict[tuple[Path, int], bytes] = {}  # what each used slot should show, by face bytes
    checked = []
    for card in cards:
        notes = json.loads(card["GMNotes"])
        face = faces[(notes["component"], notes["id"])]
        slot = slot_of(card, side)
        if slot.sheet not in sheets:
            sheets[slot.sheet] = Image.open(slot.sheet).convert("RGB")
        assert 0 <= slot.index < slot.columns * slot.rows, (notes, slot)
        expected.setdefault((slot.sheet, slot.index), face.read_bytes())
        assert expected[(slot.sheet, slot.index)] == face.read_bytes(), f"two faces in slot {slot}"
        checked.append((notes, face, slot))
    wanted: dict[tuple[Path, tuple[int, int]], tuple[Image.Image, Image.Image]] = {}
    small_slots: dict[tuple[Path, int], Image.Image] = {}
    seen: set[tuple[Path, int]] = set()
    for notes, face, slot in checked:
        if (slot.sheet, slot.index) in seen:  # another copy of a card already checked
            continue
        seen.add((slot.sheet, slot.index))
        sheet = sheets[slot.sheet]
        tile = cut_slot(sheet, slot)
        size = (SMALL, max(1, round(SMALL * tile.height / tile.width)))
        if (face, tile.size) not in wanted:
            with Image.open(face) as image:
                want = scaled(image, bleed_px, safe_px, tile.size)
            wanted[(face, tile.size)] = want, want.resize(size, Image.Resampling.BOX)
        want, small = wanted[(face, tile.size)]
        own = difference(tile, want)
        assert own < OWN, f"{notes['id']}: slot {slot.index} of {slot.sheet.name} is not its face ({own:.1f})"
        for edge in ((tile.width - 1, 0, tile.width, tile.height), (0, tile.height - 1, tile.width, tile.height),
                     (0, 0, 1, tile.height), (0, 0, tile.width, 1)):
            strip = difference(tile.crop(edge), want.crop(edge))
            assert strip < 4 * OWN, f"{notes['id']}: the edge {edge} of its slot is not its face's ({strip:.1f})"
        own_small = difference(small, tile.resize(size, Image.Resampling.BOX))
        mine = expected[(slot.sheet, slot.index)]
        for index in range(slot.columns * slot.rows):
            if expected.get((slot.sheet, index)) == mine:
                continue
            if (slot.sheet, index) not in small_slots:
                small_slots[(slot.sheet, index)] = cut_slot(sheet, slot, index).resize(size, Image.Resampling.BOX)
            other = difference(small, small_slots[(slot.sheet, index)])
            assert other > 2 * own_small + 1, (f"{notes['id']}: slot {index} of {slot.sheet.name} looks as much "
                                               f"like its face ({other:.1f}) as its own slot {slot.index}")
    return len(checked)
