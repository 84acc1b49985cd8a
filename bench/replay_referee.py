"""Judge kept truth-video folders again from the table states the camera published (run by hand).

    python bench/replay_referee.py DIR/seed-130 [DIR/seed-131 ...] [--until 60] [--trace 40 55]

A folder kept by ``bench/bench_referee_truth.py --keep`` holds ``tables.jsonl``, every table state the
live referee judged. This feeds them through a fresh ``LiveReferee`` (the slaps the camera saw taken
from the folder's ``game.jsonl``, since they are not table states), writes ``replay.jsonl`` beside
them and scores it against ``moves.jsonl`` as the truth bench does. No video and no detector: a
referee change is checked on a dozen kept matches in seconds, and the seconds per match are the
referee's own cost. ``--trace T0 T1`` prints what each view between T0 and T1 was found to show, and with ``--views`` each
pile top as published (card and confidence, ``?`` where under a hand) and, where the truth differs,
the true top. ``--diff`` lists where the moves found part from the true ones, with their times.

The score is the bench's only while the slaps stay as logged: a change that moves when a stress is
called can make a logged slap early or late (analyse the folder again with the bench for the truth).
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee_truth import _key, read_jsonl, score  # noqa: E402

from cardref.gamelog.store import GameStore  # noqa: E402
from cardref.live import LiveReferee  # noqa: E402
from referee.followers import find_follower  # noqa: E402
from vision.table_state import TableState  # noqa: E402


def _truth_at(truth: list[dict], t: float) -> dict | None:
    """The true table of the last frame at or before ``t``."""
    at = None
    for row in truth:
        if row["t"] > t:
            break
        at = row
    return at


def _tops(table: TableState, truth: dict | None) -> str:
    out = []
    for zone, pile in sorted(table.piles.items()):
        top = f"{pile.cards[-1].card}@{pile.cards[-1].confidence:.2f}" if pile.cards else ("back" if pile.backs else "-")
        true = (truth or {}).get("piles", {}).get(zone, {}).get("cards") if truth else None
        real = true[-1]["card"] if true else None
        wrong = truth is not None and (real or None) != (pile.top or None)
        out.append(f"{zone}={'?' if zone in table.held else ''}{top}" + (f"(truth {real or '-'})" if wrong else ""))
    return "        " + " ".join(out)


def replay(folder: Path, until: float | None = None, trace: tuple[float, float] | None = None,
           views: bool = False) -> LiveReferee:
    """A referee fed ``folder``'s tables (up to ``until``), its log written to ``folder/replay.jsonl``."""
    render = json.loads((folder / "render.json").read_text())
    follower = find_follower(render["game"])
    rules = follower.rules_from_spec(render["rules"])
    slaps = [r for r in read_jsonl(folder / "game.jsonl")
             if r.get("kind") == "move" and r["data"]["move"].get("op") == "slap"] if (folder / "game.jsonl").exists() else []
    truth = read_jsonl(folder / "truth.jsonl") if views and (folder / "truth.jsonl").exists() else []
    with tempfile.TemporaryDirectory() as games:
        store = GameStore(games, fsync=False)
        seats = int(getattr(rules, "players", 1) or 1)
        writer = store.new_game(render["game"], follower.rules_spec(rules), [f"Player {i + 1}" for i in range(seats)])
        referee = LiveReferee(render["game"], rules, writer=writer)
        for line in (folder / "tables.jsonl").read_text().splitlines():
            table = TableState.from_json(json.loads(line))
            if until is not None and table.t > until:
                break
            while slaps and slaps[0]["t"] <= table.t:
                slap = slaps.pop(0)
                referee.act("slap", slap["t"], player=slap["data"]["move"]["player"], pile=slap["data"]["move"]["pile"])
            found = referee.feed(table)
            if trace is not None and trace[0] <= table.t <= trace[1]:
                print(f"{table.t:7.2f} " + ("; ".join(f"{f.kind} {f.move or ''} {f.detail or ''}".strip() for f in found)
                                            or "nothing happened"))
                if views:
                    print(_tops(table, _truth_at(truth, table.t) if truth else None))
        if until is None:
            referee.settle()  # the recording ended (cardref analyze does the same)
        writer.close()
        (folder / "replay.jsonl").write_bytes((store.game_dir(writer.id) / "log.jsonl").read_bytes())
    return referee


def print_diff(folder: Path, log_name: str = "replay.jsonl") -> None:
    """Where the log's moves part from the truth's: each true move missed and each move found that the
    truth does not have at that place, with its time (moves one view found in another order than the
    truth show as both)."""
    truth = [m for m in read_jsonl(folder / "moves.jsonl") if m["kind"] in ("legal", "illegal") and not m.get("late")]
    log = [r for r in read_jsonl(folder / log_name) if r.get("kind") in ("move", "illegal")]
    want = [_key(m, m["kind"]) for m in truth]
    got = [_key(r["data"]["move"], "legal" if r["kind"] == "move" else "illegal") for r in log]
    matcher = difflib.SequenceMatcher(a=want, b=got, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        for m, k in zip(truth[a0:a1], want[a0:a1]):
            print(f"  missed {m['t']:7.2f} {_shown(k)} {' '.join(m.get('cards', []))}")
        for r, k in zip(log[b0:b1], got[b0:b1]):
            print(f"  found  {r['t']:7.2f} {_shown(k)}")


def _shown(key: tuple) -> str:
    """A scored move as the bench compares it: kind, then op, player, from, to, onto, pile where set."""
    names = ("op", "player", "from", "to", "onto", "pile")
    return key[0] + " " + " ".join(f"{n}={v}" if n != "op" else json.loads(v) for n, v in zip(names, key[1:]) if v != "null")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="+", help="seed-N folders kept by bench_referee_truth.py")
    parser.add_argument("--until", type=float, help="stop after the table states up to this time (s)")
    parser.add_argument("--trace", type=float, nargs=2, metavar=("T0", "T1"), help="print each view's findings")
    parser.add_argument("--diff", action="store_true", help="list the true moves missed and the moves invented")
    parser.add_argument("--views", action="store_true", help="with --trace: each view's pile tops and the truth's")
    args = parser.parse_args(argv)
    for folder in args.folders:
        started = time.perf_counter()
        replay(folder, args.until, tuple(args.trace) if args.trace else None, args.views)
        result = score(folder, "replay.jsonl")
        print(f"{folder}: " + " ".join(f"{k} {v}" for k, v in result.items())
              + f" ({time.perf_counter() - started:.1f} s)", flush=True)
        if args.diff:
            print_diff(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
