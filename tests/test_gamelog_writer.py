"""The writer: one fsync'd line per record, key frames written atomically, crash and resume."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from cardref.gamelog.reader import read_game
from cardref.gamelog.record import Correction, CorrectionAction, LogFormatError, RecordKind
from cardref.gamelog.writer import GameBusyError, GameFinishedError, GameWriter, new_header, payload
from referee.verdict import Event, Illegal, Legal

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 4 + b"\xff\xd9"


def start(folder: Path, fsync: bool = False) -> GameWriter:
    return GameWriter.create(folder, new_header("g1", "klondike", "draw=3", ["anna", "bob"], {"seed": 3}), fsync=fsync)


def test_written_records_read_back_identically(tmp_path: Path) -> None:
    with start(tmp_path, fsync=True) as w:
        written = [
            w.verdict(1.0, Legal("t1->t2", None, 5, (Event("turned_up", cards=()),)), frame=JPEG),
            w.verdict(2.0, Illegal("t3->t4", "K5", "the 8 of hearts cannot go on the 9 of diamonds")),
            w.call(3.0, Event("stuck", player=1)),
            w.unrecognised(4.0, "a card I could not read", data={"pile": "t3"}),
            w.note(5.0, "jämför", by="bob"),
            w.end(6.0, "won", reason="all cards on the foundations"),
        ]
    log = read_game(tmp_path)
    assert log.records == tuple(written) and log.errors == ()
    assert [r.kind for r in log] == [
        RecordKind.MOVE, RecordKind.ILLEGAL, RecordKind.CALL, RecordKind.UNRECOGNISED, RecordKind.NOTE, RecordKind.END
    ]
    assert written[0].data == {"move": "t1->t2", "text": "t1->t2", "score_delta": 5, "events": [{"type": "turned_up"}]}
    assert written[1].data["rule"] == "K5" and written[2].data == {"type": "stuck", "player": 1}
    assert log.header is not None and log.header.deal == {"seed": 3} and log.header.cardref


def test_each_record_is_one_complete_line_on_disk_as_soon_as_append_returns(tmp_path: Path) -> None:
    w = start(tmp_path)
    for seq in range(1, 6):
        w.append("move", seq, {"text": f"m{seq}"})
        data = (tmp_path / "log.jsonl").read_bytes()
        assert data.endswith(b"\n") and data.count(b"\n") == seq + 1
    w.close()


def test_key_frames_are_named_after_their_record_and_written_atomically(tmp_path: Path) -> None:
    with start(tmp_path) as w:
        w.note(0.0, "first")
        r = w.call(1.0, Event("stress"), frame=JPEG)
        same = w.note(2.0, "the same picture", frame=r.frame)
        with pytest.raises(ValueError, match="not JPEG"):
            w.note(3.0, "png", frame=b"\x89PNG\r\n")
        with pytest.raises(ValueError, match="no key frame"):
            w.note(3.0, "missing", frame="000099.jpg")
        with pytest.raises(ValueError, match="no key frame"):
            w.note(3.0, "escape", frame="../log.jsonl")
    assert r.frame == "000002.jpg" and same.frame == "000002.jpg"
    assert (tmp_path / "frames" / "000002.jpg").read_bytes() == JPEG
    assert sorted(p.name for p in (tmp_path / "frames").iterdir()) == ["000002.jpg"]
    # Refused records left nothing behind: the next record follows on.
    assert [r.seq for r in read_game(tmp_path)] == [1, 2, 3]


def test_data_that_is_not_json_writes_nothing(tmp_path: Path) -> None:
    with start(tmp_path) as w:
        size = w.path.stat().st_size
        with pytest.raises(LogFormatError, match="not plain JSON"):
            w.append("note", 1.0, {"x": object()})
        with pytest.raises(LogFormatError, match="not plain JSON"):
            w.append("note", 1.0, {"x": float("nan")})
        with pytest.raises(LogFormatError, match="finite number"):
            w.append("note", float("inf"), {})
        with pytest.raises(ValueError):
            w.append("teleport", 1.0, {})
        assert w.path.stat().st_size == size and w.next_seq == 1
        assert w.note(1.0, "fine").seq == 1


def test_a_header_that_is_not_json_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(LogFormatError, match="header is not plain JSON"):
        GameWriter.create(tmp_path / "g", new_header("g", "klondike", "", ["a"], {"deal": object()}))  # type: ignore[dict-item]
    assert not (tmp_path / "g").exists()


def test_the_writer_validates_corrections_against_what_it_wrote(tmp_path: Path) -> None:
    with start(tmp_path) as w:
        m = w.verdict(1.0, Illegal("t1->t2", "K5", "no"))
        end_less = w.call(2.0, Event("stuck"))
        with pytest.raises(LogFormatError, match="earlier record"):
            w.retract(3.0, 99)
        fix = w.replace(3.0, m.seq, Legal("t1->t2", None), by="anna", reason="it was legal")
        with pytest.raises(LogFormatError, match="a correction"):
            w.retract(4.0, fix.seq)  # a replace cannot itself be corrected; correct the move again
        ins = w.insert(4.0, end_less.seq, Legal("draw", None), at=2.5, by="anna")
        w.retract(5.0, ins.seq, reason="no, it was not missed")
        w.end(6.0, "abandoned")
        with pytest.raises(GameFinishedError):
            w.call(7.0, Event("stress"))
        late = w.correct(8.0, end_less.seq, Correction(CorrectionAction.RETRACT, by="bob"))
    log = read_game(tmp_path)
    assert log.errors == () and log.record(m.seq).corrected_by == (fix.seq,)
    assert log.record(end_less.seq).corrected_by == (late.seq,)
    assert [(e.record.seq, e.record.kind.value) for e in log.effective()] == [(1, "move"), (6, "end")]


def test_one_writer_per_game(tmp_path: Path) -> None:
    w = start(tmp_path)
    with pytest.raises(GameBusyError):
        GameWriter.resume(tmp_path)
    w.close()
    w.close()  # idempotent
    with pytest.raises(ValueError, match="closed"):
        w.note(1.0, "late")
    GameWriter.resume(tmp_path).close()
    with pytest.raises(FileExistsError):
        start(tmp_path)


def test_resume_cuts_a_torn_line_and_continues_the_numbering(tmp_path: Path) -> None:
    with start(tmp_path) as w:
        for i in range(1, 4):
            w.append("move", float(i), {"text": f"m{i}"})
    fragment = b'{"seq":4,"t":4.0,"kind":"mo'
    with open(tmp_path / "log.jsonl", "ab") as fh:
        fh.write(fragment)
    (tmp_path / "frames" / ".000004.jpg.tmp").write_bytes(b"\xff\xd8half")
    assert read_game(tmp_path).torn

    with GameWriter.resume(tmp_path, fsync=True) as w:
        assert w.log is not None and w.log.torn and w.log.last_seq == 3
        assert w.next_seq == 5  # 4 is the "resumed" record
        w.append("move", 5.0, {"text": "m4"})
    log = read_game(tmp_path)
    assert log.errors == () and [r.seq for r in log] == [1, 2, 3, 4, 5]
    resumed = log.record(4)
    assert resumed.kind is RecordKind.RESUMED and resumed.t == 3.0
    assert resumed.data["after"] == 3 and resumed.data["dropped_bytes"] == len(fragment) and resumed.data["errors"] == 1
    assert not (tmp_path / "frames" / ".000004.jpg.tmp").exists()


def test_resume_keeps_corrupt_middle_lines_and_refuses_finished_games(tmp_path: Path) -> None:
    with start(tmp_path) as w:
        w.note(1.0, "a")
        w.note(2.0, "b")
    path = tmp_path / "log.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines[1] = b"#" * len(lines[1])
    path.write_bytes(b"\n".join(lines))
    with GameWriter.resume(tmp_path, t=10.0) as w:
        assert w.next_seq == 4  # after seq 2 and the resumed record 3
        w.end(11.0, "won")
    log = read_game(tmp_path)
    assert [r.seq for r in log] == [2, 3, 4] and [e.line for e in log.errors] == [2]
    assert log.record(3).t == 10.0
    with pytest.raises(GameFinishedError, match="has ended"):
        GameWriter.resume(tmp_path)
    with GameWriter.resume(tmp_path, finished_ok=True) as w:
        assert w.ended and w.next_seq == 5  # no "resumed" record for a finished game
        w.retract(12.0, 2, by="anna")
    assert read_game(tmp_path).record(2).corrected_by == (5,)


def test_resume_needs_a_header(tmp_path: Path) -> None:
    (tmp_path / "log.jsonl").write_bytes(b'{"format":"cardref-gam')
    with pytest.raises(LogFormatError, match="header is unreadable"):
        GameWriter.resume(tmp_path)


def test_payloads_of_a_real_engine_carry_the_move_and_the_position() -> None:
    klondike = pytest.importorskip("referee.klondike")
    state = klondike.new_game(klondike.deal(11))
    move = next(iter(klondike.legal_moves(state)))
    verdict = klondike.apply(state, move)
    kind, data = payload(verdict)
    assert kind is RecordKind.MOVE
    assert data["move"] == move.to_json() and data["text"] == str(move)
    assert isinstance(data["state"], dict) and "tableau" in data["state"]
    assert "state" not in payload(verdict, state=False)[1]
    with pytest.raises(TypeError):
        payload("draw")  # type: ignore[arg-type]


CHILD = textwrap.dedent(
    """
    import sys
    from cardref.gamelog.writer import GameWriter, new_header
    folder, fsync = sys.argv[1], sys.argv[2] == "1"
    w = GameWriter.create(folder, new_header("killed", "stress", "", ["anna", "bob"]), fsync=fsync)
    jpeg = b"\\xff\\xd8" + b"\\x00" * 20000
    i = 0
    while True:
        i += 1
        r = w.append("move", i / 10, {"text": "m%d" % i, "pad": "x" * (i * 37 % 3000)}, frame=jpeg if i % 5 == 0 else None)
        print(r.seq, flush=True)
    """
)


@pytest.mark.parametrize("fsync, kill_after", [(True, 40), (False, 300)])
def test_sigkill_mid_game_loses_at_most_the_record_in_flight(tmp_path: Path, fsync: bool, kill_after: int) -> None:
    folder = tmp_path / "game"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(folder), "1" if fsync else "0"], stdout=subprocess.PIPE, env=env
    )
    assert child.stdout is not None
    acked = 0
    try:
        for raw in child.stdout:
            acked = int(raw)
            if acked >= kill_after:
                break
        child.send_signal(signal.SIGKILL)
    finally:
        child.kill()
        # Read what is left through the same buffered reader: communicate(timeout=...) would read
        # the pipe's file descriptor directly and miss acks already in this reader's buffer.
        rest = child.stdout.read()
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    acked = max([acked] + [int(x) for x in rest.split()])
    assert acked >= kill_after

    log = read_game(folder)
    seqs = [r.seq for r in log]
    assert log.header is not None and log.header.id == "killed"
    # Everything acknowledged is there, in order, and at most one more record (the one in flight).
    assert seqs == list(range(1, len(seqs) + 1))
    assert acked <= len(seqs) <= acked + 1
    assert all(e.message.startswith("torn last line") for e in log.errors) and len(log.errors) <= 1
    for r in log:
        if r.frame:
            assert (folder / "frames" / r.frame).stat().st_size == 20002

    with GameWriter.resume(folder) as w:
        w.append("end", 999.0, {"result": "abandoned"})
    after = read_game(folder)
    assert after.errors == () and after.finished
    assert [r.seq for r in after] == list(range(1, len(seqs) + 3))


def test_a_crashed_klondike_game_is_rebuilt_from_its_log_and_resumed(tmp_path: Path) -> None:
    """The live referee's recovery recipe: header -> rules and deal, effective moves -> replay."""
    klondike = pytest.importorskip("referee.klondike")
    rules = klondike.KlondikeRules.from_spec("draw=1")
    dealt = klondike.deal(5)
    state = klondike.new_game(dealt, rules)
    header = new_header("k", "klondike", rules.spec(), ["anna"], dealt.to_json())
    w = GameWriter.create(tmp_path, header, fsync=False)
    t = 0.0
    for _ in range(12):
        t += 1.5
        move = next(iter(klondike.legal_moves(state)))
        verdict = klondike.apply(state, move)
        w.verdict(t, verdict)
        state = verdict.state
    w.verdict(t + 1, klondike.apply(state, klondike.Move.move("t1", "t1")))  # illegal: logged, state unchanged
    w.close()
    with open(tmp_path / "log.jsonl", "ab") as fh:
        fh.write(b'{"seq":14,"t":20.0,"kind":"move","data":{"mo')  # the crash

    with GameWriter.resume(tmp_path) as resumed:
        log = resumed.log
        assert log is not None and log.header is not None and log.torn
        again = klondike.new_game(
            klondike.Deal.from_json(log.header.deal), klondike.KlondikeRules.from_spec(log.header.rules)
        )
        moves = [klondike.Move.from_json(e.record.data["move"]) for e in log.effective() if e.record.kind is RecordKind.MOVE]
        again = klondike.replay(again, moves)
        assert again == state
        last_move = [r for r in log if r.kind is RecordKind.MOVE][-1]
        assert last_move.data["state"] == state.to_json()
        assert [r.kind for r in log][-1] is RecordKind.ILLEGAL
        resumed.end(30.0, "abandoned")
    assert read_game(tmp_path).errors == ()
