"""The record model: one JSON line <-> one frozen Record, headers, corrections and the corrected view."""

from __future__ import annotations

import dataclasses
import math

import pytest

from cardref.gamelog.record import (
    FORMAT_VERSION,
    Correction,
    CorrectionAction,
    GameLog,
    Header,
    LogFormatError,
    Record,
    RecordKind,
    frame_name,
    is_frame_name,
)


def header() -> Header:
    return Header(id="g1", game="klondike", rules="draw=3", players=("anna", "bob"), started="2026-11-29T13:00:00.000000Z", deal={"seed": 7}, cardref="0.1.0")


def test_header_round_trips_and_keeps_unknown_keys() -> None:
    h = header()
    obj = h.to_json()
    assert obj["format"] == "cardref-gamelog" and obj["version"] == FORMAT_VERSION
    assert Header.from_json(obj) == h
    obj["table"] = "kitchen"
    again = Header.from_json(obj)
    assert again.extra == (("table", "kitchen"),)
    assert again.to_json()["table"] == "kitchen"


@pytest.mark.parametrize(
    "change, message",
    [
        ({"format": "pgn"}, "not a cardref game log"),
        ({"version": FORMAT_VERSION + 1}, "newer than this reader"),
        ({"version": "1"}, "version must be an integer"),
        ({"players": "anna"}, "players must be a list"),
        ({"id": ""}, "'id' must be a non-empty string"),
    ],
)
def test_bad_headers_are_refused_with_the_reason(change: dict[str, object], message: str) -> None:
    obj = {**header().to_json(), **change}
    with pytest.raises(LogFormatError, match=message):
        Header.from_json(obj)


def test_record_round_trips_through_json() -> None:
    r = Record(3, 12.5, RecordKind.MOVE, {"text": "t1->t2"}, "000003.jpg")
    assert r.to_json() == {"seq": 3, "t": 12.5, "kind": "move", "frame": "000003.jpg", "data": {"text": "t1->t2"}}
    assert Record.from_json(r.to_json()) == r
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.seq = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    "obj, message",
    [
        ({"seq": 0, "t": 1, "kind": "move"}, "seq must be an integer >= 1"),
        ({"seq": True, "t": 1, "kind": "move"}, "seq must be an integer"),
        ({"seq": 1, "t": -1, "kind": "move"}, "t must be a finite number"),
        ({"seq": 1, "t": "1", "kind": "move"}, "t must be a finite number"),
        ({"seq": 1, "t": 1, "kind": "teleport"}, "unknown record kind 'teleport'"),
        ({"seq": 1, "t": 1, "kind": "move", "data": [1]}, "data must be a JSON object"),
        ({"seq": 2, "t": 1, "kind": "move", "target": 1}, "target is required on corrections and only there"),
        ({"seq": 2, "t": 1, "kind": "correction", "data": {"action": "retract"}}, "target is required"),
        ({"seq": 2, "t": 1, "kind": "correction", "target": 2, "data": {"action": "retract"}}, "earlier record"),
        ({"seq": 2, "t": 1, "kind": "correction", "target": 1, "data": {"action": "undo"}}, "action must be one of"),
        ({"seq": 2, "t": 1, "kind": "correction", "target": 1, "data": {"action": "replace", "kind": "end", "data": {}}}, "needs a kind among"),
        ({"seq": 2, "t": 1, "kind": "correction", "target": 1, "data": {"action": "insert", "kind": "move"}}, "needs the data"),
        ({"seq": 1, "t": 1, "kind": "move", "frame": "../../etc/passwd.jpg"}, "bad key-frame name"),
        ({"seq": 1, "t": 1, "kind": "move", "frame": 5}, "frame must be a file name"),
    ],
)
def test_bad_records_are_refused_with_the_reason(obj: dict[str, object], message: str) -> None:
    with pytest.raises(LogFormatError, match=message):
        Record.from_json(obj)


def test_time_must_be_finite() -> None:
    with pytest.raises(LogFormatError):
        Record(1, math.inf, RecordKind.NOTE)
    with pytest.raises(LogFormatError):
        Record(1, math.nan, RecordKind.NOTE)


def test_correction_payload_round_trips() -> None:
    c = Correction(CorrectionAction.INSERT, RecordKind.MOVE, {"text": "draw"}, 4.0, "anna", "missed a draw")
    assert Correction.from_json(c.to_json()) == c
    r = Record(5, 9.0, RecordKind.CORRECTION, c.to_json(), target=2)
    assert r.correction == c
    with pytest.raises(LogFormatError, match="not a correction"):
        Record(1, 0, RecordKind.NOTE).correction
    with pytest.raises(LogFormatError, match="retraction carries no replacement"):
        Correction(CorrectionAction.RETRACT, RecordKind.MOVE, {})


