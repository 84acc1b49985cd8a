"""Write a game log as the game happens, so that a kill at any moment loses at most the record in flight.

Every record is one ``os.write`` of a whole line to a file opened with ``O_APPEND``, followed by
``os.fsync`` (which benchmarks may turn off). A key frame is written first, to a temporary file that
``os.replace`` moves into ``frames/``, so a record never names a frame that is not there. One writer
per game: the log file is locked (``flock``) while a writer holds it.

Typical use, by the live referee (times are game seconds, passed in)::

    with store.new_game("klondike", rules.spec(), ["anna"], deal=deal.to_json()) as log:
        log.verdict(3.2, verdict, frame=jpeg_bytes)     # Legal -> "move", Illegal -> "illegal"
        log.call(9.0, Event("stuck"))
        log.unrecognised(11.5, "a card I could not read on t3", data={"pile": "t3"})
        log.end(60.0, "won")
"""

from __future__ import annotations

import json
import os
import threading
from datetime import datetime, timezone
from pathlib import Path
from types import TracebackType
from typing import Any, Callable, Mapping

from referee.verdict import Event, Illegal, Legal

from .. import __version__
from .reader import FRAMES_DIR, LOG_NAME, check_target, read_game
from .record import (
    REPLACEABLE_KINDS,
    Correction,
    CorrectionAction,
    GameLog,
    Header,
    JSONObject,
    JSONValue,
    LogFormatError,
    Record,
    RecordKind,
    frame_name,
    is_frame_name,
)

try:  # POSIX only; elsewhere a second writer is simply not prevented.
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

JPEG_MAGIC = b"\xff\xd8"


class GameBusyError(RuntimeError):
    """Another writer (in this or another process) holds the game's log."""


class GameFinishedError(ValueError):
    """The game has ended: only corrections and notes may be added."""


