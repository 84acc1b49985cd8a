"""The games directory and its SQLite index: listing, searching, staying in step with the logs."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest

from cardref.gamelog.store import GameStore, default_games_dir
from referee.verdict import Event, Illegal, Legal


def play(store: GameStore, game: str, players: list[str], started: str, *, moves: int = 2, end: str | None = "won") -> str:
    with store.new_game(game, "draw=3" if game == "klondike" else "", players, deal={"seed": 1}, started=started) as w:
        for i in range(moves):
            w.verdict(float(i), Legal(f"m{i}", None, 5))
        w.verdict(moves + 0.5, Illegal("t1->t2", "K5", "no"))
        w.call(moves + 1.0, Event("stress", player=0))
        if end is not None:
            w.end(moves + 2.0, end)
        return w.id


@pytest.fixture
def store(tmp_path: Path) -> GameStore:
    s = GameStore(tmp_path / "games", fsync=False)
    play(s, "klondike", ["Anna"], "2026-11-01T09:00:00.000000Z", moves=3)
    play(s, "stress", ["anna", "Bob"], "2026-11-02T23:30:00.000000Z", end="anna")
    play(s, "zenuwen", ["bob", "Carl", "dora"], "2026-11-03T10:00:00.000000Z", end=None)
    return s


def ids(found: list) -> list[str]:  # type: ignore[type-arg]
    return [g.game for g in found]


def test_new_games_get_a_row_with_counts(store: GameStore) -> None:
    (g,) = store.games(game="klondike")
    assert g.id.startswith("20261101-090000-klondike-") and g.players == ("Anna",)
    assert (g.moves, g.illegal, g.calls, g.corrections, g.errors) == (3, 1, 1, 0, 0)
    assert g.finished and g.result == "won" and g.duration == 5.0 and g.rules == "draw=3"
    assert store.get(g.id) == g and store.get("nope") is None
    assert g.to_json()["players"] == ["Anna"]


def test_views_the_referee_only_waited_on_are_not_counted_as_unrecognised(tmp_path: Path) -> None:
    """The live referee logs a view it waits on (several moves fit it, a new centre card not readable
    yet) as ``unrecognised`` with ``why: ambiguous`` (the review shows it as unclear): a game it
    followed move for move listed a dozen "unrecognised" changes, one per turned centre card."""
    s = GameStore(tmp_path / "games", fsync=False)
    with s.new_game("zenuwen", "", ["a", "b"]) as w:
        w.unrecognised(1.0, "new centre card turned but not readable yet", data={"why": "ambiguous"})
        w.unrecognised(2.0, "a card appeared on p1.pile3", data={"why": "unrecognised"})
        w.unrecognised(3.0, "by hand")
        game_id = w.id
    g = s.get(game_id)
    assert g is not None and g.unrecognised == 2


def test_search_by_game_player_text_and_state(store: GameStore) -> None:
    assert ids(store.games()) == ["zenuwen", "stress", "klondike"]  # newest first
    assert ids(store.games(game="STRESS")) == ["stress"]
    assert ids(store.games(player="anna")) == ["stress", "klondike"]  # exact name, any case
    assert ids(store.games(player="ann")) == []
    assert ids(store.games(text="ar")) == ["zenuwen"]  # Carl
    assert ids(store.games(text="draw=")) == ["klondike"]
    assert ids(store.games(text="%")) == []  # LIKE wildcards are taken literally
    assert ids(store.games(finished=False)) == ["zenuwen"]
    assert ids(store.games(finished=True, player="bob")) == ["stress"]
    assert ids(store.games(limit=1, offset=1)) == ["stress"]
    assert ids(store.games(offset=2)) == ["klondike"]


def test_search_by_date(store: GameStore) -> None:
    assert ids(store.games(since="2026-11-02")) == ["zenuwen", "stress"]
    assert ids(store.games(until="2026-11-02")) == ["stress", "klondike"]  # a date includes its whole day
    assert ids(store.games(since=date(2026, 11, 2), until=date(2026, 11, 2))) == ["stress"]
    assert ids(store.games(until=datetime(2026, 11, 2, 23, 0))) == ["klondike"]  # naive = UTC
    cet = timezone(timedelta(hours=1))
    assert ids(store.games(since=datetime(2026, 11, 3, 0, 30, tzinfo=cet))) == ["zenuwen", "stress"]
    assert ids(store.games(since="2026-11-03T09:59:59Z")) == ["zenuwen"]
    with pytest.raises(ValueError, match="not a date"):
        store.games(since="last tuesday")


def test_rebuilt_index_matches_the_one_kept_while_playing(store: GameStore) -> None:
    before = store.games(sync=False)
    store.index_path.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{store.index_path}{suffix}").unlink(missing_ok=True)
    again = GameStore(store.root)
    assert again.games(sync=False) == before
    assert again.rebuild_index() == 3
    assert again.games(sync=False) == before


def test_a_stale_index_catches_up_with_the_logs(store: GameStore) -> None:
    (open_game,) = store.games(finished=False)
    # Another process appends to the unfinished game (a crash recovery, say) without this store.
    w = GameStore(store.root, fsync=False).resume(open_game.id)
    w._on_change = None  # as if its index update had been lost
    w.verdict(9.0, Legal("late", None))
    w.end(10.0, "dora")
    w.close()
    assert store.games(sync=False, finished=False) != []  # the row is stale ...
    (caught_up,) = store.games(game="zenuwen")  # ... until the next search syncs it
    assert caught_up.finished and caught_up.result == "dora" and caught_up.moves == 3


def test_games_removed_from_disk_leave_the_index(store: GameStore) -> None:
    (k,) = store.games(game="klondike")
    folder = store.game_dir(k.id)
    for p in sorted(folder.rglob("*"), reverse=True):
        p.rmdir() if p.is_dir() else p.unlink()
    folder.rmdir()
    assert ids(store.games()) == ["zenuwen", "stress"]


def test_a_corrupt_index_is_set_aside_and_rebuilt(store: GameStore) -> None:
    before = store.games()
    for suffix in ("-wal", "-shm"):
        Path(f"{store.index_path}{suffix}").unlink(missing_ok=True)
    store.index_path.write_bytes(b"this is not a database" * 100)
    again = GameStore(store.root)
    assert again.games() == before
    assert Path(f"{store.index_path}.broken").exists()


def test_the_index_uses_wal(store: GameStore) -> None:
    with sqlite3.connect(store.index_path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_damaged_log_is_still_indexed_with_its_error_count(store: GameStore) -> None:
    (k,) = store.games(game="klondike")
    with open(store.game_dir(k.id) / "log.jsonl", "ab") as fh:
        fh.write(b'{"seq":99,"t":1')
    (again,) = store.games(game="klondike")
    assert again.errors == 1 and again.moves == 3


def test_logs_without_a_header_are_not_indexed(store: GameStore) -> None:
    folder = store.root / "broken-game"
    folder.mkdir()
    (folder / "log.jsonl").write_bytes(b"\x00\x00\n")
    assert len(store.games()) == 3 and store.get("broken-game") is None
    assert "broken-game" in store.game_ids()


def test_resume_through_the_store_and_corrections_after_the_end(store: GameStore) -> None:
    (z,) = store.games(game="zenuwen")
    with store.resume(z.id, t=4.0) as w:
        w.end(5.0, "Carl")
    (k,) = store.games(game="klondike")
    with store.resume(k.id, finished_ok=True) as w:
        illegal = next(r for r in store.read(k.id) if r.kind.value == "illegal")
        w.replace(100.0, illegal.seq, Legal("t1->t2", None), by="anna", reason="the 8 was red")
    (k2,) = store.games(game="klondike")
    assert (k2.moves, k2.illegal, k2.corrections) == (4, 0, 1)
    assert store.get(z.id) is not None and store.get(z.id).result == "Carl"  # type: ignore[union-attr]


def test_ids_and_frame_names_cannot_escape_the_directory(store: GameStore) -> None:
    for bad in ("../x", "a/b", "", ".", "..", ".hidden"):
        with pytest.raises(ValueError):
            store.game_dir(bad)
    with pytest.raises(ValueError):
        store.frame_path(store.game_ids()[0], "../log.jsonl")
    assert store.frame_path("g", "000001.jpg") == store.root / "g" / "frames" / "000001.jpg"
    with pytest.raises(FileNotFoundError):
        store.read("no-such-game")


def test_given_ids_and_the_default_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    s = GameStore(tmp_path, fsync=False)
    s.new_game("klondike", "", ["a"], id="my-game").close()
    with pytest.raises(FileExistsError):
        s.new_game("klondike", "", ["a"], id="my-game")
    assert s.game_ids() == ["my-game"]
    monkeypatch.setenv("CARDREF_GAMES", str(tmp_path / "here"))
    assert default_games_dir() == tmp_path / "here"
    monkeypatch.delenv("CARDREF_GAMES")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_games_dir() == tmp_path / "xdg" / "cardref" / "games"


def test_an_index_that_cannot_be_updated_does_not_fail_the_game(
    store: GameStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def locked(game_id: str) -> None:
        raise sqlite3.OperationalError("database is locked")

    w = store.new_game("klondike", "", ["eve"])
    monkeypatch.setattr(store, "index_game", locked)
    w.end(1.0, "won")  # the record is written; only the index lags
    w.close()
    monkeypatch.undo()
    assert "games index not updated" in caplog.text
    assert store.read(w.id).finished
    assert store.get(w.id) is not None and not store.get(w.id).finished  # type: ignore[union-attr]
    assert [g.finished for g in store.games(player="eve")] == [True]  # caught up by the next listing


def test_the_benchmark_runs(tmp_path: Path) -> None:
    from cardref.gamelog.bench import bench

    written, read, size = bench(tmp_path, 30, fsync=False, frame_every=10)
    assert written > 0 and read > 0 and size > 30 * 500


def test_a_game_that_cannot_start_leaves_no_folder(tmp_path: Path) -> None:
    s = GameStore(tmp_path, fsync=False)
    with pytest.raises(ValueError, match="not plain JSON"):
        s.new_game("klondike", "", ["a"], deal={"x": float("nan")})
    assert s.game_ids() == [] and [p.name for p in tmp_path.iterdir() if p.is_dir()] == []


def test_amend_opens_any_game_for_corrections_only(store: GameStore) -> None:
    (z,) = store.games(finished=False)
    before = store.read(z.id)
    illegal = next(r for r in before if r.kind.value == "illegal")
    with store.amend(z.id) as w:
        with pytest.raises(ValueError, match="corrections and notes only"):
            w.verdict(9.0, Legal("x", None))
        w.retract(9.0, illegal.seq, by="dora", reason="camera glare")
        w.note(9.5, "checked on the review page")
    after = store.read(z.id)
    assert [r.kind.value for r in after][len(before.records):] == ["correction", "note"]  # no "resumed"
    assert store.get(z.id).illegal == 0 and not store.get(z.id).finished  # type: ignore[union-attr]
    (k,) = store.games(game="klondike")
    with store.amend(k.id) as w:
        w.note(10.0, "finished games too")
    with store.new_game("klondike", "", ["live"]) as live:
        with pytest.raises(Exception, match="another writer"):
            store.amend(live.id)
