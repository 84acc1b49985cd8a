"""Exporters: normalised JSONL reads back as the same game; CSV rows read back as the same records."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from cardref.gamelog.export import CSV_COLUMNS, EXPORTERS, jsonl_text, read_csv, write_csv, write_jsonl
from cardref.gamelog.reader import parse_log, read_game
from cardref.gamelog.record import GameLog
from cardref.gamelog.writer import GameWriter, new_header
from referee.cards import cards
from referee.verdict import Event, Illegal, Legal

JPEG = b"\xff\xd8\xff\xd9"


def recorded(folder: Path) -> GameLog:
    header = new_header("g-ö", "stress", "", ["Åsa", "Bob, Jr."], {"seed": 5})
    with GameWriter.create(folder, header, fsync=False) as w:
        m = w.verdict(1.25, Legal({"op": "play", "card": "8H"}, None, 1, (Event("played", player=0, cards=cards("8H")),)), frame=JPEG)
        bad = w.verdict(2.0, Illegal("8D->p2", "S4", 'the 8 of diamonds "does not" follow\nthe 10 of clubs'))
        w.call(3.0, Event("stress", player=1, pile="p2", cards=cards("5S 5H"), detail="both fives"))
        w.unrecognised(4.0, "could not read", data={"pile": "p1"})
        w.replace(5.0, bad.seq, Legal("8D->p2", None), by="Åsa", reason="it was a 9, not a 10")
        w.insert(6.0, m.seq, Event("stuck"), at=1.5)
        w.end(7.0, "Åsa")
    return read_game(folder)


def test_jsonl_export_reads_back_as_the_same_game(tmp_path: Path) -> None:
    log = recorded(tmp_path)
    text = jsonl_text(log)
    out = io.StringIO()
    assert write_jsonl(log, out) == len(log.records) + 1 and out.getvalue() == text
    again = parse_log(text.encode("utf-8"))
    assert again.header == log.header and again.records == log.records and again.errors == ()
    assert [json.loads(line)["seq"] for line in text.splitlines()[1:]] == [r.seq for r in log.records]
    # The writer already writes the normalised form: exporting a clean log gives its file back.
    assert text.encode("utf-8") == (tmp_path / "log.jsonl").read_bytes()


def test_jsonl_export_of_a_damaged_log_leaves_the_damage_out(tmp_path: Path) -> None:
    recorded(tmp_path)
    path = tmp_path / "log.jsonl"
    lines = path.read_bytes().split(b"\n")
    lines.insert(3, b"{oops")
    path.write_bytes(b"\n".join(lines) + b'{"seq":9')
    log = read_game(tmp_path)
    assert len(log.errors) == 2
    again = parse_log(jsonl_text(log).encode())
    assert again.errors == () and again.records == log.records


def test_csv_has_flat_columns_and_reads_back_as_the_same_records(tmp_path: Path) -> None:
    log = recorded(tmp_path)
    out = io.StringIO()
    assert write_csv(log, out) == len(log.records)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert tuple(rows[0].keys()) == CSV_COLUMNS and len(rows) == len(log.records)
    move, illegal, call, unrec, fix, ins, end = rows
    assert move["game"] == "g-ö" and move["kind"] == "move" and move["frame"] == "000001.jpg" and move["t"] == "1.25"
    assert illegal["rule"] == "S4" and "\n" in illegal["reason"] and illegal["corrected_by"] == fix["seq"]
    assert call["call"] == "stress" and call["player"] == "1" and call["cards"] == "5S 5H" and call["detail"] == "both fives"
    assert unrec["detail"] == "could not read"
    assert fix["target"] == illegal["seq"] and fix["action"] == "replace" and fix["move"] == "8D->p2"
    assert fix["reason"] == "it was a 9, not a 10"
    assert ins["action"] == "insert" and ins["call"] == "stuck"
    assert end["result"] == "Åsa"
    assert read_csv(io.StringIO(out.getvalue())) == list(log.records)


def test_exporters_by_name_write_files(tmp_path: Path) -> None:
    log = recorded(tmp_path / "g")
    for name, write in EXPORTERS.items():
        target = tmp_path / f"out.{name}"
        with open(target, "w", encoding="utf-8", newline="") as fh:
            write(log, fh)
        assert target.stat().st_size > 0
    with open(tmp_path / "out.csv", encoding="utf-8", newline="") as fh:
        assert read_csv(fh) == list(log.records)
