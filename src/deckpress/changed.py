"""`deckpress build DECK --changed-since REF`: the cards whose printed faces differ from those of an earlier
build or revision, for a reprint of them alone (the PDF builder lays them out, builders/pdf/steps.py).

REF is a build folder (a copy of build/<deck>/, or of build/ with the deck's folder in it) or its manifest.json,
whose `cards` record names the faces each card prints (`printed_cards`) and whose artifacts give their digests;
or else a git revision of the project, whose tracked files are exported to a temporary folder and its faces
drawn there with the build's options (faces still up to date in the current build are copied, as a build copies
them). Cards are compared by the sha256 of their front and back face files (the same pixels give the same PNG
bytes): a card whose front or back differs prints all its copies, one added since REF too, and one with more
copies the added ones; a card gone (or with fewer copies) is listed, not printed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import DeckError, Where
from .inputs import digest, sha256_file
from .paths import project_root

if TYPE_CHECKING:  # every build records its cards (printed_cards); only a git REF runs git
    import subprocess

FLAG = "--changed-since"
GIT_SECONDS = 60

WORDS = {
    "en": {"title": "Cards changed since {ref}", "removed_title": "Removed since {ref} (not printed)",
           "new": "new", "front": "front", "back": "back", "both": "front and back", "more": "{n} more",
           "fewer": "{n} fewer", "removed": "removed", "copy": "copy", "copies": "copies"},
    "ru": {"title": "Карты, изменённые после {ref}", "removed_title": "Удалены после {ref} (не печатаются)",
           "new": "новая", "front": "лицо", "back": "рубашка", "both": "лицо и рубашка", "more": "ещё {n}",
           "fewer": "на {n} меньше", "removed": "удалена", "copy": "копия", "copies": "копий"},
}


def words(lang: str) -> dict[str, str]:
    """The words of a reprint's list in `lang` (its base language), English where missing."""
    return {**WORDS["en"], **WORDS.get(lang.split("-")[0], {})}


def printed_cards(deck, faces) -> list[dict]:
    """What the manifest records of each card with copies: its component, id, name, count and the faces a copy
    prints (Faces.printed), so that a later build can compare its cards with this one's."""
    return [{"component": component.id, "card": card.id, "name": card.name, "count": card.count,
             "front": front, "back": back}
            for component in deck.model.components for card in component.cards if card.count
            for front, back in [faces.printed(component, card)]]


@dataclass(frozen=True)
class Since:
    """The cards of REF (`label`): by (component id, card id), their name, count and face digests."""

    label: str
    cards: dict[tuple[str, str], tuple[str, int, str | None, str | None]]

    def digest(self) -> str:
        return digest([self.label, sorted([list(k), list(v)] for k, v in self.cards.items())])


@dataclass(frozen=True)
class Change:
    """A card listed in a reprint: `what` changed ("new", "front", "back", "both", "more", "fewer",
    "removed"), `copies` of it printed, `by` copies more or fewer."""

    component: str
    card: str
    name: str
    what: str
    copies: int
    by: int = 0
    faces: tuple[str, str | None] = ("", None)

    def line(self, text: dict[str, str]) -> str:
        what = text[self.what].format(n=self.by)
        printed = f", {self.copies} {text['copy' if self.copies == 1 else 'copies']}" if self.copies else ""
        return f"{self.component}: {self.name} ({self.card}): {what}{printed}"


def changes(since: Since, cards: list[dict], face_digest) -> tuple[list[Change], list[Change]]:
    """The cards (printed_cards) that differ from `since`'s, in deck order, and those gone or fewer, with
    `face_digest(path)` the digest of a face of this build."""
    changed, gone = [], []
    now = set()
    for card in cards:
        key = (card["component"], card["card"])
        now.add(key)
        faces = (card["front"], card["back"])
        front, back = face_digest(card["front"]), card["back"] and face_digest(card["back"])
        named = dict(component=key[0], card=key[1], name=card["name"], faces=faces)
        old = since.cards.get(key)
        if old is None:
            changed.append(Change(**named, what="new", copies=card["count"]))
            continue
        _, count, old_front, old_back = old
        differ = (front != old_front, back != old_back)
        if any(differ):
            what = {(True, True): "both", (True, False): "front", (False, True): "back"}[differ]
            changed.append(Change(**named, what=what, copies=card["count"]))
        elif card["count"] > count:
            changed.append(Change(**named, what="more", copies=card["count"] - count, by=card["count"] - count))
        elif card["count"] < count:
            gone.append(Change(**named, what="fewer", copies=0, by=count - card["count"]))
    for key, (name, count, _, _) in since.cards.items():
        if key not in now:
            gone.append(Change(component=key[0], card=key[1], name=name, what="removed", copies=0))
    return changed, gone


