"""Whose hand reached which centre pile after a stress call or at a Zenuwen slap race, against truth
videos (run by hand).

    python bench/bench_slaps.py --make 201 230 --out DIR [--deck penguins]   # render stress starts
    python bench/bench_slaps.py --make 301 320 --out DIR --players 3         # render Zenuwen slap races
    python bench/bench_slaps.py DIR/seed-*                                    # score vision/reach.py

Any Stress render folder will do (``cardref render stress ...``; matches of two rounds hold one to four
stresses), and any Zenuwen render with ``--rules pile_choice=slap_race`` and a second round. ``--make A
B`` renders, for each seed from A to B, a short game that starts with a stress: the seed's deal with the
second stock's top card swapped for a card of the first stock's top rank (seeds whose second stock
holds none are skipped), so both first centre cards match at once; about a minute each on this
machine. With ``--players 3`` or ``4`` it renders Zenuwen instead, each seat's layout cut down to one
card so that the first play ends the round and every player slaps a centre pile (a seat at the end of
the row of centre piles among them).

For each stress or race, :class:`vision.reach.ReachWatch` is run over the video's frames, armed when the
referee called the stress (the folder's ``game.jsonl`` from ``cardref analyze`` or
``bench/bench_referee_truth.py``) or else half a second before the hands set off for the slaps, and
its reaches are compared with the true slaps of ``moves.jsonl`` in order: the seat, and the pile.
The first slap of each is counted apart: a Zenuwen race goes to it, the later slaps change nothing.
No detector runs: it takes seconds per folder.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import cv2

WINDOW_S = 6.0
"""How long after a stress call the slaps are watched: a call made on a glimpse of the centre comes
while the playing hand still refills its row (Stress 135: 3.3 s before the first slap)."""


def stress_start_deal(seed: int) -> dict | None:
    """Seed ``seed``'s Stress deal with a stress at the first lay (None if it cannot have one)."""
    deal = json.loads(subprocess.run(["cardref", "deal", "stress", "--seed", str(seed)], capture_output=True,
                                     text=True, check=True).stdout)
    first, second = deal["players"][0]["stock"], deal["players"][1]["stock"]
    for i, card in enumerate(second):
        if card[:-1] == first[0][:-1]:
            second[0], second[i] = second[i], second[0]
            return deal
    return None


def race_start_deal(seed: int, players: int) -> dict | None:
    """Seed ``seed``'s Zenuwen deal for ``players`` with each seat's layout one card (the rest in its
    stock), one of them a rank off a card turned first: the first play ends the round (None if the
    seed has no such card)."""
    deal = json.loads(subprocess.run(["cardref", "deal", "zenuwen", "--seed", str(seed), "--players", str(players)],
                                     capture_output=True, text=True, check=True).stdout)
    from referee.cards import card

    seats = deal["players"]
    turned = {card(seat["stock"][0]).rank for seat in seats}

    def fits(code: str) -> bool:  # on a card turned first (Z6, with wrap-around: ranks 1-13)
        return bool({(card(code).rank - 1 + d) % 13 + 1 for d in (-1, 1)} & turned)

    for seat in seats:
        cards = [c for pile in seat["piles"] for c in pile]
        pick = next((c for c in cards if fits(c)), cards[0])
        cards.remove(pick)
        seat["piles"], seat["stock"] = [[pick]], seat["stock"] + cards
    if not any(fits(seat["piles"][0][0]) for seat in seats):
        return None
    return deal


def make(first: int, last: int, out: Path, deck: str, players: int = 2) -> None:
    """Render stress starts (two players) or Zenuwen slap races (three or four) into ``out/seed-N``."""
    out.mkdir(parents=True, exist_ok=True)
    for seed in range(first, last + 1):
        folder = out / f"seed-{seed}"
        deal = stress_start_deal(seed) if players == 2 else race_start_deal(seed, players)
        if deal is None or (folder / "render.json").exists():
            continue
        path = out / f"deal-{seed}.json"
        path.write_text(json.dumps(deal))
        game = ["stress"] if players == 2 else [
            "zenuwen", "--players", str(players), "--rules", f"players={players},decks=2,pile_choice=slap_race",
            "--rounds", "2", "--illegal", "0"]
        subprocess.run(["cardref", "render", *game, "--seed", str(seed), "--deal", str(path), "--seconds", "20",
                        "--deck", deck, "--out", str(folder)], check=True, stdout=subprocess.DEVNULL)
        print(f"seed {seed}: rendered", flush=True)


