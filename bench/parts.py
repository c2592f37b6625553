"""Where the CPU time of one `deckpress build` goes, part by part: the build run in this one process, every
deck, face and builder one after another, with the functions of each part timed (CPU seconds, each part
without the parts it calls).

    python bench/parts.py [BUILD ARGUMENTS...]        e.g. in a project: python .../bench/parts.py build --quiet

Run it in a project folder; it builds into that project's build/ as `deckpress build` would (copy the project
first to keep its build). The total is the CPU time a build spends on these parts whichever cores run
them; a real build spreads them over processes and adds their start-up (fork, the builders' imports).
"""

from __future__ import annotations

import collections
import functools
import sys
import time

import installed  # noqa: F401  (deckpress compiled once, as pip installs it)

START = time.process_time()
import deckpress.cli as cli  # noqa: E402

IMPORTS = time.process_time() - START

from deckpress import build, deck, faces, inputs, png, processes  # noqa: E402
from deckpress.builders import TTSBuilder, registered  # noqa: E402

START = time.process_time()
for builder in registered():
    builder.load()
BUILDER_IMPORTS = time.process_time() - START

import deckpress.builders.pdf.steps as pdf_builder  # noqa: E402
from deckpress.builders.pdf import canvas, rules  # noqa: E402
from deckpress.builders.tts import sheets  # noqa: E402

spent: collections.Counter[str] = collections.Counter()
calls: collections.Counter[str] = collections.Counter()
inner: list[float] = []  # CPU time of the timed parts called by the part running, one entry per level


def timed(owner, name: str, part: str) -> None:
    original = getattr(owner, name)

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        start = time.process_time()
        inner.append(0.0)
        try:
            return original(*args, **kwargs)
        finally:
            took = time.process_time() - start
            spent[part] += took - inner.pop()
            calls[part] += 1
            if inner:
                inner[-1] += took
    setattr(owner, name, wrapper)


def main() -> None:
    processes.available = build.available = lambda: False  # one process: the decks, builders...
    faces.PER_WORKER = sys.maxsize  # ...and faces one after another
    sha256_file = inputs.sha256_file
    for module in [m for name, m in sys.modules.items() if name.startswith("deckpress")]:
        if getattr(module, "sha256_file", None) is sha256_file:
            timed(module, "sha256_file", "checks: sha256 of files")
    timed(inputs, "package_digest", "checks: sha256 of files")
    timed(build.stamp, "unchanged", "checks: file states (stamp, manifest)")
    timed(build, "_up_to_date", "checks: file states (stamp, manifest)")
    timed(inputs, "build_inputs", "checks: the inputs' record")
    timed(deck, "load_deck", "reading the deck (YAML, validation, markup)")
    timed(faces.FaceStage, "draw", "faces: drawing (typesetting the cards included)")
    timed(png, "encode", "PNG encoding (faces)")
    timed(png, "read", "PNG decoding (faces reused or cropped to tiles)")
    timed(faces, "cut", "tiles: cutting (resampling)")
    timed(faces, "write_tile", "tiles: compressed (zstd)")
    timed(faces, "read_tile", "tiles: read back (zstd)")
    timed(faces, "jpeg_tile", "tiles: JPEG encoded (a JPEG sheet's slots)")
    timed(sheets, "splice", "TTS: JPEG sheets spliced")
    timed(sheets, "compose", "TTS: PNG sheets composed")
    timed(sheets, "encode", "TTS: PNG sheets and tokens encoded")
    for builder in registered():
        timed(builder, "prepare", "builders: preparing (fonts)")
    timed(TTSBuilder, "build", "TTS: the rest (save, Lua, thumbnails)")
    timed(rules, "_plan", "PDF: typesetting the rules")
    for name in ("write_pdf", "write_calibration", "write_images"):
        timed(pdf_builder, name, "PDF: pages drawn and written (reportlab)")
    timed(pdf_builder, "_replaced", "PDF: faces' images replaced in the last PDFs")
    timed(canvas, "tag_subsets", "PDF: font subsets tagged")
    timed(build, "_swap", "writing: the build put in place")
    start = time.process_time()
    try:
        cli.main(sys.argv[1:], standalone_mode=False)
    except SystemExit:
        pass
    total = time.process_time() - start
    print(f"CPU seconds of `deckpress {' '.join(sys.argv[1:])}`, one process")
    print(f"  {'start-up: importing deckpress.cli':52} {IMPORTS:7.3f}")
    print(f"  {'start-up: the builders import their libraries':52} {BUILDER_IMPORTS:7.3f}")
    for part, seconds in spent.most_common():
        print(f"  {part:52} {seconds:7.3f}  ({calls[part]} calls)")
    print(f"  {'the rest':52} {total - sum(spent.values()):7.3f}")
    print(f"  {'total (without start-up)':52} {total:7.3f}")


if __name__ == "__main__":
    main()
