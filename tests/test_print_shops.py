"""Print-shop output: the drivethrucards profile's one-card-per-page PDFs, and the image sets of the
makeplayingcards and thegamecrafter profiles, opened and measured."""

from __future__ import annotations

import csv
import hashlib
import io
import re
import shutil
import subprocess
import textwrap

import numpy as np
import pikepdf
import pytest
from PIL import Image, ImageCms
from pypdf import PdfReader

from conftest import run_cli
from deckpress.errors import DeckError
from deckpress.builders.pdf.canvas import new_canvas, save
from deckpress.builders.pdf.pdffile import Layout
from deckpress.builders.pdf.pdfx import SHIPPED_PROFILE, Cmyk, limit_ink
from helpers.builds import URL, edit, identities, tree
from helpers.pdf import build_pdfs, placements

MM = 72 / 25.4

DECK = """\
game: {name: Shop test, language: en, players: {min: 2, max: 4}}
card_size: poker
components:
  - id: cards
    name: Cards
    template: plain
    back: plain-back
    cards:
      - {name: Ace, count: 2}
      - {name: King, count: 1}
      - {name: Spare, count: 0}
  - id: chips
    name: Chips
    type: tokens
    shape: circle
    size: {width: 20, height: 20}
    template: plain
    cards:
      - {name: "1", count: 4}
print:
  profiles: [drivethrucards, makeplayingcards, thegamecrafter]
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("shop")
    (root / "decks").mkdir()
    (root / "templates").mkdir()
    (root / "templates" / "plain.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#336699"}
          - {type: rect, box: trim, fill: "#eeeeee"}
          - {type: rect, x: 5, y: 5, w: 20, h: 10, fill: "#000000"}
          - {type: rect, x: 30, y: 5, w: 20, h: 10, fill: "#00ff00"}
          - {type: text, box: safe, text: "{{ card.name }}", size: 12}
        """), encoding="utf-8")
    (root / "templates" / "plain-back.yaml").write_text(textwrap.dedent("""\
        elements:
          - {type: rect, box: bleed, fill: "#aa3333"}
        """), encoding="utf-8")
    (root / "decks" / "shop.yaml").write_text(DECK, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def shop(project, tmp_path_factory):
    """The project has no print/ folder: the shop profiles are deckpress's own."""
    return build_pdfs(project, "shop", tmp_path_factory.mktemp("out") / "shop")


def test_files(shop):
    names = sorted(p.relative_to(shop).as_posix() for p in shop.rglob("*") if p.is_file())
    assert names == sorted([
        "shop-drivethrucards-cards.pdf",  # one PDF per deck of cards; tokens are no card deck
        "shop-makeplayingcards/chips/1.png", "shop-makeplayingcards/chips/cards.csv",
        "shop-makeplayingcards/cards/ace.png", "shop-makeplayingcards/cards/back.png",
        "shop-makeplayingcards/cards/cards.csv", "shop-makeplayingcards/cards/king.png",
        "shop-thegamecrafter/cards/ace.png", "shop-thegamecrafter/cards/back.png",
        "shop-thegamecrafter/cards/cards.csv", "shop-thegamecrafter/cards/king.png",
    ])


def test_drivethrucards_one_card_per_page_back_then_front(shop):
    reader = PdfReader(str(shop / "shop-drivethrucards-cards.pdf"))
    assert len(reader.pages) == 2 * 3  # every copy (2 aces, 1 king), back and front
    ids = []
    for page in reader.pages:
        # 2.75 x 3.75 in: the poker card with 1/8 in bleed on every side
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((198, 270), abs=0.01)
        trim = page.trimbox
        assert (float(trim.left), float(trim.bottom), float(trim.right), float(trim.top)) == pytest.approx(
            (9, 9, 189, 261), abs=0.01)
        (image,) = placements(reader, page)
        assert (image["x"], image["y"], image["w"], image["h"]) == pytest.approx((0, 0, 198, 270), abs=0.01)
        ids.append(image["id"])
    back, ace, king = ids[0], ids[1], ids[5]
    assert ids == [back, ace, back, ace, back, king]
    assert len({back, ace, king}) == 3
    text = "".join(page.extract_text() for page in reader.pages)
    assert text.strip() == ""  # no marks, labels or guides on a shop's page


def _cmyk_pixels(xobject) -> np.ndarray:
    assert xobject["/ColorSpace"] == "/DeviceCMYK" and xobject["/BitsPerComponent"] == 8
    data = np.frombuffer(xobject.get_data(), dtype=np.uint8)
    return data.reshape(int(xobject["/Height"]), int(xobject["/Width"]), 4).astype(int)


def test_drivethrucards_is_pdf_x_1a_in_cmyk(shop):
    """What a prepress check of PDF/X-1a:2003 (ISO 15930-4) looks at, and the 240 % of total ink
    OneBookShelf's card specifications allow, measured on every pixel."""
    path = shop / "shop-drivethrucards-cards.pdf"
    data = path.read_bytes()
    header, binary = data.split(b"\n")[:2]
    assert header == b"%PDF-1.4" and binary[:1] == b"%" and all(b > 127 for b in binary[1:]) and len(binary) >= 5
    reader = PdfReader(str(path))
    identifier = hashlib.md5(data[:data.rindex(b"trailer\n")]).digest()  # the bytes before the trailer
    assert [half.original_bytes for half in reader.trailer["/ID"]] == [identifier, identifier]
    info = reader.trailer["/Info"]
    assert info["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert info["/Trapped"] == "/False"
    assert info["/Title"] and info["/CreationDate"] and info["/ModDate"]
    root = reader.trailer["/Root"]
    assert "/ViewerPreferences" not in root  # PDF 1.6 and 1.7 keys
    (intent,) = [i.get_object() for i in root["/OutputIntents"]]
    assert intent["/Type"] == "/OutputIntent" and intent["/S"] == "/GTS_PDFX"
    assert intent["/OutputConditionIdentifier"] == "FOGRA39"
    assert intent["/RegistryName"] == "http://www.color.org"
    icc = intent["/DestOutputProfile"].get_object()
    assert icc["/N"] == 4
    profile = ImageCms.ImageCmsProfile(io.BytesIO(icc.get_data()))
    assert profile.profile.xcolor_space == "CMYK" and profile.profile.device_class == "prtr"
    assert icc.get_data() == SHIPPED_PROFILE.read_bytes()
    assert "240%" in ImageCms.getProfileDescription(profile)
    images = {}
    for page in reader.pages:
        media = [float(v) for v in page.mediabox]
        trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
        assert "/TrimBox" in page and "/BleedBox" in page
        assert trim == pytest.approx([9, 9, 189, 261], abs=0.01)
        assert bleed == pytest.approx(media, abs=0.01)
        assert "/Group" not in page  # no transparency group
        for name, ref in page["/Resources"]["/XObject"].items():
            xobject = ref.get_object()
            assert "/SMask" not in xobject and "/Mask" not in xobject
            images[ref.idnum] = _cmyk_pixels(xobject)
    assert b"/SMask" not in path.read_bytes() and b"/CA " not in path.read_bytes()
    assert len(images) == 3  # the back, the ace and the king, each stored once
    totals = [pixels.sum(axis=2) for pixels in images.values()]
    most = max(int(t.max()) for t in totals)
    assert most <= 240 * 255 // 100  # 612: 240 % of total ink
    assert most >= 600  # the black box reaches the limit: the conversion does not go light


def test_drivethrucards_passes_qpdfs_check_and_pdfinfo(shop):
    """Read by two other PDF libraries: qpdf (through pikepdf) finds nothing to repair and no syntax to warn of,
    poppler's pdfinfo reports PDF 1.4 and PDF/X-1a:2003 without an error; and it is laid out as deckpress
    reads a file (objects in order, one cross-reference table)."""
    path = shop / "shop-drivethrucards-cards.pdf"
    with pikepdf.open(path) as pdf:
        assert pdf.check_pdf_syntax() == [] and pdf.get_warnings() == []
        assert pdf.pdf_version == "1.4" and len(pdf.pages) == 6
        assert len(pdf.Root.OutputIntents[0].DestOutputProfile.read_bytes()) == len(SHIPPED_PROFILE.read_bytes())
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    assert info.stderr == ""
    fields = dict(re.findall(r"^([^:\n]+):\s+(.*)$", info.stdout, re.M))
    assert fields["PDF version"] == "1.4" and fields["PDF subtype"] == "PDF/X-1a:2003" and fields["Pages"] == "6"
    assert Layout.read(path.read_bytes()) is not None


def test_drivethrucards_bytes_are_the_same_from_build_to_build_and_after_an_edit(project, tmp_path):
    """Two clean builds in two folders write the same PDF/X bytes; after a face's edit the rebuilt file (the
    previous build beside it) is byte for byte a clean build's, and not the previous one."""
    copies = {}
    for name in ("one", "two", "clean"):
        copies[name] = tmp_path / name
        shutil.copytree(project, copies[name])
    target = "build/shop/print/shop-drivethrucards-cards.pdf"

    def build(root):
        result = run_cli("build", "shop", "--quiet", cwd=root)
        assert result.exit_code == 0, result.stderr
        return (root / target).read_bytes()

    first = build(copies["one"])
    assert build(copies["two"]) == first
    for root in (copies["one"], copies["clean"]):
        template = root / "templates" / "plain.yaml"
        template.write_text(template.read_text(encoding="utf-8").replace("#00ff00", "#ff00ff"), encoding="utf-8")
    edited = build(copies["one"])
    assert edited != first and edited == build(copies["clean"])
    assert PdfReader(io.BytesIO(edited)).trailer["/ID"][0] != PdfReader(io.BytesIO(first)).trailer["/ID"][0]


def test_an_edit_converts_only_the_faces_it_changed_and_builds_what_a_clean_build_does(project, tmp_path):
    """The faces of a PDF/X file are converted to CMYK once and kept in cache/cmyk/: after a template's edit that
    changes the King's face alone, only that face is converted again, the others taken from the previous build
    (hard links of its files, as the faces are); after a build that changes only the TTS mod (another
    --asset-url), the PDF/X files and their kept faces are taken as they are. Each time the build is a clean
    build's, file for file (with an --asset-url: without one, a TTS save names the images by their place on
    disk)."""
    root = tmp_path / "edited"
    shutil.copytree(project, root)

    def build(folder, *options):
        result = run_cli("build", "shop", "--quiet", *options, cwd=folder)
        assert result.exit_code == 0, result.stderr
        return tree(folder / "build" / "shop")

    def kept():
        return identities(root / "build" / "shop" / "cache" / "cmyk")

    def clean(*options):
        fresh = tmp_path / f"clean-{len(list(tmp_path.glob('clean-*')))}"
        shutil.copytree(root, fresh, ignore=shutil.ignore_patterns("build"))
        return build(fresh, *options)

    build(root, "--asset-url", URL)
    before = kept()
    assert sorted(name.split("@")[0] for name in before) == ["faces/cards/ace", "faces/cards/back", "faces/cards/king"]
    edit(root / "templates" / "plain.yaml", 'text: "{{ card.name }}"',
         'text: "{{ card.name }}{{ \'!\' if card.name == \'King\' }}"')
    assert build(root, "--asset-url", URL) == clean("--asset-url", URL)
    after = kept()
    assert [n.split("@")[0] for n in after if after[n] != before.get(n)] == ["faces/cards/king"]
    assert sorted(n.split("@")[0] for n in after if after[n] == before.get(n)) == ["faces/cards/ace",
                                                                                   "faces/cards/back"]
    assert build(root, "--asset-url", "https://example.org/shop/") == clean("--asset-url", "https://example.org/shop/")
    assert kept() == after


class Named(Cmyk):
    """The shipped profile under a name of the user's, with non-ASCII letters and PDF's special characters."""

    @property
    def condition(self):
        return "Custom", "Épreuve \u2014 FOGRA39 (240 %) \\ \u0416", "a registry) \\n (of its own"


def test_the_output_intent_names_a_profile_in_any_characters(tmp_path):
    """A profile's description outside ASCII is written as UTF-16 and read back as it was; parentheses and a
    backslash in an ASCII one are escaped."""
    canvas = new_canvas((20, 20), "Title", "Author", "Subject", pdfx=True)
    canvas.showPage()
    save(canvas, tmp_path / "named.pdf", pdfx=Named(SHIPPED_PROFILE, 240))
    reader = PdfReader(tmp_path / "named.pdf")
    (intent,) = [i.get_object() for i in reader.trailer["/Root"]["/OutputIntents"]]
    assert intent["/OutputCondition"] == intent["/Info"] == "Épreuve \u2014 FOGRA39 (240 %) \\ \u0416"
    assert intent["/RegistryName"] == "a registry) \\n (of its own" and intent["/OutputConditionIdentifier"] == "Custom"
    assert reader.trailer["/Info"]["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    with pikepdf.open(tmp_path / "named.pdf") as pdf:
        assert pdf.check_pdf_syntax() == [] and pdf.get_warnings() == []


def test_drivethrucards_colours_go_through_the_profile(shop):
    """The trim's light grey and the black box print as the profile separates them: black mostly K, the
    grey light, the white-ish trim no heavy ink; and the faces' bright green leaves the gamut softened
    into a printable green (cyan and yellow, little magenta)."""
    reader = PdfReader(str(shop / "shop-drivethrucards-cards.pdf"))
    ace = next(iter(reader.pages[1]["/Resources"]["/XObject"].values())).get_object()
    pixels = _cmyk_pixels(ace)
    px = 300 / 25.4
    bleed = 3.175

    def at(x_mm, y_mm):  # a pixel at a place of the trim box, top-left origin
        return pixels[round((y_mm + bleed) * px), round((x_mm + bleed) * px)]

    black, green, grey = at(15, 10), at(40, 10), at(55, 80)
    assert black[3] >= 200 and black.sum() <= 612
    assert green[0] > 100 and green[2] > 100 and green[1] < 40 and green[3] < 40
    assert grey.sum() < 60
    # exactly what the shipped profile's perceptual table makes of the template's colours
    perceptual = ImageCms.buildTransform(ImageCms.createProfile("sRGB"), ImageCms.ImageCmsProfile(
        str(SHIPPED_PROFILE)), "RGB", "CMYK", ImageCms.Intent.PERCEPTUAL)
    for pixel, rgb in ((black, "#000000"), (green, "#00ff00"), (grey, "#eeeeee")):
        assert tuple(pixel) == perceptual.apply(Image.new("RGB", (1, 1), rgb)).getpixel((0, 0))
    assert (pixels[:2, :2] == at(-3, -3)).all()  # the bleed is there, converted too


def test_a_users_cmyk_profile_and_ink_limit(project, tmp_path):
    """A project's own profile file and a lower ink limit are used as given; the OutputIntent then names
    the profile by its description."""
    root = tmp_path / "p"
    shutil.copytree(project, root)
    (root / "print").mkdir()
    shutil.copy(SHIPPED_PROFILE, root / "print" / "shop.icc")
    (root / "print" / "drivethrucards.yaml").write_text(
        "output: cards\npdfx: true\ncmyk_profile: shop.icc\nink_limit: 150\n", encoding="utf-8")
    out = build_pdfs(root, "shop", tmp_path / "out")
    reader = PdfReader(str(out / "shop-drivethrucards-cards.pdf"))
    (intent,) = [i.get_object() for i in reader.trailer["/Root"]["/OutputIntents"]]
    assert intent["/OutputConditionIdentifier"] == "Custom"
    assert "FOGRA39" in intent["/OutputCondition"]
    xobject = next(iter(reader.pages[1]["/Resources"]["/XObject"].values())).get_object()
    total = _cmyk_pixels(xobject).sum(axis=2)
    assert 370 <= total.max() <= 150 * 255 // 100


@pytest.mark.parametrize("icc, message", [
    (b"not a profile at all", "is not an ICC profile"),
    ("srgb", "is an ICC profile of RGB colour, not CMYK"),
])
def test_a_cmyk_profile_that_is_none_is_a_located_error(project, tmp_path, icc, message):
    root = tmp_path / "p"
    shutil.copytree(project, root)
    (root / "print").mkdir()
    if icc == "srgb":
        icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    (root / "print" / "shop.icc").write_bytes(icc)
    (root / "print" / "drivethrucards.yaml").write_text("output: cards\npdfx: true\ncmyk_profile: shop.icc\n",
                                                        encoding="utf-8")
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "shop", tmp_path / "out")
    assert "drivethrucards.yaml:3:15:" in str(err.value) and message in str(err.value)


def test_check_warns_of_faces_that_leave_the_cmyk_gamut(project, tmp_path):
    """The fronts hold a pure green box and a black one (each 3.5 % of the face): the green lies far
    outside what FOGRA39 inks print, the black prints lighter at 240 % of ink; check warns of the fronts
    the drivethrucards PDF prints (not the unprinted spare, not the tokens) in one line at the component's
    line, with their count and the worst. The red back prints close enough; without the two boxes nothing
    warns."""
    root = tmp_path / "p"
    shutil.copytree(project, root)
    result = run_cli("check", "shop", cwd=root)
    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "\u0394E 10" in line]
    assert len(warnings) == 1, result.stderr
    found = re.fullmatch(r"decks/shop\.yaml:4:5: warning: soft proof \(drivethrucards\): 2 of 3 faces of cards "
                         r"change colour by more than \u0394E 10 in CMYK, most '(ace|king)' \((\d+)% of it\): colours "
                         r"outside what inks print come out duller; `deckpress preview shop --profile "
                         r"drivethrucards` shows them", warnings[0])
    assert found and int(found[2]) > 1, warnings[0]
    strict = run_cli("check", "shop", "--strict", cwd=root)  # for CI: a warning fails the check
    said = [line for line in result.stderr.splitlines() if ": warning: " in line]
    assert strict.exit_code == 1 and strict.stderr.splitlines() == [*said, f"decks/shop.yaml: {len(said)} warnings, "
                                                                            "errors with --strict"]
    assert "ok (" not in strict.stdout
    template = root / "templates" / "plain.yaml"
    template.write_text(template.read_text(encoding="utf-8").replace("#00ff00", "#336699")
                        .replace("#000000", "#336699"), encoding="utf-8")
    assert "\u0394E" not in run_cli("check", "shop", cwd=root).stderr


def test_check_draws_each_face_once_for_the_gamut_warning_too(project, tmp_path, monkeypatch):
    """The gamut warning is measured on the faces `check` draws anyway: every face is drawn once (the deck
    is small enough to be drawn in this process), and the warnings are there."""
    from collections import Counter

    from deckpress.faces import FaceStage

    root = tmp_path / "p"
    shutil.copytree(project, root)
    drawn, work = Counter(), FaceStage.work

    def counting(self, job):
        drawn[job.face.path] += job.draw
        return work(self, job)

    monkeypatch.setattr(FaceStage, "work", counting)
    result = run_cli("check", "shop", cwd=root)
    assert result.exit_code == 0, result.stderr
    assert [line for line in result.stderr.splitlines() if "\u0394E 10" in line][0].split(": ")[2] == \
        "soft proof (drivethrucards)"
    assert drawn and set(drawn.values()) == {1}, drawn


def test_check_warns_of_a_deck_between_makeplayingcards_tiers(project, tmp_path):
    """3 cards are priced as MakePlayingCards' smallest deck, 18; at 18 exactly nothing warns."""
    root = tmp_path / "p"
    shutil.copytree(project, root)
    lines = [w for w in run_cli("check", "shop", cwd=root).stderr.splitlines() if "deck sizes" in w]
    assert lines == ["decks/shop.yaml:4:5: warning: cards: 3 cards fall between makeplayingcards's deck sizes: "
                     "paid as 18, so 15 more would cost nothing (sizes: 18, 36, 55, 72, 90, 108, 126, 144, 162, "
                     "180, 198, 216, 234, 396, 504, 612)"]
    deck = root / "decks" / "shop.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("{name: King, count: 1}", "{name: King, count: 16}"),
                    encoding="utf-8")
    assert "deck sizes" not in run_cli("check", "shop", cwd=root).stderr


