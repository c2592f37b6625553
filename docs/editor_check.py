"""Checks the README's editor recipe with the YAML language server editors use (yaml-language-server, from
npm): a deck whose first line points at the schema `deckpress schema --deck` wrote beside it gets no
diagnostic when it is right, and one on the line of a mistake.

    python docs/editor_check.py [--server PATH]

Without --server it installs yaml-language-server with npm into a temporary folder (npm must be on PATH).
Prints what the server said and exits 1 if the recipe does not work.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def send(server: subprocess.Popen, message: dict) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    server.stdin.flush()


def receive(server: subprocess.Popen) -> dict:
    length = 0
    while (line := server.stdout.readline().strip()):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(server.stdout.read(length))


def diagnostics(server_path: str, deck: Path) -> list[dict]:
    """What the server reports for the deck file, opened as an editor opens it."""
    server = subprocess.Popen([server_path, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    try:
        root = deck.parent.parent.as_uri()
        send(server, {"id": 1, "method": "initialize", "params": {"processId": None, "rootUri": root,
                                                                  "capabilities": {}}})
        while receive(server).get("id") != 1:
            pass
        send(server, {"method": "initialized", "params": {}})
        send(server, {"method": "workspace/didChangeConfiguration",
                      "params": {"settings": {"yaml": {"validate": True, "schemaStore": {"enable": False}}}}})
        send(server, {"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": deck.as_uri(), "languageId": "yaml", "version": 1, "text": deck.read_text(encoding="utf-8")}}})
        while True:
            message = receive(server)
            if message.get("method") == "workspace/configuration":  # the server asks for its settings
                send(server, {"id": message["id"], "result": [{"validate": True}] * len(message["params"]["items"])})
            elif message.get("method") == "textDocument/publishDiagnostics" and \
                    message["params"]["uri"] == deck.as_uri():
                return message["params"]["diagnostics"]
    finally:
        server.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", help="the yaml-language-server executable")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        server = args.server
        if server is None:
            subprocess.run(["npm", "install", "--silent", "--prefix", str(tmp / "npm"), "yaml-language-server@1"],
                           check=True)
            server = str(tmp / "npm" / "node_modules" / ".bin" / "yaml-language-server")
        deckpress = [sys.executable, "-m", "deckpress"]
        subprocess.run([*deckpress, "new", str(tmp / "game")], check=True, stdout=subprocess.DEVNULL)
        decks = tmp / "game" / "decks"
        schema = subprocess.run([*deckpress, "schema", "--deck", "game"], cwd=tmp / "game", check=True,
                                capture_output=True, text=True).stdout
        (decks / "game.schema.json").write_text(schema, encoding="utf-8")
        deck = decks / "game.yaml"
        text = "# yaml-language-server: $schema=game.schema.json\n" + deck.read_text(encoding="utf-8")
        deck.write_text(text, encoding="utf-8")
        right = diagnostics(server, deck)
        lines = text.splitlines()
        mistake = next(i for i, line in enumerate(lines) if line.strip() == "count: 3")
        lines[mistake] = lines[mistake].replace("count: 3", "count: -3")
        deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
        wrong = diagnostics(server, deck)
    print(f"right deck: {len(right)} diagnostics {[d['message'] for d in right]}")
    print(f"count: -3 on line {mistake + 1}: {[(d['range']['start']['line'] + 1, d['message']) for d in wrong]}")
    works = not right and any(d["range"]["start"]["line"] == mistake for d in wrong)
    print("the editor recipe works" if works else "the editor recipe does NOT work")
    sys.exit(0 if works else 1)


if __name__ == "__main__":
    main()
