"""SVG art (deckpress.svg): drawn by resvg at the size it is painted, with `fit` and `color`, never reading
or fetching what an SVG refers to, and bounded."""

from __future__ import annotations

import base64
import gzip
import http.server
import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image

from bad_input.cases import png_header
from deckpress import svg
from deckpress.options import Invalid

NS = 'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
STRIPES = (f'<svg {NS} viewBox="0 0 30 15"><rect width="10" height="15" fill="#ff0000"/>'
           '<rect x="10" width="10" height="15" fill="#00ff00"/>'
           '<rect x="20" width="10" height="15" fill="#0000ff"/></svg>')
SQUARE = f'<svg {NS} width="10" height="10"><rect x="2.5" y="2.5" width="5" height="5" fill="#000"/></svg>'


def drawn(text: str, size=(600, 600), fit="contain") -> Image.Image:
    return svg.draw(svg.checked(text.encode(), "art.svg"), size, fit, "art.svg")


def test_an_svg_is_drawn_at_the_size_of_its_box_not_scaled_up():
    """A 10-pixel SVG in a 600-pixel box: its square's edges are as sharp as at its own resolution (an
    upscaled 10-pixel bitmap would blur each edge over 60 pixels)."""
    image = drawn(SQUARE)
    assert image.size == (600, 600) and image.mode == "RGBA"
    row = [image.getpixel((x, 300))[3] for x in range(600)]
    assert row[149] == 0 and row[150] == 255 and row[449] == 255 and row[450] == 0
    assert sum(0 < a < 255 for a in row) == 0


def test_fit_contain_cover_and_stretch():
    contain = drawn(STRIPES, (600, 600), "contain")
    assert contain.size == (600, 300)  # all of it, its shape kept: the painter centres it in the box
    assert contain.getpixel((50, 150))[:3] == (255, 0, 0) and contain.getpixel((550, 150))[:3] == (0, 0, 255)
    cover = drawn(STRIPES, (600, 600), "cover")
    assert cover.size == (600, 600)  # 1200 x 600 drawn, its middle kept: a quarter of red, all of green
    assert cover.getpixel((5, 300))[:3] == (255, 0, 0) and cover.getpixel((300, 300))[:3] == (0, 255, 0)
    assert cover.getpixel((595, 300))[:3] == (0, 0, 255)
    assert sum(cover.getpixel((x, 300))[:3] == (0, 255, 0) for x in range(600)) == pytest.approx(400, abs=2)
    stretch = drawn(STRIPES, (600, 600), "stretch")
    assert stretch.size == (600, 600)
    for x, colour in ((100, (255, 0, 0)), (300, (0, 255, 0)), (500, (0, 0, 255))):
        assert stretch.getpixel((x, 10))[:3] == colour and stretch.getpixel((x, 590))[:3] == colour


def test_cover_of_a_thin_svg_is_bounded():
    thin = f'<svg {NS} width="1" height="100000"><rect width="1" height="100000"/></svg>'
    with pytest.raises(Invalid, match="so tall"):
        drawn(thin, (3000, 3000), "cover")


def test_a_one_colour_svg_takes_the_colour_given():
    image = svg.recolour(drawn(SQUARE), (200, 30, 10), "art.svg")
    assert image.getpixel((300, 300)) == (200, 30, 10, 255) and image.getpixel((10, 10))[3] == 0
    faint = svg.recolour(drawn(SQUARE), (200, 30, 10, 128), "art.svg")
    assert faint.getpixel((300, 300)) == (200, 30, 10, 128)


def test_colour_refuses_an_svg_of_several_colours():
    """game-icons.net's default download is a white icon on a black square: recolouring it would paint a
    square; the message says how to get the one-colour icon."""
    with pytest.raises(Invalid, match="has 3 colours.*transparent background"):
        svg.recolour(drawn(STRIPES), (200, 30, 10), "art.svg")


@pytest.fixture
def resvg_never_runs(monkeypatch):
    import resvg_py

    def refuse(**_):
        raise AssertionError("resvg was given an SVG that refers outside itself")
    monkeypatch.setattr(resvg_py, "svg_to_bytes", refuse)


@pytest.mark.parametrize("href", ["{secret}", "file://{secret}", "../../../../../../..{secret}", "secret.png",
                                  "FILE:{secret}", " {secret}"])
