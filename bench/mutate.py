"""A mutation run over the modules users rely on: small, realistic mistakes applied one at a time, each
checked against the tests that should catch it. A mutation a test fails on is killed; one every test
passes with has survived, and shows a behaviour no test checks.

    python bench/mutate.py                # every mutation
    python bench/mutate.py --only cardid  # those whose name holds the text
    python bench/mutate.py --list         # list them, run nothing

Works on a copy of this checkout in a temporary folder (its src/ put first on PYTHONPATH): the checkout
itself is never changed, whatever happens, and each mutated file is put back before the next mutation,
even on Ctrl-C or SIGTERM (which also stop the tests running and remove the copy). Before the mutations,
the tests they name run once unchanged and must pass. Each mutation runs only its own tests
(`pytest -x -q`, under `nice`): CPU is shared.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 600  # s for one mutation's tests; a mutation that hangs them counts as killed (the user would see it)


@dataclass(frozen=True)
class Mutation:
    name: str
    file: str  # under src/deckpress/, or the shipped games' tts/<game>/... of the repository

    def path(self, checkout: Path) -> Path:
        return checkout / (self.file if self.file.startswith("tts/") else f"src/deckpress/{self.file}")
    old: str  # the exact source text replaced...
    new: str  # ...by this
    tests: tuple[str, ...]  # pytest arguments: files, node ids, -k expressions
    nth: int = 0  # which occurrence of `old` (from 1) when the file holds it more than once; 0: it must be unique


def m(name: str, file: str, old: str, new: str, *tests: str, nth: int = 0) -> Mutation:
    return Mutation(name, file, old, new, tests, nth)


SLOTS = "tests/test_tts_slots.py"
RECORDS = "tests/test_records.py::test_an_incremental_build_after_one_input_changed_equals_a_clean_one"
BOUNDS = "tests/test_boundaries.py"
AGREE = "tests/test_schema_agreement.py"
GUARD = "tests/test_guard_rails.py"
PLAYTEST = "tests/test_playtest.py"
CONTRACT = "tests/test_engine_contract.py"

MUTATIONS = [
    # --- which face a TTS card shows -------------------------------------------------------------
    m("cardid one slot off", "builders/tts/save.py", "return self.sheets[sheet].key * 100 + slot",
      "return self.sheets[sheet].key * 100 + slot + 1", SLOTS),
    m("cardid slot counted from 1", "builders/tts/steps.py", "art.slots[card.id] = (index, slot)",
      "art.slots[card.id] = (index, slot + 1)", SLOTS),
    m("every card on the first sheet", "builders/tts/steps.py", "art.slots[card.id] = (index, slot)",
      "art.slots[card.id] = (0, slot)", SLOTS),
    m("every sheet under one key", "builders/tts/steps.py", "save.SheetEntry(first_key + index, face_url",
      "save.SheetEntry(first_key, face_url", SLOTS),
    m("next component's keys overlap a deck of several sheets", "builders/tts/steps.py",
      "key += len(arts[component.id].sheets)", "key += 1",
      "tests/test_tts_generic.py::test_keys_unique_across_components"),
    m("slots counted top to bottom", "builders/tts/sheets.py", "col, row = slot % self.columns, slot // self.columns",
      "col, row = slot // self.rows, slot % self.rows", SLOTS),
    m("tiles pasted one slot on", "builders/tts/sheets.py", "sheet.paste(image, grid.box(slot)[:2])",
      "sheet.paste(image, grid.box(min(slot + 1, grid.slots - 1))[:2])", SLOTS),
    m("sheets of 8 rows", "builders/tts/sheets.py", "MAX_ROWS = 7", "MAX_ROWS = 8", SLOTS),
    m("sheets of 11 columns", "builders/tts/sheets.py", "MAX_COLUMNS = 10", "MAX_COLUMNS = 11", SLOTS),
    m("rows rounded down", "builders/tts/sheets.py", "rows = math.ceil(count / columns)", "rows = max(1, count // columns)",
      SLOTS),
    m("tiles cut 1 px narrow", "faces.py", "return image.resize(size, resample, box=box, reducing_gap=REDUCING_GAP)",
      "return image.resize((size[0] - 1, size[1]), resample, box=box, reducing_gap=REDUCING_GAP)", SLOTS),
    m("tiles keep the bleed", "faces.py",
      "box = (bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px)",
      "box = (0, 0, image.width, image.height)", SLOTS),
    m("tiles cut one bleed too far right", "faces.py",
      "box = (bleed_px, bleed_px, image.width - bleed_px, image.height - bleed_px)",
      "box = (2 * bleed_px, bleed_px, image.width, image.height - bleed_px)", SLOTS),
    m("jpeg chroma subsampled", "faces.py", "quality=quality, subsampling=0", "quality=quality, subsampling=2",
      SLOTS),
    m("spliced restarts numbered from the first segment", "builders/tts/sheets.py", "out.append(markers[(count - 1) % 8])",
      "out.append(markers[count % 8])", SLOTS, "tests/test_tts.py"),
    m("spliced sheet's frame the slot's size", "builders/tts/sheets.py",
      'out = [header[:frame], height.to_bytes(2, "big"), width.to_bytes(2, "big"), header[frame + 4:]]',
      "out = [header]", SLOTS, "tests/test_tts.py"),
    m("a slot's last row of blocks left out", "builders/tts/sheets.py", "for line in range(rows):",
      "for line in range(rows - 1):", SLOTS, "tests/test_tts.py"),
    m("a tile with a row too many spliced", "builders/tts/sheets.py", "if len(markers) != rows - 1 or",
      "if len(markers) < rows - 1 or", "tests/test_tts.py"),
    m("slots rounded down to whole blocks", "builders/tts/sheets.py", "side = math.floor(ideal / 8 + 0.5) * 8",
      "side = math.floor(ideal / 8) * 8", SLOTS),
    m("a slot reaching further into the bleed cropped", "faces.py", "side - whole > 2 * INTO_BLEED_PX or",
      "side - whole > 2 * INTO_BLEED_PX + 2 or", SLOTS),
    m("deck ids without the copies", "builders/tts/save.py", 'state["DeckIDs"] = [c["CardID"] for c in cards]',
      'state["DeckIDs"] = list(dict.fromkeys(c["CardID"] for c in cards))',
      "tests/test_tts.py::test_main_deck_ids_match_contained_cards"),
    # --- every input of every record --------------------------------------------------------------
    m("face record without card_size", "faces.py",
      '"component": [face.component.id, face.component.name, face.component.size],',
      '"component": [face.component.id, face.component.name],', RECORDS + "[card_size]"),
    m("face record without the component's name", "faces.py",
      '"component": [face.component.id, face.component.name, face.component.size],',
      '"component": [face.component.id, face.component.size],', RECORDS + "[component name]"),
    m("face record without the card", "faces.py",
      'key["card"] = {name: fields[name] for name in reads if name in fields}', 'key["card"] = {}',
      RECORDS + "[card field]"),
    m("face record without the safe margin", "faces.py", "model.bleed, model.safe, self.deck.lang",
      "model.bleed, self.deck.lang", RECORDS + "[safe]"),
    m("face record without the bleed", "faces.py", "model.bleed, model.safe, self.deck.lang",
      "model.safe, self.deck.lang", RECORDS + "[bleed]"),
    m("tts image record without the quality", "builders/tts/steps.py",
      'key = artifact_key("tts image", key, self.format, self.quality)',
      'key = artifact_key("tts image", key, self.format)', RECORDS + "[tts quality]"),
    m("tts image record without the format", "builders/tts/steps.py",
      'key = artifact_key("tts image", key, self.format, self.quality)',
      'key = artifact_key("tts image", key, self.quality)', RECORDS + "[tts image format]"),
    m("pdf record without --back-offset", "builders/pdf/steps.py", "profile.bleed, duplex, offset, deck.lang,",
      "profile.bleed, duplex, deck.lang,", RECORDS + "[--back-offset]"),
    m("pdf record without --duplex", "builders/pdf/steps.py", "profile.bleed, duplex, offset, deck.lang,",
      "profile.bleed, offset, deck.lang,", RECORDS + "[--duplex]"),
    m("calibration record without the author", "builders/pdf/steps.py", "[*made_of, deck.model.game.author]",
      "made_of", RECORDS + "[author]"),
    m("build record without the options", "inputs.py", 'out["options"] = digest(options)', 'out["options"] = ""',
      RECORDS + "[--asset-url]"),
    m("a record taken whatever its key", "inputs.py", 'if isinstance(record, dict) and record.get("key") == key and',
      "if isinstance(record, dict) and", RECORDS + "[tts quality]"),
    m("a face reused though its image changed", "faces.py",
      'return images_unchanged(old.get("images", {}), self.deck.path)', "return True",
      "tests/test_incremental.py::test_an_incremental_build_equals_a_clean_one_after_each_change"),
    m("a stamp that overlooks the build's own files", "stamp.py", "if current != files or _tree(final) != built:",
      "if current != files:", "tests/test_incremental.py", "-k", "stamp"),
    m("a stamp that overlooks a file added to a folder", "stamp.py",
      "current = _listing([f for f in folders if isinstance(f, str)])", "current = {}",
      "tests/test_incremental.py", "-k", "stamp"),
    m("a file of the last build trusted by its inode alone", "inputs.py",
      "(vouched.get(tuple(state)) if state is not None else None)",
      "next((d for k, d in vouched.items() if state and k[2] == state[2]), None)",
      "tests/test_incremental.py", "-k", "changed_since"),
    # --- nothing escapes the project ----------------------------------------------------------------
    m("confinement as a string prefix", "paths.py", "resolved.is_relative_to(root) for root",
      "str(resolved).startswith(str(root)) for root", BOUNDS),
    m("confinement without following links", "paths.py", "    resolved = path.resolve()\n    if not any(",
      "    resolved = path.absolute()\n    if not any(",
      "tests/test_safety.py::test_an_image_linked_from_outside_the_project_is_refused"),
    # --- text fits, at its min_size and not below ------------------------------------------------
    m("plain text shrunk 1 pt below min_size", "elements/text.py", "if size - SIZE_STEP_PT < floor - 1e-9:",
      "if size - SIZE_STEP_PT < floor - 1 - 1e-9:", BOUNDS, nth=1),
    m("rich text shrunk 1 pt below min_size", "elements/text.py", "if size - SIZE_STEP_PT < floor - 1e-9:",
      "if size - SIZE_STEP_PT < floor - 1 - 1e-9:", BOUNDS, nth=2),
    m("plain text stops half a point above min_size", "elements/text.py", "if size - SIZE_STEP_PT < floor - 1e-9:",
      "if size - SIZE_STEP_PT <= floor:", BOUNDS, nth=1),
    m("text shrinks by whole points", "elements/text.py", "            size -= SIZE_STEP_PT\n        self.shrank",
      "            size -= 2 * SIZE_STEP_PT\n        self.shrank", BOUNDS),
    m("text may overflow its box by 5 px", "elements/text.py", "if height <= (y1 - y0) + 0.5:",
      "if height <= (y1 - y0) + 5:", BOUNDS, nth=1),
    # --- the safe zone ---------------------------------------------------------------------------
    m("safe zone 0.5 mm more lenient", "elements/base.py", "s = self.r.safe - 0.01", "s = self.r.safe - 0.51",
      BOUNDS),
    m("safe zone stricter than written", "elements/base.py", "s = self.r.safe - 0.01", "s = self.r.safe + 0.01",
      BOUNDS),
    m("safe zone's right edge unchecked", "elements/base.py", "box.x + box.w > W - s", "box.x + box.w > W", BOUNDS),
    m("icons outside the safe-zone check", "elements/base.py",
      'if getattr(e, "safe", False):\n            self.check_safe',
      'if getattr(e, "safe", False) and e.type == "text":\n            self.check_safe', BOUNDS),
    # --- text into XML and Lua --------------------------------------------------------------------
    m("xml comment escape leaves ---", "builders/tts/lua.py", 'while "--" in text:', 'if "--" in text:', BOUNDS),
    m("xml comment may end with a dash", "builders/tts/lua.py", 'return text + " " if text.endswith("-") else text',
      "return text", BOUNDS),
    m("lua control escapes of varying width", "builders/tts/lua.py", 'out.append(f"\\\\{code:03d}")',
      'out.append(f"\\\\{code}")', "tests/test_tts_lua.py"),
    m("lua keywords as bare keys", "builders/tts/lua.py", "IDENTIFIER.match(key) and key not in KEYWORDS",
      "IDENTIFIER.match(key)", "tests/test_tts_lua.py"),
    m("lua strings leave quotes unescaped", "builders/tts/lua.py", "elif ch == '\"':", "elif ch == \"'\":",
      "tests/test_tts_lua.py"),
    # --- the JSON Schema agrees with check --------------------------------------------------------
    m("schema of an integer loses its maximum", "options.py",
      '        if self.max is not None:\n            out["maximum"] = self.max\n'
      '        return {"anyOf": [out, {"type": "string", "pattern": r"',
      '        return {"anyOf": [out, {"type": "string", "pattern": r"', AGREE),
    m("schema of a number loses its maximum", "options.py",
      '        if self.max is not None:\n            out["maximum"] = self.max\n'
      '        return {"anyOf": [out, {"type": "string", "pattern": N',
      '        return {"anyOf": [out, {"type": "string", "pattern": N', AGREE),
    m("schema of a number takes nan as text", "options.py", '"pattern": NUMBER_TEXT}', '"pattern": r"^\\S+$"}', AGREE),
    m('schema takes "3.5" as an integer', "options.py", r'"pattern": r"^\s*-?\d+\s*$"',
      r'"pattern": r"^\s*-?[\d.]+\s*$"', AGREE),
    m("schema takes 3.5 as an integer", "options.py", '        out = {"type": "integer"}\n',
      '        out = {"type": "number"}\n', AGREE),
    m("an option's maximum itself refused", "options.py", "if self.max is not None and value > self.max:",
      "if self.max is not None and value >= self.max:", AGREE),
    m("a number may be nan", "options.py", "return self.bounded(finite(value))", "return self.bounded(value)",
      "tests/test_bad_input.py", "-k", "nan"),
    # --- options on the command line ---------------------------------------------------------------
    m("--back-offset nan,0 accepted", "options.py", "if isinstance(value, float) and not math.isfinite(value):",
      "if isinstance(value, float) and math.isinf(value):", BOUNDS),
    m("--back-offset at its limit refused", "builders/pdf/__init__.py",
      'Number("Millimetres.", min=-MAX_BACK_OFFSET, max=MAX_BACK_OFFSET)',
      'Number("Millimetres.", min=-MAX_BACK_OFFSET + 1e-9, max=MAX_BACK_OFFSET - 1e-9)', BOUNDS),
    m("back pages shifted the wrong way up", "builders/pdf/steps.py",
      "canvas.translate(style.offset[0] * mm, style.offset[1] * mm)",
      "canvas.translate(style.offset[0] * mm, -style.offset[1] * mm)", "tests/test_pdf.py", "-k", "offset", nth=2),
    m("shared token backs shifted the wrong way up", "builders/pdf/steps.py",
      "canvas.translate(style.offset[0] * mm, style.offset[1] * mm)",
      "canvas.translate(style.offset[0] * mm, -style.offset[1] * mm)", "tests/test_pdf.py", "-k", "offset", nth=1),
    m("a profile's back_offset ignored", "builders/pdf/steps.py",
      "offset = (cli_offset[0] + profile.spec.back_offset[0], cli_offset[1] + profile.spec.back_offset[1])",
      "offset = cli_offset", "tests/test_pdf.py", "-k", "offset"),
    # --- print-and-play pages ------------------------------------------------------------------------
    m("long-edge backs not mirrored", "builders/pdf/layout.py", "return self.backs.cols - 1 - col, row", "return col, row",
      "tests/test_pdf.py::test_long_edge_backs_mirror_the_fronts"),
    m("short-edge backs not turned", "builders/pdf/layout.py", 'turn = 180 if mode == "short-edge" else 0', "turn = 0",
      "tests/test_pdf.py", "-k", "short_edge"),
    m("one card more than fits", "builders/pdf/layout.py", "return int((avail - size + EPS) // (size + gap)) + 1",
      "return int((avail + EPS) // (size + gap)) + 1", "tests/test_pdf.py::test_as_many_as_fit"),
    m("bleed between cards wider than half the gap", "builders/pdf/layout.py", "inside = min(bleed, grid.gap / 2)",
      "inside = bleed", "tests/test_print_pages.py::test_gap_between_cards_shows_each_cards_own_bleed"),
    m("a partial sheet's open edges without bleed", "builders/pdf/layout.py",
      "inner = 0 <= c < grid.cols and 0 <= r < grid.rows and (used is None or (c, r) in used)",
      "inner = 0 <= c < grid.cols and 0 <= r < grid.rows",
      "tests/test_print_pages.py::test_exposed_edges_of_a_partial_sheet_print_their_bleed"),
    m("gutterfold backs ignore the gutter", "builders/pdf/layout.py", "fold - gutter / 2 - gh)", "fold - gh)",
      "tests/test_pdf.py", "-k", "gutterfold"),
    m("cards not centred on the page", "builders/pdf/layout.py",
      "Grid(cols, rows, w, h, gap, area.x + (area.w - gw) / 2, area.y + (area.h - gh) / 2)",
      "Grid(cols, rows, w, h, gap, area.x, area.y)", "tests/test_pdf.py", "tests/test_print_pages.py"),
    # --- nothing lost ----------------------------------------------------------------------------------
    m("a user's file in the build folder overlooked", "build.py", "foreign = _foreign_file(final, manifest)",
      "foreign = None", "tests/test_safety.py::test_a_file_the_user_added_to_a_build_folder_stops_the_build"),
    m("another deck's build folder replaced", "build.py",
      'if manifest.get("deck") != deck.name or "deckpress" not in manifest or',
      'if "deckpress" not in manifest or', "tests/test_safety.py::test_another_decks_build_folder_is_not_replaced"),
    m("faces shown while drawing kept when the build fails", "build.py",
      '            drawn.in_step(previous, old_manifest.get("faces", {}))\n', "            pass\n",
      "tests/test_drawn_faces.py"),
    m("the previous faces shown over a build in place", "build.py",
      "if file_state(final / MANIFEST) == manifest_state:  # the previous build still in place", "if True:",
      "tests/test_drawn_faces.py"),
    m("faces shown as drawn in the build folder itself", "build.py", "self.folder = out_root / DRAWN / deck",
      "self.folder = out_root / deck", "tests/test_drawn_faces.py"),
    m("the build just swapped in removed as the previous one", "build.py", "        old = staging\n",
      "        old = final\n", "tests/test_drawn_faces.py"),
    m("a previous build moved aside not put back", "build.py",
      "    if final.exists() or final.is_symlink():\n        return\n    for", "    if True:\n        return\n    for",
      "tests/test_drawn_faces.py"),
    m("a linked input file taken for where it is listed", "inputs.py",
      "path.resolve() if os.path.islink(path) else ", "", "tests/test_incremental.py", "-k", "resolved"),
    # --- what a deck may hold ----------------------------------------------------------------------------
    m("duplicate keys: the last one wins", "source.py", "            if key in out:\n                raise",
      "            if False:\n                raise", "tests/test_bad_input.py", "-k", "duplicate"),
    m("negative numbers past 2^53 accepted", "source.py", "abs(item) > MAX_INT", "item > MAX_INT", BOUNDS),
    m("the longest text refused", "source.py", "len(item) > MAX_TEXT_CHARS", "len(item) >= MAX_TEXT_CHARS", BOUNDS),
    # --- installing into TTS, and what TTS reads ------------------------------------------------------
    m("install overwrites a file changed since it wrote it", "builders/tts/install.py",
      "if not force and files.get(relative) != current:", "if not force and relative not in files:",
      "tests/test_tts_install.py"),
    m("install ignores --force", "builders/tts/install.py", "if not force and files.get(relative) != current:",
      "if files.get(relative) != current:", "tests/test_tts_install.py"),
    m("install writes in place, not atomically", "builders/tts/install.py",
      'temporaries.append(target.with_name(target.name + ".deckpress-tmp"))', "temporaries.append(target)",
      "tests/test_tts_install.py"),
    m("decks lie face up", "builders/tts/save.py", '"rotZ": 180.0 if face_down else 0.0,', '"rotZ": 0.0,',
      "tests/test_tts.py"),
    m("decks join hands", "builders/tts/save.py", 'state["Hands"] = False', 'state["Hands"] = True', "tests/test_tts.py", nth=1),
    m("asset names without their content hash", "builders/tts/sheets.py", 'return f"{stem}-{sha256[:12]}.{extension}"',
      'return f"{stem}.{extension}"', SLOTS),
    m("thumbnails 255 px", "builders/tts/sheets.py", "THUMBNAIL = 256", "THUMBNAIL = 255", SLOTS),
    m("sheets up to 8192 px", "builders/tts/sheets.py", "MAX_SIDE = 4096", "MAX_SIDE = 8192", SLOTS),
    m("bold and italic swapped", "markup.py", '_KINDS = {1: ("i",), 2: ("b",), 3: ("b", "i")}',
      '_KINDS = {1: ("b",), 2: ("i",), 3: ("b", "i")}', "tests/test_rich_text.py"),
    m("error columns one off", "errors.py", 'return f"{shown}:{self.line}:{self.col}"',
      'return f"{shown}:{self.line}:{self.col + 1}"', "tests/test_errors.py"),
    # --- watch ---------------------------------------------------------------------------------------
    m("watch reacts to its own output folder", "watch.py",
      "        if where.is_relative_to(self.out):\n            return False",
      "        if False:\n            return False",
      "tests/test_watch_preview.py::test_watch_does_not_react_to_what_its_builds_write"),
    # --- what a command keeps between runs ----------------------------------------------------------------
    m("entry points kept whatever the package folders' state", "cache.py",
      "[[entry, state] for entry, state in zip(sys.path, states)]", "[[entry, None] for entry in sys.path]",
      "tests/test_cache.py"),
    m("an input's digest kept though the file changed", "inputs.py",
      "if known is not None and known[0] == before:", "if known is not None:",
      "tests/test_incremental.py", "-k", "hashed_again"),
    m("a PDF's faces replaced without moving what follows", "builders/pdf/pdffile.py",
      "shift += sum(map(len, made)) - (at - start)", "shift += 0", "tests/test_pdf_incremental.py"),
    # --- a designer's scripted game: its contract, its Lua's bounds, its table scenarios, playtest ----------
    m("play changing its state passes check", "data/playtest/contract.lua",
      "  if not equal(state, before) then\n    return nil, violation(\"play\"", "  if false then\n    return nil, violation(\"play\"",
      GUARD),
    m("a card lost in a move passes check", "data/playtest/contract.lua", "if not same_ids(ids, now) then",
      "if false then", GUARD),
    m("determinize drawing from another seed passes check", "data/playtest/contract.lua",
      "if Bots.key(engine.determinize(state, seat, seed)) ~= Bots.key(dealt) then", "if false then", GUARD),
    m("to_act naming no seat mid-game passes check", "data/playtest/contract.lua",
      "if kind ~= \"over\" and n == 0 then", "if false then", GUARD),
    # (removing a bound itself would leave its test running until TIMEOUT, or the Lua state growing unbounded)
    m("an endless engine call stopped without naming its function", "scripting/runtime.py",
      'bound.what .. " ran past "', '"the engine ran past "', GUARD, "-k", "instruction_limit"),
    m("an engine growing without end stopped without naming its function", "scripting/runtime.py",
      'bound.what .. " made the Lua state hold', '"the engine made the Lua state hold', GUARD, "-k", "memory_limit"),
    m("table scenarios played at TTS's own timing only", "tabletest/run.py",
      'TIMINGS = ((1, ""), (20, " (TTS 20 frames late)"))', 'TIMINGS = ((1, ""),)',
      "tests/test_table_scenarios.py", "-k", "20_frames"),
    m("unfinished games counted as finished", "playtest/figures.py",
      'order = [g for g in sorted(played.games) if not played.games[g].get("unfinished")]',
      "order = sorted(played.games)", PLAYTEST, "-k", "max_moves"),
    m("--rotate seats every game alike", "playtest/games.py", "by = (g - 1) % run.players if run.rotate else 0",
      "by = 0", PLAYTEST, "-k", "rotate"),
    m("card names sorted as text", "playtest/figures.py", "(0, int(part), \"\") if part.isdigit()",
      "(1, 0, part) if part.isdigit()", PLAYTEST, "-k", "natural"),
    # --- the engine contract, declared once (scripting/contract.py) -------------------------------------------
    m("all_ids dropped from the contract's declaration", "scripting/contract.py",
      '    Function("all_ids", ("state",), ("ids",)),\n', "", CONTRACT, GUARD, "-k", "docs or contract_functions"),
    m("an argument of the declaration unlike the docs' table", "scripting/contract.py",
      'Function("setup", ("data", "seats", "opts")', 'Function("setup", ("data", "seats", "options")', CONTRACT,
      "-k", "docs"),
    m("the Lua drivers given every function of the engine", "scripting/runtime.py",
      "  for _, name in ipairs(functions) do\n    local f = engine[name]\n", "  for name, f in pairs(engine) do\n",
      CONTRACT, "-k", "drivers"),
    m("playtest trusting the engine to have the contract's functions", "playtest/games.py",
      "contract.guarded(lua, contract.check_engine(lua, module, loaded))", "contract.guarded(lua, loaded)", PLAYTEST,
      "-k", "contract"),
    # --- issue 37: what users would notice ------------------------------------------------------------
    m("a TTS tile cut a pixel short of the trim", "faces.py",
      "    return (left, top, left + size[0], top + size[1])", "    return (left, top, left + size[0] - 1, top + size[1])",
      SLOTS),
    m("a boolean cell with spaces around it refused", "tables.py", "        text = value.strip().lower()",
      "        text = value.lower()", "tests/test_cards_from.py"),
    m("whole numbers from an .xlsx stay floats", "tables.py",
      '    if kind in ("integer", None) and isinstance(value, float) and value.is_integer():',
      '    if kind is None and isinstance(value, float) and value.is_integer():', "tests/test_cards_from.py"),
    m("< and & in styled rules text left unescaped", "markup.py",
      '        chunk = escape(span.text, quote=False).replace("\\n", "<br/>")',
      '        chunk = span.text.replace("\\n", "<br/>")', "tests/test_rich_text.py", "tests/test_pdf.py"),
    m("faces marked 72 DPI for the print shops", "png.py", "    per_metre = round(dpi / 0.0254)",
      "    per_metre = round(72 / 0.0254)", "tests/test_png.py", "tests/test_print_shops.py"),
    m("Scoop: a scoop of more cards than the pile holds", "tts/scoop/engine.lua",
      "    if count > #from then return refuse(17,", "    if false then return refuse(17,",
      "tests/test_scoop_engine.py"),
    m("Skorch: a play out of turn", "tts/skorch/engine.lua",
      "  if seat ~= state.turn then return refuse(10,", "  if false then return refuse(10,",
      "tests/test_skorch_engine.py"),
    m("TTS sheets of 10 x 8 cards", "builders/tts/sheets.py", "MAX_ROWS = 7", "MAX_ROWS = 8", SLOTS),
    m("a rounded card's Silhouette contour square", "builders/pdf/pages.py",
      '    elif shape == "rounded" and radius > 0:', '    elif False:', "tests/test_cutters.py"),
    m("a rounded card's Cricut outline square", "builders/pdf/cutters.py",
      '        elif shape == "rounded" and radius > 0:', '        elif False:', "tests/test_cutters.py"),
    m("soft proof counts every face as shifted", "builders/pdf/steps.py", "            if share > GAMUT_SHARE:",
      "            if True:", "tests/test_print_shops.py", "-k", "gamut"),
    m("check --strict passes a deck with warnings", "cli.py", "        if strict and said:", "        if False:",
      "tests/test_print_shops.py", "-k", "gamut"),
    m("watch rebuilds for its own log", "watch.py",
      "        if st is not None and (st.st_dev, st.st_ino) in self.own:", "        if False:",
      "tests/test_watch_preview.py", "-k", "inputs_only"),
    m("watch rebuilds for any file of the project", "watch.py",
      "        if self.inputs is None or where in self.inputs:", "        if True:",
      "tests/test_watch_preview.py", "-k", "inputs_only"),
    m("a style edit redraws nothing", "faces.py",
      '            "template": [*self._templates[face.template], self._style(face)],',
      '            "template": [*self._templates[face.template]],', "tests/test_incremental.py", "-k", "style"),
    m("a deckpress template's failure names deckpress's file", "builders/tts/lua.py",
      "            if own is not None:", "            if False:", "tests/test_game_records.py"),
    m("corners larger than the card accepted", "schema.py", "2 * component.corner_radius > min(component.size)",
      "component.corner_radius > min(component.size)", "tests/test_cutters.py", "-k", "corners"),
    m("an icon glyph of any length", "schema.py", "        elif self.glyph is not None and len(self.glyph) > MAX_GLYPHS:",
      "        elif False:", "tests/test_bad_input.py", "-k", "glyph"),
    m("removed cards of a player count kept in the deck", "data/tts/lib/setup.lua",
      "for _, id in ipairs((remove or {})[players] or {}) do out[id] = true end",
      "for _, id in ipairs((remove or {})[players] or {}) do out[id] = false end", "tests/test_tts_generic.py",
      "tests/test_games_lua.py"),
    m("a face drawn with the wrong card's fields", "faces.py",
      '        fields = face.card.fields() if face.card else None\n', '        fields = {"name": face.card.name} if face.card else None\n',
      RECORDS),
]


def occurrence(text: str, old: str, nth: int) -> int:
    """Where the mutation's `old` starts (see Mutation.nth); ValueError when it is not there as said."""
    starts, at = [], text.find(old)
    while at != -1:
        starts.append(at)
        at = text.find(old, at + 1)
    if nth == 0 and len(starts) != 1:
        raise ValueError(f"found {len(starts)} times, expected once")
    if nth > len(starts):
        raise ValueError(f"found {len(starts)} times, expected at least {nth}")
    return starts[max(nth, 1) - 1]


