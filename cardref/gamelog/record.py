"""The game-log record model: a header, one frozen :class:`Record` per line, and the :class:`GameLog`.

This module only describes the data and how one JSON line maps onto it; reading files is
:mod:`cardref.gamelog.reader`, writing them :mod:`cardref.gamelog.writer`, exporting them
:mod:`cardref.gamelog.export` (python-chess's PGN module keeps the same three parts apart).

The format is documented in ``docs/gamelog-format.md``. In short, ``log.jsonl`` is a header line
followed by one record per line::

    {"format":"cardref-gamelog","version":1,"id":"...","game":"klondike",...}
    {"seq":1,"t":3.25,"kind":"move","frame":"000001.jpg","data":{"move":"...","score_delta":5}}
    {"seq":2,"t":9.5,"kind":"correction","target":1,"data":{"action":"replace",...}}

Corrections never change the record they fix: both stay in the log, and :meth:`GameLog.effective`
presents the game as corrected, each entry carrying the original next to what replaced it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Iterator, Mapping, Union

JSONValue = Union[str, int, float, bool, None, list["JSONValue"], dict[str, "JSONValue"]]
JSONObject = dict[str, JSONValue]

FORMAT_NAME = "cardref-gamelog"
FORMAT_VERSION = 1
"""The version written in every header. A reader accepts logs of this version or older."""


class LogFormatError(ValueError):
    """A line, header or record that does not follow the game-log format."""


class RecordKind(str, Enum):
    """What a record is. Each member's value is the ``kind`` written in the log."""

    MOVE = "move"
    """A legal move the referee accepted (a ``Legal`` verdict): the move, score change and events."""

    ILLEGAL = "illegal"
    """A move that breaks a rule (an ``Illegal`` verdict): the move, the RULES.md id and the reason.
    The game state stays as before it."""

    CALL = "call"
    """An event the referee announces itself ("stress", "stuck", "round over", "won" ...)."""

    UNRECOGNISED = "unrecognised"
    """A change the camera saw but could not explain; never counted as a move."""

    CORRECTION = "correction"
    """A person's fix of an earlier record (``target``): replace it, retract it, or insert a move
    the referee missed just after it. The original stays in the log."""

    NOTE = "note"
    """Free text from a person or the referee that changes nothing."""

    RESUMED = "resumed"
    """Written when a crashed or stopped game is opened again for appending."""

    END = "end"
    """The game is over: its result. Nothing may follow it."""

    def __str__(self) -> str:
        return self.value


REPLACEABLE_KINDS = frozenset(
    {RecordKind.MOVE, RecordKind.ILLEGAL, RecordKind.CALL, RecordKind.UNRECOGNISED, RecordKind.NOTE}
)
"""Kinds a correction may target, and kinds a correction may put in their place."""


class CorrectionAction(str, Enum):
    """How a correction changes the record it targets."""

    REPLACE = "replace"
    """The target is wrong (a misread card, a wrong verdict): the correction's record is what happened."""

    RETRACT = "retract"
    """The target did not happen at all."""

    INSERT = "insert"
    """The referee missed something: the correction's record happened just after the target."""

    def __str__(self) -> str:
        return self.value


def check_time(t: object, what: str = "t") -> float:
    """Return ``t`` as a float if it is a finite number of seconds >= 0, else raise :class:`LogFormatError`."""
    if isinstance(t, bool) or not isinstance(t, (int, float)) or not math.isfinite(t) or t < 0:
        raise LogFormatError(f"{what} must be a finite number of seconds >= 0, got {t!r}")
    return float(t)


def _check_object(value: object, what: str) -> JSONObject:
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise LogFormatError(f"{what} must be a JSON object, got {value!r}")
    return value


