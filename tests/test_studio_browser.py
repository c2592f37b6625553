"""`deckpress studio` in a real browser (Debian's Chromium, headless, driven by Selenium): the grid shows every
face of SCORE!, a saved edit of a card changes its face on the open page without a reload, a build's mistake
shows and clears, a whole game of Skorch is played by clicking its legal moves, and a refused move shows its
rule. Skipped, in one line saying how to install them, where Chromium or its driver is missing.

The screenshots of docs/studio.md are these tests' own: with DECKPRESS_SCREENSHOTS=docs/studio they are written
there (docs/studio.md says so); otherwise into the test's temporary folder, to look at.
"""

from __future__ import annotations

import io
import json
import os
import time
from pathlib import Path

import pytest
from PIL import Image

from conftest import ROOT
from helpers.studio import browser, project, running

WAIT = 60.0


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    root = project(tmp_path_factory.mktemp("studio"), ["score", "skorch"])
    with running(root, "score", "skorch") as studio:
        yield studio


@pytest.fixture(scope="module")
def page():
    driver = browser()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("DECKPRESS_SCREENSHOTS")
    path = ROOT / folder if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def until(condition, what: str, timeout: float = WAIT):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"never: {what}")


def loaded_faces(page) -> list[dict]:
    return page.execute_script("""return [...document.querySelectorAll('#grid .tile')].map(t => {
        const img = t.querySelector('img');
        return {face: t.dataset.face, card: t.dataset.card, src: img.src, done: img.complete,
                width: img.naturalWidth, hidden: t.hidden};
    });""")


def test_the_grid_shows_every_face_of_score(studio, page, shots):
    page.get(studio.url + "deck/score")
    manifest = json.loads((studio.root / "build" / "score" / "manifest.json").read_text())
    fronts = [c["front"] for c in manifest["cards"]]
    backs = sorted({c["back"] for c in manifest["cards"]})
    page.execute_script("document.querySelectorAll('#grid img').forEach(i => i.loading = 'eager')")
    faces = until(lambda: (lambda f: f if len(f) == len(fronts) + len(backs) and all(x["done"] and x["width"] for x in f)
                           else None)(loaded_faces(page)), "every face loaded")
    assert [f["face"] for f in faces] == fronts + backs
    assert set(fronts + backs) == set(manifest["faces"])  # every face the build drew is on the grid
    assert all(200 <= f["width"] <= 400 for f in faces)  # thumbnails at the grid's size, not 300 DPI faces
    page.save_screenshot(str(shots / "grid.png"))

    from selenium.webdriver.support.select import Select

    until(lambda: "kind" in [o.text for o in Select(page.find_element("id", "field")).options], "the fields to filter by")
    Select(page.find_element("id", "field")).select_by_visible_text("kind")
    page.find_element("id", "filter").send_keys("bomb")
    shown = until(lambda: [f["card"] for f in loaded_faces(page) if not f["hidden"]] or None, "a filtered grid")
    assert shown == ["bomb-1", "bomb-2", "bomb-3"]
    Select(page.find_element("id", "field")).select_by_visible_text("any field")
    shown = until(lambda: (lambda s: s if len(s) > 3 else None)([f["card"] for f in loaded_faces(page) if not f["hidden"]]),
                  "the cards any field of which names a bomb")
    assert set(shown) > {"bomb-1", "bomb-2", "bomb-3"}  # a card whose text names Bomb! too
    page.find_element("id", "filter").clear()
    page.find_element("id", "filter").send_keys("\b")

    page.find_element("css selector", '#grid .tile[data-card="double"]').click()
    until(lambda: page.find_element("id", "card").get_attribute("open") is not None, "the card's dialog")
    rows = until(lambda: page.execute_script(
        "return [...document.querySelectorAll('#card-fields tbody tr')].map(r => r.innerText)") or None, "its fields")
    assert any(row.startswith("text") and "decks/score.yaml:" in row for row in rows), rows
    elements = page.execute_script("return [...document.querySelectorAll('#card-elements tbody tr')].map(r => r.innerText)")
    assert any("templates/score-card.yaml:" in row for row in elements), elements
    from selenium.webdriver import ActionChains

    effect = next(r for r in page.find_elements("css selector", "#card-elements tbody tr")
                  if r.find_elements("css selector", "td")[1].text == "effect")
    ActionChains(page).move_to_element(effect).perform()
    lit = page.execute_script("const b = document.querySelector('#card-faces .element-box.lit'); "
                              "const f = b.parentElement.getBoundingClientRect(), r = b.getBoundingClientRect(); "
                              "return [(r.left - f.left) / f.width, (r.top - f.top) / f.height, r.width / f.width, r.height / f.height]")
    face = next(s for s in studio.json("/api/deck/score/sources") if s["card"] == "double")["faces"]["front"]
    box = next(e["box"] for e in face["elements"] if e["label"] == "effect")
    expected = [box[0] / face["size"][0], box[1] / face["size"][1], box[2] / face["size"][0], box[3] / face["size"][1]]
    assert all(abs(a - b) < 0.01 for a, b in zip(lit, expected))  # the part the row names, outlined on the face
    page.save_screenshot(str(shots / "card.png"))
    page.execute_script("document.getElementById('card').close()")


