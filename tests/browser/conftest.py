"""Browser tests: Debian's headless Chromium driven by Playwright (never ``playwright install``),
against a real uvicorn server fed by the replay source (a recorded game, not a camera).

Skipped, with the reason, when ``/usr/bin/chromium`` (or $CARDREF_CHROMIUM) or the ``playwright``
package is missing. ``CARDREF_SCREENSHOTS=1`` also writes the screenshots to docs/screenshots/.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from cardref.gamelog import GameStore
from cardref.web.hub import Hub
from cardref.web.replay import ReplaySource, record_demo_game
from cardref.web.settings import WebSettings

CHROMIUM = os.environ.get("CARDREF_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    # the phone page's camera: Chromium's built-in test pattern, no prompt
    "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def _why_skip() -> str | None:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)) and shutil.which(CHROMIUM) is None:
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CARDREF_CHROMIUM)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[test]')"
    return None


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    reason = _why_skip()
    if reason is None:
        return
    mark = pytest.mark.skip(reason=f"browser tests skipped: {reason}")
    for item in items:
        if "tests/browser" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(mark)


class Server:
    """A running cardref web server with its hub, games store and replay source."""

    def __init__(self, root: Path) -> None:
        import uvicorn

        from cardref.web.app import create_app

        self.store = GameStore(root / "games", fsync=False)
        self.recorded = record_demo_game(self.store, players=["Anna"])
        self.hub = Hub()
        self.replay = ReplaySource(self.hub, None, players=["Anna"])
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        settings = WebSettings(port=self.port, games_dir=self.store.root)
        app = create_app(settings, hub=self.hub, store=self.store)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", lifespan="on",
                                ws_per_message_deflate=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def drain_commands(self) -> list[Any]:
        out = []
        while (c := self.hub.commands.get()) is not None:
            out.append(c)
        return out

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(tmp_path_factory.mktemp("web"))
    yield s
    s.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope, not session: Playwright's sync API keeps an event loop running in this thread
    # while it is open, and the tests that run after the browser tests call asyncio.run().
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1600, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.errors = errors
    yield pg
    context.close()
    assert not errors, f"the page logged errors: {errors}"


def screenshot(page: Any, name: str) -> None:
    """Always to the test's tmp (for a look when a test fails); to docs/screenshots with CARDREF_SCREENSHOTS=1."""
    if os.environ.get("CARDREF_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))
