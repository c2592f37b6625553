"""One build: YAML -> validated model -> faces -> builders -> OUT/<deck>/, swapped in at the end.

Everything is written to a staging folder of its own beside the output; only a build that succeeds
replaces OUT/<deck>/, in one step (_swap), so a build that fails, is stopped or is killed outright leaves the
previous one as it was, every file (under `deckpress watch` the faces it draws show in OUT/.drawn/<deck>/
meanwhile: DrawnFaces). deckpress replaces only a folder it wrote itself: one whose manifest.json is
deckpress's and lists every file in it. A lock on OUT keeps two builds into one folder from running at once,
so a build finds the staging and old folders of its deck that a killed build left (OUT/.<deck>.staging-*,
OUT/.<deck>.old-*) and removes them: those it knows for its own, by the mark they carry (TEMPORARY_MARK) or by
their manifest.
"""

from __future__ import annotations

import errno
import glob
import json
import os
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from . import __version__, stamp
from .changed import Since, changes, printed_cards, since as changed_since, words
from .context import BuildContext, BuildOptions
from .errors import DeckError, Where
from .inputs import (Hashed, Records, build_inputs, built_digest, digest, file_state, input_digests, package_digest,
                     plain, sha256_file)
from .paths import project_root
from .processes import Prepared, TaskFailed, check_stop

if TYPE_CHECKING:
    from .deck import LoadedDeck

MANIFEST = "manifest.json"
# In a folder of deckpress's that is not a build: a staging folder until the build puts it in place, an old
# build while it is removed. A build removes such folders that killed builds left (remove_leftovers).
TEMPORARY_MARK = ".deckpress-temporary"
# OUT/.drawn/<deck>/: the faces as `deckpress watch`'s builds draw them (DrawnFaces), marked deckpress's.
DRAWN, DRAWN_MARK = ".drawn", ".deckpress-drawn"
PLAYTEST = "playtest"  # the pages of deckpress playtest (playtest/page.py), kept from build to build
# Files an operating system drops into folders by itself; they do not make a build folder the user's.
SYSTEM_FILES = frozenset({".DS_Store", "Thumbs.db", "desktop.ini"})


def read_manifest(folder: Path) -> dict:
    try:
        manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def _foreign_file(folder: Path, manifest: dict) -> Path | None:
    """A file in `folder` that its manifest does not list (the first, sorted), or None."""
    listed = set(manifest.get("artifacts", {})) | {MANIFEST}
    for path in sorted(folder.rglob("*")):
        if (path.is_file() or path.is_symlink()) and path.relative_to(folder).as_posix() not in listed \
                and path.name not in SYSTEM_FILES:
            return path
    return None


def check_output(final: Path, deck: LoadedDeck) -> dict:
    """The manifest of `final` when deckpress may replace it ({} when it does not exist yet); a DeckError
    when `final` holds anything deckpress did not write there."""
    where = Where(str(final))
    resolved = final.resolve()
    if project_root(deck.path).resolve().is_relative_to(resolved) or deck.path.resolve().is_relative_to(resolved):
        raise DeckError.at(where, f"building {deck.name!r} here would replace the project itself; pick an "
                                  "--out folder outside the project's own files, e.g. --out build")
    if not final.exists() and not final.is_symlink():
        return {}
    if final.is_symlink() or not final.is_dir():
        raise DeckError.at(where, "exists and is not a folder deckpress built; move it away or pick another "
                                  "--out")
    manifest = read_manifest(final)
    if manifest.get("deck") != deck.name or "deckpress" not in manifest or \
            not isinstance(manifest.get("artifacts"), dict):
        raise DeckError.at(where, "this folder was not built by deckpress (it has no manifest.json of "
                                  f"deckpress for {deck.name!r}); move it away or pick another --out")
    foreign = _foreign_file(final, manifest)
    if foreign is not None:
        raise DeckError.at(Where(str(foreign)), f"not written by deckpress, and a build would replace "
                                                f"{final}; move the file out of it, or pick another --out")
    return manifest


