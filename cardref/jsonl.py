"""Small helpers for the JSON-lines commands: read lines leniently, write compact lines."""

from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Iterator, TextIO


def dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(", ", ": "), ensure_ascii=False)


def write_line(out: TextIO, obj: Any) -> None:
    out.write(dumps(obj) + "\n")
    out.flush()


def read_lines(lines: Iterable[str]) -> Iterator[tuple[int, Any, str | None]]:
    """Yield ``(line_number, decoded, error)`` for every non-blank line; ``error`` is set (and
    ``decoded`` None) when the line is not valid JSON."""
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            yield number, json.loads(text), None
        except json.JSONDecodeError as exc:
            yield number, None, f"line {number}: not valid JSON ({exc.msg} at column {exc.colno})"


def judge_lines(lines: Iterable[str], out: TextIO, judge: Callable[[Any], dict[str, Any]]) -> int:
    """One output line per input line: ``judge(obj)`` for each JSON line (a ``ValueError`` it raises,
    like a line that is not JSON, is written as ``{"ok": false, "error": "line N: ..."}`` and the line
    skipped). Returns the exit code: 1 if any line was malformed, else 0."""
    status = 0
    for number, obj, error in read_lines(lines):
        line: dict[str, Any] | None = None
        if error is None:
            try:
                line = judge(obj)
            except ValueError as exc:
                error = f"line {number}: {exc}"
        if line is None:
            write_line(out, {"ok": False, "error": error})
            status = 1
            continue
        write_line(out, line)
    return status


def load_json_file(path: str, what: str) -> Any:
    """Read a JSON file, turning every failure into a ValueError that names the file."""
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path!r}: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{what} {path!r} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
