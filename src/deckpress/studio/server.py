"""The studio's web server: Starlette under uvicorn, on a socket deckpress binds itself (so that a port in use or
an address not of this machine is one line before anything starts), in a thread beside the builds.

The builds run in the main thread as `deckpress watch` runs them (watch.py: a build, then one after each saved
change), with faces shown in OUT/.drawn/<deck>/ as each is drawn; the server watches that folder and tells the
open pages of every face that lands there and of every build's end (server-sent events, /events), so a page
shows an edited face as soon as it is drawn, before the build's PDFs are written, and a build's mistakes as the
located lines the terminal prints, keeping the last good faces meanwhile.

What it serves, and nothing else: its own page assets (data/studio/), the decks' build output (faces, their
thumbnails at the width the page asks for, the print PDFs' pages as images, the TTS sheets, the playtest
page), and JSON. Every request must name the address it listens on in its Host header (a page of another
site reached through DNS rebinding names its own); a request that changes anything (a move, a playtest run)
carries the token the page got from the server; a path that leaves its folder (.., an absolute path, a
symlink out) is refused.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import html
import io
import json
import secrets
import socket
import threading
from collections import OrderedDict
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response, StreamingResponse

from ..build import DRAWN, MANIFEST, PLAYTEST, read_manifest
from ..errors import DeckError
from ..paths import display_name

ASSETS = Path(__file__).parent.parent / "data" / "studio"
TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".pdf": "application/pdf",
         ".svg": "image/svg+xml", ".html": "text/html; charset=utf-8", ".json": "application/json",
         ".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}
THUMBS = 600            # resized images kept in memory (a 240 px face is about 20 kB)
MIN_WIDTH, MAX_WIDTH = 32, 4000
HEARTBEAT = 15.0        # seconds between the comments that keep an idle event stream open
TOKEN_HEADER = "x-deckpress-token"


class StudioError(Exception):
    """The studio cannot start: one line, exit status 1."""


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on `host`:`port` (0: any free port); StudioError, one line, for a port in use or an
    address that is not this machine's."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror:
        raise StudioError(f"--host {host}: no such address; give an address of this machine, e.g. 127.0.0.1") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(64)
    except OSError as err:
        sock.close()
        if err.errno == errno.EADDRINUSE:
            raise StudioError(f"--port {port}: the port is in use on {host}; give another, or --port 0 for any "
                              "free port") from None
        if err.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT):
            raise StudioError(f"--host {host}: not an address of this machine; give one of its addresses, e.g. "
                              "127.0.0.1") from None
        if err.errno in (errno.EACCES, errno.EPERM):
            raise StudioError(f"--port {port}: not allowed to listen there (ports below 1024 need root); give "
                              "another, e.g. 8000") from None
        raise StudioError(f"cannot listen on {host}:{port}: {err.strerror}") from None
    sock.setblocking(False)
    return sock


def address(sock: socket.socket) -> tuple[str, int]:
    host, port = sock.getsockname()[:2]
    return host, port


def url_host(host: str, port: int) -> str:
    """The Host header of a request for host:port (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass
class DeckState:
    """What the studio knows of one deck: its file, the last build's outcome (the located lines of its
    mistakes, empty after a good build) and a counter of its builds, which the page's URLs carry."""

    path: Path
    errors: list[str] = field(default_factory=list)
    summary: str = ""
    builds: int = 0
    building: bool = False
    scripted: bool = False


class Hub:
    """The events the server tells the open pages, from any thread: each page's stream has a queue."""

    def __init__(self):
        self.loop: asyncio.AbstractEventLoop | None = None
        self.queues: set[asyncio.Queue] = set()

    def publish(self, event: dict) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        data = json.dumps(event)
        try:
            loop.call_soon_threadsafe(self._put, data)
        except RuntimeError:  # the loop closed meanwhile: the server is stopping
            pass

    def _put(self, data: str) -> None:
        for queue in list(self.queues):
            if queue.qsize() < 1000:  # a page that stopped reading loses events rather than memory
                queue.put_nowait(data)


class Studio:
    """The state the builds (main thread) and the server (its thread) share."""

    def __init__(self, out: Path, decks: dict[str, Path], token: str | None = None):
        self.out = out.resolve()
        self.decks = {name: DeckState(path) for name, path in decks.items()}
        self.token = token or secrets.token_urlsafe(24)
        self.hub = Hub()
        self.lock = threading.Lock()
        self.thumbs: OrderedDict[tuple, bytes] = OrderedDict()
        self.cards: dict[str, tuple[int, tuple]] = {}  # each deck loaded with its sources, and the build they are of

    # --- the builds' side -------------------------------------------------------------------------------------

    def building(self, name: str) -> None:
        state = self.decks[name]
        state.building = True
        self.hub.publish({"type": "building", "deck": name})

    def built(self, name: str, errors: list[str], summary: str) -> None:
        state = self.decks[name]
        with self.lock:
            state.errors, state.summary, state.building = errors, summary, False
            state.builds += 1
        self.hub.publish({"type": "built", "deck": name, "ok": not errors, "errors": errors, "summary": summary,
                          "builds": state.builds})

    # --- files -------------------------------------------------------------------------------------------------

    def confined(self, base: Path, relative: str) -> Path | None:
        """The file `relative` under `base`, if it is one there: no .., no absolute path, no symlink out."""
        if not relative or "\\" in relative or "\0" in relative or relative.startswith("/"):
            return None
        try:
            base = base.resolve()
            target = (base / relative).resolve()
        except (OSError, RuntimeError):
            return None
        if not target.is_relative_to(base) or not target.is_file():
            return None
        return target

    def face_file(self, deck: str, relative: str) -> Path | None:
        """A face as the latest build drew it: OUT/.drawn/<deck>/ (kept in step by every build, and holding
        each face as soon as it is drawn), else the build folder."""
        return self.confined(self.out / DRAWN / deck, relative) or self.confined(self.out / deck, relative)

    def thumbnail(self, path: Path, width: int) -> bytes:
        """The image at `width` pixels (never wider than it is), as JPEG; kept in memory by file, time and width."""
        from PIL import Image

        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size, width)
        with self.lock:
            found = self.thumbs.get(key)
            if found is not None:
                self.thumbs.move_to_end(key)
                return found
        with Image.open(path) as image:
            image.draft("RGB", (width, width * 4))
            if image.width > width:
                image = image.resize((width, max(1, round(image.height * width / image.width))), Image.LANCZOS)
            buffer = io.BytesIO()
            image.convert("RGB").save(buffer, "JPEG", quality=88)
        data = buffer.getvalue()
        with self.lock:
            self.thumbs[key] = data
            while len(self.thumbs) > THUMBS:
                self.thumbs.popitem(last=False)
        return data

    # --- what a deck page shows ------------------------------------------------------------------------------

    def loaded(self, name: str):
        """The deck as it is on disk at its last build, and the sources of its cards (sources.py), kept until the
        next build; DeckError while the deck does not load."""
        from ..deck import load_deck
        from .sources import card_sources

        state = self.decks[name]
        builds, found = self.cards.get(name, (-1, None))
        if builds != state.builds:
            deck = load_deck(state.path)
            builds, found = state.builds, (deck, card_sources(deck))
            self.cards[name] = (builds, found)
        return found

    def sources(self, name: str) -> list[dict]:
        return self.loaded(name)[1]

    def summary(self, name: str) -> dict:
        """The deck page's data: the build's state, its cards and faces, print PDFs, TTS sheets, playtest page."""
        state = self.decks[name]
        folder = self.out / name
        manifest = read_manifest(folder) if (folder / MANIFEST).is_file() else {}
        faces = {path: record.get("key", "")[:16] for path, record in manifest.get("faces", {}).items()}
        # the deck's own PDFs first, the calibration sheets after them
        prints = sorted((p.name for p in (folder / "print").glob("*.pdf")), key=lambda n: (not n.startswith(name), n)) \
            if (folder / "print").is_dir() else []
        assets = folder / "tts" / "assets"
        sheets = sorted(p.name for p in assets.iterdir() if p.suffix in (".jpg", ".png")) if assets.is_dir() else []
        pages = folder / PLAYTEST
        playtest = sorted((p for p in pages.glob("*.html")), key=lambda p: p.stat().st_mtime_ns) \
            if pages.is_dir() else []
        try:
            state.scripted = self.loaded(name)[0].model.scripted is not None
        except DeckError:  # the deck does not load now: what it was at its last good build
            pass
        return {"deck": name, "file": display_name(state.path, state.path), "errors": state.errors,
                "summary": state.summary, "builds": state.builds, "building": state.building,
                "built": bool(manifest), "scripted": state.scripted, "cards": manifest.get("cards", []), "faces": faces,
                "print": prints, "sheets": sheets, "playtest": [f"{PLAYTEST}/{p.name}" for p in playtest]}


