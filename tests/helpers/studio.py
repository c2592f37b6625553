"""A `deckpress studio` started by a test in a project of its own, talked to over loopback HTTP, and the real
browser (Debian's Chromium, driven by Selenium through Debian's chromedriver) that the page tests open it in.

    with running(project, "score") as studio:
        studio.json("/api/decks")
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")
INSTALL = "apt-get install chromium chromium-driver (Debian's), and pip install 'deckpress[test]' for Selenium"
START = 120.0  # seconds for a studio's first builds


def project(root: Path, decks: list[str]) -> Path:
    """A project in `root` holding the shipped `decks` and what they read (templates, print styles); their
    games are found among deckpress's own."""
    (root / "decks").mkdir(parents=True)
    for deck in decks:
        shutil.copy(ROOT / "decks" / f"{deck}.yaml", root / "decks")
    shutil.copytree(ROOT / "templates", root / "templates")
    shutil.copytree(ROOT / "print", root / "print")
    return root


class Studio:
    """A running studio: its address, its terminal's lines so far, HTTP requests to it."""

    def __init__(self, process: subprocess.Popen, root: Path):
        self.process, self.root = process, root
        self.lines: list[str] = []
        self.url = ""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for_line(self, pattern: str, timeout: float = START) -> re.Match:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in list(self.lines):
                found = re.search(pattern, line)
                if found:
                    return found
            if self.process.poll() is not None and not self._reader.is_alive():
                break
            time.sleep(0.05)
        raise AssertionError(f"the studio never said {pattern!r}; it said:\n" + "\n".join(self.lines))

    @property
    def host(self) -> str:
        return self.url.split("//", 1)[1].rstrip("/")

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
                ) -> tuple[int, dict, bytes]:
        """The status, headers and body of a request for `path` exactly as given (nothing normalised)."""
        host, port = self.host.rsplit(":", 1)
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        try:
            connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            sent = {"Host": self.host, **(headers or {})}
            if body is not None:
                sent["Content-Length"] = str(len(body))
            for key, value in sent.items():
                if value is not None:
                    connection.putheader(key, value)
            connection.endheaders(body)
            response = connection.getresponse()
            return response.status, dict(response.getheaders()), response.read()
        finally:
            connection.close()

    def json(self, path: str, status: int = 200):
        got, _, body = self.request("GET", path)
        assert got == status, (got, body[:300])
        return json.loads(body)

    def post(self, path: str, data, token: str | None = None) -> tuple[int, dict]:
        got, _, body = self.request("POST", path, json.dumps(data).encode(),
                                    {"Content-Type": "application/json", "X-Deckpress-Token": token or self.token})
        return got, json.loads(body)

    @property
    def token(self) -> str:
        _, _, body = self.request("GET", "/")
        return re.search(rb'name="deckpress-token" content="([^"]+)"', body).group(1).decode()

    def built(self, deck: str, builds: int = 1, timeout: float = START) -> dict:
        """The deck's state once it has been built `builds` times (and is not building)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            state = self.json(f"/api/deck/{deck}")
            if state["builds"] >= builds and not state["building"]:
                return state
            time.sleep(0.05)
        raise AssertionError(f"{deck} was not built {builds} times; the studio said:\n" + "\n".join(self.lines))

    def stop(self) -> int:
        """Ctrl-C, as in its terminal; its exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(5)
        return self.process.returncode


def start(root: Path, *args: str) -> Studio:
    """`deckpress studio ARGS --port 0` in `root`, not waited for."""
    from conftest import heeds_ctrl_c

    process = subprocess.Popen([sys.executable, "-m", "deckpress", "studio", *args], cwd=root, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=heeds_ctrl_c,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    return Studio(process, root)


@contextmanager
def running(root: Path, *decks: str, args: tuple[str, ...] = ("--port", "0")):
    studio = start(root, *decks, *args)
    try:
        studio.url = studio.wait_for_line(r"deckpress studio: (http://\S+)").group(1)
        for deck in decks:
            studio.built(deck)
        yield studio
    finally:
        studio.stop()


def browser():
    """A headless Chromium under Selenium, nothing reaching the network; skipped, in one line, without it."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        pytest.skip(f"the browser tests need Selenium: {INSTALL}")
    if not CHROMIUM.is_file() or not CHROMEDRIVER.is_file():
        pytest.skip(f"the browser tests need Chromium and chromedriver: {INSTALL}")
    os.environ["SE_AVOID_STATS"] = "true"
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1400,1000", "--force-device-scale-factor=1"):
        options.add_argument(flag)
    return webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