@pytest.mark.parametrize("element", ['<image width="9" height="9" xlink:href="{href}"/>',
                                     '<image width="9" height="9" href="{href}"/>',
                                     '<filter id="f"><feImage href="{href}"/></filter>',
                                     '<use xlink:href="{href}#part"/>'])
def test_no_file_an_svg_names_is_read(tmp_path, monkeypatch, resvg_never_runs, href, element):
    """resvg itself would open any path an <image> or <feImage> names (tried with strace: /etc/passwd and
    ../../etc/shadow were opened); deckpress refuses such an SVG before resvg sees it."""
    secret = tmp_path / "secret.png"
    Image.new("RGB", (9, 9), (255, 0, 0)).save(secret)
    monkeypatch.chdir(tmp_path)
    text = f"<svg {NS} width=\"9\" height=\"9\">{element.format(href=href.format(secret=secret))}</svg>"
    with pytest.raises(Invalid, match="outside itself; deckpress reads nothing an SVG refers to"):
        drawn(text)


def test_no_url_an_svg_names_is_fetched(resvg_never_runs):
    requests = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            self.send_response(404)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_port}/art.png"
        for href in (url, url.replace("http:", "https:"), "//127.0.0.1:%d/x.png" % server.server_port):
            with pytest.raises(Invalid, match="outside itself"):
                drawn(f'<svg {NS} width="9" height="9"><image width="9" height="9" href="{href}"/></svg>')
    finally:
        server.shutdown()
        server.server_close()
    assert requests == []


def test_what_an_svg_holds_is_drawn():
    """An embedded bitmap (a data: URL) and references inside the document are drawn."""
    buffer = io.BytesIO()
    Image.new("RGB", (4, 4), (0, 0, 255)).save(buffer, "PNG")
    data = base64.b64encode(buffer.getvalue()).decode()
    text = (f'<svg {NS} width="10" height="10"><defs><rect id="r" width="5" height="10" fill="#f00"/></defs>'
            f'<use xlink:href="#r"/><image x="5" width="5" height="10" preserveAspectRatio="none" '
            f'href="data:image/png;base64,{data}"/></svg>')
    image = drawn(text, (100, 100))
    assert image.getpixel((20, 50))[:3] == (255, 0, 0) and image.getpixel((80, 50))[:3] == (0, 0, 255)


def test_svg_text_is_set_in_deckpress_s_own_fonts():
    text = f'<svg {NS} width="40" height="20"><text x="2" y="15" font-size="14">Ag</text></svg>'
    image = drawn(text, (400, 200))
    assert image.getchannel("A").getbbox() is not None


@pytest.mark.parametrize("text, message", [
    ("<svg", "not well-formed XML"),
    (f"<svg {NS}><rect></svg>", "not well-formed XML"),
    ("<html><body/></html>", "not an SVG"),
    ("", "not well-formed XML"),
    (f'<svg {NS} width="0" height="0"/>', "resvg cannot draw it"),
    (b"\xff\xfe<svg/>", "not UTF-8"),
])
def test_a_malformed_svg_is_one_message(text, message):
    data = text if isinstance(text, bytes) else text.encode()
    with pytest.raises(Invalid, match=message):
        svg.draw(svg.checked(data, "art.svg"), (100, 100), "contain", "art.svg")


def _laughs() -> str:
    entities = '<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {chr(98 + i)} "{("&" + chr(97 + i) + ";") * 10}">' for i in range(9))
    return f'<?xml version="1.0"?><!DOCTYPE svg [{entities}]><svg {NS}><text>&j;</text></svg>'


def _use_bomb() -> str:
    levels = "".join(f'<g id="u{i + 1}">' + f'<use xlink:href="#u{i}"/>' * 10 + "</g>" for i in range(9))
    return (f'<svg {NS} width="9" height="9"><defs><rect id="u0" width="1" height="1"/>{levels}</defs>'
            '<use xlink:href="#u9"/></svg>')


def _embedded(data: bytes, kind: str) -> str:
    return (f'<svg {NS} width="9" height="9"><image width="9" height="9" '
            f'href="data:{kind};base64,{base64.b64encode(data).decode()}"/></svg>')