# --- the application ------------------------------------------------------------------------------------------

def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


class HostCheck:
    """Refuse (421) a request whose Host header does not name the address the studio listens on."""

    def __init__(self, app, allowed: set[str]):
        self.app, self.allowed = app, allowed

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1").lower()
            if host not in self.allowed:
                response = error_response(421, f"this studio answers requests for {' or '.join(sorted(self.allowed))} only")
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def allowed_hosts(host: str, port: int) -> set[str]:
    """The Host headers the studio answers: its address and port, and `localhost` for a loopback address."""
    hosts = {url_host(host, port).lower()}
    if host in ("127.0.0.1", "::1"):
        hosts.add(f"localhost:{port}")
    return hosts


def app(studio: Studio, host: str, port: int):
    """The ASGI application serving `studio` on host:port."""
    from . import pages

    @asynccontextmanager
    async def lifespan(_app):
        studio.hub.loop = asyncio.get_running_loop()
        task = asyncio.create_task(_watch_drawn(studio))
        try:
            yield
        finally:
            task.cancel()

    starlette = Starlette(routes=pages.routes(studio), lifespan=lifespan)
    return HostCheck(starlette, allowed_hosts(host, port))


async def _watch_drawn(studio: Studio) -> None:
    """Tell the pages of every face that lands in OUT/.drawn/<deck>/ (a rename: the file is whole)."""
    import watchfiles

    folder = studio.out / DRAWN
    folder.mkdir(parents=True, exist_ok=True)
    async for changes in watchfiles.awatch(folder, debounce=10, step=5, recursive=True):
        seen: dict[str, set[str]] = {}
        for change, path in changes:
            if change == watchfiles.Change.deleted or not path.endswith(".png"):
                continue
            try:
                deck, relative = Path(path).resolve().relative_to(folder.resolve()).as_posix().split("/", 1)
            except ValueError:
                continue
            if deck in studio.decks:
                seen.setdefault(deck, set()).add(relative)
        for deck, files in seen.items():
            versions = {}
            for relative in sorted(files):
                found = studio.face_file(deck, relative)
                if found is not None:
                    versions[relative] = str(found.stat().st_mtime_ns)
            if versions:
                studio.hub.publish({"type": "faces", "deck": deck, "faces": versions})


