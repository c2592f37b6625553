"""What a player sees in TTS: every card of a built save shows its own face and back (not its neighbour's),
in SCORE! and in a deck of several sheets and two components; sheets keep within TTS's 10 x 7 grid, and
the tiles on them are cut to the whole slot."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from PIL import Image

from conftest import ROOT, run_cli
from deckpress import inputs
from deckpress.deck import load_deck
from deckpress.faces import plan_faces, read_tile
from deckpress.render import mm_to_px
from deckpress.builders.tts.sheets import plan_sheets
from tts_slots import TTS_COLUMNS, TTS_ROWS, check_every_card_shows_its_face, image_path, states


def faces_of(deck_file: Path, out: Path, side: str = "front") -> dict[tuple[str, str], Path]:
    """(component id, card id) -> the file of the card's front (or back) in the build `out`."""
    deck = load_deck(deck_file)
    faces = plan_faces(deck)
    found = {}
    for component in deck.model.components:
        for card in component.cards:
            face = faces.front(component, card) if side == "front" else faces.back(component, card)
            if face is not None:
                found[(component.id, card.id)] = out / face.path
    return found


def colour(n: int) -> str:
    """A colour of its own for card n (n < 125): five levels of red, green and blue."""
    return "#%02x%02x%02x" % (n // 25 * 60, n // 5 % 5 * 60, n % 5 * 60)


CARDS = 80  # more than a sheet holds
FIELDS = "{colour: {doc: Ink.}, row: {doc: Row., type: integer}}"
BIG = ", ".join(f"{{name: Card {n}, colour: '{colour(n)}', row: {n % 7}, back: back-{'ab'[n % 2]}, "
                f"count: {1 + (n % 9 == 0)}}}" for n in range(CARDS))
DECK = f"""\
game: {{name: Slots, players: {{min: 2, max: 4}}}}
card_size: mini
components:
  - {{id: big, name: Big, template: patch, back: back-a, fields: {FIELDS}, cards: [{BIG}]}}
  - {{id: extra, name: Extra, optional: true, template: patch, back: back-a, fields: {FIELDS},
     cards: [{{name: X1, colour: '#ffffff', row: 1}}, {{name: X2, colour: '#000000', row: 5}}]}}
tts: {{image_format: FORMAT}}
print: {{profiles: []}}
"""
TEMPLATES = {
    "patch": "elements:\n  - {type: rect, box: bleed, fill: '{{ card.colour }}'}\n"
             "  - {type: rect, x: 5, y: '{{ 4 + card.row * 7 }}', w: 30, h: 5, fill: '#ff00ff'}\n",
    "back-a": "elements:\n  - {type: rect, box: bleed, fill: '#802020'}\n",
    "back-b": "elements:\n  - {type: rect, box: bleed, fill: '#208020'}\n"
              "  - {type: rect, x: 5, y: 5, w: 9, h: 9, fill: '#ffffff'}\n",
}


@pytest.fixture(scope="module", params=["jpeg", "png"])
def slots(tmp_path_factory, request) -> Path:
    """A project of CARDS cards, each a colour and a bar of its own, on several sheets, with two backs, its
    sheets JPEGs (spliced) or PNGs (composed); built once; returns the project."""
    root = tmp_path_factory.mktemp("slots")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "decks" / "slots.yaml").write_text(DECK.replace("FORMAT", request.param), encoding="utf-8")
    for name, text in TEMPLATES.items():
        (root / "templates" / f"{name}.yaml").write_text(text, encoding="utf-8")
    result = run_cli("build", "slots", "--quiet", cwd=root)
    assert result.exit_code == 0, result.stderr
    return root


def test_every_card_shows_its_own_face_and_back_on_every_sheet(slots):
    deck, out = slots / "decks" / "slots.yaml", slots / "build" / "slots"
    save = json.loads((out / "tts" / "slots.json").read_text(encoding="utf-8"))
    model = load_deck(deck).model
    bleed, safe = mm_to_px(model.bleed), mm_to_px(model.safe)
    big = [s for s in save["ObjectStates"] if "big" in s["Tags"]]
    assert len(big[0]["CustomDeck"]) >= 2  # several sheets
    copies = CARDS + CARDS // 9 + 1  # every ninth card twice, from card 0
    assert check_every_card_shows_its_face(save, faces_of(deck, out), bleed, safe) == copies + 2
    backs = faces_of(deck, out, "back")
    assert check_every_card_shows_its_face({"ObjectStates": big}, backs, bleed, safe, side="BackURL") == copies


