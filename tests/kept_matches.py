"""The table states of a kept match (bench/matches/, ``python bench/replay_referee.py --add``), for the
live referee tests that replay a recorded game's views."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

MATCHES = Path(__file__).resolve().parent.parent / "bench" / "matches"


def kept_tables(name: str) -> list[dict[str, Any]]:
    """Every line of kept match ``name``'s ``tables.jsonl.gz`` (table states, and in the newer files a
    header, the looks and the quiet frames), as ``cardref.replay_tables.replay_lines`` takes them."""
    text = gzip.decompress((MATCHES / name / "tables.jsonl.gz").read_bytes()).decode()
    return [json.loads(line) for line in text.splitlines()]