def _ours(folder: Path, deck: str) -> bool:
    """Whether `folder` is one deckpress wrote for `deck`: marked, or a build (its manifest lists every file
    in it)."""
    if folder.is_symlink() or not folder.is_dir():
        return False
    if (folder / TEMPORARY_MARK).is_file():
        return True
    manifest = read_manifest(folder)
    return manifest.get("deck") == deck and "deckpress" in manifest and isinstance(manifest.get("artifacts"), dict) \
        and _foreign_file(folder, manifest) is None


def remove_leftovers(out_root: Path, deck: str) -> None:
    """Remove the staging and old folders of `deck` that earlier builds, killed, left in `out_root`. Call it
    holding output_lock: no build of the deck is running then."""
    for kind in ("staging", "old"):
        for folder in out_root.glob(glob.escape(f".{deck}.{kind}-") + "*"):
            if _ours(folder, deck):
                shutil.rmtree(folder, ignore_errors=True)


def _put_back(final: Path, deck: str) -> None:
    """Put back the previous build that a build killed as it replaced it left aside (_swap, where the system
    cannot exchange two folders in one step): `final` is missing, and an old folder of the deck is a whole
    build, not yet marked for removal. Call it holding output_lock."""
    if final.exists() or final.is_symlink():
        return
    for folder in sorted(final.parent.glob(glob.escape(f".{deck}.old-") + "*")):
        if not (folder / TEMPORARY_MARK).exists() and _ours(folder, deck):
            folder.rename(final)
            return


def _up_to_date(folder: Path, manifest: dict, inputs: dict) -> dict[str, list[int]] | None:
    """The state of each file the manifest lists (see stamp.py) when the build in `folder` is up to date
    for `inputs`: they are the manifest's and each file has the bytes it lists; else None."""
    if manifest.get("inputs") != inputs:
        return None
    states = {}
    for path, info in manifest.get("artifacts", {}).items():
        state = states[path] = file_state(folder / path)
        if state is None or sha256_file(folder / path) != info["sha256"]:
            return None
    return states


def _option_values(options: BuildOptions, builders: list, lang: str | None, since: Since | None = None) -> dict:
    """The build's options as its record has them (the TTS save's date among them; the cards of
    --changed-since's REF, which its reprint PDFs show)."""
    values = {"lang": lang, "asset_url": options.asset_url, "builders": {b.name: plain(b.options) for b in builders},
              "source_date_epoch": os.environ.get("SOURCE_DATE_EPOCH", "")}
    if since is not None:
        values["changed_since"] = since.digest()
    return values


def _builders(options: BuildOptions) -> list:
    from .builders import registered  # the builders' libraries (Pillow, reportlab) only for a build that runs

    return [cls(options.builders.get(cls.name)) for cls in registered()]


def _stamp_key(options: BuildOptions) -> str:
    """What a stamp holds for: deckpress itself and the options as given (the deck's own language is in the
    deck file)."""
    return digest(["stamp", package_digest(), _option_values(options, _builders(options), options.lang)])


@contextmanager
def output_lock(out_root: Path, deck: str, echo: Callable[..., None]) -> Iterator[None]:
    """Hold a lock on the output folder (made if need be), for building `deck` (or several decks): a second
    build into it waits for the first to finish. Raises DeckError when the folder can't be made."""
    try:
        out_root.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise _write_problem(err, out_root) from None
    try:
        import fcntl
    except ImportError:  # Windows: a lock file, OUT/.<deck>.lock; msvcrt retries it for about 10 s
        import msvcrt
        with open(out_root / f".{deck}.lock", "a+b") as handle:
            msvcrt.locking(handle.fileno(), msvcrt.LK_LOCK, 1)
            yield
        return
    handle = os.open(out_root, os.O_RDONLY)
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            echo(f"{deck}: waiting for another build into {out_root}")
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)


