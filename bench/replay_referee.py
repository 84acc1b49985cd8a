"""Judge kept truth-video folders again from the table states the camera published (run by hand).

    python bench/replay_referee.py DIR/seed-130 [DIR/seed-131 ...] [--until 60] [--trace 40 55]
    python bench/replay_referee.py --kept [--game stress] [--late]  # every match in bench/matches/
    python bench/replay_referee.py --add DIR/seed-130 [...]   # keep a folder's tables in bench/matches/

A folder kept by ``bench/bench_referee_truth.py --keep`` holds ``tables.jsonl``, every table state the
live referee judged and, since the fifty-ninth session, every look, quiet frame and slap it judged
between them. This gives them in order to a fresh ``LiveReferee`` (``cardref.replay_tables``; for an
older file, the slaps the camera saw taken from the folder's ``game.jsonl``), writes ``replay.jsonl`` beside
them and scores it against ``moves.jsonl`` as the truth bench does. No video and no detector: a
referee change is checked on a dozen kept matches in seconds, and the seconds per match are the
referee's own cost. ``--trace T0 T1`` prints what each view between T0 and T1 was found to show, and with ``--views`` each
pile top as published (card and confidence, ``?`` where under a hand) and, where the truth differs,
the true top. ``--diff`` lists where the moves found part from the true ones, with their times.
``--late`` says how long after each true move came to rest the referee said it (the time of the table
that showed it, or of the quiet frame that concluded a view left waiting: ``LiveReferee.tick``), and
how many moves it said more than 2 s late.

``bench/matches/`` is the kept matches' corpus, in the repository so that it outlives the machine that
rendered them (rendering and analysing a two-round match again costs 10-20 minutes; its tables, moves and
the truth at each view come to 10-60 KB gzipped): ``--add`` copies what a replay needs of a folder
``--keep`` kept (``render.json``; ``tables.jsonl``, ``moves.jsonl`` and the true table at each published
state's time as ``truth.jsonl``, gzipped; the slaps the camera saw as ``slaps.jsonl``), and ``--kept``
replays them all with totals per game. A referee change is run over them before it is committed.

The score is the bench's only while the slaps stay as logged: a change that moves when a stress is
called can make a logged slap early or late (analyse the folder again with the bench for the truth).
"""

from __future__ import annotations

import argparse
import gzip
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_referee_truth import _key, add_up, common_pairs, read_jsonl, retracted_seqs, score, summary, true_moves  # noqa: E402

from cardref.gamelog.store import GameStore  # noqa: E402
from cardref.live import QUIET_AFTER, LiveReferee  # noqa: E402
from cardref.replay_tables import is_view, replay_lines  # noqa: E402
from referee.observation import Finding  # noqa: E402
from referee.followers import find_follower  # noqa: E402
from vision.table_state import TableState  # noqa: E402


MATCHES = Path(__file__).resolve().parent / "matches"
"""The kept matches (``--add``, ``--kept``)."""


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
           views: bool = False, said: list[tuple[float, Finding]] | None = None) -> LiveReferee:
    """A referee given ``folder``'s tables (up to ``until``), its log written to ``folder/replay.jsonl``;
    ``said`` gets each move and illegal move found with the time the referee said it (the table's
    that showed it, or the frame's that ticked it: :data:`cardref.live.QUIET_AFTER` after the last)."""
    render = json.loads((folder / "render.json").read_text())
    follower = find_follower(render["game"])
    rules = follower.rules_from_spec(render["rules"])
    # (a tables file with the replay_tables header holds the camera's slaps itself)
    slaps = [{"t": r["t"], **{k: r["data"]["move"][k] for k in ("player", "pile")}} for r in _camera_slaps(folder)]
    truth = _read_if_there(folder / "truth.jsonl") if views else []
    lines = [x for x in read_jsonl(folder / "tables.jsonl") if until is None or x.get("t", 0.0) <= until]
    with tempfile.TemporaryDirectory() as games:
        store = GameStore(games, fsync=False)
        seats = int(getattr(rules, "players", 1) or 1)
        writer = store.new_game(render["game"], follower.rules_spec(rules), [f"Player {i + 1}" for i in range(seats)])
        referee = LiveReferee(render["game"], rules, writer=writer)
        for line, found in replay_lines(referee, lines, slaps):
            t = float(line["t"])
            if said is not None:
                # a quiet frame said it: the first after QUIET_AFTER (where it was not recorded, the next view's)
                last = referee.last_table
                at = min(t, last.t + QUIET_AFTER) if line.get("tick") and last is not None else t
                said += [(at, f) for f in found if f.kind in ("move", "illegal")]
            if trace is None or not trace[0] <= t <= trace[1]:
                continue
            if line.get("tick"):
                if found:
                    print("        quiet: " + _findings(found))
            elif "act" in line:
                print(f"{t:7.2f} {line['act']} {line.get('player', '')} {line.get('pile', '')}: " + (_findings(found) or "nothing"))
            else:
                look = "glimpse: " if line.get("glimpse") else ""
                print(f"{t:7.2f} {look}" + (_findings(found) or "nothing happened"))
                if views:
                    table = TableState.from_json(line)
                    print(_tops(table, _truth_at(truth, table.t) if truth else None))
        if until is None:
            referee.settle()  # the recording ended (cardref analyze does the same)
        writer.close()
        (folder / "replay.jsonl").write_bytes((store.game_dir(writer.id) / "log.jsonl").read_bytes())
    return referee


