"""The archive over the API: list and search recorded games, review one step by step, key frames,
exports (JSONL, CSV), corrections after the fact, deletion (cardref.gamelog underneath)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Iterator

import pytest
from fastapi.testclient import TestClient

from cardref.gamelog import GameStore
from cardref.gamelog.export import read_csv
from cardref.web.app import create_app
from cardref.web.hub import Hub
from cardref.web.replay import record_demo_game
from cardref.web.settings import WebSettings

LOCAL = ("127.0.0.1", 50000)


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[GameStore, str, str]:
    store = GameStore(tmp_path_factory.mktemp("games"), fsync=False)
    won = record_demo_game(store, players=["Anna"])
    unfinished = record_demo_game(store, players=["Bob"], moves=10)
    return store, won, unfinished


@pytest.fixture
def client(games: tuple[GameStore, str, str]) -> Iterator[TestClient]:
    store = games[0]
    app = create_app(WebSettings(games_dir=store.root), hub=Hub(), store=store)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c:
        yield c


def test_list_and_search(client: TestClient, games: tuple[GameStore, str, str]) -> None:
    _, won, unfinished = games
    rows = client.get("/api/games").json()
    assert {r["id"] for r in rows} >= {won, unfinished}
    assert [r["id"] for r in client.get("/api/games?q=anna").json()] == [won]
    assert [r["id"] for r in client.get("/api/games?player=Bob").json()] == [unfinished]
    assert [r["id"] for r in client.get("/api/games?finished=true").json()] == [won]
    assert client.get("/api/games?game=stress").json() == []
    assert client.get("/api/games?since=not-a-date").status_code == 422
    one = client.get(f"/api/games/{won}").json()
    assert (one["result"], one["illegal"], one["moves"]) == ("won", 1, 243)
    assert client.get("/api/games/no-such-game").status_code == 404
    assert client.get("/api/games/..%2F..%2Fetc").status_code == 404


def test_review_steps_through_the_game_as_corrected(client: TestClient, games: tuple[GameStore, str, str]) -> None:
    won = games[1]
    r = client.get(f"/api/games/{won}/review").json()
    assert r["initial_state"]["tableau"][0]["up"] == ["2D"]
    steps = r["steps"]
    assert steps[1]["kind"] == "illegal" and steps[1]["rule"] == "K4" and "9 of hearts" in steps[1]["reason"]
    assert steps[0]["number"] == 1 and steps[2]["number"] == 2
    assert steps[0]["state"]["waste"] == ["7H", "KH", "9H"]
    assert any(s["kind"] == "call" and s["call"] == "won" for s in steps)
    assert steps[-1]["kind"] == "end" and steps[-1]["result"] == "won"
    frame = client.get(steps[5]["frame"])
    assert frame.status_code == 200 and frame.content[:2] == b"\xff\xd8"
    assert client.get(f"/api/games/{won}/frames/..%2Flog.jsonl").status_code == 404
    assert client.get(f"/api/games/{won}/frames/999999.jpg").status_code == 404


def test_review_tells_an_undecided_view_from_an_unrecognised_one(client: TestClient, tmp_path: Path) -> None:
    """The live referee logs a view several move series fit as unrecognised with why "ambiguous": the
    review page shows it as unclear, as the live screens do, not as a change nothing explains."""
    store = GameStore(tmp_path, fsync=False)
    writer = store.new_game("zenuwen", "players=2", ["Anna", "Bob"], deal=None)
    writer.unrecognised(1.0, "several move series fit: p1 pile1->centre2; p2 pile1->centre2", data={"why": "ambiguous"})
    writer.unrecognised(2.0, "centre1 shows 9S", data={"why": "unrecognised"})
    writer.close()
    app = create_app(WebSettings(games_dir=tmp_path), hub=Hub(), store=store)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c:
        steps = c.get(f"/api/games/{writer.id}/review").json()["steps"]
    assert [(s["kind"], s.get("why")) for s in steps] == [("unrecognised", "ambiguous"), ("unrecognised", "unrecognised")]


def test_export_jsonl_and_csv(client: TestClient, games: tuple[GameStore, str, str]) -> None:
    won = games[1]
    jl = client.get(f"/api/games/{won}/export?format=jsonl")
    assert jl.status_code == 200 and f'{won}.jsonl' in jl.headers["content-disposition"]
    lines = [json.loads(x) for x in jl.text.splitlines()]
    assert lines[0]["format"] == "cardref-gamelog" and lines[2]["kind"] == "illegal"
    csv = client.get(f"/api/games/{won}/export?format=csv")
    assert csv.headers["content-type"].startswith("text/csv")
    records = read_csv(io.StringIO(csv.text))
    assert len(records) == len(lines) - 1
    assert client.get(f"/api/games/{won}/export?format=xml").status_code == 422


def test_a_correction_after_the_fact_keeps_the_original(client: TestClient, tmp_path: Path) -> None:
    store = GameStore(tmp_path, fsync=False)
    gid = record_demo_game(store, moves=5)
    app = create_app(WebSettings(games_dir=tmp_path), hub=Hub(), store=store)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c:
        r = c.post(f"/api/games/{gid}/corrections", json={"action": "retract", "target": 2, "reason": "it was legal", "by": "Anna"})
        assert r.status_code == 201
        assert c.post(f"/api/games/{gid}/corrections", json={"action": "note", "text": "good game"}).status_code == 201
        assert c.post(f"/api/games/{gid}/corrections", json={"action": "retract"}).status_code == 422
        assert c.post(f"/api/games/{gid}/corrections", json={"action": "retract", "target": 999}).status_code == 422
        row = c.get(f"/api/games/{gid}").json()
        assert (row["illegal"], row["corrections"]) == (0, 1)
        steps = c.get(f"/api/games/{gid}/review").json()["steps"]
        assert all(s["kind"] != "illegal" for s in steps)
        assert 2 in c.get(f"/api/games/{gid}/review").json()["retracted"]
        assert "illegal" in c.get(f"/api/games/{gid}/export").text  # the original stays in the log


def test_delete_a_game_but_not_one_being_recorded(tmp_path: Path) -> None:
    store = GameStore(tmp_path, fsync=False)
    done = record_demo_game(store, moves=3)
    app = create_app(WebSettings(games_dir=tmp_path), hub=Hub(), store=store)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c, store.new_game("klondike", "", ["Live"]) as writer:
        assert c.delete(f"/api/games/{writer.id}").status_code == 409
        r = c.post(f"/api/games/{writer.id}/corrections", json={"action": "note", "text": "x"})
        assert r.status_code == 409
        assert c.delete(f"/api/games/{done}").status_code == 204
        assert c.get(f"/api/games/{done}").status_code == 404
        assert done not in [g["id"] for g in c.get("/api/games").json()]
        assert c.delete(f"/api/games/{done}").status_code == 404
