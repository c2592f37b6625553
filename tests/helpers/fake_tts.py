"""The fake of TTS for deckpress's own tests: deckpress.tabletest.fake (FakeTTS, to_lua, to_py, inner), with the
`timing` fixture. Test modules import `timing`, which runs each of their tests with TTS's asynchronous calls
completing 0, 1 and 20 frames late and a different shuffled order each time: every FakeTTS a test makes
without its own `delay` or `order_seed` takes the fixture's."""

from __future__ import annotations

import pytest

from deckpress.tabletest import fake
from deckpress.tabletest.fake import inner, to_lua, to_py  # noqa: F401 (what the test modules import)

DELAYS = (0, 1, 20)
TIMING = {"delay": 0, "order_seed": 0}


@pytest.fixture(autouse=True, params=DELAYS, ids=lambda d: f"delay{d}")
def timing(request):
    """Every FakeTTS of the test completes TTS's asynchronous calls `delay` frames late, orders shuffled."""
    old = dict(TIMING)
    TIMING.update(delay=request.param, order_seed=1000 + request.param)
    yield request.param
    TIMING.update(old)


class FakeTTS(fake.FakeTTS):
    """deckpress.tabletest.fake.FakeTTS at the `timing` fixture's delay and order, unless the test gives its own."""

    def __init__(self, save: dict, seated: list[str], script: str | None = None, delay: int | None = None,
                 order_seed: int | None = None):
        super().__init__(save, seated, script, TIMING["delay"] if delay is None else delay,
                         TIMING["order_seed"] if order_seed is None else order_seed)
