"""Links that load: every URL a built TTS save names, fetched before players find it dead.

A mod built with `--asset-url` points its images at files the designer uploaded by hand; a file not
uploaded, or uploaded elsewhere, is a blank card in every player's TTS. `check_build` reads the saves
`deckpress install` copies (the full save and the saved objects), gathers the URLs of their URL fields,
each once, with the objects naming it and the file of the build it stands for, and loads them: http(s)
by HEAD, then by a GET of one byte where the server refuses HEAD (403, 405, 501), 8 at a time, each request
bounded by the timeout, redirects followed at most 5 times; file:/// URLs as files of the deck's build
folder (a path outside it fails, never read). The result is one line per link that fails.
"""

from __future__ import annotations

import json
import math
import queue
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.client import HTTPException
from pathlib import Path
from urllib.error import HTTPError, URLError
from urllib.parse import unquote, urlsplit

from ...errors import DeckError, Problem, Where, display_path
from .install import plan_files

IMAGE_FIELDS = frozenset({"FaceURL", "BackURL", "ImageURL", "ImageSecondaryURL", "DiffuseURL", "NormalURL",
                          "TableURL", "SkyURL"})
FIELDS = IMAGE_FIELDS | {"MeshURL", "ColliderURL", "AssetbundleURL", "AssetbundleSecondaryURL", "PDFUrl",
                         "CurrentAudioURL"}  # and CustomUIAssets' URL
TIMEOUT = 10.0  # seconds, for each request of a link
WORKERS = 8
MAX_LINKS = 2000  # a save names one URL per sheet, back, token and UI image: thousands is no save of deckpress
MAX_REDIRECTS = 5
REFUSED_HEAD = (403, 405, 501)


@dataclass
class Link:
    """One URL, the objects of its first save naming it (`DeckCustom "Deck"`, the field), that save, and the
    file of the build the URL stands for (None when no file of the build has its name)."""

    url: str
    save: Path
    named: dict[str, list[str]] = field(default_factory=dict)  # object -> its fields naming the URL
    file: Path | None = None


def _label(state: dict) -> str:
    nickname = state.get("Nickname")
    return f'{state.get("Name")} "{nickname}"' if isinstance(nickname, str) and nickname else \
        f'{state.get("Name")} {state.get("GUID")}'


def _walk(value, owner: str, named: set[str], found: dict[str, Link], save: Path) -> None:
    """Note every URL field under `value` with its object; an object's cards naming the URL their deck
    names are not listed again."""
    if isinstance(value, list):
        for item in value:
            _walk(item, owner, named, found, save)
        return
    if not isinstance(value, dict):
        return
    if "Name" in value and "GUID" in value:
        owner, named = _label(value), set(named)
    for key, item in value.items():
        if key in FIELDS and isinstance(item, str) and item.strip():
            _note(found, item.strip(), save, owner, key, named)
        elif key == "CustomUIAssets" and isinstance(item, list):
            for asset in item:
                if isinstance(asset, dict) and isinstance(asset.get("URL"), str) and asset["URL"].strip():
                    _note(found, asset["URL"].strip(), save, f'CustomUIAssets "{asset.get("Name")}"', "URL", named)
        else:
            _walk(item, owner, named, found, save)


def _note(found: dict[str, Link], url: str, save: Path, owner: str, key: str, named: set[str]) -> None:
    link = found.setdefault(url, Link(url, save))
    if url in named and owner not in link.named or link.save != save:
        return
    named.add(url)
    fields = link.named.setdefault(owner, [])
    if key not in fields:
        fields.append(key)


def _local_file(url: str, built: Path) -> Path | None:
    """The file of the build a URL stands for: for file:///, its path if inside the deck's build folder; for
    a web address, the image of tts/assets/ of the same name (`--asset-url` + file name)."""
    parts = urlsplit(url)
    if parts.scheme == "file":
        path = Path(urllib.request.url2pathname(parts.path))
        return path if path.resolve().is_relative_to(built.resolve()) else None
    name = unquote(parts.path.rsplit("/", 1)[-1])
    if not name or name in (".", "..") or "\\" in name:
        return None
    path = built / "tts" / "assets" / name
    return path if path.is_file() else None


def links_of(built: Path, deck: str) -> list[Link]:
    """The links of the saves of `built` (build/<deck>), in the order the saves name them."""
    saves = [source for source, _ in plan_files(built / "tts", deck) if source.suffix == ".json"]
    if not saves:
        raise DeckError.at(Where(str(built / "tts" / f"{deck}.json")),
                           f"no build to check the links of; run deckpress build {deck} first")
    found: dict[str, Link] = {}
    for save in saves:
        try:
            _walk(json.loads(save.read_text(encoding="utf-8")), "the save", set(), found, save)
        except (ValueError, OSError) as err:
            raise DeckError.at(Where(str(save)), f"not a save deckpress wrote ({err}); build the deck again: "
                                                 f"deckpress build {deck}") from None
    if len(found) > MAX_LINKS:
        raise DeckError.at(Where(str(saves[0])), f"the saves name {len(found)} links, more than the {MAX_LINKS} "
                                                 "deckpress checks; build the deck again, or check it in TTS")
    for link in found.values():
        link.file = _local_file(link.url, built)
    return list(found.values())