def since(ref: str, deck, final: Path, manifest: dict, lang: str | None) -> Since:
    """The cards of REF for `deck`: a build folder or manifest file if REF names one, else a git revision of
    the deck's project (its faces drawn with the current build `final`, whose `manifest` it is, as cache).
    DeckError, one line, when REF is neither."""
    path = Path(ref)
    if path.is_dir() and not (path / "manifest.json").exists() and (path / deck.name / "manifest.json").is_file():
        path = path / deck.name  # a copy of the whole build folder, which serves every deck built
    if path.is_dir() or path.is_file():
        return _of_build(ref, path / "manifest.json" if path.is_dir() else path, deck)
    return _of_revision(ref, deck, final, manifest, lang)


def _refused(message: str) -> DeckError:
    return DeckError.at(Where(FLAG), message)


def _of_build(ref: str, file: Path, deck) -> Since:
    try:
        manifest = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = None
    if not isinstance(manifest, dict) or "deckpress" not in manifest or not isinstance(manifest.get("artifacts"),
                                                                                           dict):
        raise _refused(f"{ref!r} is no build of deckpress (no manifest.json of deckpress there); name a copy of "
                       f"build/{deck.name}/ or its manifest.json, or a git revision such as HEAD~1")
    if manifest.get("deck") != deck.name:
        raise _refused(f"{ref!r} is a build of {manifest.get('deck')!r}, not of {deck.name!r}; name a build of "
                       f"{deck.name}")
    cards = manifest.get("cards")
    if not isinstance(cards, list):
        raise _refused(f"{ref!r} was built by deckpress {manifest['deckpress']}, which did not record the cards' "
                       "faces; build it again with this deckpress, or name a git revision")
    artifacts = manifest["artifacts"]

    def face(rel) -> str | None:
        info = artifacts.get(rel) if isinstance(rel, str) else None
        return info.get("sha256") if isinstance(info, dict) else None
    try:
        return Since(ref, {(c["component"], c["card"]): (c["name"], c["count"], face(c["front"]), face(c["back"]))
                           for c in cards})
    except (KeyError, TypeError):
        raise _refused(f"{ref!r}: its manifest's record of the cards is damaged; name another build, or a git "
                       "revision") from None


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    import subprocess

    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=GIT_SECONDS)


def _of_revision(ref: str, deck, final: Path, manifest: dict, lang: str | None) -> Since:
    import shutil
    import subprocess
    import tarfile
    import tempfile

    root = project_root(deck.path).resolve()
    nothing = _refused(f"{ref!r} names no build folder, manifest or git revision of the project; name a copy of "
                       f"build/{deck.name}/, its manifest.json, or a revision such as HEAD~1")
    if ref.startswith("-") or shutil.which("git") is None:
        raise nothing
    top = _git(root, "rev-parse", "--show-toplevel")
    commit = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}")
    if top.returncode or commit.returncode:
        raise nothing
    top_folder = Path(top.stdout.decode().strip()).resolve()
    inside = root.relative_to(top_folder).as_posix()
    sha = commit.stdout.decode().strip()
    label = f"{ref} ({sha[:10]})"
    with tempfile.TemporaryDirectory(prefix="deckpress-changed-since-") as folder:
        tree = Path(folder) / "tree"
        archive = subprocess.Popen(["git", "-C", str(top_folder), "archive", "--format=tar", sha, "--", inside],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
                tar.extractall(tree, filter="data")
        finally:
            archive.stdout.close()
            archive.wait(GIT_SECONDS)
        if archive.returncode:
            raise _refused(f"git could not export {label}; check the repository with `git fsck`")
        deck_then = tree / inside / deck.path.resolve().relative_to(root)
        if not deck_then.is_file():
            return Since(label, {})  # the deck is new since then: every card is
        return _drawn(label, deck_then, Path(folder) / "out", final, manifest, lang)


def _drawn(label: str, path: Path, out: Path, final: Path, manifest: dict, lang: str | None) -> Since:
    """The cards of the deck at `path` with the digests of their faces drawn into `out`."""
    from .deck import load_deck
    from .faces import FaceStage, plan_faces

    try:
        deck = load_deck(path, lang)
        faces = plan_faces(deck)
        previous = final if manifest else None
        FaceStage(deck, out, previous, manifest.get("faces", {}), manifest.get("artifacts"),
                  ).build(faces.all(), lambda done, todo: None)
    except DeckError as err:
        problem = err.problems[0]
        raise _refused(f"the deck at {label} does not build ({problem.message}); name a revision where it "
                       "does, or a build folder") from None
    return Since(label, {(c["component"], c["card"]): (c["name"], c["count"], sha256_file(out / c["front"]),
                                                       c["back"] and sha256_file(out / c["back"]))
                         for c in printed_cards(deck, faces)})
