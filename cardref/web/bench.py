"""Benchmark: does watching slow the referee? And how long from verdict to viewer?

Runs a real uvicorn server in this process with the replay source judging the recorded Klondike
game (rules engine + game log + publish, with a camera picture per move) at ``--rate`` moves a
second, first with no viewers, then with ``--viewers`` WebSocket viewers (all taking the pictures
too) in a separate process. Reports the referee's time per move (judge, log, publish; drawing the
replay picture excluded) and, with viewers, the time from publish to a viewer's receipt.

    python -m cardref.web.bench --viewers 50 --moves 240 --rate 10 --fps 4
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def _viewers(url: str, count: int, split: bool, ready: Any, stop: Any, out: Any) -> None:
    """In a separate process: ``count`` viewers reading everything; puts the verdict latencies (ms)."""
    import websockets

    since = [float("inf")]  # only verdicts published after every viewer is connected (not the snapshot)

    async def one(lat: list[float], counts: list[int], where: str = "") -> None:
        async with websockets.connect(where or url, max_size=None) as ws:
            counts[0] += 1
            while not stop.is_set():
                try:
                    msg = await asyncio.wait_for(ws.recv(), timeout=0.5)
                except asyncio.TimeoutError:
                    continue
                if isinstance(msg, str):
                    data = json.loads(msg)
                    if data.get("type") == "verdict" and data["sent"] > since[0]:
                        lat.append((time.time() - data["sent"]) * 1000)

    async def main() -> None:
        lat: list[float] = []
        counts = [0]
        messages = url.replace("frames=true", "frames=false") if split else url
        tasks = [asyncio.create_task(one(lat, counts, messages)) for _ in range(count)]
        if split:  # each viewer as the live page does it: one socket for messages, one for pictures
            tasks += [asyncio.create_task(one(lat, counts, url.replace("frames=true", "frames=true&types=frame")))
                      for _ in range(count)]
        while counts[0] < count * (2 if split else 1):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        since[0] = time.time()
        cpu_start, wall_start = time.process_time(), time.perf_counter()
        ready.set()
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await asyncio.gather(*tasks, return_exceptions=True)
        out.put((lat, (time.process_time() - cpu_start) / (time.perf_counter() - wall_start)))

    asyncio.run(main())


def _run(hub: Any, store: Any, moves: int, rate: float, fps: float) -> list[float]:
    """Judge ``moves`` moves at ``rate`` a second while a camera stand-in publishes the table's
    picture ``fps`` times a second (the live pipeline sends "a few" per second)."""
    from .messages import frame_message
    from .replay import ReplaySource, render

    src = ReplaySource(hub, store, frames=False)
    src.begin()
    done = threading.Event()

    def camera() -> None:
        while not done.wait(1.0 / fps):
            pic = render(src.state)
            hub.publish(frame_message(pic.jpeg, pic.width, pic.height, pic.cards, t=src.t))

    cam = threading.Thread(target=camera, daemon=True)
    cam.start()
    gap = 1.0 / rate
    next_at = time.perf_counter()
    for _ in range(moves):
        next_at += gap
        if not src.step():
            break
        pause = next_at - time.perf_counter()
        if pause > 0:
            time.sleep(pause)
    done.set()
    cam.join()
    src._close_writer()
    return [t * 1000 for t in src.decide_times]


def _summary(name: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[int(len(values) * 0.95) - 1]
    return f"{name}: n={len(values)} median {statistics.median(values):.2f} ms, mean {statistics.fmean(values):.2f} ms, p95 {p95:.2f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardref.web.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=50)
    parser.add_argument("--moves", type=int, default=240)
    parser.add_argument("--rate", type=float, default=10.0, help="moves per second")
    parser.add_argument("--fps", type=float, default=4.0, help="camera pictures per second")
    parser.add_argument("--split", action="store_true",
                        help="each viewer uses one socket for messages and one for pictures (as the pages do)")
    parser.add_argument("--deflate", action="store_true",
                        help="let uvicorn compress WebSocket messages (cardref serve does not: JPEGs do not shrink)")
    parser.add_argument("--switch-interval", type=float, default=0.0, help="sys.setswitchinterval, ms (0: leave)")
    parser.add_argument("--viewer-frames", choices=["true", "false"], default="true",
                        help="false: viewers take no pictures (as the referee screen)")
    args = parser.parse_args(argv)
    if args.switch_interval:
        import sys

        sys.setswitchinterval(args.switch_interval / 1000)

    import uvicorn

    from cardref.gamelog import GameStore

    from .app import create_app
    from .hub import Hub
    from .settings import WebSettings

    root = Path(tempfile.mkdtemp(prefix="cardref-bench-"))
    store = GameStore(root, fsync=False)
    hub = Hub()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(WebSettings(port=port, games_dir=root), hub=hub, store=store)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                          ws_per_message_deflate=args.deflate))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)

    _run(hub, store, 20, args.rate, args.fps)  # warm-up
    alone = _run(hub, store, args.moves, args.rate, args.fps)

    ctx = mp.get_context("spawn")
    ready, stop, out = ctx.Event(), ctx.Event(), ctx.Queue()
    proc = ctx.Process(target=_viewers, args=(f"ws://127.0.0.1:{port}/ws/live?frames={args.viewer_frames}", args.viewers, args.split, ready, stop, out))
    proc.start()
    if not ready.wait(60):
        raise SystemExit("the viewers did not connect")
    time.sleep(0.5)
    hub._delivery.clear()  # snapshot deliveries are not latency
    import os

    cpu0, wall0 = os.times(), time.perf_counter()
    watched = _run(hub, store, args.moves, args.rate, args.fps)
    cpu1, wall1 = os.times(), time.perf_counter()
    server_cpu = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / (wall1 - wall0)
    time.sleep(0.5)
    stats = hub.stats()
    stop.set()
    latencies, viewer_cpu = out.get(timeout=30)
    proc.join(10)
    server.should_exit = True
    thread.join(10)

    print(f"referee time per move (judge + log + publish), {args.moves} moves at {args.rate:g}/s, "
          f"pictures at {args.fps:g}/s")
    print("  " + _summary("no viewers      ", alone))
    print("  " + _summary(f"{args.viewers} viewers      ", watched))
    ratio = statistics.median(watched) / statistics.median(alone)
    print(f"  median with viewers / without: {ratio:.3f} ({(ratio - 1) * 100:+.1f} %)")
    if latencies:
        print("  " + _summary(f"publish -> viewer ({args.viewers} viewers)", latencies))
    print(f"  publish -> handed to the viewers' sockets (server side): {stats.pop('delivery_ms')}")
    print(f"  CPU while watched: server process {server_cpu:.0%} of a core, the viewers' process {viewer_cpu:.0%}"
          f" (this machine: {os.cpu_count()} cores)")
    print(f"  hub: {stats}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
