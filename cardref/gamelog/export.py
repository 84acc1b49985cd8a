"""Exporters: a game log as normalised JSONL or as CSV (one flat row per record), and back.

Kept apart from the reader, as python-chess keeps its exporters apart from ``read_game``. The JSONL
export is the log in its documented form (docs/gamelog-format.md) without the lines the reader could
not use, keys in a fixed order: reading it back gives the same header and records. The CSV export
has one row per record with the fields a spreadsheet wants as columns, plus the whole payload as
JSON in ``data``, so :func:`read_csv` gives the records back too.
"""

from __future__ import annotations

import csv
import json
from typing import Callable, Iterable, TextIO

from .record import GameLog, JSONObject, JSONValue, LogFormatError, Record, RecordKind

CSV_COLUMNS = (
    "game",
    "seq",
    "t",
    "kind",
    "target",
    "action",
    "frame",
    "corrected_by",
    "player",
    "move",
    "rule",
    "reason",
    "call",
    "cards",
    "detail",
    "result",
    "data",
)
"""The CSV columns, in order. ``corrected_by`` and ``cards`` are space-separated lists; ``move`` is the
move's notation; ``call`` the event type of a call; ``data`` the record's whole payload as JSON."""


def _dumps(obj: JSONValue) -> str:
    return json.dumps(obj, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def write_jsonl(log: GameLog, out: TextIO) -> int:
    """Write the header and every readable record, one JSON object per line. Returns the lines written."""
    lines = 0
    if log.header is not None:
        out.write(_dumps(log.header.to_json()) + "\n")
        lines += 1
    for record in log.records:
        out.write(_dumps(record.to_json()) + "\n")
        lines += 1
    return lines


def jsonl_text(log: GameLog) -> str:
    parts: list[str] = []
    if log.header is not None:
        parts.append(_dumps(log.header.to_json()))
    parts.extend(_dumps(r.to_json()) for r in log.records)
    return "".join(p + "\n" for p in parts)


def _text(value: JSONValue) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return _dumps(value)


def csv_row(record: Record, game_id: str = "") -> dict[str, str]:
    """One record as a flat CSV row (see :data:`CSV_COLUMNS`)."""
    data = record.data
    body: JSONObject = data
    action = ""
    if record.kind is RecordKind.CORRECTION:
        action = _text(data.get("action"))
        inner = data.get("data")
        body = inner if isinstance(inner, dict) else {}
    cards = body.get("cards")
    return {
        "game": game_id,
        "seq": str(record.seq),
        "t": repr(record.t),
        "kind": record.kind.value,
        "target": "" if record.target is None else str(record.target),
        "action": action,
        "frame": record.frame or "",
        "corrected_by": " ".join(str(s) for s in record.corrected_by),
        "player": _text(body.get("player")),
        "move": _text(body.get("text")),
        "rule": _text(body.get("rule")),
        "reason": _text(data.get("reason") if record.kind is RecordKind.CORRECTION else body.get("reason")),
        "call": _text(body.get("type")),
        "cards": " ".join(c for c in cards if isinstance(c, str)) if isinstance(cards, list) else "",
        "detail": _text(body.get("detail") if "detail" in body else body.get("text") if record.kind is RecordKind.NOTE else None),
        "result": _text(body.get("result")),
        "data": _dumps(data),
    }


def write_csv(log: GameLog, out: TextIO) -> int:
    """Write a header row and one row per readable record. Returns the records written."""
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    game_id = log.id or ""
    for record in log.records:
        writer.writerow(csv_row(record, game_id))
    return len(log.records)


def read_csv(rows: Iterable[str]) -> list[Record]:
    """Read records back from :func:`write_csv` output (``corrected_by`` included).

    Raises :class:`LogFormatError` naming the row for a row that does not make a record.
    """
    out: list[Record] = []
    for number, row in enumerate(csv.DictReader(rows), start=2):
        try:
            obj: JSONObject = {
                "seq": int(row["seq"]),
                "t": float(row["t"]),
                "kind": row["kind"],
                "data": json.loads(row["data"]),
            }
            if row.get("target"):
                obj["target"] = int(row["target"])
            if row.get("frame"):
                obj["frame"] = row["frame"]
            record = Record.from_json(obj)
            fixes = tuple(int(s) for s in (row.get("corrected_by") or "").split())
        except (KeyError, TypeError, ValueError) as exc:
            raise LogFormatError(f"CSV row {number}: {exc}") from None
        out.append(Record(record.seq, record.t, record.kind, record.data, record.frame, record.target, fixes))
    return out


EXPORTERS: dict[str, Callable[[GameLog, TextIO], int]] = {"jsonl": write_jsonl, "csv": write_csv}
"""Export formats by name, for the CLI and the web app."""
