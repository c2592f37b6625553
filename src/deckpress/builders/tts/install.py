"""`deckpress install`: copy a built save, its thumbnail and the saved objects into the TTS data folder.

A file already there is replaced only when deckpress wrote it: `Saves/.deckpress-installed.json`
records the sha256 of every file deckpress installed. A file that differs from what was recorded (the
user edited or re-saved it in TTS) or that deckpress never wrote is left alone unless `force` is given,
and then nothing is installed: a game is installed whole or not at all.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from ...inputs import sha256_file

RECORD = ".deckpress-installed.json"


def default_tts_dir(system: str | None = None, home: Path | None = None, env: dict | None = None) -> Path:
    """The TTS data folder TTS uses by default on this operating system."""
    system = system or platform.system()
    home = home or Path.home()
    env = os.environ if env is None else env
    if system == "Windows":
        profile = Path(env.get("USERPROFILE", str(home)))
        return profile / "Documents" / "My Games" / "Tabletop Simulator"
    if system == "Darwin":
        return home / "Library" / "Tabletop Simulator"
    data = env.get("XDG_DATA_HOME")
    return (Path(data) if data else home / ".local" / "share") / "Tabletop Simulator"


class InstallError(Exception):
    """The TTS folder can't be installed into; the message says why and what to do."""


@dataclass
class InstallResult:
    written: list[Path] = field(default_factory=list)
    unchanged: list[Path] = field(default_factory=list)
    refused: list[Path] = field(default_factory=list)  # exists, not ours (or changed since): not touched


def plan_files(built_tts: Path, deck: str) -> list[tuple[Path, str]]:
    """(source, destination relative to the TTS folder) for everything install copies."""
    pairs = []
    for suffix in (".json", ".png"):
        source = built_tts / f"{deck}{suffix}"
        if source.is_file():
            pairs.append((source, f"Saves/{deck}{suffix}"))
    objects = built_tts / "saved-objects"
    if objects.is_dir():
        for source in sorted(objects.iterdir()):
            if source.is_file():
                pairs.append((source, f"Saves/Saved Objects/{deck}/{source.name}"))
    return pairs


def _check_places(tts_dir: Path, relatives: list[str]) -> None:
    """Every file can be written where it goes: each folder on its way is a folder (or not there yet), the
    file itself a file (or not there yet). Checked before anything is written."""
    if tts_dir.name == "Saves" or ((tts_dir / "Saved Objects").is_dir() and not (tts_dir / "Saves").is_dir()):
        raise InstallError(f"this is TTS's Saves folder, and the save would go to {tts_dir / 'Saves'}; name the "
                           f"data folder that holds it: --tts-dir {tts_dir.parent}")
    for relative in relatives:
        target = tts_dir / relative
        for place in [tts_dir, *(tts_dir / folder for folder in reversed(Path(relative).parents[:-1]))]:
            if place.exists() and not place.is_dir():
                raise InstallError(f"{place} is a file where a folder is needed; move it away and install again")
        if target.is_dir():
            raise InstallError(f"{target} is a folder where a file is needed; move it away and install again")


def install(built_tts: Path, deck: str, tts_dir: Path, force: bool = False) -> InstallResult:
    """Copy the files of plan_files into tts_dir (see the module docstring for what is overwritten): all of
    them or, when one is refused or cannot be written, none, and the record only with them."""
    record_path = tts_dir / "Saves" / RECORD
    plan = plan_files(built_tts, deck)
    _check_places(tts_dir, [relative for _, relative in plan] + [f"Saves/{RECORD}"])
    try:
        record = json.loads(record_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        record = {}
    except ValueError:
        raise InstallError(f"{record_path} is not the record deckpress writes (not JSON); move it away and "
                           "install again") from None
    files = record.setdefault("files", {}) if isinstance(record, dict) else None
    if not isinstance(files, dict):
        raise InstallError(f"{record_path} is not the record deckpress writes; move it away and install again")
    result = InstallResult()
    copies: list[tuple[Path, Path, str, str]] = []  # source, target, relative, digest
    for source, relative in plan:
        target = tts_dir / relative
        digest = sha256_file(source)
        if target.exists():
            current = sha256_file(target)
            if current == digest:
                files[relative] = digest
                result.unchanged.append(target)
                continue
            if not force and files.get(relative) != current:
                result.refused.append(target)
                continue
        copies.append((source, target, relative, digest))
    if result.refused:
        return result  # nothing written, the record neither
    temporaries: list[Path] = []
    try:
        for source, target, _, _ in copies:  # every copy made beside its target first, then each put in place
            target.parent.mkdir(parents=True, exist_ok=True)
            temporaries.append(target.with_name(target.name + ".deckpress-tmp"))
            shutil.copyfile(source, temporaries[-1])
    except OSError:
        for temporary in temporaries:
            temporary.unlink(missing_ok=True)
        raise
    for temporary, (_, target, relative, digest) in zip(temporaries, copies):
        os.replace(temporary, target)
        files[relative] = digest
        result.written.append(target)
    if result.written or result.unchanged:
        record_path.parent.mkdir(parents=True, exist_ok=True)
        record["files"] = dict(sorted(files.items()))
        record_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    return result
