"""`deckpress pull`: each published sheet a deck's components read (`cards_from: {sheet: URL}`) fetched anew
into its copy in the project, data/<deck>/<component>.csv, and which cards that added, removed or changed.

Only pull uses the network; the build and `check` read the copies (tables.py), so they stay offline and
reproducible. A sheet is fetched with urllib: at most MAX_REDIRECTS redirects (Google's published link
answers 307 to googleusercontent.com), each to https (plain http to a loopback address only), in TIMEOUT
seconds, of at most the spreadsheet limits (tables.MAX_BYTES, MAX_ROWS); a web page (the sign-in page of a
sheet not published) is refused. What fails leaves the old copy as it was; a new copy replaces it in one step
(a temporary file beside it, then os.replace). pull replaces only a copy it wrote itself: the digest of each
it wrote is kept beside them (RECORD), and a copy edited since, or a file of the user's that stands where a
copy goes, is left as it is and said.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from . import __version__, tables
from .errors import Problems, Where
from .options import Context
from .paths import OutsideProject, confine, project_root
from .schema import Component, Sheet, slug
from .source import Map, load_yaml

TIMEOUT = 20.0  # seconds a sheet may take to answer, redirects included (a slow answer stops within twice this)
MAX_REDIRECTS = 5
CHUNK = 1 << 16
SHOWN_IDS = 10  # card ids named in a line of pull's report; the rest are counted
RECORD = ".deckpress-pulled.json"  # in data/<deck>/: the sha256 of each copy pull wrote there, by file name


class Failed(Exception):
    """The sheet could not be fetched, or its answer is not a CSV of cards: what to say."""


@dataclass
class Source:
    """A component's published sheet, as the deck names it."""

    component: str
    name: str
    url: str
    where: Where
    copy: Path


def sources(deck_path: Path) -> list[Source]:
    """The published sheets the deck's components read, their `cards_from` checked as a build checks it
    (the rest of the deck is not: a deck is pulled before its cards can be)."""
    raw = load_yaml(deck_path)
    problems = Problems()
    ctx = Context(problems)
    found = []
    components = raw.get("components") if isinstance(raw, Map) else None
    for item in components if isinstance(components, list) else []:
        if not isinstance(item, Map) or "cards_from" not in item:
            continue
        sheet = Component.OPTIONS["cards_from"].validate(item["cards_from"], item.at("cards_from"), ctx, "cards_from")
        if not isinstance(sheet, Sheet):
            continue
        if "id" not in item:
            ctx.error(item.where, "missing key 'id' in Component; add `id:` (the copy of its sheet is named by it)")
            continue
        component = Component.OPTIONS["id"].validate(item["id"], item.at("id"), ctx, "id")
        if component is not None and sheet.sheet is not None:
            found.append(Source(component, sheet.name or component, sheet.sheet, sheet.source.at("sheet"),
                                tables.copy_path(deck_path, component)))
    problems.raise_if_any()
    return found


class _Stay(urllib.request.HTTPRedirectHandler):
    """Redirects are followed by `fetch`, which checks each address, not by urllib."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        return None


def fetch(url: str) -> bytes:
    """The CSV the sheet at `url` answers, within TIMEOUT seconds and tables.MAX_BYTES; Failed otherwise."""
    deadline = time.monotonic() + TIMEOUT
    for _ in range(MAX_REDIRECTS + 1):
        left = deadline - time.monotonic()
        if left <= 0:
            raise Failed(f"no answer within {TIMEOUT:g} s")
        host = urlsplit(url).hostname or ""
        direct = urlsplit(url).scheme == "http"  # plain http goes to a loopback address alone: no proxy
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({} if direct else None), _Stay())
        request = urllib.request.Request(url, headers={"User-Agent": f"deckpress/{__version__}",
                                                       "Accept": "text/csv"})
        try:
            with opener.open(request, timeout=left) as answer:
                return _body(answer, deadline)
        except urllib.error.HTTPError as err:
            location = err.headers.get("Location") if err.code in (301, 302, 303, 307, 308) else None
            if location is None:
                raise Failed(f"the server answered {err.code} {err.reason}") from None
            url = urljoin(url, location)
            if tables.url_problem(url):
                raise Failed(f"it redirects to {url!r}, which is not https") from None
        except TimeoutError:
            raise Failed(f"no answer within {TIMEOUT:g} s") from None
        except urllib.error.URLError as err:
            reason = err.reason
            if isinstance(reason, TimeoutError):
                raise Failed(f"no answer within {TIMEOUT:g} s") from None
            raise Failed(f"cannot reach {host} ({getattr(reason, 'strerror', None) or reason})") from None
        except OSError as err:
            raise Failed(f"the connection to {host} failed ({err.strerror or err})") from None
    raise Failed(f"more than {MAX_REDIRECTS} redirects")


def _body(answer, deadline: float) -> bytes:
    """The answer's CSV, read a piece at a time against the deadline and the size limit."""
    kind = answer.headers.get_content_type()
    length = answer.headers.get("Content-Length")
    if length is not None and length.isdigit() and int(length) > tables.MAX_BYTES:
        raise Failed(f"the answer is {length} bytes, more than the {tables.MAX_BYTES} a sheet of cards may have")
    data = bytearray()
    while True:
        if time.monotonic() > deadline:
            raise Failed(f"the answer took more than {TIMEOUT:g} s")
        piece = answer.read1(CHUNK)
        if not piece:
            break
        data += piece
        if len(data) > tables.MAX_BYTES:
            raise Failed(f"the answer is more than the {tables.MAX_BYTES} bytes a sheet of cards may have")
    if kind == "text/html" or bytes(data[:256]).lstrip().lower().startswith((b"<!doctype html", b"<html")):
        raise Failed("it answered a web page, not CSV: the sheet is not published, or this is not its CSV link")
    return bytes(data)