def test_preview_soft_proof_shows_the_print(project, tmp_path):
    root = tmp_path / "p"
    shutil.copytree(project, root)
    for args, name in ((("--card", "ace"), "screen.png"), (("--card", "ace", "--profile", "drivethrucards"),
                                                            "proof.png")):
        result = run_cli("preview", "shop", *args, "--out", str(tmp_path / name), cwd=root)
        assert result.exit_code == 0, result.stderr
    with Image.open(tmp_path / "screen.png") as screen, Image.open(tmp_path / "proof.png") as proof:
        px = 300 / 25.4
        at = (round((40 + 3.175) * px), round((10 + 3.175) * px))  # in the green box
        assert screen.getpixel(at)[:3] == (0, 255, 0)
        r, g, b = proof.getpixel(at)[:3]
        assert g < 215 and r > 60  # the green as FOGRA39 inks print it: duller
        grey = (round((55 + 3.175) * px), round((80 + 3.175) * px))
        assert max(abs(u - v) for u, v in zip(screen.getpixel(grey)[:3], proof.getpixel(grey)[:3])) <= 6
    result = run_cli("preview", "shop", "--profile", "thegamecrafter", cwd=root)
    assert result.exit_code == 1 and "prints the faces as they are drawn" in result.stderr


def test_limit_ink_keeps_what_is_within_and_shrinks_what_is_not():
    image = Image.new("CMYK", (3, 1))
    image.putdata([(255, 255, 255, 255), (10, 20, 30, 40), (200, 0, 200, 255)])
    limited = limit_ink(image, 240)
    c, m, y, k = zip(*(limited.getpixel((x, 0)) for x in range(3)))
    assert (c[1], m[1], y[1], k[1]) == (10, 20, 30, 40)
    assert k[0] == 255 and c[0] + m[0] + y[0] + k[0] <= 612 and c[0] == m[0] == y[0]
    assert k[2] == 255 and m[2] == 0 and c[2] == y[2] and c[2] + y[2] + 255 <= 612 and c[2] + y[2] + 255 > 608