def _write_problem(err: OSError, out_root: Path) -> DeckError:
    where = Where(str(err.filename) if err.filename else str(out_root))
    if err.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
        advice = "free some space, or pick another --out"
    elif err.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        advice = "make the folder writable, or pick another --out"
    elif err.errno in (errno.ENOTDIR, errno.EEXIST, errno.EISDIR):
        advice = "a file stands where a folder is needed (or the other way round); move it, or pick another --out"
    else:
        advice = "pick another --out"
    return DeckError.at(where, f"cannot write the build: {err.strerror or err}; {advice}")


def stamped(path: Path, options: BuildOptions, warn: Callable[[str], None]) -> str | None:
    """The summary of the deck at `path` when its stamp holds (stamp.py: the build is up to date, and
    nothing else need be read), its warnings said again; else None (always with --changed-since, whose REF, a
    revision, may name other commits since)."""
    if options.changed_since is not None:
        return None
    final = options.out / path.stem
    said = stamp.unchanged(path, final, _stamp_key(options))
    if said is None:
        return None
    for warning in said:
        warn(warning)
    return f"{path.stem}: up to date ({final})"


def build_deck(path: Path, options: BuildOptions, echo: Callable[..., None],
               warn: Callable[[str], None], lock: bool = True) -> str:
    """Build one deck; returns a one-line summary. `echo(message, done=None, total=None)` reports progress
    (with counts for a step that has them), `warn` each warning (a face drawn with a placeholder...).
    Raises DeckError on bad input or an unwritable output. `lock=False`: the caller holds output_lock."""
    summary = stamped(path, options, warn)
    if summary is not None:
        return summary
    from .deck import load_deck  # the deck's modules (YAML, Jinja, Pillow) only for a deck read

    deck = load_deck(path, options.lang)
    for warning in deck.warnings:
        warn(warning)
    out_root = options.out
    final = out_root / deck.name
    try:
        if not lock:
            return _build_locked(deck, options, final, echo, warn)
        with output_lock(out_root, deck.name, echo):
            return _build_locked(deck, options, final, echo, warn)
    except OSError as err:
        raise _write_problem(err, out_root) from None


def _build_locked(deck: LoadedDeck, options: BuildOptions, final: Path, echo: Callable[..., None],
                  warn: Callable[[str], None]) -> str:
    _put_back(final, deck.name)
    manifest_state = file_state(final / MANIFEST)  # before it is read
    old_manifest = check_output(final, deck)  # holding the lock: no other build changes the folder meanwhile
    previous = final if old_manifest else None
    since = None if options.changed_since is None else \
        changed_since(options.changed_since, deck, final, old_manifest, options.lang)
    summary = _build_since(deck, options, final, echo, warn, old_manifest, manifest_state, previous, since)
    return summary if since is None else "\n".join([summary, *_reprint_report(deck, final, since)])


def _reprint_report(deck: LoadedDeck, final: Path, since: Since) -> list[str]:
    """What --changed-since says: the cards the reprint PDFs hold and those gone, or that none changed."""
    from .builders.pdf.steps import reprints

    manifest = read_manifest(final)
    artifacts = manifest.get("artifacts", {})
    listed, gone = changes(since, manifest.get("cards", []), lambda rel: artifacts.get(rel, {}).get("sha256"))
    files = [rel for rel in reprints(deck) if rel in artifacts]
    if not listed and not gone:
        return [f"{deck.name}: no card changed since {since.label}; no reprint written"]
    text = words("en")
    head = (f"{deck.name}: {len(listed)} card{'s' if len(listed) != 1 else ''} changed since {since.label}"
            + (f", reprinted in {', '.join(str(final / rel) for rel in files)}" if files and listed else
               ", nothing to reprint" if not listed else ""))
    return [head, *(f"  {change.line(text)}" for change in listed + gone)]


