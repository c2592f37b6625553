"""Times the studio's loop: with `deckpress studio DECK` running, how long after a one-card text edit is saved
the open page is told of the new face (the server-sent event naming it, which makes the page load it), and
how long until the page has the new face's thumbnail.

    python bench/studio.py [DECK] [--runs N]

Runs in a temporary copy of the project. Prints the median and best of N edits, in seconds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import installed  # noqa: F401  (the children run deckpress compiled, as pip installs it)

ROOT = Path(__file__).resolve().parents[1]


def events(host: str, port: int, into: list) -> None:
    """Every event of the studio's stream, with the time it arrived."""
    connection = http.client.HTTPConnection(host, port)
    connection.request("GET", "/events")
    response = connection.getresponse()
    for line in response:
        if line.startswith(b"data: "):
            into.append((time.perf_counter(), json.loads(line[6:])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("deck", nargs="?", default="score")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--card", default="faces/deck/no.png", help="the face the edit changes")
    parser.add_argument("--change", nargs=2, default=["You can't be targeted", "You cannot be targeted"])
    args = parser.parse_args()
    told, shown = [], []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for folder in ("decks", "templates", "tts", "print"):
            if (ROOT / folder).is_dir():
                shutil.copytree(ROOT / folder, project / folder)
        log = project / "studio.log"
        with open(log, "w") as err:
            run = subprocess.Popen([sys.executable, "-m", "deckpress", "studio", args.deck, "--port", "0"],
                                   cwd=project, stdout=subprocess.DEVNULL, stderr=err)
        try:
            while not re.search(r"watching", log.read_text()):
                time.sleep(0.01)
            host, port = re.search(r"http://([\d.]+):(\d+)/", log.read_text()).groups()
            seen: list = []
            threading.Thread(target=events, args=(host, int(port), seen), daemon=True).start()
            time.sleep(1.0)
            deck = project / "decks" / f"{args.deck}.yaml"
            texts = [deck.read_text(encoding="utf-8")]
            texts.append(texts[0].replace(*args.change))
            for i in range(args.runs):
                count = len(seen)
                start = time.perf_counter()
                deck.write_text(texts[(i + 1) % 2], encoding="utf-8")
                while not any(e.get("type") == "faces" and args.card in e.get("faces", {}) for _, e in seen[count:]):
                    time.sleep(0.002)
                at, event = next((t, e) for t, e in seen[count:] if e.get("type") == "faces" and args.card in e["faces"])
                told.append(at - start)
                connection = http.client.HTTPConnection(host, int(port))
                connection.request("GET", f"/face/{args.deck}/{args.card}?w=240&v={event['faces'][args.card]}")
                connection.getresponse().read()
                shown.append(time.perf_counter() - start)
                while not any(e.get("type") == "built" for _, e in seen[count:]):
                    time.sleep(0.01)
                time.sleep(0.3)
        finally:
            run.terminate()
            run.wait()
    print(f"event naming the new face: median {statistics.median(told):.3f} s, best {min(told):.3f} s")
    print(f"its thumbnail fetched:     median {statistics.median(shown):.3f} s, best {min(shown):.3f} s")


if __name__ == "__main__":
    main()
