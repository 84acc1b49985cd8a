"""How fast the writer logs: ``python -m cardref.gamelog.bench [--records N] [--no-fsync] [--frame-every K]``.

Writes one game of ``N`` move records shaped like a Klondike verdict (move, events and the position
after it, about 800 bytes a line) into a temporary games directory (or ``--dir``), then reads it back,
and prints records per second for both.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from .reader import read_game
from .record import JSONObject
from .store import GameStore

_STATE: JSONObject = {
    "tableau": [{"down": ["KS"] * i, "up": ["QH", "JC"]} for i in range(7)],
    "stock": ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"] * 2,
    "waste": ["AH", "2H", "3H"],
    "foundations": {"S": 0, "H": 1, "D": 0, "C": 2},
    "recycles": 0,
    "score": 35,
}


def bench(root: Path, records: int, fsync: bool, frame_every: int) -> tuple[float, float, int]:
    """Returns (records written per second, records read per second, log bytes)."""
    store = GameStore(root, fsync=fsync)
    jpeg = b"\xff\xd8" + bytes(60_000)  # about one 1280x720 key frame
    start = time.perf_counter()
    with store.new_game("klondike", "draw=3", ["anna"], deal={"seed": 1}) as w:
        for i in range(1, records + 1):
            data: JSONObject = {
                "move": {"op": "move", "from": "t3", "to": "t5"},
                "text": "t3->t5",
                "score_delta": 5,
                "events": [{"type": "turned_up", "pile": "t3", "cards": ["8H"]}],
                "state": _STATE,
            }
            w.append("move", i * 0.5, data, frame=jpeg if frame_every and i % frame_every == 0 else None)
        game_id = w.id
    wrote = time.perf_counter() - start
    start = time.perf_counter()
    log = read_game(store.game_dir(game_id))
    read = time.perf_counter() - start
    assert len(log.records) == records and not log.errors
    return records / wrote, records / read, (store.game_dir(game_id) / "log.jsonl").stat().st_size


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardref.gamelog.bench", description=__doc__.splitlines()[0])
    p.add_argument("--records", type=int, default=2000)
    p.add_argument("--no-fsync", dest="fsync", action="store_false", help="skip fsync (a kill still loses nothing; a power cut may)")
    p.add_argument("--frame-every", type=int, default=0, metavar="K", help="a 60 kB key frame with every K-th record")
    p.add_argument("--dir", help="games directory to write in (default: a temporary one, on the disk that holds /tmp)")
    args = p.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        written, read, size = bench(Path(tmp), args.records, args.fsync, args.frame_every)
    print(
        f"{args.records} records, fsync {'on' if args.fsync else 'off'}, key frame every {args.frame_every or 'never'}: "
        f"write {written:,.0f} records/s, read {read:,.0f} records/s, {size / args.records:,.0f} bytes/record"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
