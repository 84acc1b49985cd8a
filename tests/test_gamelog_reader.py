"""The lenient reader: damaged lines go into ``errors``; nothing aborts."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from cardref.gamelog.reader import parse_log, read_game
from cardref.gamelog.record import RecordKind

HEADER = {
    "format": "cardref-gamelog",
    "version": 1,
    "id": "g1",
    "game": "klondike",
    "rules": "draw=3",
    "players": ["anna"],
    "deal": {"seed": 1},
    "started": "2026-11-29T13:00:00.000000Z",
    "cardref": "0.1.0",
}


def line(obj: object) -> bytes:
    return json.dumps(obj).encode() + b"\n"


def move(seq: int, text: str = "draw") -> bytes:
    return line({"seq": seq, "t": seq * 1.5, "kind": "move", "data": {"text": text}})


def test_a_clean_log_reads_whole() -> None:
    log = parse_log(line(HEADER) + move(1) + move(2) + line({"seq": 3, "t": 9, "kind": "end", "data": {"result": "won"}}))
    assert log.header is not None and log.header.players == ("anna",)
    assert [r.seq for r in log] == [1, 2, 3] and log.errors == () and not log.torn
    assert log.finished and log.result == "won"


def test_torn_last_line_is_dropped_and_reported() -> None:
    good = line(HEADER) + move(1) + move(2)
    log = parse_log(good + b'{"seq":3,"t":4.5,"ki')
    assert [r.seq for r in log] == [1, 2]
    assert log.torn and log.good_bytes == len(good)
    (err,) = log.errors
    assert err.line == 4 and "torn last line" in err.message and err.text.startswith('{"seq":3')


def test_an_unterminated_but_complete_line_still_counts_as_torn() -> None:
    good = line(HEADER) + move(1)
    log = parse_log(good + move(2).rstrip(b"\n"))
    assert [r.seq for r in log] == [1] and log.torn and log.good_bytes == len(good)


def test_corrupt_middle_lines_go_to_errors_and_the_rest_is_read() -> None:
    data = (
        line(HEADER)
        + move(1)
        + b"\x00\x00garbage\x00\n"  # line 3: not JSON
        + b'{"seq": 3, "t": 1, "kind": "mo\xff\xfe"}\n'  # line 4: not UTF-8
        + line({"seq": 4, "t": -2, "kind": "move"})  # line 5: bad time
        + line({"seq": 5, "t": 2, "kind": "levitate"})  # line 6: unknown kind
        + move(6)
        + move(6, "again")  # line 8: duplicate seq
        + line({"seq": 8, "t": 9, "kind": "correction", "target": 7, "data": {"action": "retract"}})  # line 9: no record 7
        + move(9)
    )
    log = parse_log(data)
    assert [r.seq for r in log] == [1, 6, 9]
    assert [e.line for e in log.errors] == [3, 4, 5, 6, 8, 9]
    messages = [e.message for e in log.errors]
    assert "not valid JSON" in messages[0] and "not valid JSON" in messages[1]
    assert "t must be" in messages[2] and "unknown record kind" in messages[3]
    assert "appears twice" in messages[4] and "not in the log" in messages[5]
    assert not log.torn and log.good_bytes == len(data)


def test_records_after_the_end_are_errors_except_corrections_and_notes() -> None:
    data = (
        line(HEADER)
        + move(1)
        + line({"seq": 2, "t": 3, "kind": "end", "data": {"result": "won"}})
        + move(3)
        + line({"seq": 4, "t": 4, "kind": "note", "data": {"text": "nice"}})
        + line({"seq": 5, "t": 5, "kind": "correction", "target": 1, "data": {"action": "retract"}})
    )
    log = parse_log(data)
    assert [r.seq for r in log] == [1, 2, 4, 5]
    (err,) = log.errors
    assert err.line == 4 and "follows the end of the game" in err.message
    assert log.record(1).corrected_by == (5,) and log.record(1).corrected


def test_corrections_may_target_only_what_can_be_wrong() -> None:
    data = (
        line(HEADER)
        + move(1)
        + line({"seq": 2, "t": 2, "kind": "resumed", "data": {}})
        + line({"seq": 3, "t": 3, "kind": "correction", "target": 2, "data": {"action": "retract"}})
        + line({"seq": 4, "t": 4, "kind": "correction", "target": 1, "data": {"action": "insert", "kind": "call", "data": {"type": "stuck"}}})
        + line({"seq": 5, "t": 5, "kind": "correction", "target": 4, "data": {"action": "retract"}})
        + line({"seq": 6, "t": 6, "kind": "correction", "target": 5, "data": {"action": "retract"}})
    )
    log = parse_log(data)
    assert [r.seq for r in log] == [1, 2, 4, 5]
    assert [e.line for e in log.errors] == [4, 7]
    assert "a resumed" in log.errors[0].message and "a correction" in log.errors[1].message
    # The insert was retracted again: the game as corrected is just the move.
    assert [e.record.seq for e in log.effective()] == [1, 2]
    # An insert does not mark its anchor as corrected; the retraction marks the insert.
    assert log.record(1).corrected_by == () and log.record(4).corrected_by == (5,)


def test_damaged_or_missing_header_keeps_the_records() -> None:
    log = parse_log(b"{not json\n" + move(1))
    assert log.header is None and [r.seq for r in log] == [1]
    assert log.errors[0].line == 1
    log = parse_log(line({**HEADER, "format": "other"}) + move(1))
    assert log.header is None and "bad header" in log.errors[0].message
    log = parse_log(b"")
    assert log.header is None and "empty" in log.errors[0].message and log.good_bytes == 0
    log = parse_log(b"\n" + move(1))
    assert log.header is None and "header line is empty" in log.errors[0].message


def test_blank_lines_are_skipped_and_long_lines_are_clipped_in_errors() -> None:
    log = parse_log(line(HEADER) + b"\n  \n" + move(1) + b"x" * 5000 + b"\n")
    assert [r.seq for r in log] == [1]
    (err,) = log.errors
    assert err.line == 5 and len(err.text) < 300


def test_read_game_takes_a_folder_or_the_file(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_bytes(line(HEADER) + move(1))
    assert read_game(tmp_path).records == read_game(tmp_path / "log.jsonl").records
    assert read_game(tmp_path).path == tmp_path / "log.jsonl"
    assert read_game(tmp_path).records[0].kind is RecordKind.MOVE


def _sample_log() -> tuple[bytes, list[bytes]]:
    lines = [line(HEADER)] + [
        line({"seq": i, "t": i * 0.75, "kind": "move" if i % 3 else "note", "data": {"text": f"m{i}", "n": i * 7}})
        for i in range(1, 13)
    ]
    return b"".join(lines), lines


def test_a_log_cut_at_any_byte_reads_as_its_complete_lines() -> None:
    """What a kill can leave on disk: every prefix of the file."""
    data, lines = _sample_log()
    full = parse_log(data).records
    ends = [sum(len(x) for x in lines[: i + 1]) for i in range(len(lines))]
    for cut in range(len(data) + 1):
        log = parse_log(data[:cut])
        complete = sum(1 for e in ends if e <= cut)
        assert log.records == full[: max(complete - 1, 0)], cut
        assert log.good_bytes == (ends[complete - 1] if complete else 0)
        assert log.torn == (cut not in ends and cut > 0)
        assert (log.header is not None) == (complete >= 1)
        assert len(log.errors) <= 1


@settings(max_examples=300, deadline=None)
@given(offset=st.integers(min_value=0), value=st.integers(min_value=0, max_value=255))
def test_one_damaged_byte_costs_at_most_its_own_line(offset: int, value: int) -> None:
    data, lines = _sample_log()
    start = len(lines[0])
    offset = start + offset % (len(data) - start)
    damaged = data[:offset] + bytes([value]) + data[offset + 1 :]
    log = parse_log(damaged)  # never raises
    assert log.header is not None
    # Which line the byte is in; a changed newline also damages the line after it.
    bounds = [sum(len(x) for x in lines[:i]) for i in range(len(lines) + 1)]
    hit = next(i for i in range(len(lines)) if bounds[i] <= offset < bounds[i + 1])
    hurt = {hit, hit + 1} if data[offset : offset + 1] == b"\n" and value != ord("\n") else {hit}
    original = parse_log(data).records
    kept = {r.seq: r for r in log.records}
    # A damaged line that still parses may claim another record's seq; only then is that one lost.
    claimed = {r.seq for r in log.records if r not in original}
    for number, record in enumerate(original, start=1):
        if number not in hurt and record.seq not in claimed:
            assert kept.get(record.seq) == record, (offset, value)
    assert len(log.records) >= len(original) - 2