BOMBS = {
    "entities": (_laughs(), "amplification"),
    "deep": (f'<svg {NS}>' + "<g>" * 100_000 + "</g>" * 100_000 + "</svg>", "nests them more than 256"),
    "a million elements": (f'<svg {NS}>' + "<rect/>" * 1_000_000 + "</svg>", "more than the 5000000"),
    "many elements": (f'<svg {NS}>' + "<g/>" * 200_000 + "</svg>", "more than 100000 elements"),
    "use": (_use_bomb(), "nodes limit reached"),
    "embedded bitmap": (_embedded(png_header(100_000, 100_000), "image/png"), "more pixels than Pillow"),
    "embedded large bitmap": (_embedded(png_header(8000, 6000), "image/png"), "8000 x 6000 pixels"),
    "embedded deep svg": (_embedded((f'<svg {NS}>' + "<g>" * 300 + "</g>" * 300 + "</svg>").encode(),
                                    "image/svg+xml"), "the SVG embedded in art.svg has"),
    "svgz": (gzip.compress(b"<svg>" + b" " * 100_000_000 + b"</svg>"), "unzips to more than"),
}


@pytest.mark.parametrize("bomb", list(BOMBS))
def test_an_svg_bomb_is_one_message(bomb):
    text, message = BOMBS[bomb]
    data = text if isinstance(text, bytes) else text.encode()
    with pytest.raises(Invalid, match=message):
        svg.draw(svg.checked(data, "art.svg"), (300, 300), "contain", "art.svg")


def test_a_huge_declared_size_is_drawn_at_the_box_size():
    image = drawn(f'<svg {NS} width="100000000" height="100000000"><rect width="50000000" height="1e8"/></svg>',
                  (300, 300))
    assert image.size == (300, 300) and image.getpixel((100, 150))[3] == 255 and image.getpixel((200, 150))[3] == 0


def test_the_deepest_tree_resvg_accepts_does_not_crash():
    """resvg recurses once per level of the tree it builds, <use> copies included: on the main thread's
    8 MB stack, 256 nested groups or a chain of 300 <use> crash the process. 250 nested groups (the most
    deckpress lets through) around a chain of 250 <use> (about the most resvg accepts before its nodes
    limit) are drawn. In a child process, so that a crash fails this test instead of ending the session."""
    chain = "".join(f'<g id="u{i + 1}"><use xlink:href="#u{i}"/></g>' for i in range(250))
    nested = "<g>" * 250 + '<use xlink:href="#u250"/>' + "</g>" * 250
    text = f'<svg {NS} width="9" height="9"><defs><rect id="u0" width="1" height="1"/>{chain}</defs>{nested}</svg>'
    code = ("import sys; from deckpress import svg\n"
            "image = svg.draw(svg.checked(sys.stdin.buffer.read(), 'art.svg'), (90, 90), 'contain', 'x')\n"
            "print(image.getchannel('A').getbbox())")
    result = subprocess.run([sys.executable, "-c", code], input=text.encode(), capture_output=True, timeout=120)
    assert result.returncode == 0, result.stderr.decode()[-500:]
    assert result.stdout.decode() == "(0, 0, 10, 10)\n"  # the 1-unit square, drawn


def test_an_svg_file_is_drawn_once_per_size_then_copied(tmp_path, monkeypatch):
    file = tmp_path / "art.svg"
    file.write_text(SQUARE, encoding="utf-8")
    calls = []
    draw = svg.draw
    monkeypatch.setattr(svg, "draw", lambda *args: calls.append(args[1:3]) or draw(*args))
    first = svg.load_svg(file, (100, 100), "contain", None, "art.svg")
    first.putalpha(0)  # a painter's change (opacity) stays its own
    second = svg.load_svg(file, (100, 100), "contain", None, "art.svg")
    assert second.getpixel((50, 50))[3] == 255
    svg.load_svg(file, (200, 200), "contain", None, "art.svg")
    assert calls == [((100, 100), "contain"), ((200, 200), "contain")]
    file.write_text(SQUARE.replace("#000", "#f00"), encoding="utf-8")
    os.utime(file, ns=(1, 1))
    changed = svg.load_svg(file, (100, 100), "contain", None, "art.svg")
    assert changed.getpixel((50, 50)) == (255, 0, 0, 255) and len(calls) == 3


def test_is_svg():
    assert svg.is_svg("art/x.svg") and svg.is_svg(Path("X.SVGZ")) and not svg.is_svg("x.png")