def _tile_src(page, card: str) -> str:
    return page.execute_script(f"const t = document.querySelector('#grid .tile[data-card=\"{card}\"] img'); "
                               "return t && t.src")


def test_a_saved_edit_changes_its_face_on_the_open_page(studio, page):
    page.get(studio.url + "deck/score")
    until(lambda: _tile_src(page, "double"), "the grid")
    page.execute_script("window.notReloaded = true")
    before = _tile_src(page, "double")
    old = studio.request("GET", before.split(studio.host, 1)[1])[2]
    builds = studio.json("/api/deck/score")["builds"]
    deck = studio.root / "decks" / "score.yaml"
    text = deck.read_text(encoding="utf-8")
    old_text = "text: Target a player or yourself. The target's score doubles."
    assert old_text in text
    deck.write_text(text.replace(old_text, old_text[:-1] + ", once a round.", 1), encoding="utf-8")
    try:
        after = until(lambda: (lambda s: s if s != before else None)(_tile_src(page, "double")), "the face replaced")
        assert page.execute_script("return window.notReloaded === true")
        status, _, new = studio.request("GET", after.split(studio.host, 1)[1])
        assert status == 200 and old != new
        until(lambda: page.execute_script("return (state.sources || []).some(s => s.card === 'double' && "
                                          "s.fields.some(f => f.name === 'text' && f.value.endsWith('once a round.')))"),
              "the card's new text in its data")
    finally:
        deck.write_text(text, encoding="utf-8")
        studio.built("score", builds + 2)


def test_a_build_mistake_shows_and_clears(studio, page, shots):
    page.get(studio.url + "deck/score")
    until(lambda: _tile_src(page, "double"), "the grid")
    good = _tile_src(page, "double")
    builds = studio.json("/api/deck/score")["builds"]
    deck = studio.root / "decks" / "score.yaml"
    text = deck.read_text(encoding="utf-8")
    deck.write_text(text.replace("count: 3", "count: lots", 1), encoding="utf-8")
    try:
        shown = until(lambda: page.execute_script(
            "const e = document.getElementById('errors'); return !e.hidden && [...e.querySelectorAll('pre')].map(p => p.innerText)"),
            "the mistake on the page")
        said = studio.built("score", builds + 1)["errors"]
        assert shown == said and said[0].startswith("decks/score.yaml:")
        assert said[0] in studio.lines  # the same located line the terminal prints
        assert _tile_src(page, "double") == good  # the last good faces stay
        page.save_screenshot(str(shots / "error.png"))
    finally:
        deck.write_text(text, encoding="utf-8")
    until(lambda: page.execute_script("return document.getElementById('errors').hidden"), "the mistake cleared")


def _snapshot(page) -> dict:
    return page.execute_script("return game.snapshot")


def test_a_whole_game_of_skorch_is_played_by_clicking_legal_moves(studio, page, shots):
    page.get(studio.url + "table/skorch?pause=20")
    until(lambda: page.find_element("id", "setup").is_displayed(), "the new game form")
    from selenium.webdriver.support.select import Select

    page.find_element("id", "seed").clear()
    page.find_element("id", "seed").send_keys("6")
    Select(page.find_element("css selector", '#seats select[data-seat="Red"]')).select_by_value("greedy")
    page.find_element("id", "start").click()
    until(lambda: page.find_element("id", "game").is_displayed(), "the game")
    clicks = 0
    shot = False
    while True:
        snapshot = until(lambda: (lambda s: s if s and s["seat"] == "White" and (s["kind"] == "over" or "White" in s["to_act"])
                                  else None)(_snapshot(page)), "White to act or the game over")
        if snapshot["kind"] == "over":
            break
        hand = next(z for z in snapshot["view"]["zones"] if z.get("owner") == "White" and "hand" in z["name"].lower())
        assert all("card" in c for c in hand["cards"])  # White's own hand, face up
        for zone in snapshot["view"]["zones"]:
            if zone.get("owner") == "Red" and "hand" in zone["name"].lower():
                # Red's hand lies face down: White knows only the cards every player saw go there
                assert all(c.get("down") is True for c in zone["cards"])
        if not shot and clicks == 2:
            page.execute_script("window.scrollTo(0, 0)")
            page.save_screenshot(str(shots / "table.png"))
            shot = True
        buttons = page.find_elements("css selector", "#moves button.move")
        legal = [json.loads(b.get_attribute("data-move")) for b in buttons]
        assert legal == [m for m in snapshot["moves"] if "choose" not in json.dumps(m) and "one_of" not in json.dumps(m)]
        before = len(snapshot["events"])
        # as a player would: play a card rather than pick the pile up (random moves make games of thousands)
        plays = [b for b, move in zip(buttons, legal) if "pick_up" not in move]
        (plays or buttons)[0].click()
        clicks += 1
        until(lambda: (lambda s: s and len(s["events"]) > before)(_snapshot(page)), "the move's events")
        assert page.find_element("id", "refusal").is_displayed() is False
        assert clicks < 100
    winners = page.find_element("id", "winners")
    until(lambda: winners.is_displayed(), "the winners")
    final = studio.json("/api/table/skorch")
    assert final["kind"] == "over" and final["scores"]["winners"]
    assert winners.text.startswith(" and ".join(final["scores"]["winners"]))
    page.execute_script("window.scrollTo(0, 0)")
    page.save_screenshot(str(shots / "table-over.png"))