def arming_times(folder: Path, slaps: list[dict]) -> list[float]:
    log = folder / "game.jsonl"
    if log.exists() and json.loads((folder / "render.json").read_text())["game"] == "stress":
        calls = [json.loads(line) for line in log.read_text().splitlines()]
        return [c["t"] for c in calls if c.get("kind") == "call" and c.get("data", {}).get("type") == "stress"]
    return sorted({round(s["t_start"] - 0.5, 2) for s in slaps})


def score(folder: Path) -> tuple[int, int, int, int, list[str]]:
    """(slaps right, slaps, first slaps right, first slaps, what went wrong) for one render folder."""
    from calibration.store import load_calibration
    from vision.reach import ReachWatch

    cal = load_calibration(folder / "calibration.json")
    assert cal.layout is not None
    info = json.loads((folder / "render.json").read_text())
    fps, seats = info["fps"], set(range(1, info.get("players", 2) + 1))
    slaps = [m for m in map(json.loads, (folder / "moves.jsonl").read_text().splitlines()) if m.get("op") == "slap"]
    slaps.sort(key=lambda m: m["t"])
    video = cv2.VideoCapture(str(folder / "video.mp4"))
    frames, index = {}, 0
    starts = [round(t * fps) for t in arming_times(folder, slaps)]
    while True:
        ok, image = video.read()
        if not ok:
            break
        if any(0 <= index - s < WINDOW_S * fps for s in starts):
            frames[index] = image
        index += 1
    right = total = first_right = firsts = 0
    wrong = []
    for start in starts:
        watch = ReachWatch(cal.homography(), cal.layout.build())
        watch.arm(start / fps, seats)
        got = [r for k in sorted(frames) if 0 <= k - start < WINDOW_S * fps for r in watch.update(frames[k], k / fps)]
        true = [s for s in slaps if start / fps - 1 <= s["t"] <= start / fps + WINDOW_S]
        firsts += bool(true)
        for n, (r, s) in enumerate(zip(got, true)):
            total += 1
            ok = (r.seat, r.zone) == (s["player"] + 1, f"centre{s['pile'] + 1}")
            right += ok
            first_right += ok and n == 0
            if not ok:
                wrong.append(f"{folder.name} at {start / fps:.1f} s: seat {r.seat} {r.zone}, truth seat {s['player'] + 1} "
                             f"centre{s['pile'] + 1}")
        if len(got) < len(true):
            total += len(true) - len(got)
            wrong.append(f"{folder.name} at {start / fps:.1f} s: {len(true) - len(got)} slap(s) not seen")
    return right, total, first_right, firsts, wrong


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--make", type=int, nargs=2, metavar=("FIRST", "LAST"), help="render stress starts (--players 3|4: Zenuwen slap races) of these seeds")
    parser.add_argument("--out", type=Path, help="with --make: where to put the seed-N folders")
    parser.add_argument("--deck", default="penguins", help="with --make: a deck the detector never trained on")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4),
                        help="with --make: 2 renders Stress, 3 or 4 Zenuwen slap races")
    args = parser.parse_args(argv)
    if args.make:
        if args.out is None:
            parser.error("--make needs --out")
        make(*args.make, args.out, args.deck, args.players)
        return 0
    right = total = first_right = firsts = 0
    for folder in args.folders:
        r, t, fr, f, wrong = score(folder)
        right, total, first_right, firsts = right + r, total + t, first_right + fr, firsts + f
        for line in wrong:
            print(line)
    print(f"slaps right {right}/{total}, first slaps right {first_right}/{firsts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
