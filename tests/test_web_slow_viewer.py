"""A real server, a viewer that stops reading (its socket fills up) and one that reads: the
publisher never waits, the stalled viewer loses its oldest messages, the other is not held up."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from cardref.gamelog import GameStore
from cardref.web.app import create_app
from cardref.web.hub import Hub
from cardref.web.settings import WebSettings

websockets_sync = pytest.importorskip("websockets.sync.client")


def _server(tmp_path: Path, hub: Hub) -> tuple[Any, threading.Thread, int]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(WebSettings(port=port, games_dir=tmp_path, viewer_queue=16), hub=hub,
                     store=GameStore(tmp_path, fsync=False))
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           ws_per_message_deflate=False, timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    return server, thread, port


def test_a_stalled_viewer_neither_blocks_the_publisher_nor_delays_the_others(tmp_path: Path) -> None:
    hub = Hub(queue_size=16, max_frame_bytes=3_000_000)
    server, thread, port = _server(tmp_path, hub)
    url = f"ws://127.0.0.1:{port}/ws/live"
    stack = contextlib.ExitStack()
    stack.enter_context(websockets_sync.connect(url, max_queue=1, max_size=None, close_timeout=0.2))  # never read
    got: list[float] = []
    stop = threading.Event()

    def reader() -> None:
        with websockets_sync.connect(url, max_size=None, close_timeout=0.2) as ws:
            while not stop.is_set():
                try:
                    msg = ws.recv(timeout=0.5)
                except TimeoutError:
                    continue
                if isinstance(msg, str):
                    data = json.loads(msg)
                    if data.get("type") == "verdict":
                        got.append(time.time() - data["sent"])

    live = threading.Thread(target=reader, daemon=True)
    live.start()
    try:
        deadline = time.monotonic() + 10
        while hub.stats()["viewers"] < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        frame = b"\xff\xd8" + bytes(1_000_000)  # 1 MB pictures fill the stalled socket quickly
        slowest = 0.0
        for i in range(120):
            started = time.perf_counter()
            hub.publish({"type": "frame", "jpeg": frame, "width": 10, "height": 10})
            hub.publish({"type": "verdict", "kind": "legal", "t": float(i), "text": f"move {i}"})
            slowest = max(slowest, time.perf_counter() - started)
            time.sleep(0.01)
        deadline = time.monotonic() + 10
        while len(got) < 120 and time.monotonic() < deadline:
            time.sleep(0.05)
        stats = hub.stats()
    finally:
        stop.set()
        live.join(5)
        stack.close()
        server.should_exit = True
        thread.join(10)
    assert slowest < 0.05, f"a publish took {slowest * 1000:.1f} ms"
    assert len(got) == 120, f"the reading viewer got {len(got)} of 120 verdicts"
    assert sorted(got)[int(len(got) * 0.9)] < 0.5, got
    assert stats["dropped"] > 0  # the stalled viewer lost its oldest pictures and messages
