"""``cardref compare-states STATES.jsonl TRUTH.jsonl``: how well published states match a truth video.

Counts the true steady states published exactly, states that never existed or were not steady, and the
delay from the table coming to rest to the state being published (vision/state_check.py). Exit code 0
when issue #5's targets are met (>= 99 % exact, nothing false, every change within --max-delay), else 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("compare-states", help="score STATES.jsonl against a truth video's truth.jsonl")
    p.add_argument("states", help="STATES.jsonl written by cardref observe")
    p.add_argument("truth", help="truth.jsonl[.gz] of the video (one line per frame, with at_rest)")
    p.add_argument("--max-delay", type=float, default=0.3, help="seconds from rest to publication (0.3)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from vision.state_check import compare, read_states, read_truth

    try:
        report = compare(read_states(args.states), read_truth(args.truth), args.max_delay)
    except (OSError, ValueError, KeyError) as exc:
        print(f"cardref compare-states: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(report.to_json()) if args.json else report.line())
    return 0 if report.meets_targets() else 1
