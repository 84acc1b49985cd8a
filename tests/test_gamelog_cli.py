"""``cardref games``: list, search, show, export and reindex from the command line."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from cardref.commands import games
from cardref.gamelog.export import read_csv
from cardref.gamelog.reader import parse_log
from cardref.gamelog.store import GameStore
from referee.verdict import Event, Illegal, Legal


def run(*argv: str) -> int:
    parser = argparse.ArgumentParser(prog="cardref")
    games.register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(list(argv))
    return int(args.func(args))


@pytest.fixture
def root(tmp_path: Path) -> Path:
    store = GameStore(tmp_path, fsync=False)
    with store.new_game("klondike", "draw=3", ["anna"], id="k1", started="2026-11-01T09:00:00.000000Z") as w:
        w.verdict(1.0, Legal("t1->t2", None, 5), frame=b"\xff\xd8")
        bad = w.verdict(2.0, Illegal("t3->t4", "K5", "no"))
        w.replace(3.0, bad.seq, Legal("t3->t4", None), reason="misread")
        w.end(4.0, "won")
    with store.new_game("stress", "", ["anna", "bob"], id="s1", started="2026-11-02T09:00:00.000000Z") as w:
        w.call(1.0, Event("stress", player=1))
    return tmp_path


def test_list_and_search(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("games", "--dir", str(root), "list") == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["s1", "k1"]
    assert "[won]" in lines[1] and "2 moves, 0 illegal" in lines[1] and "1 corrections" in lines[1]
    assert "[unfinished]" in lines[0]
    assert run("games", "--dir", str(root), "search", "BOB", "--json") == 0
    (found,) = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert found["id"] == "s1" and found["players"] == ["anna", "bob"]
    assert run("games", "--dir", str(root), "list", "--player", "anna", "--until", "2026-11-01", "--finished") == 0
    assert [x.split()[0] for x in capsys.readouterr().out.splitlines()] == ["k1"]
    assert run("games", "--dir", str(root), "list", "--game", "zenuwen") == 0
    assert "no games found" in capsys.readouterr().err
    assert run("games", "--dir", str(root), "list", "--since", "someday") == 2


def test_show_raw_and_corrected(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("games", "--dir", str(root), "show", "k1") == 0
    out = capsys.readouterr().out
    assert "K5: no   [corrected by #3]" in out and "replace #2 with move t3->t4 (misread)" in out and "[000001.jpg]" in out
    assert run("games", "--dir", str(root), "show", "k1", "--corrected") == 0
    out = capsys.readouterr().out
    assert "illegal" not in out.split("\n", 1)[1].split("<-")[0]
    assert "<- corrected by #3 was t3->t4: K5: no (misread)" in out
    assert run("games", "--dir", str(root), "show", "nope") == 1
    assert "no game 'nope'" in capsys.readouterr().err


def test_export_and_reindex(root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("games", "--dir", str(root), "export", "k1") == 0
    exported = parse_log(capsys.readouterr().out.encode())
    assert exported.errors == () and exported.id == "k1" and len(exported.records) == 4
    target = tmp_path / "k1.csv"
    assert run("games", "--dir", str(root), "export", "k1", "--format", "csv", "-o", str(target)) == 0
    with open(target, newline="", encoding="utf-8") as fh:
        assert [r.seq for r in read_csv(fh)] == [1, 2, 3, 4]
    (root / "index.sqlite").unlink()
    assert run("games", "--dir", str(root), "reindex") == 0
    assert "indexed 2 games" in capsys.readouterr().out