def _rows(data: bytes) -> list[list[str]]:
    """The rows of a CSV answer, checked against the spreadsheet limits; Failed when it is none."""
    try:
        rows = [row for _, row in tables.csv_rows(data)]
    except tables.Unreadable as err:
        raise Failed(f"the answer is {err}" + (f" at line {err.line}" if err.line else "")) from None
    if len(rows) > tables.MAX_ROWS + 1:
        raise Failed(f"the sheet has more than {tables.MAX_ROWS} rows, blank ones included")
    if not rows or not any(cell.strip() for cell in rows[0]):
        raise Failed("the answer is empty, or its first row names no card keys")
    return rows


def cards(rows: list[list[str]]) -> dict[str, dict[str, str]]:
    """Each card of a sheet's rows by its id (its `id` cell, or made from its name as a build makes it; a
    row with neither by its number), with its non-empty cells."""
    keys = [key.strip() for key in rows[0]]
    out: dict[str, dict[str, str]] = {}
    for number, row in enumerate(rows[1:], 2):
        cells = {key: value for key, value in zip(keys, row) if key and value.strip()}
        if not cells:
            continue
        name = cells.get("id") or (slug(cells["name"]) if cells.get("name") else f"row {number}")
        shown, n = name, 2
        while shown in out:  # a build refuses the second; the report still counts it
            shown, n = f"{name} ({n})", n + 1
        out[shown] = cells
    return out


def report(source: Source, old: bytes | None, new: bytes, shown: str) -> str:
    """The line pull says of a sheet fetched: which cards its new copy added, removed or changed."""
    after = cards(_rows(new))
    if old is None:
        return f"sheet {source.name}: {len(after)} cards, new copy {shown}"
    try:
        before = cards(_rows(old))
    except Failed:
        before = {}
    added = [key for key in after if key not in before]
    removed = [key for key in before if key not in after]
    changed = [key for key in after if key in before and after[key] != before[key]]
    parts = [f"{len(keys)} {what} ({_ids(keys)})" for what, keys in (("added", added), ("removed", removed),
                                                                       ("changed", changed)) if keys]
    return f"sheet {source.name}: {', '.join(parts) or 'no card changed'} ({shown})"


def _ids(keys: list[str]) -> str:
    more = len(keys) - SHOWN_IDS
    return ", ".join(keys[:SHOWN_IDS]) + (f" and {more} more" if more > 0 else "")


def write_copy(copy: Path, data: bytes) -> None:
    """`copy` holds `data`, replaced in one step: written to a temporary file beside it, then renamed."""
    copy.parent.mkdir(parents=True, exist_ok=True)
    temporary = copy.with_name(f".{copy.name}.{os.getpid()}.part")
    try:
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, copy)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _pulled(folder: Path) -> dict[str, str]:
    """The digests of the copies pull wrote into `folder` (RECORD), by file name; {} when there is none."""
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pull(deck_path: Path, say: Callable[[str], None]) -> None:
    """Fetch every published sheet of the deck into its copy, saying a line for each (`say`); a sheet that
    fails keeps its copy and is a located line of the DeckError raised once the others are pulled."""
    found = sources(deck_path)
    if not found:
        say(f"{deck_path}: no component reads a published sheet (cards_from: {{sheet: URL}}); nothing to pull")
        return
    root = project_root(deck_path)
    problems = Problems()
    for source in found:
        shown = source.copy.relative_to(root).as_posix()
        try:
            confine(source.copy, deck_path)
            data = fetch(source.url)
            old = source.copy.read_bytes() if source.copy.is_file() else None
            line = report(source, old, data, shown)
        except OutsideProject:
            problems.add(source.where, f"sheet {source.name}: its copy {shown} leads outside the project; make "
                                       f"{tables.COPIES}/ a folder of {root}")
            continue
        except Failed as err:
            kept = f"kept the old copy {shown}" if source.copy.is_file() else f"no copy written to {shown}"
            problems.add(source.where, f"sheet {source.name}: {err}; {kept}, and pull again once the sheet "
                                       "answers its CSV (Google Sheets: File > Share > Publish to web, "
                                       "Comma-separated values)")
            continue
        record = _pulled(source.copy.parent)
        if old is not None and old != data and record.get(source.copy.name) != _sha256(old):
            problems.add(source.where, f"sheet {source.name}: {shown} is not the copy pull wrote (edited since, or "
                                       "a file of your own), and pull replaces only its own; move it away and "
                                       "pull again")
            continue
        try:
            if old != data:
                write_copy(source.copy, data)
            if record.get(source.copy.name) != _sha256(data):
                record[source.copy.name] = _sha256(data)
                write_copy(source.copy.parent / RECORD, (json.dumps(record, indent=2, sort_keys=True) + "\n").encode())
        except OSError as err:
            problems.add(source.where, f"sheet {source.name}: cannot write {shown} ({err.strerror or err}); "
                                       f"make {Path(shown).parent} writable")
            continue
        say(line)
    problems.raise_if_any()
