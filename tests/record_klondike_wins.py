"""Regenerate the recorded won games in tests/data (run by hand: python tests/record_klondike_wins.py).

Each file holds a deal and a solver-found move list; the golden tests replay them through the CLI.
"""

from __future__ import annotations

import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from klondike_solver import solve  # noqa: E402

from referee import klondike  # noqa: E402

GAMES = [  # (file name, seed, rules)
    ("klondike_won_draw1_seed3", 3, "draw=1"),
    ("klondike_won_draw1_seed1", 1, "draw=1"),
    ("klondike_won_draw3_seed6", 6, "draw=3"),
    ("klondike_won_columns8_seed3", 3, "columns=8"),
]


def main() -> None:
    out_dir = pathlib.Path(__file__).parent / "data"
    for name, seed, spec in GAMES:
        rules = klondike.KlondikeRules.from_spec(spec)
        the_deal = klondike.deal(seed, rules.columns)
        moves = solve(klondike.new_game(the_deal, rules), 100_000)
        if moves is None:
            print(f"{name}: no win found", file=sys.stderr)
            continue
        (out_dir / f"{name}.deal.json").write_text(json.dumps(the_deal.to_json()) + "\n")
        lines = [json.dumps({**m.to_json(), "t": float(i * 3)}) for i, m in enumerate(moves)]
        (out_dir / f"{name}.moves.jsonl").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(moves)} moves, rules {spec}")


if __name__ == "__main__":
    main()