def _start_bots_alone(studio, page, pause: int) -> None:
    """A new game of Skorch on the table page with a random bot in every seat."""
    from selenium.webdriver.support.select import Select

    page.get(studio.url + f"table/skorch?pause={pause}")
    until(lambda: page.find_element("id", "new-game").is_displayed(), "the page")
    page.find_element("id", "new-game").click()
    until(lambda: page.find_element("id", "setup").is_displayed() and page.find_elements("css selector", "#seats select"),
          "the new game form")
    for select in page.find_elements("css selector", "#seats select"):
        Select(select).select_by_value("random")
    page.execute_script("game.snapshot = null")
    page.find_element("id", "start").click()


def test_a_game_of_bots_alone_is_watched_through_the_seat_chosen(studio, page):
    from selenium.webdriver.support.select import Select

    _start_bots_alone(studio, page, pause=300)
    watch = page.find_element("id", "watch")
    for seat, other in (("White", "Red"), ("Red", "White")):
        if seat == "Red":
            Select(watch).select_by_value("Red")
        shown = until(lambda: (lambda s: s if s and s["seat"] == seat else None)(_snapshot(page)), f"{seat} watched")
        assert watch.is_displayed() and Select(watch).first_selected_option.get_attribute("value") == seat
        hands = {z["owner"]: z["cards"] for z in shown["view"]["zones"] if z.get("owner") and "hand" in z["name"].lower()}
        assert all("card" in c for c in hands[seat]) and all(c.get("down") for c in hands[other])
        until(lambda: page.find_elements("css selector", f'.seat-zones[data-owner="{seat}"] img.card'),
              f"{seat}'s cards face up on the page")
        heading = page.find_element("css selector", f'.seat-zones[data-owner="{seat}"] h3').text
        assert heading == f"{seat} (watched)"
        assert not page.find_elements("css selector", "#moves button.move") and not page.find_element("id", "free").is_displayed()


def test_the_new_game_form_stays_while_a_bots_move_lands(studio, page):
    """A bot's move already on its way when "New game" is pressed does not take the page back to the old game:
    the form stays until it is sent."""
    _start_bots_alone(studio, page, pause=300)
    until(lambda: (_snapshot(page) or {}).get("started"), "the game of bots")
    page.execute_script("""const real = window.fetch; window.held = []; window.answered = 0;
        window.fetch = (url, options) => {
          const call = () => real(url, options).then(r => { window.answered += 1; return r; });
          return String(url).endsWith("/bot") ? new Promise(ok => window.held.push(() => ok(call()))) : call();
        };""")
    until(lambda: page.execute_script("return window.held.length"), "a bot's move on its way")
    page.find_element("id", "new-game").click()
    until(lambda: page.find_element("id", "setup").is_displayed(), "the new game form")
    answered = page.execute_script("return window.answered")
    page.execute_script("window.held.forEach(release => release())")
    until(lambda: page.execute_script("return window.answered") >= answered + 2, "the bot's move and the load after it")
    time.sleep(0.3)  # the answers' bodies read and handed to render
    assert page.find_element("id", "setup").is_displayed() and not page.find_element("id", "game").is_displayed()