def test_frame_names() -> None:
    assert frame_name(42) == "000042.jpg"
    assert is_frame_name("000042.jpg")
    for bad in ("x.png", ".jpg", "a/b.jpg", "..\\x.jpg", ".hidden.jpg", "a\nb.jpg"):
        assert not is_frame_name(bad), bad


def _fix(seq: int, target: int, c: Correction) -> Record:
    return Record(seq, float(seq), RecordKind.CORRECTION, c.to_json(), target=target)


def test_effective_applies_replace_retract_and_insert_keeping_originals() -> None:
    move = lambda text: {"text": text}  # noqa: E731
    r1 = Record(1, 1.0, RecordKind.MOVE, move("a"), "000001.jpg")
    r2 = Record(2, 2.0, RecordKind.ILLEGAL, {"text": "b", "rule": "K5", "reason": "no"})
    r3 = Record(3, 3.0, RecordKind.UNRECOGNISED, {"detail": "blur"})
    r4 = Record(4, 4.0, RecordKind.MOVE, move("c"))
    c5 = _fix(5, 2, Correction(CorrectionAction.REPLACE, RecordKind.MOVE, move("b"), by="anna"))
    c6 = _fix(6, 3, Correction(CorrectionAction.RETRACT, reason="a hand"))
    c7 = _fix(7, 1, Correction(CorrectionAction.INSERT, RecordKind.MOVE, move("missed"), t=1.5))
    c8 = _fix(8, 7, Correction(CorrectionAction.REPLACE, RecordKind.MOVE, move("missed, really")))
    log = GameLog(header(), (r1, r2, r3, r4, c5, c6, c7, c8))

    entries = log.effective()
    assert [(e.record.seq, e.record.kind.value, e.record.data.get("text")) for e in entries] == [
        (1, "move", "a"),
        (7, "move", "missed, really"),
        (2, "move", "b"),
        (4, "move", "c"),
    ]
    assert entries[0].original is None and entries[0].correction is None and not entries[0].corrected
    assert entries[1].record.t == 1.5 and entries[1].correction == c8
    assert entries[1].original is not None and entries[1].original.data == move("missed")
    assert entries[2].original == r2 and entries[2].correction == c5 and entries[2].record.t == 2.0
    counts = log.counts()
    assert (counts.moves, counts.illegal, counts.unrecognised, counts.corrections) == (4, 0, 0, 4)
    assert log.corrections_of(2) == (c5,)


def test_last_replace_or_retract_wins_and_a_replace_can_undo_a_retraction() -> None:
    r1 = Record(1, 1.0, RecordKind.MOVE, {"text": "a"})
    retract = _fix(2, 1, Correction(CorrectionAction.RETRACT))
    assert GameLog(header(), (r1, retract)).effective() == ()
    restore = _fix(3, 1, Correction(CorrectionAction.REPLACE, RecordKind.MOVE, {"text": "a"}))
    (entry,) = GameLog(header(), (r1, retract, restore)).effective()
    assert entry.record.data == {"text": "a"} and entry.correction == restore and entry.original == r1


def test_end_result_and_lookups() -> None:
    log = GameLog(header(), (Record(1, 1, RecordKind.MOVE), Record(2, 5, RecordKind.END, {"result": "won"})))
    assert log.finished and log.result == "won" and log.last_seq == 2 and log.last_t == 5.0
    assert log.record(1).kind is RecordKind.MOVE
    with pytest.raises(KeyError):
        log.record(9)
    assert not GameLog(header()).finished and GameLog(header()).last_seq == 0


def test_entries_and_errors_as_json_for_the_web_app() -> None:
    r1 = Record(1, 1.0, RecordKind.ILLEGAL, {"rule": "K5"})
    fix = _fix(2, 1, Correction(CorrectionAction.REPLACE, RecordKind.MOVE, {"text": "a"}))
    (entry,) = GameLog(header(), (r1, fix)).effective()
    assert entry.to_json() == {
        "record": {"seq": 1, "t": 1.0, "kind": "move", "data": {"text": "a"}},
        "original": r1.to_json(),
        "correction": fix.to_json(),
    }
    from cardref.gamelog.record import LogError

    assert LogError(3, "bad", "x").to_json() == {"line": 3, "message": "bad", "text": "x"}