def _findings(found: list[Finding]) -> str:
    """What a view was found to show, as ``--trace`` prints it."""
    return "; ".join(f"{f.kind} {f.move or ''} {f.detail or ''}".strip() for f in found)


def _read_if_there(path: Path) -> list[dict]:
    """``read_jsonl`` of ``path`` (or ``PATH.gz``), nothing when neither is there."""
    there = path.exists() or path.with_name(path.name + ".gz").exists()
    return read_jsonl(path) if there else []


def _camera_slaps(folder: Path) -> list[dict]:
    """The slaps the camera saw, as ``cardref analyze`` logged them (a kept match's ``slaps.jsonl``)."""
    log = folder / "game.jsonl" if (folder / "game.jsonl").exists() else folder / "slaps.jsonl"
    return [r for r in _read_if_there(log) if r.get("kind") == "move" and r["data"]["move"].get("op") == "slap"]


def _gzipped(path: Path, rows: list[dict]) -> None:
    """``rows`` as JSON lines in ``path``, gzipped without a time stamp (the same rows, the same bytes)."""
    text = "".join(json.dumps(row, separators=(",", ":")) + "\n" for row in rows)
    path.write_bytes(gzip.compress(text.encode(), mtime=0))


def keep(folder: Path, into: Path = MATCHES) -> Path:
    """Copy what a replay needs of ``folder`` (kept by ``bench_referee_truth.py --keep``) into the
    corpus, as ``GAME-SEED`` (Zenuwen ``zenuwenNp-SEED``)."""
    render = json.loads((folder / "render.json").read_text())
    game = render["game"] + (f"{render['players']}p" if render["game"] == "zenuwen" else "")
    out = into / f"{game}-{render['seed']}"
    out.mkdir(parents=True, exist_ok=True)
    (out / "render.json").write_text(json.dumps(render, indent=1) + "\n")
    tables = read_jsonl(folder / "tables.jsonl")
    _gzipped(out / "tables.jsonl.gz", tables)
    _gzipped(out / "moves.jsonl.gz", read_jsonl(folder / "moves.jsonl"))
    (out / "slaps.jsonl").write_text("".join(json.dumps(r) + "\n" for r in _camera_slaps(folder)))
    truth = _read_if_there(folder / "truth.jsonl")
    at_views: list[dict] = []
    for table in filter(is_view, tables):  # every frame's truth is megabytes; the views need only theirs
        row = _truth_at(truth, table["t"])
        if row is not None and (not at_views or row["t"] != at_views[-1]["t"]):
            at_views.append(row)
    if at_views:
        _gzipped(out / "truth.jsonl.gz", at_views)
    return out


def print_diff(folder: Path, log_name: str = "replay.jsonl") -> None:
    """Where the log's moves part from the truth's: each true move missed and each move found that the
    truth does not have at that place, with its time (moves one view found in another order than the
    truth show as both)."""
    truth = true_moves(read_jsonl(folder / "moves.jsonl"))
    records = read_jsonl(folder / log_name)
    retracted = retracted_seqs(records)  # (as score counts them: a move put back is not one found)
    log = [r for r in records if r.get("kind") in ("move", "illegal") and r.get("seq") not in retracted]
    want = [_key(m, m["kind"]) for m in truth]
    got = [_key(r["data"]["move"], "legal" if r["kind"] == "move" else "illegal") for r in log]
    pairs = common_pairs(want, got)
    paired_a, paired_b = {i for i, _ in pairs}, {j for _, j in pairs}
    lines = [(m["t"], f"  missed {m['t']:7.2f} {_shown(k)} {' '.join(m.get('cards', []))}")
             for i, (m, k) in enumerate(zip(truth, want)) if i not in paired_a]
    lines += [(r["t"], f"  found  {r['t']:7.2f} {_shown(k)}") for j, (r, k) in enumerate(zip(log, got)) if j not in paired_b]
    for _, line in sorted(lines, key=lambda x: x[0]):
        print(line)