def test_thegamecrafter_images_are_the_faces(shop):
    faces = shop.parent / "faces" / "cards"
    for name in ("ace.png", "king.png", "back.png"):
        image = shop / "shop-thegamecrafter" / "cards" / name
        assert Image.open(image).size == (825, 1125)
        assert image.read_bytes() == (faces / name).read_bytes()


def test_makeplayingcards_images_are_cut_to_36_px_of_bleed(shop):
    faces = shop.parent / "faces" / "cards"
    for name in ("ace.png", "king.png", "back.png"):
        with Image.open(shop / "shop-makeplayingcards" / "cards" / name) as image, Image.open(faces / name) as face:
            assert image.size == (822, 1122)
            assert image.info["dpi"] == pytest.approx((300, 300), abs=0.01)
            assert image.tobytes() == face.crop((1, 1, 823, 1123)).tobytes()
    with Image.open(shop / "shop-makeplayingcards" / "chips" / "1.png") as chip:
        assert chip.size == (236 + 72, 236 + 72)  # a 20 mm token: 236 px, plus 36 px each side


def test_image_lists_give_the_counts(shop):
    rows = list(csv.DictReader((shop / "shop-makeplayingcards" / "cards" / "cards.csv").open(encoding="utf-8")))
    assert rows == [{"front": "ace.png", "back": "back.png", "count": "2"},
                    {"front": "king.png", "back": "back.png", "count": "1"}]
    chips = list(csv.DictReader((shop / "shop-makeplayingcards" / "chips" / "cards.csv").open(encoding="utf-8")))
    assert chips == [{"front": "1.png", "back": "", "count": "4"}]


def test_image_bleed_beyond_the_faces_is_a_located_error(project, tmp_path):
    root = tmp_path / "p"
    shutil.copytree(project, root)
    (root / "print").mkdir()
    (root / "print" / "thegamecrafter.yaml").write_text("output: images\nimage_bleed: 5\n", encoding="utf-8")
    with pytest.raises(DeckError) as err:
        build_pdfs(root, "shop", tmp_path / "out")
    message = str(err.value)
    assert "thegamecrafter.yaml:2:14:" in message and "more than the deck's bleed" in message



def test_shop_output_is_deterministic(project, shop, tmp_path):
    again = build_pdfs(project, "shop", tmp_path / "shop")
    files = sorted(p.relative_to(shop) for p in shop.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again) for p in again.rglob("*") if p.is_file())
    for rel in files:
        assert (again / rel).read_bytes() == (shop / rel).read_bytes(), rel
