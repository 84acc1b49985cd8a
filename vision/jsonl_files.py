"""JSON-lines files as the project keeps them: plain, or gzipped when the name ends in ``.gz`` (the
shipped clips' truths and boxes, ``--detections-out`` files)."""

from __future__ import annotations

import gzip
from pathlib import Path
from typing import IO, Literal


def open_jsonl(path: str | Path, mode: Literal["r", "w"] = "r") -> IO[str]:
    """``path`` opened as text to read or write, through gzip when its name ends in .gz."""
    if Path(path).suffix != ".gz":
        return open(path, mode, encoding="utf-8")
    if mode == "w":
        return gzip.open(path, "wt", encoding="utf-8")
    return gzip.open(path, "rt", encoding="utf-8")