LATE_S = 2.0
"""A move said this long after it came to rest counts as said late (``--late``)."""


def lateness(folder: Path, said: list[tuple[float, Finding]]) -> list[float]:
    """For each true move (legal or illegal) the referee found, how long after it came to rest the
    referee said it (``said``: :func:`replay`'s), the moves found paired with the true ones as
    :func:`print_diff` pairs them (a draw missed does not make every later draw late)."""
    truth = true_moves(read_jsonl(folder / "moves.jsonl"))
    found = [(t, _key(f.move.to_json(), "legal" if f.kind == "move" else "illegal")) for t, f in said if f.move is not None]
    return [found[j][0] - truth[i]["t"] for i, j in common_pairs([_key(m, m["kind"]) for m in truth], [k for _, k in found])]


def _shown(key: tuple) -> str:
    """A scored move as the bench compares it: kind, then op, player, from, to, onto, pile where set."""
    names = ("op", "player", "from", "to", "onto", "pile")
    return key[0] + " " + " ".join(f"{n}={v}" if n != "op" else json.loads(v) for n, v in zip(names, key[1:]) if v != "null")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", type=Path, nargs="*", help="seed-N folders kept by bench_referee_truth.py")
    parser.add_argument("--kept", action="store_true", help="replay every match in bench/matches/ as well")
    parser.add_argument("--game", help="with --kept: only this game's matches (zenuwen3p and the like match zenuwen)")
    parser.add_argument("--add", action="store_true", help="copy the folders into bench/matches/ instead of replaying")
    parser.add_argument("--until", type=float, help="stop after the table states up to this time (s)")
    parser.add_argument("--trace", type=float, nargs=2, metavar=("T0", "T1"), help="print each view's findings")
    parser.add_argument("--diff", action="store_true", help="list the true moves missed and the moves invented")
    parser.add_argument("--views", action="store_true", help="with --trace: each view's pile tops and the truth's")
    parser.add_argument("--late", action="store_true",
                        help=f"how long after each move came to rest the referee said it; moves said over {LATE_S:g} s late")
    args = parser.parse_args(argv)
    if args.add:
        for folder in args.folders:
            print(f"{folder} -> {keep(folder)}")
        return 0
    folders = list(args.folders)
    if args.kept:
        folders += sorted((f for f in MATCHES.iterdir() if (f / "render.json").exists()
                           and f.name.startswith(args.game or "")), key=_match_order)
    if not folders:
        parser.error("name folders to replay, or --kept")
    totals: dict[str, dict[str, int]] = {}
    delays: dict[str, list[float]] = {}
    for folder in folders:
        started = time.perf_counter()
        said: list[tuple[float, Finding]] = []
        replay(folder, args.until, tuple(args.trace) if args.trace else None, args.views, said)
        result = score(folder, "replay.jsonl")
        game = json.loads((folder / "render.json").read_text())["game"]
        add_up(totals.setdefault(game, {}), result)
        late = ""
        if args.late:
            mine = lateness(folder, said)
            delays.setdefault(game, []).extend(mine)
            late = f" late {sum(d > LATE_S for d in mine)}/{len(mine)}"
        print(f"{folder}: " + " ".join(f"{k} {v}" for k, v in result.items()) + late
              + f" ({time.perf_counter() - started:.1f} s)", flush=True)
        if args.diff:
            print_diff(folder)
    if len(folders) > 1:
        for game, summed in sorted(totals.items()):
            print(f"{game}: {summary(summed)}")
    for game, mine in sorted(delays.items()):
        mine.sort()
        if mine:
            print(f"{game}: {len(mine)} moves said, {mine[len(mine) // 2]:.2f} s after coming to rest (median), "
                  f"p90 {mine[int(0.9 * (len(mine) - 1))]:.2f} s, max {mine[-1]:.1f} s; over {LATE_S:g} s late: "
                  f"{sum(d > LATE_S for d in mine)}")
    return 0


def _match_order(folder: Path) -> tuple[str, int]:
    """Kept matches by game, then seed."""
    game, _, seed = folder.name.rpartition("-")
    return game, int(seed) if seed.isdigit() else 0


if __name__ == "__main__":
    # (piped into head, say, the output may end early: no traceback for that)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