async def events(studio: Studio, request: Request) -> StreamingResponse:
    """The event stream of a page: every build's start and end and every face drawn, as JSON."""
    queue: asyncio.Queue = asyncio.Queue()
    studio.hub.queues.add(queue)

    async def stream():
        try:
            yield "retry: 1000\n\n"
            while True:
                try:
                    data = await asyncio.wait_for(queue.get(), HEARTBEAT)
                except asyncio.TimeoutError:
                    yield ": still here\n\n"
                    continue
                yield f"data: {data}\n\n"
        finally:
            studio.hub.queues.discard(queue)

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})


def checked_token(studio: Studio, request: Request) -> JSONResponse | None:
    """None when the request carries the studio's token; else the 403 to answer."""
    given = request.headers.get(TOKEN_HEADER, "")
    if not hmac.compare_digest(given.encode(), studio.token.encode()):
        return error_response(403, "this request changes something and needs the studio's token: reload the page")
    return None


def file_response(path: Path) -> Response:
    return FileResponse(path, media_type=TYPES.get(path.suffix.lower(), "application/octet-stream"),
                        headers={"Cache-Control": "no-cache"})


def page(name: str, studio: Studio, **values: str) -> Response:
    """One of data/studio/'s pages with the token and the values given put in (escaped for HTML)."""
    text = (ASSETS / name).read_text(encoding="utf-8")
    for key, value in {"token": studio.token, **values}.items():
        text = text.replace("{{" + key + "}}", html.escape(value, quote=True))
    # not framed by another site's page, which could trick a click into a move
    return Response(text, media_type="text/html; charset=utf-8",
                    headers={"Cache-Control": "no-store", "X-Frame-Options": "SAMEORIGIN"})
