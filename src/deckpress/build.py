"""One build: YAML -> validated model -> faces -> builders -> build/<deck>/, swapped in at the end.

Everything is written to a staging folder beside the output; only a build that
succeeds replaces build/<deck>/, so a failed build leaves the previous one intact.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Callable

from . import __version__
from .builders import BUILDERS
from .context import BuildContext, BuildOptions
from .deck import SHIPPED, LoadedDeck, load_deck, project_dirs
from .faces import FaceStage, plan_faces, sha256_file

MANIFEST = "manifest.json"
PROJECT_INPUT_DIRS = ("templates", "tts", "print")


def project_root(deck: LoadedDeck) -> Path:
    """The folder holding decks/, templates/, tts/ and print/."""
    return deck.root.parent


def _package_digest() -> str:
    h = hashlib.sha256(__version__.encode())
    for file in sorted(Path(__file__).parent.rglob("*.py")):
        h.update(file.read_bytes())
    return h.hexdigest()


def _inputs(deck: LoadedDeck, previous_faces: dict, options: BuildOptions) -> dict[str, str]:
    """Every input of the build with its sha256: what the manifest records and the up-to-date check uses."""
    root = project_root(deck).resolve()
    files = {f.resolve() for f in deck.input_files()}
    for folder in PROJECT_INPUT_DIRS:
        for directory in project_dirs(deck.path, folder):
            files.update(p.resolve() for p in directory.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    out = {}
    for file in sorted(files):
        if file.is_relative_to(root):
            name = file.relative_to(root).as_posix()
        elif file.is_relative_to(SHIPPED):
            name = "deckpress:" + file.relative_to(SHIPPED).as_posix()
        else:
            name = file.as_posix()
        out[name] = sha256_file(file)
    for name, path in sorted(deck.fonts.items()):
        if name not in deck.model.fonts:
            out[f"font:{name}"] = sha256_file(path)
    for record in previous_faces.values():
        for image, _ in record.get("images", {}).items():
            image_path = deck.root / image
            if image_path.is_file():
                out[f"decks/{image}"] = sha256_file(image_path)
    out["deckpress"] = _package_digest()
    out["options"] = hashlib.sha256(json.dumps(
        {"lang": deck.lang, "asset_url": options.asset_url, **options.extra,
         "source_date_epoch": os.environ.get("SOURCE_DATE_EPOCH", "")}, sort_keys=True,
        default=str).encode()).hexdigest()
    return out


def _read_manifest(folder: Path) -> dict:
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _up_to_date(folder: Path, manifest: dict, inputs: dict) -> bool:
    if not manifest or manifest.get("inputs") != inputs:
        return False
    return all((folder / path).is_file() and sha256_file(folder / path) == info["sha256"]
               for path, info in manifest.get("artifacts", {}).items())


def build_deck(path: Path, options: BuildOptions, echo: Callable[[str], None]) -> str:
    """Build one deck; returns a one-line summary. Raises DeckError on bad input."""
    deck = load_deck(path, options.lang)
    out_root = options.out
    final = out_root / deck.name
    previous = final if (final / MANIFEST).is_file() else None
    old_manifest = _read_manifest(final) if previous else {}
    inputs = _inputs(deck, old_manifest.get("faces", {}), options)
    if previous and _up_to_date(final, old_manifest, inputs):
        return f"{deck.name}: up to date ({final})"

    staging = out_root / f".{deck.name}.staging"
    if staging.exists():
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    try:
        faces = plan_faces(deck)
        stage = FaceStage(deck, staging, previous, old_manifest.get("faces", {}))
        total = len(faces.all())
        rendered = stage.build(faces.all(), lambda done, todo: (done == todo or done % 10 == 0)
                               and echo(f"{deck.name}: drawing faces {done}/{todo}"))
        ctx = BuildContext(deck=deck, faces=faces, out=staging, final=final, previous=previous,
                           options=options, progress=lambda msg: echo(f"{deck.name}: {msg}"))
        for name, builder in BUILDERS:
            echo(f"{deck.name}: {name}")
            builder(ctx)
        artifacts = {p.relative_to(staging).as_posix(): {"sha256": sha256_file(p), "bytes": p.stat().st_size}
                     for p in sorted(staging.rglob("*")) if p.is_file()}
        manifest = {"deckpress": __version__, "deck": deck.name, "language": deck.lang,
                    "inputs": _inputs(deck, stage.records, options), "artifacts": artifacts,
                    "faces": stage.records}
        (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _swap(staging, final)
    return (f"{deck.name}: built {len(artifacts)} files into {final} "
            f"({rendered} faces rendered, {total - rendered} reused)")


def _swap(staging: Path, final: Path) -> None:
    old = final.with_name(f".{final.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if final.exists():
        final.rename(old)
    staging.rename(final)
    if old.exists():
        shutil.rmtree(old)