class _Redirects(urllib.request.HTTPRedirectHandler):
    max_redirections = MAX_REDIRECTS

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        """The redirected request asks as the first did: a HEAD stays a HEAD (urllib makes it a GET, of the
        whole file), the one-byte GET keeps its Range."""
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.method = req.get_method()
        return new


def _status(err: HTTPError) -> str:
    if 300 <= err.code < 400:
        return f"more than {MAX_REDIRECTS} redirects"
    return f"{err.code} {err.reason}"


def _load(url: str, images: bool, timeout: float, opener: urllib.request.OpenerDirector) -> str | None:
    """What is wrong with a web link, or None when it loads."""
    headers = {"User-Agent": "deckpress link check"}
    for request in (urllib.request.Request(url, method="HEAD", headers=headers),
                    urllib.request.Request(url, headers={**headers, "Range": "bytes=0-0"})):
        try:
            with opener.open(request, timeout=timeout) as answer:
                kind = answer.headers.get_content_type()
                if images and kind == "text/html":
                    return "answers a web page (text/html), not the image"
                return None
        except HTTPError as err:
            if request.get_method() == "HEAD" and err.code in REFUSED_HEAD:
                continue
            return _status(err)
        except TimeoutError:
            return f"no answer in {timeout:g} s"
        except URLError as err:
            reason = err.reason
            if isinstance(reason, TimeoutError):
                return f"no answer in {timeout:g} s"
            if isinstance(reason, ConnectionRefusedError):
                return "connection refused"
            return str(reason.strerror if isinstance(reason, OSError) and reason.strerror else reason)
        except (OSError, HTTPException, ValueError) as err:
            return f"{type(err).__name__}: {err}" if str(err) else type(err).__name__
    return None


def _load_file(link: Link) -> str | None:
    if link.file is None:
        return "a file outside this build"
    return None if link.file.is_file() else "no such file"


def load(links: list[Link], timeout: float = TIMEOUT, workers: int = WORKERS) -> dict[str, str]:
    """What is wrong with each link that does not load (url -> the reason). The web links are loaded in
    daemon threads; one still running when the longest a check can take has passed (a hung name look-up)
    counts as not answering, and the command does not wait for it."""
    failed: dict[str, str] = {}
    web: queue.SimpleQueue = queue.SimpleQueue()
    count = 0
    for link in links:
        scheme = urlsplit(link.url).scheme
        if scheme == "file":
            reason = _load_file(link)
            if reason:
                failed[link.url] = reason
        elif scheme in ("http", "https"):
            web.put(link)
            count += 1
        else:
            failed[link.url] = f"not a web address ({scheme or 'no'} scheme): TTS loads http(s) only"
    answers: dict[str, str | None] = {}
    done = threading.Condition()

    def work() -> None:
        opener = urllib.request.build_opener(_Redirects)
        while True:
            try:
                link = web.get_nowait()
            except queue.Empty:
                return
            images = all(key in IMAGE_FIELDS for keys in link.named.values() for key in keys)
            reason = _load(link.url, images, timeout, opener)
            with done:
                answers[link.url] = reason
                done.notify()

    threads = min(workers, count)
    for _ in range(threads):
        threading.Thread(target=work, daemon=True).start()
    # each link: HEAD and GET, each a connection and an answer per hop
    deadline = time.monotonic() + (math.ceil(count / threads) * 4 * (MAX_REDIRECTS + 1) * timeout if count else 0)
    with done:
        while len(answers) < count and (left := deadline - time.monotonic()) > 0:
            done.wait(left)
        answered = dict(answers)
    for link in links:
        if urlsplit(link.url).scheme in ("http", "https"):
            reason = answered.get(link.url, f"no answer in {timeout:g} s")
            if reason:
                failed[link.url] = reason
    return failed


def _line(link: Link, reason: str, deck: str) -> str:
    objects = [f"{owner} {' and '.join(keys)}" for owner, keys in link.named.items()]
    shown = ", ".join(objects[:3]) + (f", and {len(objects) - 3} more" if len(objects) > 3 else "")
    if urlsplit(link.url).scheme == "file":
        fix = f"build the deck again: deckpress build {deck}"
    elif link.file is not None:
        fix = f"upload {display_path(str(link.file))} to that address"
    else:
        fix = "check the address"
    return str(Problem(Where(str(link.save)), f"{shown} {link.url}: {reason}; {fix}"))


def check_build(built: Path, deck: str, timeout: float = TIMEOUT) -> tuple[list[str], int]:
    """One line per link of the build `built` (build/<deck>) that does not load, and how many were loaded."""
    links = links_of(built, deck)
    failed = load(links, timeout)
    return [_line(link, failed[link.url], deck) for link in links if link.url in failed], len(links)