def mutated(text: str, mutation: Mutation) -> str:
    at = occurrence(text, mutation.old, mutation.nth)
    return text[:at] + mutation.new + text[at + len(mutation.old):]


def pytest(copy: Path, args: tuple[str, ...]) -> tuple[str, float]:
    """Run pytest ARGS in the copy: ("passed" | "failed" | "timeout" | "error <code>", seconds)."""
    env = {**os.environ, "PYTHONPATH": str(copy / "src"), "PYTHONDONTWRITEBYTECODE": "1"}
    start = time.monotonic()
    run = subprocess.Popen(["nice", sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *args],
                           cwd=copy, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    try:
        code = run.wait(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        code = None
    finally:  # on a timeout or Ctrl-C, the tests and every process they started
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    seconds = time.monotonic() - start
    if code is None:
        return "timeout", seconds
    return {0: "passed", 1: "failed"}.get(code, f"error {code}"), seconds


def copy_checkout(target: Path) -> Path:
    shutil.copytree(ROOT, target, ignore=shutil.ignore_patterns(".git", ".venv", "build", "__pycache__",
                                                                 ".pytest_cache", "*.egg-info"))
    return target


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM unwinds like Ctrl-C: the running tests are stopped, the copy removed


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="run the mutations whose name holds this text")
    parser.add_argument("--list", action="store_true", help="list the mutations and their tests")
    args = parser.parse_args()
    chosen = [mu for mu in MUTATIONS if args.only.lower() in mu.name.lower()]
    if args.list:
        for mu in chosen:
            print(f"{mu.name:55} {mu.file:18} {' '.join(mu.tests)}")
        return 0
    if not chosen:
        print(f"no mutation's name holds {args.only!r}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="deckpress-mutate-") as folder:
        copy = copy_checkout(Path(folder) / "deckpress")
        for mu in chosen:  # every snippet is where it is said to be before anything runs
            try:
                mutated(mu.path(copy).read_text(encoding="utf-8"), mu)
            except ValueError as err:
                print(f"{mu.name}: {mu.file}: {err}: {mu.old!r}", file=sys.stderr)
                return 2
        for tests in dict.fromkeys(mu.tests for mu in chosen):
            outcome, seconds = pytest(copy, tests)
            if outcome != "passed":
                print(f"unmutated, {' '.join(tests)} {outcome} ({seconds:.0f} s): fix the tests first",
                      file=sys.stderr)
                return 2
        survivors, errors, killed = [], [], 0
        for number, mu in enumerate(chosen, 1):
            path = mu.path(copy)
            original = path.read_text(encoding="utf-8")
            try:
                path.write_text(mutated(original, mu), encoding="utf-8")
                outcome, seconds = pytest(copy, mu.tests)
            finally:
                path.write_text(original, encoding="utf-8")
            verdict = {"failed": "killed", "timeout": "killed (timeout)", "passed": "SURVIVED"}.get(outcome, outcome)
            print(f"[{number}/{len(chosen)}] {verdict:16} {mu.name} ({seconds:.0f} s)", flush=True)
            if outcome == "passed":
                survivors.append(mu)
            elif outcome in ("failed", "timeout"):
                killed += 1
            else:
                errors.append(mu)
    counted = killed + len(survivors)
    print(f"\n{killed} of {counted} mutations killed ({100 * killed / max(1, counted):.0f} %)")
    for mu in survivors:
        print(f"  survived: {mu.name} ({mu.file}; {' '.join(mu.tests)})")
    for mu in errors:
        print(f"  not counted (pytest could not run): {mu.name}")
    return 0 if not survivors and not errors else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("stopped; the checkout was not changed", file=sys.stderr)
        sys.exit(130)