def _build_since(deck: LoadedDeck, options: BuildOptions, final: Path, echo: Callable[..., None],
                 warn: Callable[[str], None], old_manifest: dict, manifest_state, previous: Path | None,
                 since: Since | None) -> str:
    """The build of `deck` in place of `final` (checked by check_output: `old_manifest`), its reprint PDFs made
    against `since`; returns its summary."""
    remove_leftovers(final.parent, deck.name)
    from .builders import tiles
    from .faces import FaceStage, plan_faces

    builders = _builders(options)
    option_values = _option_values(options, builders, deck.lang, since)
    hashed: Hashed = {}  # each input file's state as this build hashes it, for the stamp
    files = input_digests(deck, hashed)  # once: the manifest records the inputs as the build read them
    inputs = build_inputs(deck, old_manifest.get("faces", {}), option_values, files, hashed)
    states = _up_to_date(final, old_manifest, inputs) if previous else None
    if states is not None:
        said = FaceStage.recorded_warnings(old_manifest.get("faces", {}))
        for warning in said:
            warn(warning)
        stamp.write(final, deck, _stamp_key(options), old_manifest.get("faces", {}),
                    {**states, MANIFEST: manifest_state}, deck.warnings + said, hashed)
        return f"{deck.name}: up to date ({final})"

    vouched = stamp.vouched(final, old_manifest.get("artifacts", {})) if previous is not None else {}
    staging = Path(tempfile.mkdtemp(prefix=f".{deck.name}.staging-", dir=final.parent))
    drawn = DrawnFaces(final.parent, deck.name, options.drawn)
    try:
        (staging / TEMPORARY_MARK).write_bytes(b"")
        faces = plan_faces(deck)
        stage = FaceStage(deck, staging, previous, old_manifest.get("faces", {}), old_manifest.get("artifacts"),
                          vouched)
        total = len(faces.all())
        ctx = BuildContext(deck=deck, faces=faces, out=staging, final=final, previous=previous,
                           options=options, progress=lambda msg: echo(f"{deck.name}: {msg}"),
                           records=Records(staging, previous, old_manifest.get("records", {}), vouched), since=since)
        wanted = tiles(builders, deck, faces)  # before the builders fork: they share the modules it imports
        with _builders_started(ctx, builders) as run_builders:
            rendered = stage.build(faces.all(), lambda done, todo: echo(f"{deck.name}: drawing faces {done}/{todo}",
                                                                        done, todo), wanted,
                                   lambda face: drawn.show(staging / face.path, face.path))
            FaceStage.check_safe_zone(stage.records)
            for warning in FaceStage.recorded_warnings(stage.records):
                warn(warning)
            run_builders()
            # Within the block: the builders' processes, done, are reaped once the build is in place (a
            # process's end, its memory handed back, takes 10 to 25 ms).
            states, old = _put_in_place(ctx, stage.records, option_values, files, hashed)
    except BaseException:
        if file_state(final / MANIFEST) == manifest_state:  # the previous build still in place
            drawn.in_step(previous, old_manifest.get("faces", {}))
        else:  # put in place, then failed
            drawn.in_step(final, stage.records)
        shutil.rmtree(staging, ignore_errors=True)
        raise
    removed = _removed_meanwhile(old)
    try:
        drawn.in_step(final, stage.records)
        stamp.write(final, deck, _stamp_key(options), stage.records, states,
                    deck.warnings + FaceStage.recorded_warnings(stage.records), hashed)
    finally:
        removed()
    return (f"{deck.name}: built {len(states) - 1} files into {final} "
            f"({rendered} faces rendered, {total - rendered} reused)")