def _check_seq(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise LogFormatError(f"{what} must be an integer >= 1, got {value!r}")
    return value


def _opt_str(obj: Mapping[str, object], key: str) -> str:
    value = obj.get(key, "")
    if not isinstance(value, str):
        raise LogFormatError(f"{key!r} must be a string, got {value!r}")
    return value


@dataclass(frozen=True, slots=True)
class Header:
    """The first line of a log: which game, under which rules, with whom, dealt how, started when.

    ``started`` is the wall-clock start as an ISO 8601 UTC string; every record's ``t`` counts
    seconds from it. ``deal`` is whatever reproduces the deal (e.g. ``{"seed": 42}`` or the card
    order); ``extra`` keeps header keys this version does not know, so they survive a rewrite.
    """

    id: str
    game: str
    rules: str
    players: tuple[str, ...]
    started: str
    deal: JSONValue = None
    cardref: str = ""
    version: int = FORMAT_VERSION
    extra: tuple[tuple[str, JSONValue], ...] = ()

    KEYS = ("format", "version", "id", "game", "rules", "players", "deal", "started", "cardref")

    def to_json(self) -> JSONObject:
        out: JSONObject = {
            "format": FORMAT_NAME,
            "version": self.version,
            "id": self.id,
            "game": self.game,
            "rules": self.rules,
            "players": list(self.players),
            "deal": self.deal,
            "started": self.started,
            "cardref": self.cardref,
        }
        for key, value in self.extra:
            out.setdefault(key, value)
        return out

    @classmethod
    def from_json(cls, obj: object) -> "Header":
        head = _check_object(obj, "header")
        if head.get("format") != FORMAT_NAME:
            raise LogFormatError(f"not a cardref game log header: format is {head.get('format')!r}")
        version = head.get("version")
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise LogFormatError(f"header version must be an integer >= 1, got {version!r}")
        if version > FORMAT_VERSION:
            raise LogFormatError(f"log format version {version} is newer than this reader ({FORMAT_VERSION})")
        players = head.get("players", [])
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise LogFormatError(f"header players must be a list of names, got {players!r}")
        for key in ("id", "game", "started"):
            if not isinstance(head.get(key), str) or not head.get(key):
                raise LogFormatError(f"header {key!r} must be a non-empty string, got {head.get(key)!r}")
        extra = tuple((k, v) for k, v in head.items() if k not in cls.KEYS)
        return cls(
            id=str(head["id"]),
            game=str(head["game"]),
            rules=_opt_str(head, "rules"),
            players=tuple(str(p) for p in players),
            started=str(head["started"]),
            deal=head.get("deal"),
            cardref=_opt_str(head, "cardref"),
            version=version,
            extra=extra,
        )


@dataclass(frozen=True, slots=True)
class Correction:
    """The payload of a ``correction`` record.

    ``kind`` and ``data`` are the record that really happened (for ``replace`` and ``insert``);
    ``t`` is when it happened, if that differs from the target's time (an inserted missed move);
    ``by`` is who corrected it and ``reason`` why, in plain words.
    """

    action: CorrectionAction
    kind: RecordKind | None = None
    data: JSONObject | None = None
    t: float | None = None
    by: str = ""
    reason: str = ""

    def __post_init__(self) -> None:
        if self.action is CorrectionAction.RETRACT:
            if self.kind is not None or self.data is not None:
                raise LogFormatError("a retraction carries no replacement kind or data")
        else:
            if self.kind not in REPLACEABLE_KINDS:
                allowed = ", ".join(sorted(k.value for k in REPLACEABLE_KINDS))
                raise LogFormatError(f"a {self.action.value} correction needs a kind among {allowed}, got {self.kind!r}")
            if self.data is None:
                raise LogFormatError(f"a {self.action.value} correction needs the data of the record that happened")
        if self.t is not None:
            check_time(self.t, "correction t")

    def to_json(self) -> JSONObject:
        out: JSONObject = {"action": self.action.value}
        if self.kind is not None:
            out["kind"] = self.kind.value
        if self.data is not None:
            out["data"] = self.data
        if self.t is not None:
            out["t"] = self.t
        if self.by:
            out["by"] = self.by
        if self.reason:
            out["reason"] = self.reason
        return out

    @classmethod
    def from_json(cls, obj: object) -> "Correction":
        body = _check_object(obj, "correction data")
        try:
            action = CorrectionAction(body.get("action"))
        except ValueError:
            allowed = ", ".join(a.value for a in CorrectionAction)
            raise LogFormatError(f"correction action must be one of {allowed}, got {body.get('action')!r}") from None
        kind: RecordKind | None = None
        if "kind" in body:
            try:
                kind = RecordKind(body["kind"])
            except ValueError:
                raise LogFormatError(f"unknown correction kind {body['kind']!r}") from None
        data = _check_object(body["data"], "correction data.data") if "data" in body else None
        t = check_time(body["t"], "correction t") if body.get("t") is not None else None
        return cls(action, kind, data, t, _opt_str(body, "by"), _opt_str(body, "reason"))


@dataclass(frozen=True, slots=True)
class Record:
    """One line of the log after the header.

    ``seq`` numbers records from 1 in the order written; ``t`` is game time in seconds since the
    start (passed in by the caller, never read from a clock here); ``data`` is the JSON payload of
    the verdict or event; ``frame`` the key frame's file name under ``frames/``; ``target`` the
    ``seq`` a correction fixes (or, for an insert, follows). ``corrected_by`` is not written: the
    reader fills it with the ``seq`` of every replace or retract correction of this record.
    """

    seq: int
    t: float
    kind: RecordKind
    data: JSONObject = field(default_factory=dict)
    frame: str | None = None
    target: int | None = None
    corrected_by: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        _check_seq(self.seq, "seq")
        check_time(self.t)
        if (self.kind is RecordKind.CORRECTION) != (self.target is not None):
            raise LogFormatError(f"record {self.seq}: a target is required on corrections and only there")
        if self.target is not None and self.target >= self.seq:
            raise LogFormatError(f"record {self.seq}: a correction must target an earlier record, not {self.target}")
        if self.frame is not None and not is_frame_name(self.frame):
            raise LogFormatError(f"record {self.seq}: bad key-frame name {self.frame!r}")

    @property
    def corrected(self) -> bool:
        """True if a later correction replaces or retracts this record."""
        return bool(self.corrected_by)

    @property
    def correction(self) -> Correction:
        """The payload of a ``correction`` record, parsed; :class:`LogFormatError` on other kinds."""
        if self.kind is not RecordKind.CORRECTION:
            raise LogFormatError(f"record {self.seq} is a {self.kind.value}, not a correction")
        return Correction.from_json(self.data)

    def to_json(self) -> JSONObject:
        """The record as written in the log (``corrected_by`` is derived and left out)."""
        out: JSONObject = {"seq": self.seq, "t": self.t, "kind": self.kind.value}
        if self.target is not None:
            out["target"] = self.target
        if self.frame is not None:
            out["frame"] = self.frame
        out["data"] = self.data
        return out

    @classmethod
    def from_json(cls, obj: object) -> "Record":
        rec = _check_object(obj, "record")
        try:
            kind = RecordKind(rec.get("kind"))
        except ValueError:
            raise LogFormatError(f"unknown record kind {rec.get('kind')!r}") from None
        target = rec.get("target")
        frame = rec.get("frame")
        if frame is not None and not isinstance(frame, str):
            raise LogFormatError(f"frame must be a file name, got {frame!r}")
        record = cls(
            seq=_check_seq(rec.get("seq"), "seq"),
            t=check_time(rec.get("t")),
            kind=kind,
            data=_check_object(rec.get("data", {}), "data"),
            frame=frame,
            target=None if target is None else _check_seq(target, "target"),
        )
        if kind is RecordKind.CORRECTION:
            record.correction  # noqa: B018 - validates the payload
        return record


def frame_name(seq: int) -> str:
    """The key-frame file name for record ``seq``: ``000042.jpg``."""
    return f"{seq:06d}.jpg"


def is_frame_name(name: str) -> bool:
    """A plain file name (no directory part) ending in ``.jpg``: safe to join onto ``frames/``."""
    return (
        name.endswith(".jpg")
        and len(name) > 4
        and "/" not in name
        and "\\" not in name
        and not name.startswith(".")
        and name.isprintable()
    )


@dataclass(frozen=True, slots=True)
class LogError:
    """A line the reader could not use: its 1-based line number, why, and (the start of) its text."""

    line: int
    message: str
    text: str = ""

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"

    def to_json(self) -> JSONObject:
        return {"line": self.line, "message": self.message, "text": self.text}


@dataclass(frozen=True, slots=True)
class Entry:
    """One step of the game as corrected (see :meth:`GameLog.effective`).

    ``record`` is what happened. If a person corrected the referee, ``original`` is what the referee
    logged (``None`` for a missed move that a correction inserted) and ``correction`` is the
    correction record; otherwise both are ``None``.
    """

    record: Record
    original: Record | None = None
    correction: Record | None = None

    @property
    def corrected(self) -> bool:
        return self.correction is not None

    def to_json(self) -> JSONObject:
        """For the web app: ``record`` (what happened), ``original`` and ``correction`` (or null)."""
        return {
            "record": self.record.to_json(),
            "original": None if self.original is None else self.original.to_json(),
            "correction": None if self.correction is None else self.correction.to_json(),
        }


@dataclass(frozen=True, slots=True)
class Counts:
    """What the index keeps per game. Moves, illegal moves, calls and unrecognised changes are
    counted in the game as corrected (an ``unrecognised`` record whose ``why`` is ``ambiguous``, a
    view the referee only waited on, is not counted); corrections and unreadable lines as they are
    in the log."""

    moves: int = 0
    illegal: int = 0
    calls: int = 0
    unrecognised: int = 0
    corrections: int = 0
    errors: int = 0


@dataclass(frozen=True, slots=True)
class GameLog:
    """A game as read from its log: the header, the records in file order and the lines that failed.

    ``header`` is ``None`` if the first line is unreadable. ``torn`` is true when the file ends in
    an unterminated line (a write cut short by a crash); ``good_bytes`` is the length of the file up
    to the end of its last complete line, where appending may safely continue.
    """

    header: Header | None
    records: tuple[Record, ...] = ()
    errors: tuple[LogError, ...] = ()
    torn: bool = False
    good_bytes: int = 0
    path: Path | None = None

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    @property
    def id(self) -> str | None:
        return self.header.id if self.header else None

    @property
    def last_seq(self) -> int:
        """The highest sequence number read, 0 if none."""
        return max((r.seq for r in self.records), default=0)

    @property
    def last_t(self) -> float:
        """The game time of the last record, 0.0 if none."""
        return self.records[-1].t if self.records else 0.0

    @property
    def end(self) -> Record | None:
        """The ``end`` record, if the game finished."""
        return next((r for r in reversed(self.records) if r.kind is RecordKind.END), None)

    @property
    def finished(self) -> bool:
        return self.end is not None

    @property
    def result(self) -> str | None:
        end = self.end
        if end is None:
            return None
        value = end.data.get("result")
        return value if isinstance(value, str) else None

    def record(self, seq: int) -> Record:
        """The record numbered ``seq``; :class:`KeyError` if there is none."""
        for r in self.records:
            if r.seq == seq:
                return r
        raise KeyError(f"no record {seq} in game {self.id!r}")

    def corrections_of(self, seq: int) -> tuple[Record, ...]:
        """Every correction record that targets ``seq``, in order."""
        return tuple(r for r in self.records if r.target == seq)

    def effective(self) -> tuple[Entry, ...]:
        """The game as corrected, in order; corrections themselves are not entries.

        For every target the last ``replace`` or ``retract`` wins (a later replace can undo a
        retraction); ``insert`` corrections add their record just after the target, in the order
        they were written. An inserted record can itself be replaced or retracted by targeting the
        correction that inserted it.
        """
        latest: dict[int, Record] = {}
        inserts: dict[int, list[Record]] = {}
        for r in self.records:
            if r.kind is not RecordKind.CORRECTION or r.target is None:
                continue
            if r.correction.action is CorrectionAction.INSERT:
                inserts.setdefault(r.target, []).append(r)
            else:
                latest[r.target] = r

        out: list[Entry] = []

        def emit(entry: Entry) -> None:
            """Add ``entry`` as a later replace/retract of its seq leaves it, then what was inserted after it."""
            seq = entry.record.seq
            fix = latest.get(seq)
            if fix is None:
                out.append(entry)
            else:
                c = fix.correction
                if c.action is not CorrectionAction.RETRACT:
                    assert c.kind is not None and c.data is not None
                    base = entry.record
                    t = c.t if c.t is not None else base.t
                    out.append(Entry(Record(seq, t, c.kind, c.data, base.frame or fix.frame), base, fix))
            anchor_t = entry.record.t
            for ins in inserts.get(seq, []):
                c = ins.correction
                assert c.kind is not None and c.data is not None
                t = c.t if c.t is not None else anchor_t
                emit(Entry(Record(ins.seq, t, c.kind, c.data, ins.frame), None, ins))

        for r in self.records:
            if r.kind is not RecordKind.CORRECTION:
                emit(Entry(r))
        return tuple(out)

    def counts(self) -> Counts:
        tally = {k: 0 for k in RecordKind}
        for entry in self.effective():
            r = entry.record
            if r.kind is RecordKind.UNRECOGNISED and isinstance(r.data, dict) and r.data.get("why") == "ambiguous":
                continue  # a view the referee waited on (several moves fit, a card not readable yet): not a change it failed on
            tally[r.kind] += 1
        return Counts(
            moves=tally[RecordKind.MOVE],
            illegal=tally[RecordKind.ILLEGAL],
            calls=tally[RecordKind.CALL],
            unrecognised=tally[RecordKind.UNRECOGNISED],
            corrections=sum(1 for r in self.records if r.kind is RecordKind.CORRECTION),
            errors=len(self.errors),
        )
