"""Read a game log leniently: every damaged line goes into ``GameLog.errors``, nothing aborts.

A log cut short by a crash ends in an unterminated line; the reader drops it (``torn``) and reports
where the last complete line ends (``good_bytes``), which is where :meth:`GameWriter.resume` cuts
the file before appending. A corrupt line in the middle costs that line only.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path

from .record import (
    REPLACEABLE_KINDS,
    CorrectionAction,
    GameLog,
    Header,
    LogError,
    LogFormatError,
    Record,
    RecordKind,
)

LOG_NAME = "log.jsonl"
FRAMES_DIR = "frames"
_SNIPPET = 200
_AFTER_END = frozenset({RecordKind.CORRECTION, RecordKind.NOTE})


def log_path(path: str | os.PathLike[str]) -> Path:
    """``path`` itself if it is a file, else ``path/log.jsonl`` (a game folder)."""
    p = Path(path)
    return p / LOG_NAME if p.is_dir() else p


def read_game(path: str | os.PathLike[str]) -> GameLog:
    """Read the log of a game folder (or a ``log.jsonl`` file itself).

    Raises :class:`OSError` only if the file cannot be read at all; everything wrong inside it goes
    into the returned log's ``errors``.
    """
    p = log_path(path)
    return parse_log(p.read_bytes(), path=p)


def parse_log(data: bytes, path: Path | None = None) -> GameLog:
    """Read a whole log from its bytes."""
    errors: list[LogError] = []
    torn = False
    good_bytes = len(data)
    lines = data.split(b"\n")
    tail = lines.pop()  # b"" when the data ends in a newline
    if tail:
        torn = True
        good_bytes -= len(tail)

    header: Header | None = None
    records: list[Record] = []
    by_seq: dict[int, Record] = {}
    ended: int | None = None

    for number, raw in enumerate(lines, start=1):
        if not raw.strip():
            if number == 1:
                errors.append(LogError(1, "the header line is empty"))
            continue
        try:
            obj = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            errors.append(LogError(number, f"not valid JSON: {_why(exc)}", _snippet(raw)))
            continue
        if number == 1:
            try:
                header = Header.from_json(obj)
            except LogFormatError as exc:
                errors.append(LogError(number, f"bad header: {exc}", _snippet(raw)))
            continue
        try:
            record = Record.from_json(obj)
            _check_order(record, ended, by_seq)
        except LogFormatError as exc:
            errors.append(LogError(number, str(exc), _snippet(raw)))
            continue
        records.append(record)
        by_seq[record.seq] = record
        if record.kind is RecordKind.END and ended is None:
            ended = record.seq

    if torn:
        errors.append(LogError(len(lines) + 1, f"torn last line ({len(tail)} bytes, no newline): dropped", _snippet(tail)))
    if not data:
        errors.append(LogError(1, "the log is empty: no header"))

    return GameLog(
        header=header,
        records=_mark_corrected(records),
        errors=tuple(errors),
        torn=torn,
        good_bytes=good_bytes,
        path=path,
    )


def _check_order(record: Record, ended: int | None, by_seq: dict[int, Record]) -> None:
    # Only a repeated seq is an error, not a lower one: a single damaged digit in one line must not
    # cost every line after it.
    if record.seq in by_seq:
        raise LogFormatError(f"record {record.seq} appears twice: the first one is kept")
    if ended is not None and record.kind not in _AFTER_END:
        raise LogFormatError(f"record {record.seq} ({record.kind.value}) follows the end of the game (record {ended})")
    if record.target is not None:
        check_target(record, by_seq.get(record.target))


def check_target(correction: Record, target: Record | None) -> None:
    """Raise :class:`LogFormatError` unless ``target`` is a record that ``correction`` may fix."""
    if target is None:
        raise LogFormatError(f"correction {correction.seq} targets record {correction.target}, which is not in the log")
    if target.kind in REPLACEABLE_KINDS:
        return
    if target.kind is RecordKind.CORRECTION and target.correction.action is CorrectionAction.INSERT:
        return
    raise LogFormatError(
        f"correction {correction.seq} targets record {target.seq}, a {target.kind.value}: only moves, illegal "
        "moves, calls, unrecognised changes, notes and inserted records can be corrected"
    )


def _mark_corrected(records: list[Record]) -> tuple[Record, ...]:
    fixes: dict[int, list[int]] = {}
    for r in records:
        if r.target is not None and r.correction.action is not CorrectionAction.INSERT:
            fixes.setdefault(r.target, []).append(r.seq)
    if not fixes:
        return tuple(records)
    return tuple(dataclasses.replace(r, corrected_by=tuple(fixes[r.seq])) if r.seq in fixes else r for r in records)


def _why(exc: Exception) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at column {exc.colno}"
    return str(exc)


def _snippet(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    return text if len(text) <= _SNIPPET else text[:_SNIPPET] + "..."