def test_a_sheets_slots_are_cropped_within_half_the_safe_margin_and_resampled_past_it(tmp_path):
    """20 poker cards share a 5 x 4 sheet of 728 x 1024 px slots: 11 and 13 px short of the trim on a side.
    With the default 1/8 in safe margin each slot is its face cropped; with `safe: 1` (5.9 px a side) the
    same slots are resampled, and the incremental build after the change gives what a clean one does."""
    cards = ", ".join(f"{{name: Card {n}, colour: '{colour(n)}', row: {n % 7}}}" for n in range(20))
    (tmp_path / "decks").mkdir()
    (tmp_path / "templates").mkdir()
    deck = tmp_path / "decks" / "poker.yaml"
    deck.write_text(f"game: {{name: Poker, players: {{min: 2, max: 4}}}}\ncard_size: poker\ncomponents:\n"
                    f"  - {{id: deck, name: Deck, template: patch, back: back-a, fields: {FIELDS}, cards: [{cards}]}}\n"
                    f"print: {{profiles: []}}\n", encoding="utf-8")
    for name, text in TEMPLATES.items():
        (tmp_path / "templates" / f"{name}.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "build" / "poker"

    def check(safe_mm: float) -> bytes:
        assert run_cli("build", "--quiet", cwd=tmp_path).exit_code == 0
        save = json.loads((out / "tts" / "poker.json").read_text(encoding="utf-8"))
        entry = next(e for s in states(save["ObjectStates"]) for e in s.get("CustomDeck", {}).values())
        sheet = image_path(entry["FaceURL"])
        assert Image.open(sheet).size == (5 * 728, 4 * 1024)
        assert check_every_card_shows_its_face(save, faces_of(deck, out), mm_to_px(3.175), mm_to_px(safe_mm)) == 20
        return sheet.read_bytes()

    cropped = check(3.175)
    deck.write_text(deck.read_text(encoding="utf-8").replace("card_size: poker", "card_size: poker\nsafe: 1"),
                    encoding="utf-8")
    resampled = check(1)
    shutil.rmtree(tmp_path / "build")
    assert check(1) == resampled != cropped


def test_every_card_of_the_score_save_shows_its_own_face(built):
    save = json.loads((built / "tts" / "score.json").read_text(encoding="utf-8"))
    model = load_deck(ROOT / "decks" / "score.yaml").model
    checked = check_every_card_shows_its_face(save, faces_of(ROOT / "decks" / "score.yaml", built),
                                              mm_to_px(model.bleed), mm_to_px(model.safe))
    assert checked == 42 + sum(s["Name"] == "Card" and "reminders" in s["Tags"] for s in save["ObjectStates"]) > 42


@pytest.mark.parametrize("face", [(40, 60), (731, 1024), (1024, 731), (300, 300)])
def test_no_sheet_has_more_than_ten_columns_or_seven_rows(face):
    """TTS's limit is 10 x 7 (its knowledge base); small faces fill a sheet to that limit and no further."""
    for count in range(1, 160):
        grids = plan_sheets(count, *face)
        assert sum(g.slots for g in grids) >= count
        for grid in grids:
            assert 1 <= grid.columns <= TTS_COLUMNS and 1 <= grid.rows <= TTS_ROWS, (count, grid)
            assert max(grid.size) <= 4096  # px: TTS's knowledge base, larger textures fail on many GPUs
    full = plan_sheets(TTS_COLUMNS * TTS_ROWS, 40, 60)
    assert [(g.columns, g.rows) for g in full] == [(TTS_COLUMNS, TTS_ROWS)]
    assert len(plan_sheets(TTS_COLUMNS * TTS_ROWS + 1, 40, 60)) == 2


@pytest.mark.parametrize("face, limit", [((750, 1050), (825, 1125)), ((744, 1039), None), ((413, 591), (488, 666)),
                                         ((1050, 750), (1125, 825)), ((300, 300), (300, 300)), ((40, 60), None),
                                         ((5, 9), (6, 9))])
def test_a_slot_is_whole_jpeg_blocks_nearest_to_the_card_scaled(face, limit):
    """A slot's sides are multiples of 8 px (a JPEG sheet is spliced from its slots' blocks), at least 8:
    the multiple of 8 nearest to the trim scaled to the grid, the one below where the nearest would pass
    4096 px for the grid or the face's pixels with its bleed (a slot at the trim's size is cropped)."""
    width, height = limit or face
    for count in (1, 2, 7, 15, 20, 21, 42, 69, 70, 71, 150, 1000):
        for grid in plan_sheets(count, *face, limit=limit):
            scale = min(1.0, 4096 / (grid.columns * face[0]), 4096 / (grid.rows * face[1]))
            for side, ideal, cap in ((grid.card_w, face[0] * scale, min(4096 // grid.columns, width)),
                                     (grid.card_h, face[1] * scale, min(4096 // grid.rows, height))):
                assert side % 8 == 0 and side >= 8, (count, grid)
                assert side <= cap or side == 8, (count, grid)
                assert abs(side - ideal) <= 4 or side + 8 > cap >= side or ideal < 4, (count, grid, ideal)


def test_a_slot_about_the_trims_size_is_the_face_cropped_about_its_centre():
    """A poker face (825 x 1125 px, 37.5 px of bleed: a 750 x 1050 trim) at 752 x 1048 is its pixels from
    (36, 38): 1 px into the bleed left and right, 1 px of the trim off at the top and bottom. Smaller slots
    are crops too while they cut at most the allowance off the trim on a side (half the safe margin, at most
    1/16 in: 18.75 px for the default 1/8 in margin), as a cutter may; a slot reaching more than 3.5 px into
    the bleed, or past the face, is resampled, as is one cutting more than the allowance."""
    from deckpress.faces import crop_allowance, crop_box, cut

    assert crop_allowance(3.175) == 18.75 and crop_allowance(2.0) == pytest.approx(11.81, abs=0.01)
    assert crop_allowance(0) == 3.5  # a deck without a safe margin: its tiles at most 3.5 px off the trim
    assert crop_box((825, 1125), 37.5, (752, 1048), 18.75) == (36, 38, 788, 1086)
    assert crop_box((825, 1125), 37.5, (750, 1050), 18.75) == (38, 38, 788, 1088)  # a token: the trim
    assert crop_box((825, 1125), 37.5, (744, 1056), 18.75) == (40, 34, 784, 1090)
    assert crop_box((825, 1125), 37.5, (728, 1024), 18.75) == (48, 50, 776, 1074)  # 1,000 cards' slot: 13 px off
    assert crop_box((825, 1125), 37.5, (720, 1016), 18.75) == (52, 54, 772, 1070)  # 17 px off a side
    assert crop_box((825, 1125), 37.5, (712, 1048), 18.75) is None  # 19 px off the left and right
    assert crop_box((825, 1125), 37.5, (728, 1024), 11.81) is None  # a 2 mm safe margin: at most 11.8 px
    assert crop_box((825, 1125), 37.5, (760, 1048), 18.75) is None  # 5 px into the bleed
    assert crop_box((825, 1125), 37.5, (758, 1048), 18.75) is None  # 4 px into it: past INTO_BLEED_PX (3.5)
    assert crop_box((825, 1125), 37.5, (742, 1048), 3.5) is None  # no safe margin: 4 px off a side
    assert crop_box((744, 1039), 0, (744, 1040), 18.75) is None  # no bleed to reach into
    face = Image.effect_noise((825, 1125), 50).convert("RGB")
    assert cut(face, 37.5, (752, 1048), 18.75).tobytes() == face.crop((36, 38, 788, 1086)).tobytes()
    assert cut(face, 37.5, (728, 1024), 18.75).tobytes() == face.crop((48, 50, 776, 1074)).tobytes()
    face = Image.new("RGB", (825, 1125), (255, 0, 0))
    face.paste((0, 0, 255), (37, 37, 788, 1088))  # the trim blue, the bleed red (the trim's edge pixels blue)
    assert cut(face, 37.5, (704, 1000), 18.75).getcolors() == [(704 * 1000, (0, 0, 255))]  # the trim resampled


def test_the_score_save_keeps_within_the_tts_grid(built):
    save = json.loads((built / "tts" / "score.json").read_text(encoding="utf-8"))
    entries = [e for s in states(save["ObjectStates"]) for e in s.get("CustomDeck", {}).values()]
    assert entries and all(e["NumWidth"] <= TTS_COLUMNS and e["NumHeight"] <= TTS_ROWS for e in entries)


def test_every_tile_is_cut_to_its_whole_slot(built):
    """A tile kept in cache/ is exactly the size its name gives (the slot it fills on a sheet, or its card
    on a thumbnail): a tile a pixel short would leave a seam of another colour on every card. A JPEG sheet's
    slots are JPEG tiles of the deck's quality, whole blocks of 8 px."""
    tiles = sorted((built / "cache").rglob("*@*.zst"))
    jpegs = sorted((built / "cache").rglob("*@*q90.jpg"))
    assert len(tiles) >= 5 and len(jpegs) >= 20  # the thumbnails' cards; the unique cards, the reminders, the backs
    for tile in tiles:
        width, height = map(int, re.fullmatch(r".*@(\d+)x(\d+)\.zst", tile.name).groups())
        assert read_tile(tile).size == (width, height), tile.name
    for tile in jpegs:
        width, height = map(int, re.fullmatch(r".*@(\d+)x(\d+)q90\.jpg", tile.name).groups())
        assert width % 8 == height % 8 == 0, tile.name
        with Image.open(tile) as image:
            assert (image.format, image.size) == ("JPEG", (width, height)), tile.name


def test_every_image_the_save_names_is_named_for_its_content_and_thumbnails_are_256_px(built):
    """TTS caches an image by its URL for ever: a changed image must come under a new name, so each name holds
    its file's sha256 (12 hex digits). TTS shows saves and saved objects by a 256 x 256 PNG beside them."""
    import hashlib

    save = json.loads((built / "tts" / "score.json").read_text(encoding="utf-8"))
    urls = {url for s in states(save["ObjectStates"]) for e in s.get("CustomDeck", {}).values()
            for url in (e["FaceURL"], e["BackURL"])}
    assert urls
    for url in urls:
        file = image_path(url)
        assert file.parent == built / "tts" / "assets"
        assert f"-{hashlib.sha256(file.read_bytes()).hexdigest()[:12]}." in file.name, file.name
    thumbnails = [built / "tts" / "score.png", *sorted((built / "tts" / "saved-objects").glob("*.png"))]
    assert len(thumbnails) >= 3
    for thumbnail in thumbnails:
        with Image.open(thumbnail) as image:
            assert image.size == (256, 256), thumbnail.name


def test_the_manifest_reads_no_image_the_tts_builder_hashed_as_it_wrote_it(tmp_path, monkeypatch):
    """The TTS builder hashes each image it writes into tts/assets/ (its name holds the digest): the manifest
    takes that digest, through Records.hashed, and reads none of them again; the digest is the file's."""
    project = tmp_path / "game"
    assert run_cli("new", str(project), "--name", "Game").exit_code == 0
    deck = project / "decks" / "game.yaml"
    read: list[Path] = []
    sha256_file = inputs.sha256_file

    def reading(path: Path) -> str:
        read.append(Path(path))
        return sha256_file(path)
    monkeypatch.setattr(inputs, "sha256_file", reading)
    for edit in (None, ("name: Wild", "name: Wilder")):
        if edit is not None:
            deck.write_text(deck.read_text(encoding="utf-8").replace(*edit, 1), encoding="utf-8")
        read.clear()
        assert run_cli("build", "--quiet", cwd=project).exit_code == 0
        built = project / "build" / "game"
        manifest = json.loads((built / "manifest.json").read_text(encoding="utf-8"))["artifacts"]
        assets = sorted((built / "tts" / "assets").iterdir())
        assert assets and not [p for p in read if p.parent.name == "assets"], read
        for image in assets:
            assert manifest[f"tts/assets/{image.name}"]["sha256"] == sha256_file(image)
