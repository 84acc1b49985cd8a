"""The whole camera referee on fresh truth videos, the way issue 6 is checked (run by hand).

    python bench/bench_referee_truth.py --seeds 5 11 23 [--deck simplistic] [--seconds 60] [--keep DIR]
    python bench/bench_referee_truth.py --game zenuwen --players 3 --seeds 5 6 --seconds 40 --keep DIR
    python bench/bench_referee_truth.py --game zenuwen --players 4 --seeds 27 --seconds 40 --size 1920x1080
    python bench/bench_referee_truth.py --game stress --seeds 7 23 --seconds 40 --keep DIR
    python bench/bench_referee_truth.py --game zenuwen --seeds 110 --rounds 2 --seconds 600 --keep DIR
    python bench/bench_referee_truth.py --game double_solitaire --seeds 1 2 --size 1920x1080 --illegal 2

For each seed: ``cardref render GAME`` films a new game (a deck the detector never trained on, a new
table, camera and light, one deliberate illegal move and its take-back), then ``cardref analyze`` runs the
shipped models and the referee on the video, and the game log is compared with the true move list:
moves found in order (longest common subsequence of (op, player, from, to, onto, pile) and the verdict,
legal or illegal: since the thirty-first session a legal move called illegal is not found, and its verdict
counts as invented and as ``false_illegal``), moves invented (found but not in the truth), illegal moves
flagged with the right rule, the calls (stress, stuck, a round's end) made in time and those made
falsely or too late, a call the referee withdrew later among them (since the forty-fourth session),
unrecognised changes reported
(and, apart, the views the referee only waited on: ``unclear``; before the twenty-seventh session both
were counted as unrecognised).
A folder that already holds a video is analysed again with the rules it was rendered with. Each
folder keeps the table states the referee judged (``tables.jsonl``, docs/states-format.md), so a
verdict can be replayed without the video, and what the shipped detector found in each frame
(``detections.jsonl.gz``): analysed again, the folder's video is tracked and refereed from those in
seconds instead of minutes (delete the file to run the detector again).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _key(move: dict, kind: str = "legal") -> tuple:
    """A move as scored: the same move judged legal and illegal are two things (a legal move called
    illegal is not found, and its verdict is invented)."""
    return (kind,) + tuple(json.dumps(move.get(k)) for k in ("op", "player", "from", "to", "onto", "pile"))


def _in_truth_order(records: list[dict], want: list[tuple]) -> list[tuple]:
    """The moves of the log; those found in one view (the same time), which the view cannot order
    (a draw and a column move both done between two views), in the order the truth has them."""
    out: list[tuple] = []
    start = 0
    for _, group in itertools.groupby(records, key=lambda r: r["t"]):
        keys = [_key(r["data"]["move"], "legal" if r["kind"] == "move" else "illegal") for r in group]
        at: list[int | None] = []
        for k in keys:  # each truth move matched once (two lays in one view are two truth lays)
            at.append(next((i for i in range(start, len(want)) if want[i] == k and i not in at), None))
        order = sorted(range(len(keys)), key=lambda n: (at[n] is None, at[n] or 0, n))
        out += [keys[n] for n in order]
        # past every truth move this view matched: the next view's moves come after them (until the
        # thirty-fifth session the first, so a view's play then lay could match the lay before it)
        start = max((i for i in at if i is not None), default=start - 1) + 1
    return out


def read_jsonl(path: Path) -> list[dict]:
    """The records of a JSON-lines file (blank lines skipped), read from ``PATH.gz`` where only that is
    there (the kept matches of bench/matches/)."""
    packed = path.with_name(path.name + ".gz")
    text = gzip.decompress(packed.read_bytes()).decode() if not path.exists() and packed.exists() else path.read_text()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


SCORED_CALLS = ("stress", "stuck", "round_over")
"""The calls the truth lists (``calls`` of the move that makes them): Stress and Zenuwen."""
CALL_EARLY, CALL_LATE = 1.5, 3.0
"""A call matches a true one of its kind from ``CALL_EARLY`` s before the true move's time (which is
when its refill lies, not when the card that made the call landed) to ``CALL_LATE`` s after it: later
is a call the players had to make themselves."""


def _calls_matched(want: list[tuple[float, str]], got: list[tuple[float, str]]) -> int:
    """How many true calls the log made in time, each log call matching one true call (in time order)."""
    used: set[int] = set()
    for t, kind in want:
        k = next((i for i, (tg, kg) in enumerate(got)
                  if i not in used and kg == kind and t - CALL_EARLY <= tg <= t + CALL_LATE), None)
        if k is not None:
            used.add(k)
    return len(used)


def true_moves(truth: list[dict]) -> list[dict]:
    """Of a render's true moves (its ``moves.jsonl``), those that are scored: legal and illegal ones,
    not those it made too late (a late slap changes nothing)."""
    return [m for m in truth if m["kind"] in ("legal", "illegal") and not m.get("late")]


def retracted_seqs(records: list[dict]) -> set[int]:
    """The sequence numbers of the records a game log's corrections retract."""
    return {r["target"] for r in records if r.get("kind") == "correction" and r.get("data", {}).get("action") == "retract"}


