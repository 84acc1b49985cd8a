"""Verdict decided -> drawn on the live page, in a real browser (run by hand: python bench/bench_page_latency.py).

Starts the cardref web server on the recorded demo game (the replay source the browser tests use),
opens the live page in Debian's headless Chromium through Playwright, steps the replay and reads the
page's own measurement: each message carries the server's send time and the page notes how long after
it the move or verdict was drawn (``window.cardrefLive.stats.latencies``). The target is 100 ms.
Needs /usr/bin/chromium (or $CARDREF_CHROMIUM) and the test extras.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=40, help="replay steps measured (after 5 to warm up)")
    ap.add_argument("--interval", type=float, default=0.05, help="seconds between steps")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1600, "height": 900})
                page.goto(server.url + "/")
                server.replay.begin()
                page.wait_for_function("() => document.querySelectorAll('#board .card').length >= 28")
                for _ in range(5):  # warm up: the page's first drawings are slower (JIT, first decode)
                    server.replay.step()
                    time.sleep(args.interval)
                page.wait_for_function("() => window.cardrefLive.stats.latencies.length >= 5")
                time.sleep(0.3)
                page.evaluate("() => window.cardrefLive.stats.latencies.length = 0")
                steps = 0
                while steps < args.steps:
                    if not server.replay.step():  # the recorded game ran out: start it again
                        server.replay.begin()
                        continue
                    steps += 1
                    time.sleep(args.interval)
                page.wait_for_function(f"() => window.cardrefLive.stats.latencies.length >= {args.steps}")
                lat = sorted(page.evaluate("() => window.cardrefLive.stats.latencies"))
                browser.close()
        finally:
            server.stop()
    print(f"verdict -> drawn on the live page over {len(lat)} messages: median {statistics.median(lat):.1f} ms, "
          f"p90 {lat[int(len(lat) * 0.9)]:.1f} ms, max {lat[-1]:.1f} ms (target: 100 ms)")


if __name__ == "__main__":
    main()