def test_a_refused_move_shows_its_rule(studio, page):
    page.get(studio.url + "table/skorch?pause=20")
    until(lambda: page.find_element("id", "new-game").is_displayed(), "the page")
    page.find_element("id", "new-game").click()
    until(lambda: page.find_element("id", "setup").is_displayed(), "the new game form")
    page.execute_script("game.snapshot = null")
    page.find_element("id", "start").click()
    snapshot = until(lambda: (lambda s: s if s and s["seat"] == "White" and "White" in s["to_act"] else None)(
        _snapshot(page)), "White to act")
    status, _, body = studio.request("GET", "/api/table/skorch?seat=Red")
    assert status == 400 and b"Red is a bot's seat" in body  # nobody is shown a bot's cards
    page.find_element("css selector", "#free summary").click()
    page.find_element("id", "free-move").send_keys(json.dumps({"cards": ["nobody-holds-this"]}))
    page.find_element("id", "free-play").click()
    refusal = page.find_element("id", "refusal")
    until(lambda: refusal.is_displayed(), "the refusal")
    assert refusal.text == "Clause 11 (a play): card nobody-holds-this is not yours"
    assert _snapshot(page)["events"] == snapshot["events"]  # nothing happened


def test_a_round_of_score_is_chosen_from_the_engines_description(studio, page):
    """SCORE!'s legal move is a description (a roster of 3 of the hand's cards in order, and a target): the page
    makes it a choice, and the roster picked is the one played."""
    page.get(studio.url + "table/score?pause=20")
    until(lambda: page.find_element("id", "setup").is_displayed(), "the new game form")
    page.find_element("id", "start").click()
    snapshot = until(lambda: (lambda s: s if s and s["seat"] == "White" and "White" in s["to_act"] else None)(
        _snapshot(page)), "White to lay a roster")
    assert snapshot["kind"] == "simultaneous"
    description = snapshot["moves"][0]
    assert description["roster"]["choose"] == 3 and description["roster"]["ordered"]
    chips = page.find_elements("css selector", "#composers .chip")
    assert [json.loads(c.get_attribute("data-item")) for c in chips] == description["roster"]["from"]
    play = page.find_element("css selector", "#composers button.primary")
    assert not play.is_enabled()
    for chip in (chips[2], chips[0], chips[1]):
        chip.click()
    assert [c.text for c in chips[:3]] == [f"2. {chips[0].text[3:]}", f"3. {chips[1].text[3:]}", f"1. {chips[2].text[3:]}"]
    play.click()
    laid = [description["roster"]["from"][i] for i in (2, 0, 1)]
    names = [snapshot["cards"][card]["name"] for card in laid]
    turns = until(lambda: (lambda s: [e["text"] for e in s["events"] if e["text"].startswith("Action turn ")] or None)(
        _snapshot(page)), "the round played")
    for turn, name in zip(turns, names):  # the action turns play White's roster in the order picked
        assert turn.split("White: ", 1)[1].startswith(name), (turn, name)
    page.execute_script("window.scrollTo(0, 0)")


def test_the_print_pages_and_a_playtest_from_the_page(studio, page, shots):
    page.get(studio.url + "deck/score")
    page.find_element("css selector", '#tabs button[data-tab="print"]').click()
    view = page.find_element("id", "pdf-view")
    builds = studio.json("/api/deck/score")["builds"]
    assert view.get_attribute("src") == f"{studio.url}file/score/print/score-a4.pdf?b={builds}"
    assert page.find_element("id", "pdf-file").get_attribute("href") == f"{studio.url}file/score/print/score-a4.pdf"

    with Image.open(studio.root / "build" / "score" / "faces" / "deck" / "score-1.png") as face:
        green = max(face.convert("RGB").getcolors(1 << 20))[1]  # the colour most of the first card is

    def viewer() -> bool:  # the frame shows the PDF's first page: its cards' colour covers a good part of it
        scale = page.execute_script("return window.devicePixelRatio")
        box = view.rect
        with Image.open(io.BytesIO(page.get_screenshot_as_png())) as shot:
            framed = shot.convert("RGB").crop([round(v * scale) for v in (
                box["x"], box["y"], box["x"] + box["width"], box["y"] + box["height"])])
        near = sum(n for n, c in framed.getcolors(1 << 20) if max(abs(a - b) for a, b in zip(c, green)) < 24)
        return near > 0.1 * framed.width * framed.height

    until(viewer, "the PDF viewer showing the print PDF's first page")
    page.save_screenshot(str(shots / "print.png"))

    page.find_element("css selector", '#tabs button[data-tab="playtest"]').click()
    games = page.find_element("css selector", '#playtest-form input[name="games"]')
    games.clear()
    games.send_keys("300")
    page.find_element("id", "playtest-start").click()
    report = page.find_element("id", "playtest-report")
    until(lambda: report.is_displayed(), "the playtest's report", timeout=120)
    run = studio.json("/api/playtest/score")
    assert report.text == run["report"].strip() and "300 games" in report.text
    frame = page.find_element("id", "playtest-page")
    assert frame.get_attribute("src").endswith(run["page"])
    page.save_screenshot(str(shots / "playtest.png"))
