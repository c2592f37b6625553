"""Times the link check (`deckpress check --links`) of N links against a server on 127.0.0.1 that takes
--delay seconds to answer each request, as a host far away does: eight links are loaded at a time, so the
check takes about N / 8 times the delay, not N times.

    python bench/links.py [--links N] [--delay SECONDS]

Prints the wall time of the check and the time the links would take one after another.
"""

from __future__ import annotations

import argparse
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from deckpress.builders.tts.links import Link, load


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--links", type=int, default=200)
    parser.add_argument("--delay", type=float, default=0.05)
    args = parser.parse_args()

    class Slow(BaseHTTPRequestHandler):
        def do_HEAD(self) -> None:
            time.sleep(args.delay)
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slow)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}/"
    links = [Link(f"{base}card-{n}.jpg", Path("save.json"), {f"Card {n}": ["FaceURL"]}) for n in range(args.links)]
    start = time.perf_counter()
    failed = load(links)
    took = time.perf_counter() - start
    server.shutdown()
    assert not failed, failed
    print(f"{args.links} links, {args.delay * 1000:.0f} ms each: {took:.2f} s "
          f"(one after another: {args.links * args.delay:.2f} s)")


if __name__ == "__main__":
    main()
