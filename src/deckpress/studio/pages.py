"""The studio's routes: its pages, the decks' build output, and the JSON the pages read and post.

    GET  /                              the decks
    GET  /deck/<deck>                   a deck's page: faces, a face's card and sources, print pages, TTS sheets,
                                        playtest; /table/<deck> the table of a scripted deck
    GET  /events                        server-sent events: builds and faces drawn (server.py)
    GET  /api/deck/<deck>               the build's state and files; .../sources every card's data and sources
    GET  /face/<deck>/<file>?w=240      a face (or any build image) at that width; without w, as built
    GET  /file/<deck>/<file>            a file of the build as it is (a print PDF, which the page shows in the
                                        browser's own PDF viewer; a TTS sheet; the playtest page)
    GET  /api/table/<deck>?seat=Red     the game as that seat sees it (?setup: the new game's choices);
                                        POST .../start, .../move, .../bot
    GET  /api/playtest/<deck>           the playtest run's progress;      POST it to start one

A POST needs the studio's token (header X-Deckpress-Token) and a JSON body of at most MAX_BODY bytes.
"""

from __future__ import annotations

import json

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import DeckError
from ..paths import display_name
from .server import ASSETS, MAX_WIDTH, MIN_WIDTH, Studio, checked_token, error_response, events, file_response, page

MAX_BODY = 64 * 1024


def _deck(studio: Studio, request: Request) -> tuple[str, JSONResponse | None]:
    name = request.path_params["deck"]
    if name not in studio.decks:
        known = ", ".join(sorted(studio.decks)) or "none"
        return name, error_response(404, f"no deck {name!r} in this studio; its decks: {known}")
    return name, None


def _width(request: Request) -> int | None | JSONResponse:
    given = request.query_params.get("w")
    if given is None:
        return None
    if not given.isdigit() or not MIN_WIDTH <= int(given) <= MAX_WIDTH:
        return error_response(400, f"w={given}: give a width in pixels from {MIN_WIDTH} to {MAX_WIDTH}")
    return int(given)


async def _body(studio: Studio, request: Request) -> dict | JSONResponse:
    """The JSON object a POST carries (the token checked first)."""
    refused = checked_token(studio, request)
    if refused is not None:
        return refused
    data = await request.body()
    if len(data) > MAX_BODY:
        return error_response(413, f"the request is {len(data):,} bytes; at most {MAX_BODY:,}")
    try:
        body = json.loads(data or b"{}")
    except ValueError:
        return error_response(400, "the request is not JSON; send a JSON object")
    if not isinstance(body, dict):
        return error_response(400, "the request is not a JSON object; send one, e.g. {\"seat\": \"Red\", \"move\": {...}}")
    return body


def routes(studio: Studio) -> list[Route]:
    from .play import PlaytestRuns, Tables

    tables, runs = Tables(studio), PlaytestRuns(studio)

    async def index(request: Request) -> Response:
        return page("index.html", studio)

    async def deck_page(request: Request) -> Response:
        name, missing = _deck(studio, request)
        return missing or page("deck.html", studio, deck=name)

    async def table_page(request: Request) -> Response:
        name, missing = _deck(studio, request)
        return missing or page("table.html", studio, deck=name)

    async def asset(request: Request) -> Response:
        found = studio.confined(ASSETS, request.path_params["name"])
        if found is None or found.suffix not in (".js", ".css", ".svg", ".png"):
            return error_response(404, f"no studio asset {request.path_params['name']!r}")
        return file_response(found)

    async def decks(request: Request) -> Response:
        return JSONResponse([{"deck": name, "file": display_name(state.path, state.path), "errors": state.errors,
                              "building": state.building, "builds": state.builds}
                             for name, state in sorted(studio.decks.items())])

    async def deck(request: Request) -> Response:
        name, missing = _deck(studio, request)
        return missing or JSONResponse(await run_in_threadpool(studio.summary, name))

    async def sources(request: Request) -> Response:
        name, missing = _deck(studio, request)
        if missing:
            return missing
        try:
            return JSONResponse(await run_in_threadpool(studio.sources, name))
        except DeckError as err:
            return JSONResponse({"errors": [str(p) for p in err.problems]}, status_code=409)

    async def face(request: Request) -> Response:
        name, missing = _deck(studio, request)
        if missing:
            return missing
        relative = request.path_params["path"]
        found = studio.face_file(name, relative)
        if found is None or found.suffix.lower() not in (".png", ".jpg", ".jpeg"):
            return error_response(404, f"{name} has no image {relative!r} in its build")
        width = _width(request)
        if isinstance(width, JSONResponse):
            return width
        if width is None:
            return file_response(found)
        data = await run_in_threadpool(studio.thumbnail, found, width)
        return Response(data, media_type="image/jpeg", headers={"Cache-Control": "no-cache"})

    async def build_file(request: Request) -> Response:
        name, missing = _deck(studio, request)
        if missing:
            return missing
        relative = request.path_params["path"]
        found = studio.confined(studio.out / name, relative)
        if found is None:
            return error_response(404, f"{name} has no file {relative!r} in its build")
        return file_response(found)

    async def table_get(request: Request) -> Response:
        name, missing = _deck(studio, request)
        if missing:
            return missing
        if "setup" in request.query_params:
            return await run_in_threadpool(tables.setup, name)
        return await run_in_threadpool(tables.snapshot, name, request.query_params.get("seat"))

    def posted(action):
        """The endpoint of a POST: `action(deck, body)` for the deck named and the JSON body carried, run beside
        the server's loop (it plays Lua, or loads the deck)."""
        async def endpoint(request: Request) -> Response:
            name, missing = _deck(studio, request)
            if missing:
                return missing
            body = await _body(studio, request)
            if isinstance(body, Response):
                return body
            return await run_in_threadpool(action, name, body)
        return endpoint

    async def playtest_get(request: Request) -> Response:
        name, missing = _deck(studio, request)
        return missing or JSONResponse(runs.progress(name))

    async def stream(request: Request) -> Response:
        return await events(studio, request)

    return [
        Route("/", index),
        Route("/deck/{deck}", deck_page),
        Route("/table/{deck}", table_page),
        Route("/assets/{name:path}", asset),
        Route("/events", stream),
        Route("/api/decks", decks),
        Route("/api/deck/{deck}", deck),
        Route("/api/deck/{deck}/sources", sources),
        Route("/face/{deck}/{path:path}", face),
        Route("/file/{deck}/{path:path}", build_file),
        Route("/api/table/{deck}", table_get),
        Route("/api/table/{deck}/start", posted(tables.start), methods=["POST"]),
        Route("/api/table/{deck}/move", posted(tables.move), methods=["POST"]),
        Route("/api/table/{deck}/bot", posted(tables.bot), methods=["POST"]),
        Route("/api/playtest/{deck}", playtest_get),
        Route("/api/playtest/{deck}", posted(runs.start), methods=["POST"]),
    ]