def _put_in_place(ctx: BuildContext, face_records: dict, option_values: dict,
                  files: dict[str, str], hashed: Hashed) -> tuple[dict, Path | None]:
    """Write the manifest of the build in its staging folder (ctx.out) and put it in place of ctx.final, its
    inputs `files` (input_digests, as the build read them) and the images the faces drew; returns the state of
    each file of the build, manifest included, as it was hashed (for the stamp), and the previous build's
    folder, moved aside for removal (see _swap)."""
    deck, previous, staging = ctx.deck, ctx.previous, ctx.out
    if previous is not None and (previous / PLAYTEST).is_dir():  # deckpress playtest's pages stay
        shutil.copytree(previous / PLAYTEST, staging / PLAYTEST)
    states = {p.relative_to(staging).as_posix(): file_state(p)  # before each is hashed
              for p in sorted(staging.rglob("*")) if p.is_file() and p != staging / TEMPORARY_MARK}
    vouched = {**ctx.records.vouched, **ctx.records.hashed}  # and the files the builders hashed as they wrote them
    artifacts = {relative: {"sha256": built_digest(staging / relative, vouched), "bytes": state[0]}
                 for relative, state in states.items()}
    manifest = {"deckpress": __version__, "deck": deck.name, "language": deck.lang,
                "inputs": build_inputs(deck, face_records, option_values, files, hashed), "artifacts": artifacts,
                "faces": face_records, "records": ctx.records.new, "cards": printed_cards(deck, ctx.faces)}
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    states[MANIFEST] = file_state(staging / MANIFEST)
    os.chmod(staging, 0o777 & ~_umask())
    check_stop()  # a deck's own process told to stop puts nothing in place
    (staging / TEMPORARY_MARK).unlink()  # from here it is known by its manifest
    return states, _swap(staging, ctx.final)


class DrawnFaces:
    """The faces a build draws, each in OUT/.drawn/<deck>/ as soon as it is drawn (at its path in the build),
    so that under `deckpress watch` an edited card shows before the TTS sheets and the PDFs are made, while
    OUT/<deck>/ stays the previous build until the new one is put in place whole. Between builds the folder
    holds the faces of OUT/<deck>/: each build that ends, put in place or not, puts it in step again (hard
    links, where the file system has them: no copy of a face's bytes). A file lands there by a rename, never
    half-written. deckpress writes only in a folder of its own there (marked DRAWN_MARK, or made by it); any
    other is left alone, and nothing is shown. `on=False` (a plain build): nothing is shown, nothing written."""

    def __init__(self, out_root: Path, deck: str, on: bool):
        self.folder = out_root / DRAWN / deck
        self.working = on and self._ours()

    def _ours(self) -> bool:
        if not self.folder.exists():
            try:
                self.folder.mkdir(parents=True)
                (self.folder / DRAWN_MARK).write_bytes(b"")
            except OSError:
                return False
        return not self.folder.is_symlink() and (self.folder / DRAWN_MARK).is_file()

    def show(self, path: Path, relative: str) -> None:
        """Put the file `path` (a face just drawn, or the build's) at `relative` in the folder."""
        if not self.working:
            return
        target = self.folder / relative
        if target.is_file() and not target.is_symlink() and os.path.samefile(path, target):
            return
        new = target.with_name(f".{target.name}.new")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with suppress(FileNotFoundError):
                new.unlink()
            try:
                os.link(path, new)
            except OSError:
                shutil.copyfile(path, new)
            os.replace(new, target)
        except OSError:
            self.working = False

    def in_step(self, build: Path | None, faces) -> None:
        """Make the folder hold the faces `faces` (their paths) of the build folder `build`, and no other."""
        if not self.working:
            return
        wanted = set(faces) if build is not None else set()
        for relative in sorted(wanted):
            self.show(build / relative, relative)
        for path in sorted(self.folder.rglob("*"), reverse=True):  # a folder after the files in it
            relative = path.relative_to(self.folder).as_posix()
            with suppress(OSError):
                if path.is_dir() and not path.is_symlink():
                    if not any(path.iterdir()):
                        path.rmdir()
                elif relative not in wanted and relative != DRAWN_MARK:
                    path.unlink()