def utc_now_iso() -> str:
    """The current wall-clock time as ``2026-11-29T13:38:23.123456Z`` (for headers only)."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def new_header(
    id: str,
    game: str,
    rules: str,
    players: tuple[str, ...] | list[str],
    deal: JSONValue = None,
    started: str | None = None,
) -> Header:
    """A header for a game starting now (or at ``started``, an ISO 8601 UTC string)."""
    return Header(
        id=id,
        game=game,
        rules=rules,
        players=tuple(players),
        started=started or utc_now_iso(),
        deal=deal,
        cardref=__version__,
    )


def to_json_value(obj: Any) -> JSONValue:
    """A move, state or card as JSON: its ``to_json()`` if it has one, else its text (``str``)."""
    to_json = getattr(obj, "to_json", None)
    if callable(to_json):
        value: JSONValue = to_json()
        return value
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    return str(obj)


def payload(item: Legal[Any] | Illegal | Event, *, state: bool = True) -> tuple[RecordKind, JSONObject]:
    """The record kind and data for a verdict or a call.

    ``Legal`` -> ``move`` with ``move`` (its JSON), ``text`` (its notation), ``score_delta``,
    ``events`` and, if ``state`` and the position has ``to_json()``, ``state`` (the position after
    the move). ``Illegal`` -> ``illegal`` with ``move``, ``text``, ``rule`` and ``reason``.
    ``Event`` -> ``call`` with the event's own JSON.
    """
    if isinstance(item, Event):
        return RecordKind.CALL, dict(item.to_json())
    if isinstance(item, Illegal):
        return RecordKind.ILLEGAL, {
            "move": to_json_value(item.move),
            "text": str(item.move),
            "rule": item.rule,
            "reason": item.reason,
        }
    if isinstance(item, Legal):
        data: JSONObject = {
            "move": to_json_value(item.move),
            "text": str(item.move),
            "score_delta": item.score_delta,
            "events": [dict(e.to_json()) for e in item.events],
        }
        if state and callable(getattr(item.state, "to_json", None)):
            data["state"] = to_json_value(item.state)
        return RecordKind.MOVE, data
    raise TypeError(f"expected a Legal or Illegal verdict or an Event, got {item!r}")


def _encode(record: Record) -> bytes:
    try:
        text = json.dumps(record.to_json(), ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as exc:
        raise LogFormatError(f"record {record.seq} ({record.kind.value}): data is not plain JSON: {exc}") from None
    return (text + "\n").encode("utf-8")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - e.g. Windows cannot open directories
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _lock(fd: int, path: Path) -> None:
    if fcntl is None:  # pragma: no cover
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise GameBusyError(f"game log {str(path)!r} is open in another writer") from None


class GameWriter:
    """Appends records to one game's ``log.jsonl``; make one with :meth:`create` or :meth:`resume`.

    Every method that writes returns the :class:`Record` exactly as a reader will read it back. Safe
    to share between threads (a lock serialises writes).
    """

    log: GameLog | None = None
    """For a resumed writer, the log as it was read before resuming (replay it to rebuild the state)."""

    _amend_only = False

    def __init__(
        self,
        game_dir: Path,
        header: Header,
        fd: int,
        *,
        next_seq: int,
        known: dict[int, Record],
        ended: bool,
        fsync: bool,
        on_change: Callable[["GameWriter"], None] | None,
    ) -> None:
        self.game_dir = game_dir
        self.header = header
        self._fd: int | None = fd
        self._next_seq = next_seq
        self._known = known
        self._ended = ended
        self.fsync = fsync
        self._on_change = on_change
        self._lock = threading.Lock()

    # -- opening ---------------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game_dir: str | os.PathLike[str],
        header: Header,
        *,
        fsync: bool = True,
        on_change: Callable[["GameWriter"], None] | None = None,
    ) -> "GameWriter":
        """Start a new log in ``game_dir`` (created if missing; its ``log.jsonl`` must not exist)."""
        try:
            line = json.dumps(header.to_json(), ensure_ascii=False, allow_nan=False, separators=(",", ":")) + "\n"
        except (TypeError, ValueError) as exc:
            raise LogFormatError(f"game {header.id!r}: the header is not plain JSON (the deal?): {exc}") from None
        folder = Path(game_dir)
        (folder / FRAMES_DIR).mkdir(parents=True, exist_ok=True)
        path = folder / LOG_NAME
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_EXCL, 0o644)
        _lock(fd, path)
        try:
            _write_all(fd, line.encode("utf-8"))
            if fsync:
                os.fsync(fd)
                _fsync_dir(folder)
                _fsync_dir(folder.parent)
        except BaseException:
            os.close(fd)
            raise
        writer = cls(folder, header, fd, next_seq=1, known={}, ended=False, fsync=fsync, on_change=on_change)
        writer._changed()
        return writer

    @classmethod
    def resume(
        cls,
        game_dir: str | os.PathLike[str],
        *,
        t: float | None = None,
        fsync: bool = True,
        finished_ok: bool = False,
        amend: bool = False,
        on_change: Callable[["GameWriter"], None] | None = None,
    ) -> "GameWriter":
        """Open an existing game for appending: after a crash, or to correct a finished game.

        A torn last line is cut off first (it holds at most the record that was in flight). For an
        unfinished game a ``resumed`` record is written at game time ``t`` (default: the time of the
        last readable record) saying what was read and what was dropped; the log as read before that
        is :attr:`log`. A finished game raises :class:`GameFinishedError` unless ``finished_ok``, in
        which case only corrections and notes may follow.

        ``amend`` opens any game, finished or not, for corrections and notes only (the review page):
        no ``resumed`` record is written, since the game is not being played on.
        """
        folder = Path(game_dir)
        path = folder / LOG_NAME
        fd = os.open(path, os.O_WRONLY | os.O_APPEND)
        _lock(fd, path)
        try:
            log = read_game(path)
            if log.header is None:
                raise LogFormatError(f"cannot resume {str(path)!r}: its header is unreadable ({log.errors[0]})")
            if log.finished and not (finished_ok or amend):
                raise GameFinishedError(f"game {log.header.id!r} has ended ({log.result!r}); pass finished_ok to correct it")
            size = os.fstat(fd).st_size
            dropped = size - log.good_bytes
            if dropped:
                os.ftruncate(fd, log.good_bytes)
                if fsync:
                    os.fsync(fd)
            frames = folder / FRAMES_DIR
            frames.mkdir(exist_ok=True)
            for stale in frames.glob(".*.tmp"):
                stale.unlink(missing_ok=True)
        except BaseException:
            os.close(fd)
            raise
        writer = cls(
            folder,
            log.header,
            fd,
            next_seq=log.last_seq + 1,
            known={r.seq: r for r in log.records},
            ended=log.finished,
            fsync=fsync,
            on_change=on_change,
        )
        writer.log = log
        writer._amend_only = amend
        if not log.finished and not amend:
            writer.append(
                RecordKind.RESUMED,
                log.last_t if t is None else t,
                {"after": log.last_seq, "dropped_bytes": dropped, "errors": len(log.errors), "at": utc_now_iso()},
            )
        return writer

    # -- state -----------------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def path(self) -> Path:
        return self.game_dir / LOG_NAME

    @property
    def next_seq(self) -> int:
        return self._next_seq

    @property
    def ended(self) -> bool:
        return self._ended

    @property
    def closed(self) -> bool:
        return self._fd is None

    # -- writing ---------------------------------------------------------------------------------

    def append(
        self,
        kind: RecordKind | str,
        t: float,
        data: Mapping[str, Any] | None = None,
        *,
        frame: bytes | str | None = None,
        target: int | None = None,
    ) -> Record:
        """Write one record and return it as it will be read back.

        ``frame`` is a key frame as JPEG bytes (written to ``frames/NNNNNN.jpg``, NNNNNN being this
        record's ``seq``) or the name of a frame already written for an earlier record.
        """
        kind = RecordKind(kind)
        with self._lock:
            if self._fd is None:
                raise ValueError(f"game log {self.id!r} is closed")
            if self._ended and kind not in (RecordKind.CORRECTION, RecordKind.NOTE):
                raise GameFinishedError(f"game {self.id!r} has ended: cannot add a {kind.value} record")
            if self._amend_only and kind not in (RecordKind.CORRECTION, RecordKind.NOTE):
                raise ValueError(f"game {self.id!r} is open for corrections and notes only, not a {kind.value} record")
            seq = self._next_seq
            name: str | None = None
            if isinstance(frame, str):
                if not is_frame_name(frame) or not (self.game_dir / FRAMES_DIR / frame).is_file():
                    raise ValueError(f"no key frame {frame!r} in game {self.id!r}")
                name = frame
            elif frame is not None:
                if not bytes(frame[:2]) == JPEG_MAGIC:
                    raise ValueError(f"record {seq}: the key frame is not JPEG data (starts {bytes(frame[:4])!r})")
                name = frame_name(seq)
            record = Record(seq, t, kind, dict(data or {}), name, target)
            if target is not None:
                check_target(record, self._known.get(target))
                record.correction  # noqa: B018 - validates the payload
            line = _encode(record)
            if isinstance(frame, (bytes, bytearray, memoryview)) and name is not None:
                self._write_frame(name, bytes(frame))
            _write_all(self._fd, line)
            if self.fsync:
                os.fsync(self._fd)
            self._next_seq = seq + 1
            stored = Record.from_json(json.loads(line))
            if kind is RecordKind.CORRECTION or kind in REPLACEABLE_KINDS:
                self._known[seq] = stored
            if kind is RecordKind.END:
                self._ended = True
        if kind is RecordKind.END:
            self._changed()
        return stored

    def _write_frame(self, name: str, jpeg: bytes) -> None:
        folder = self.game_dir / FRAMES_DIR
        tmp = folder / f".{name}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(jpeg)
            if self.fsync:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, folder / name)
        if self.fsync:
            _fsync_dir(folder)

    def verdict(
        self, t: float, verdict: Legal[Any] | Illegal, *, frame: bytes | str | None = None, state: bool = True
    ) -> Record:
        """Log an engine's verdict: ``Legal`` as a ``move`` record, ``Illegal`` as an ``illegal`` one."""
        kind, data = payload(verdict, state=state)
        return self.append(kind, t, data, frame=frame)

    def move(self, t: float, verdict: Legal[Any], *, frame: bytes | str | None = None, state: bool = True,
             position: JSONObject | None = None) -> Record:
        """Log a legal move. ``position``: the position after it to record instead of the engine's
        (a game followed from the table: the referee's picture, which names no card nobody has seen,
        where the engine's carries stand-ins for the face-down and stock cards)."""
        if position is None:
            return self.verdict(t, verdict, frame=frame, state=state)
        kind, data = payload(verdict, state=False)
        return self.append(kind, t, {**data, "state": position}, frame=frame)

    def illegal(self, t: float, verdict: Illegal, *, frame: bytes | str | None = None) -> Record:
        return self.verdict(t, verdict, frame=frame)

    def call(self, t: float, event: Event, *, frame: bytes | str | None = None) -> Record:
        """Log a call the referee makes itself ("stress", "stuck", "round over", "won" ...)."""
        kind, data = payload(event)
        return self.append(kind, t, data, frame=frame)

    def unrecognised(
        self, t: float, detail: str, *, data: Mapping[str, Any] | None = None, frame: bytes | str | None = None
    ) -> Record:
        """Log a change the camera saw but could not explain (never a move)."""
        return self.append(RecordKind.UNRECOGNISED, t, {"detail": detail, **(data or {})}, frame=frame)

    def note(self, t: float, text: str, *, by: str = "", frame: bytes | str | None = None,
             state: JSONObject | None = None) -> Record:
        """A note; ``state``: the position it speaks of (the deal as the camera saw it, for a game
        followed from the table, whose header has no deal to draw the start from)."""
        body: JSONObject = {"text": text}
        if by:
            body["by"] = by
        if state is not None:
            body["state"] = state
        return self.append(RecordKind.NOTE, t, body, frame=frame)

    def correct(self, t: float, target: int, correction: Correction, *, frame: bytes | str | None = None) -> Record:
        """Log a person's correction of record ``target``; the original stays in the log."""
        return self.append(RecordKind.CORRECTION, t, correction.to_json(), frame=frame, target=target)

    def replace(
        self,
        t: float,
        target: int,
        what: Legal[Any] | Illegal | Event,
        *,
        by: str = "",
        reason: str = "",
        frame: bytes | str | None = None,
    ) -> Record:
        """Record ``target`` was wrong (a misread card, a wrong verdict): ``what`` is what happened."""
        kind, data = payload(what)
        return self.correct(t, target, Correction(CorrectionAction.REPLACE, kind, data, None, by, reason), frame=frame)

    def retract(self, t: float, target: int, *, by: str = "", reason: str = "") -> Record:
        """Record ``target`` did not happen at all."""
        return self.correct(t, target, Correction(CorrectionAction.RETRACT, by=by, reason=reason))

    def insert(
        self,
        t: float,
        after: int,
        what: Legal[Any] | Illegal | Event,
        *,
        at: float | None = None,
        by: str = "",
        reason: str = "",
        frame: bytes | str | None = None,
    ) -> Record:
        """The referee missed ``what``, which happened just after record ``after`` (at game time ``at``)."""
        kind, data = payload(what)
        return self.correct(t, after, Correction(CorrectionAction.INSERT, kind, data, at, by, reason), frame=frame)

    def end(self, t: float, result: str, *, reason: str = "", data: Mapping[str, Any] | None = None) -> Record:
        """The game is over; ``result`` is a short word (``won``, ``no_moves_left``, ``abandoned``, a
        player's name ...). Only corrections and notes may follow."""
        body: dict[str, Any] = {"result": result}
        if reason:
            body["reason"] = reason
        body.update(data or {})
        return self.append(RecordKind.END, t, body)

    # -- closing ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Release the log (idempotent). Does not end the game: an unended game can be resumed."""
        with self._lock:
            fd, self._fd = self._fd, None
        if fd is None:
            return
        os.close(fd)
        self._changed()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change(self)

    def __enter__(self) -> "GameWriter":
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("ended" if self._ended else "open")
        return f"<GameWriter {self.id!r} next_seq={self._next_seq} {state}>"

