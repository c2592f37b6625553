"""`deckpress playtest`: whole games of a deck's scripted game, played headless by bots through the same Lua
modules its TTS save bundles, and the balance figures they give (docs/playtest.md).

- games.py: the run (the deck's game loaded as the save has it, its options checked) and its games, played on a
  process per core;
- figures.py: the statistics of the games played, the report as data (what --json writes), and the
  comparison with another deck;
- terminal.py: the report as the terminal shows it;
- page.py: the report as a page under build/<deck>/playtest/.

Lua runs under LuaJIT by default (`--lua jit`: the same modules, 2.5 to 3 times as fast as Lua 5.2, with
table.unpack, table.pack and rawlen of 5.2 defined), or under Lua 5.2 itself, the dialect of TTS
(`--lua 5.2`); the tests check that both give one report.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from .figures import compare, natural, newcombe, report, wilson
from .games import RUNTIMES, Played, PlaytestError, Run, chunks, play, prepare
from .page import write_page
from .terminal import text

__all__ = ["RUNTIMES", "Played", "PlaytestError", "Run", "chunks", "command", "compare", "natural", "newcombe", "play",
           "prepare", "report", "text", "wilson"]


def command(path: Path, other: Path | None, options: dict, json_file: Path | None, out: Path,
            echo: Callable[[str], None], progress: Callable[[int, int], None] | None, cores: int | None = None) -> int:
    """`deckpress playtest`: play, print the report, write --json and the HTML page; the exit status (0, 1
    for bad input, 130 when Ctrl-C stopped it after printing the figures of the games that finished)."""
    run = prepare(path, **options)
    other_run = None
    if other is not None:
        other_run = prepare(other, **options)
        if other_run.data["script"] != run.data["script"]:
            raise PlaytestError(f"--against {other}: it plays {other_run.data['script']!r}, {path.stem} plays "
                                f"{run.data['script']!r}; compare two decks of one game")
    total = run.games * (2 if other_run else 1)
    base_progress = (lambda done, _: progress(done, total)) if progress else None
    played = play(run, cores, base_progress)
    result = report(played)
    other_result = diff = None
    if other_run is not None and not played.stopped:
        other_progress = (lambda done, _: progress(run.games + done, total)) if progress else None
        other_played = play(other_run, cores, other_progress)
        other_result = report(other_played)
        if other_played.stopped:
            result = report(Played(run, {g: played.games[g] for g in other_played.games}, True))
        diff = compare(result, other_result)
    echo(text(result, diff, other_result))
    document = dict(result)
    if other_result is not None:
        document["against"] = {"report": other_result, "differences": diff}
    if json_file is not None:
        json_file.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    page = write_page(out, run, document)
    echo(f"\n{page}")
    return 130 if result["stopped"] else 0