def common_pairs(a: list[tuple], b: list[tuple]) -> list[tuple[int, int]]:
    """The index pairs of a longest common subsequence of ``a`` and ``b`` (the moves found in order).
    Until the sixty-fourth session ``difflib.SequenceMatcher`` counted them: its matching blocks are no
    longest common subsequence where the same move comes again and again (a draw-1 game's draws), and
    a fresh kennard_4c Double Solitaire game scored 20/57, 18 invented, where 35 of its moves were the
    true ones in order."""
    n, m = len(a), len(b)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            best[i][j] = best[i + 1][j + 1] + 1 if a[i] == b[j] else max(best[i + 1][j], best[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i + 1][j] >= best[i][j + 1]:
            i += 1
        else:
            j += 1
    return pairs


def score(folder: Path, log_name: str = "game.jsonl") -> dict:
    """Compare ``game.jsonl`` (cardref analyze; or another log there) with ``moves.jsonl`` (cardref
    render) in ``folder``. A move the log retracts (a card put back, the referee going back with the
    table) is not one found."""
    truth = read_jsonl(folder / "moves.jsonl")
    records = read_jsonl(folder / log_name)
    retracted = retracted_seqs(records)
    log = [r for r in records if r.get("seq") not in retracted]
    want = [_key(m, m["kind"]) for m in true_moves(truth)]
    got = _in_truth_order([r for r in log if r.get("kind") in ("move", "illegal")], want)
    found = len(common_pairs(want, got))
    illegal_want = [(_key(m, "illegal"), m["rule"]) for m in truth if m["kind"] == "illegal"]
    calls_want = [(m["t"], kind) for m in truth for kind in m.get("calls", ()) if kind in SCORED_CALLS]
    # every call made counts, one the referee withdrew later too: the players heard it
    calls_made = [r for r in records if r.get("kind") == "call" and r["data"].get("type") in SCORED_CALLS]
    calls_got = [(r["t"], r["data"]["type"]) for r in calls_made]
    calls_found = _calls_matched(calls_want, calls_got)
    illegal_got = {(_key(r["data"]["move"], "illegal"), r["data"].get("rule")) for r in log if r.get("kind") == "illegal"}
    return {
        "moves": len(want),
        "found": found,
        "invented": len(got) - found,
        "illegal": len(illegal_want),
        "illegal_flagged": sum(item in illegal_got for item in illegal_want),
        "false_illegal": sum(k not in {w for w, _ in illegal_want} for k, _ in illegal_got),
        "calls": len(calls_want),
        "calls_found": calls_found,
        "false_calls": len(calls_got) - calls_found,
        "calls_withdrawn": sum(r.get("seq") in retracted for r in calls_made),
        "unrecognised": sum(r.get("kind") == "unrecognised" and r["data"].get("why") != "ambiguous" for r in log),
        "unclear": sum(r.get("kind") == "unrecognised" and r["data"].get("why") == "ambiguous" for r in log),
    }


def add_up(totals: dict[str, int], result: dict) -> None:
    """Add one match's ``score`` to ``totals``."""
    for k, v in result.items():
        totals[k] = totals.get(k, 0) + v


def summary(totals: dict[str, int]) -> str:
    """Summed ``score`` results, said in words."""
    share = totals["found"] / max(1, totals["moves"])
    return (f"moves found {totals['found']}/{totals['moves']} ({share:.0%}), invented {totals['invented']}, "
            f"illegal flagged {totals['illegal_flagged']}/{totals['illegal']} ({totals['false_illegal']} legal moves called "
            f"illegal), calls made in time {totals['calls_found']}/{totals['calls']} ({totals['false_calls']} false or late, "
            f"{totals['calls_withdrawn']} of all calls withdrawn by the referee later), "
            f"unrecognised {totals['unrecognised']}, unclear {totals['unclear']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=("klondike", "double_solitaire", "stress", "zenuwen"), default="klondike")
    parser.add_argument("--players", type=int, default=2, help="Zenuwen: 2 to 4 players")
    parser.add_argument("--seeds", type=int, nargs="+", default=[5, 11, 23])
    parser.add_argument("--deck", default="simplistic", help="a deck the shipped weights never trained on (vision.render.UNSEEN_DECKS)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--size", default="1280x720", help="the camera's frame size, WxH (default 1280x720)")
    parser.add_argument("--rules", help='the game\'s options (Klondike default "draw=3")')
    parser.add_argument("--illegal", type=int, default=1, help="deliberate illegal moves per game (default 1)")
    parser.add_argument("--rounds", type=int, default=1, help="Stress, Zenuwen: rounds to film (default 1)")
    parser.add_argument("--fps", type=float, help="the video's frame rate (default: cardref render's, 10; a webcam "
                        "films 30, which cardref analyze looks at 15 times a second)")
    parser.add_argument("--detector", help="candidate corner-detector weights X.onnx (default: shipped)")
    parser.add_argument("--keep", type=Path, help="keep the videos and logs here (seed-N folders)")
    args = parser.parse_args(argv)

    root = args.keep or Path(tempfile.mkdtemp(prefix="cardref-truth-"))
    totals: dict[str, int] = {}
    for seed in args.seeds:
        out = root / f"seed-{seed}"
        if not (out / "video.mp4").exists():
            rules = args.rules or ("draw=3" if args.game == "klondike" else "")
            made = subprocess.run(
                ["cardref", "render", args.game, "--seed", str(seed), "--seconds", str(args.seconds),
                 "--deck", args.deck, "--size", args.size, "--illegal", str(args.illegal), "--out", str(out)]
                + (["--rules", rules] if rules else [])
                + (["--players", str(args.players)] if args.game == "zenuwen" else [])
                + (["--rounds", str(args.rounds)] if args.rounds != 1 else [])
                + (["--fps", f"{args.fps:g}"] if args.fps else []),
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            )
            if made.returncode:
                print(f"seed {seed}: cardref render failed: {made.stderr.strip()}", file=sys.stderr)
                return 2
        render = json.loads((out / "render.json").read_text())
        started = time.perf_counter()
        found = out / "detections.jsonl.gz"  # the shipped detector's, kept
        if args.detector:
            detector = ["--detector", args.detector]
        else:
            detector = ["--detections", str(found)] if found.exists() else ["--detections-out", str(found)]
        analysed = subprocess.run(
            ["cardref", "analyze", str(out / "video.mp4"), "--game", render["game"], "--rules", render["rules"],
             "--calibration", str(out / "calibration.json"), "--out", str(out / "game.jsonl"),
             "--games-dir", str(out / "games"), "--tables-out", str(out / "tables.jsonl")] + detector,
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        if analysed.returncode:
            print(f"seed {seed}: cardref analyze failed: {analysed.stderr.strip()[-2000:]}", file=sys.stderr)
            return 2
        result = score(out)
        add_up(totals, result)
        print(f"seed {seed}: " + " ".join(f"{k} {v}" for k, v in result.items())
              + f" ({time.perf_counter() - started:.0f} s)", flush=True)
    print("all: " + summary(totals) + ("" if args.keep else f" (videos in {root})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