@contextmanager
def _builders_started(ctx: BuildContext, builders) -> Iterator[Callable[[], None]]:
    """The builders, each in a process of its own where the system can fork, started now: each prepares
    (imports its libraries, reads its fonts) while the faces are drawn. The function given runs them, once
    the faces are: side by side, the TTS sheets made while the PDFs are typeset, each on a core of its own
    (in threads they would take turns: reportlab is Python, and Pillow's JPEG encoder keeps the GIL). Each
    writes its own files into the staging folder; the records it made come back and join the build's. The
    first error is raised once every builder has finished, so none writes into the staging folder as it
    is removed. Without fork, or with one builder (not worth a process), they run one after another when the
    function is called (Prepared's serial twin), their records already the build's."""
    def task(builder):
        failed: list[BaseException] = []

        def attempt(step) -> None:
            if not failed:
                try:
                    step(ctx)
                except (DeckError, OSError) as err:
                    failed.append(err)

        def run():
            attempt(builder.build)
            return failed[0] if failed else (ctx.records.new, ctx.records.hashed)
        return partial(attempt, builder.prepare), run

    with Prepared([task(builder) for builder in builders], forked=len(builders) > 1) as started:
        def all_at_once() -> None:
            failed = None
            try:
                results = started.results()
            except TaskFailed as err:  # a bug of the builder's: its process printed its traceback
                raise DeckError.at(Where(str(ctx.deck.path)), f"the {builders[err.index].name} builder stopped "
                                   f"(exit status {err.exitcode}; what it printed is above); the previous build "
                                   "is as it was") from None
            for result in results:
                if isinstance(result, BaseException):
                    failed = failed or result
                else:
                    ctx.records.new.update(result[0])
                    ctx.records.hashed.update(result[1])
            if failed is not None:
                raise failed
        yield all_at_once


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _exchanged(a: Path, b: Path) -> bool:
    """Whether the folders `a` and `b` were swapped in one step of the file system, which leaves no moment
    with neither in place (Linux's renameat2 with RENAME_EXCHANGE, since 3.15; False where there is none)."""
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_cwd, exchange = -100, 2  # AT_FDCWD, RENAME_EXCHANGE
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), exchange) == 0:
        return True
    if ctypes.get_errno() in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):  # a kernel or file system without it
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(b))


def _swap(staging: Path, final: Path) -> Path | None:
    """Put `staging` in the place of `final` (a folder check_output found to be deckpress's, or none); returns
    the previous build's folder, moved aside and marked, for the caller to remove (None when there was none).
    The two are exchanged in one step where the system can; elsewhere the previous build is renamed aside
    first, and a build killed before the new one took its place has it put back by the next (_put_back)."""
    if not final.exists():
        staging.rename(final)
        return None
    if _exchanged(staging, final):
        old = staging
    else:
        old = Path(tempfile.mkdtemp(prefix=f".{final.name}.old-", dir=final.parent))
        old.rmdir()
        final.rename(old)
        try:
            staging.rename(final)
        except BaseException:
            old.rename(final)
            raise
    with suppress(OSError):  # the build is in place: a full disk does not undo it
        (old / TEMPORARY_MARK).write_bytes(b"")  # known for deckpress's however far its removal gets
    return old


def _removed_meanwhile(old: Path | None) -> Callable[[], None]:
    """Start removing the previous build's folder (_swap) in a thread of its own, while the deck's process does
    the rest (the old faces' folder removed, the stamp written: each file's removal waits on the file system,
    not on Python); the function given waits for the removal, and raises what it raised."""
    if old is None:
        return lambda: None
    failed: list[BaseException] = []

    def remove() -> None:
        try:
            shutil.rmtree(old)
        except BaseException as err:  # noqa: BLE001 (raised in the deck's process, by the function given)
            failed.append(err)
    thread = threading.Thread(target=remove, name="deckpress: removing the previous build")
    thread.start()

    def done() -> None:
        thread.join()
        if failed:
            raise failed[0]
    return done
