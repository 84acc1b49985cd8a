"""The web app's REST and WebSocket API with TestClient and a temporary games directory: safety
(token off this machine, size limits), the live socket, the session, the phone camera, calibration."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from cardref.gamelog import GameStore
from cardref.web.app import create_app
from cardref.web.hub import Hub
from cardref.web.replay import ReplaySource, render, table_size_mm
from cardref.web.settings import WebSettings

LOCAL = ("127.0.0.1", 50000)
REMOTE = ("192.0.2.10", 50000)  # TEST-NET-1: another machine
TOKEN = "a-test-token-0123456789"
STATIC = Path(__file__).resolve().parents[1] / "cardref" / "web" / "static"


@pytest.fixture
def hub() -> Hub:
    return Hub()


@pytest.fixture
def settings(tmp_path: Path) -> WebSettings:
    return WebSettings(host="0.0.0.0", games_dir=tmp_path / "games", token=TOKEN,
                       max_upload_bytes=200_000, max_frame_bytes=100_000)


@pytest.fixture
def app(settings: WebSettings, hub: Hub) -> Any:
    return create_app(settings, hub=hub, store=GameStore(settings.games_dir, fsync=False))


@pytest.fixture
def remote(app: Any) -> Iterator[TestClient]:
    with TestClient(app, client=REMOTE) as c:
        yield c


@pytest.fixture
def local(app: Any) -> Iterator[TestClient]:
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1:8000") as c:
        yield c


def auth(token: str = TOKEN) -> dict[str, str]:
    return {"X-Cardref-Token": token}


# -- settings ---------------------------------------------------------------------------------------


def test_settings_refuse_unknown_fields_and_bad_values() -> None:
    with pytest.raises(ValidationError, match="extra"):
        WebSettings(hots="0.0.0.0")  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="port"):
        WebSettings(port=70000)
    with pytest.raises(ValidationError, match="host"):
        WebSettings(host="a b")


def test_listening_beyond_this_machine_generates_a_token_and_localhost_is_the_default(tmp_path: Path) -> None:
    assert WebSettings().host == "127.0.0.1" and WebSettings().local_only
    opened = create_app(WebSettings(host="0.0.0.0", games_dir=tmp_path))
    assert opened.state.settings.token and len(opened.state.settings.token) >= 16
    assert create_app(WebSettings(games_dir=tmp_path)).state.settings.token is None


# -- pages ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/referee", "/setup", "/phone", "/review", "/review/some-game", "/docs"])
def test_every_page_is_served_with_a_policy_that_forbids_loading_from_elsewhere(remote: TestClient, path: str) -> None:
    r = remote.get(path)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert "default-src 'self'" in r.headers["content-security-policy"]


def test_the_pages_reference_nothing_on_the_internet() -> None:
    for f in STATIC.iterdir():
        text = f.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)\s*=\s*[\"']?(https?:)?//", text), f"{f.name} loads from elsewhere"
        assert "@import" not in text and "fonts.googleapis" not in text and "cdn" not in text.lower(), f.name


def test_unknown_page_is_404(remote: TestClient) -> None:
    assert remote.get("/nothing-here").status_code == 404
    assert remote.get("/redoc").status_code == 404  # FastAPI's own docs pages load from a CDN: off


def test_the_openapi_description_covers_every_resource(remote: TestClient) -> None:
    spec = remote.get("/openapi.json").json()
    paths = spec["paths"]
    for path in ("/api/live", "/api/session/setup", "/api/games", "/api/games/{game_id}/review",
                 "/api/games/{game_id}/export", "/api/calibration/markers", "/api/calibration/points",
                 "/api/camera/frame", "/api/health"):
        assert path in paths, path
    assert all(op.get("summary") for ops in paths.values() for op in ops.values())


# -- the control token ------------------------------------------------------------------------------

CONTROL = [
    ("put", "/api/session/setup", {"game": "klondike", "players": [{"name": "Anna", "seat": 1}]}),
    ("post", "/api/session/start", None),
    ("post", "/api/session/pause", None),
    ("post", "/api/session/end", None),
    ("post", "/api/session/slap", {"player": 0}),
    ("post", "/api/session/choose", {"player": 0, "pile": 1}),
    ("post", "/api/session/correction", {"action": "retract"}),
    ("post", "/api/session/name", {"zone": "centre1", "card": "QS"}),
    ("post", "/api/calibration/points", {"image_px": [[0, 0], [10, 0], [10, 10], [0, 10]], "image_size": [10, 10]}),
    ("delete", "/api/games/nope", None),
    ("post", "/api/games/nope/corrections", {"action": "note", "text": "x"}),
]


@pytest.mark.parametrize("method, path, body", CONTROL)
def test_control_from_another_machine_needs_the_token(remote: TestClient, method: str, path: str, body: Any) -> None:
    kwargs: dict[str, Any] = {} if body is None else {"json": body}
    assert getattr(remote, method)(path, **kwargs).status_code == 401
    assert getattr(remote, method)(path, headers=auth("wrong-token-0123456789"), **kwargs).status_code == 401
    assert getattr(remote, method)(path, headers=auth(), **kwargs).status_code not in (401, 403)


def test_the_token_also_works_as_a_bearer_and_this_machine_needs_none(remote: TestClient, local: TestClient) -> None:
    assert remote.post("/api/session/start", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    assert local.post("/api/session/pause").status_code == 200
    assert local.get("/api/session").json()["control"] is True
    assert remote.get("/api/session").json()["control"] is False


def test_this_machines_browser_cannot_be_used_by_another_site_or_a_rebound_name(local: TestClient) -> None:
    evil = {"Origin": "http://evil.example"}
    assert local.post("/api/session/end", headers=evil).status_code == 401  # cross-site request
    assert local.post("/api/session/end", headers={"Host": "evil.example:8000"}).status_code == 401  # DNS rebinding
    assert local.post("/api/session/end", headers={"Origin": "http://127.0.0.1:8000"}).status_code == 200
    assert local.post("/api/session/end", headers={**evil, **auth()}).status_code == 200  # the token still works
    with pytest.raises(WebSocketDisconnect):
        with local.websocket_connect("/ws/camera", headers=evil) as ws:
            ws.receive_json()


def test_viewing_needs_no_token(remote: TestClient) -> None:
    for path in ("/api/health", "/api/live", "/api/games", "/api/session", "/api/session/games", "/api/camera",
                 "/openapi.json"):
        assert remote.get(path).status_code == 200, path


# -- size limits ------------------------------------------------------------------------------------


def test_a_body_over_the_upload_limit_is_refused_before_any_handler(remote: TestClient, hub: Hub) -> None:
    big = b"\xff\xd8" + b"0" * 300_000
    r = remote.post("/api/camera/frame", content=big, headers=auth())
    assert r.status_code == 413 and "limit" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while reading
        for _ in range(30):
            yield b"0" * 10_000

    r = remote.post("/api/calibration/markers", content=chunks(), headers=auth())
    assert r.status_code == 413


def test_a_phone_frame_over_the_frame_limit_or_not_jpeg_is_refused(remote: TestClient) -> None:
    assert remote.post("/api/camera/frame", content=b"\xff\xd8" + b"0" * 150_000, headers=auth()).status_code == 413
    assert remote.post("/api/camera/frame", content=b"GIF89a....", headers=auth()).status_code == 415
    assert remote.get("/api/camera").json()["rejected"] == 2


# -- the phone camera -------------------------------------------------------------------------------


def test_phone_frames_are_accepted_over_post_and_the_camera_socket(remote: TestClient) -> None:
    from referee import klondike

    jpeg = render(klondike.new_game(klondike.deal(1))).jpeg
    r = remote.post("/api/camera/frame", content=jpeg, headers={**auth(), "Content-Type": "image/jpeg"})
    assert r.status_code == 202 and r.json()["received"] == 1
    with remote.websocket_connect(f"/ws/camera?token={TOKEN}") as ws:
        ws.send_bytes(jpeg)
        assert ws.receive_json()["received"] == 2
    status = remote.get("/api/camera").json()
    assert status["received"] == 2 and status["dropped"] == 0


def test_the_phone_socket_without_the_token_is_closed(remote: TestClient) -> None:
    with pytest.raises(WebSocketDisconnect) as err:
        with remote.websocket_connect("/ws/camera") as ws:
            ws.receive_json()
    assert err.value.code == 1008


def test_phone_camera_read_gives_decoded_frames_and_reports_a_lost_phone() -> None:
    from cardref.web.phone import PhoneCamera
    from referee import klondike
    from vision.frame_sources import ReadStatus

    cam = PhoneCamera(timeout=0.05, keep=2)
    assert cam.read().status is ReadStatus.LOST
    jpeg = render(klondike.new_game(klondike.deal(1))).jpeg
    for _ in range(3):
        cam.put(jpeg)
    assert cam.dropped == 1
    got = cam.read()
    assert got.status is ReadStatus.FRAME and got.image is not None and got.image.shape[1] == 1280
    cam.put(b"\xff\xd8 not really a jpeg")
    cam.read()
    assert cam.read().status is ReadStatus.CORRUPT


# -- the live socket --------------------------------------------------------------------------------


def test_the_live_socket_sends_the_snapshot_then_every_message_and_frames_as_binary(remote: TestClient, hub: Hub) -> None:
    hub.publish({"type": "status", "camera": "online", "fps": 10.0})
    with remote.websocket_connect("/ws/live") as ws:
        first = [json.loads(ws.receive_text()) for _ in range(2)]
        assert {m["type"] for m in first} == {"status", "session"}
        hub.publish({"type": "verdict", "kind": "illegal", "rule": "K4", "reason": "red on red", "cards": ["8H", "9D"]})
        msg = json.loads(ws.receive_text())
        assert (msg["type"], msg["rule"], msg["cards"]) == ("verdict", "K4", ["8H", "9D"])
        hub.publish({"type": "frame", "jpeg": b"\xff\xd8abc", "width": 3, "height": 1, "cards": []})
        meta = json.loads(ws.receive_text())
        assert meta["type"] == "frame" and meta["bytes"] == 5
        assert ws.receive_bytes() == b"\xff\xd8abc"
    assert hub.stats()["viewers"] == 0


def test_viewers_over_the_limit_are_turned_away(tmp_path: Path, hub: Hub) -> None:
    app = create_app(WebSettings(games_dir=tmp_path, max_viewers=1), hub=hub)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c, c.websocket_connect("/ws/live") as first:
        first.receive_text()
        with pytest.raises(WebSocketDisconnect) as err:
            with c.websocket_connect("/ws/live") as second:
                second.receive_text()
        assert err.value.code == 1013


def test_a_viewer_that_sends_binary_or_text_is_not_a_problem(remote: TestClient, hub: Hub) -> None:
    with remote.websocket_connect("/ws/live?types=call&frames=false") as ws:
        ws.send_bytes(b"\x00\x01")
        ws.send_text("hello")
        hub.publish({"type": "call", "call": "stuck"})
        assert json.loads(ws.receive_text())["call"] == "stuck"


def test_the_referee_screen_socket_gets_no_pictures(remote: TestClient, hub: Hub) -> None:
    with remote.websocket_connect("/ws/live?frames=false&types=verdict,call") as ws:
        hub.publish({"type": "frame", "jpeg": b"\xff\xd8abc", "width": 3, "height": 1})
        hub.publish({"type": "call", "call": "stress"})
        assert json.loads(ws.receive_text())["call"] == "stress"


def test_live_snapshot_and_latest_picture_over_rest(remote: TestClient, hub: Hub) -> None:
    assert remote.get("/api/live/frame.jpg").status_code == 404
    hub.publish({"type": "frame", "jpeg": b"\xff\xd8abc", "width": 3, "height": 1})
    hub.publish({"type": "state", "game": "klondike", "game_id": "g", "state": {"score": 5}})
    assert remote.get("/api/live/frame.jpg").content == b"\xff\xd8abc"
    snap = remote.get("/api/live").json()
    assert snap["state"]["state"] == {"score": 5} and snap["hub"]["published"] >= 2


# -- the session ------------------------------------------------------------------------------------


def test_setup_is_validated_against_the_games_rules(local: TestClient) -> None:
    ok = local.put("/api/session/setup", json={"game": "stress", "rules": "wrap=false",
                                               "players": [{"name": "A", "seat": 1}, {"name": "B", "seat": 3}]})
    assert ok.status_code == 200 and ok.json()["setup"]["rules"] == "wrap=false"
    for bad, words in [
        ({"game": "stress", "players": [{"name": "A", "seat": 1}]}, "2-2 players"),
        ({"game": "klondike", "rules": "draw=2", "players": [{"name": "A", "seat": 1}]}, "draw"),
        ({"game": "klondike", "rules": "colour=blue", "players": [{"name": "A", "seat": 1}]}, "unknown rule option"),
        ({"game": "zenuwen", "players": [{"name": "A", "seat": 1}, {"name": "B", "seat": 1}]}, "two players on one seat"),
        ({"game": "poker", "players": [{"name": "A", "seat": 1}]}, "game"),
        ({"game": "klondike", "players": [{"name": "A", "seat": 1}], "extra": 1}, "extra"),
    ]:
        r = local.put("/api/session/setup", json=bad)
        assert r.status_code == 422 and words in json.dumps(r.json()), (bad, r.json())


def test_control_actions_reach_the_pipeline_as_commands_and_viewers_as_session_messages(local: TestClient, hub: Hub) -> None:
    local.put("/api/session/setup", json={"game": "zenuwen", "players": [{"name": "A", "seat": 1}, {"name": "B", "seat": 2}, {"name": "C", "seat": 3}]})
    assert local.post("/api/session/start").json()["phase"] == "playing"
    assert local.post("/api/session/slap", json={"player": 1, "pile": 0}).status_code == 202
    assert local.post("/api/session/choose", json={"player": 2, "pile": 1}).status_code == 202
    assert local.post("/api/session/choose", json={"player": 2}).status_code == 422  # which pile?
    assert local.post("/api/session/correction", json={"action": "retract", "target": 5, "reason": "a hand"}).status_code == 202
    assert local.post("/api/session/end").json()["phase"] == "ended"
    got = []
    while (c := hub.commands.get()) is not None:
        got.append(c)
    assert [c.kind for c in got] == ["setup", "start", "slap", "choose", "correction", "end"]
    assert got[1].data["setup"]["game"] == "zenuwen"
    assert got[2].data == {"player": 1, "pile": 0, "by": ""}
    assert got[3].data == {"player": 2, "pile": 1, "by": ""}
    assert got[4].data["target"] == 5
    assert hub.latest("session")["phase"] == "ended"  # type: ignore[index]


def test_games_on_offer_list_their_rule_options(local: TestClient) -> None:
    games = {g["game"]: g for g in local.get("/api/session/games").json()}
    assert set(games) == {"klondike", "double_solitaire", "stress", "zenuwen"}
    assert (games["double_solitaire"]["min_players"], games["double_solitaire"]["max_players"]) == (2, 2)
    assert "draw" in [o["name"] for o in games["double_solitaire"]["options"]]
    # the set-up page draws each game's zones: Double Solitaire is laid out on Klondike's for two
    names = {z["name"] for z in local.get("/api/calibration/zones?game=double_solitaire").json()["layout"]["zones"]}
    assert {"p1.tableau7", "p2.waste", "foundation8"} <= names
    assert "draw" in [o["name"] for o in games["klondike"]["options"]]
    assert games["zenuwen"]["max_players"] == 4


# -- calibration ------------------------------------------------------------------------------------


def test_calibrate_from_the_markers_in_the_live_picture_and_draw_the_zones(local: TestClient, hub: Hub) -> None:
    from referee import klondike

    assert local.post("/api/calibration/markers").status_code == 409  # no picture yet
    pic = render(klondike.new_game(klondike.deal(2)))
    hub.publish({"type": "frame", "jpeg": pic.jpeg, "width": pic.width, "height": pic.height, "cards": pic.cards})
    assert [m["id"] for m in local.get("/api/calibration/markers").json()["markers"]] == [0, 1, 2, 3]
    w, h = table_size_mm()
    r = local.post(f"/api/calibration/markers?layout=corners&width_mm={w}&height_mm={h}")
    assert r.status_code == 200, r.text
    det = r.json()["detection"]
    assert det["found_ids"] == [0, 1, 2, 3] and det["rms_error_mm"] < 1.0
    assert r.json()["calibration"]["method"] == "markers"
    zones = local.get("/api/calibration/zones?game=klondike").json()
    by_name = {z["name"]: z["points"] for z in zones["zones_px"]}
    # the zone of tableau pile 1 holds the drawn card at the bottom of pile t1
    first = next(c for c in pic.cards if c["box"][1] > 200 and c["box"][0] < 300)
    xs = [p[0] for p in by_name["tableau1"]]
    assert min(xs) - 2 <= first["box"][0] <= max(xs)
    assert hub.commands.get() is not None  # the pipeline is told
    assert local.get("/api/calibration").json()["calibration"]["image_size"] == [1280, 960]


def test_calibrate_from_four_clicked_corners_and_refuse_degenerate_ones(local: TestClient) -> None:
    body = {"image_px": [[100, 100], [900, 120], [880, 700], [90, 690]], "image_size": [1000, 800],
            "width_mm": 800, "height_mm": 600}
    r = local.post("/api/calibration/points", json=body)
    assert r.status_code == 200 and r.json()["calibration"]["method"] == "points"
    body["image_px"] = [[0, 0], [1, 1], [2, 2], [3, 3]]
    assert local.post("/api/calibration/points", json=body).status_code == 422


def test_an_uploaded_calibration_image_that_is_not_an_image_is_refused(local: TestClient) -> None:
    r = local.post("/api/calibration/markers", content=b"not an image at all")
    assert r.status_code == 422 and "decoded" in r.json()["detail"]


def test_the_marker_sheet_is_a_pdf(local: TestClient) -> None:
    r = local.get("/api/calibration/marker-sheet.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_a_calibration_file_is_loaded_and_saved(tmp_path: Path, hub: Hub) -> None:
    path = tmp_path / "cal.json"
    app = create_app(WebSettings(games_dir=tmp_path / "g", calibration_file=path), hub=hub)
    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1") as c:
        body = {"image_px": [[100, 100], [900, 120], [880, 700], [90, 690]], "image_size": [1000, 800]}
        assert c.post("/api/calibration/points", json=body).status_code == 200
    assert json.loads(path.read_text())["method"] == "points"
    with TestClient(create_app(WebSettings(games_dir=tmp_path / "g", calibration_file=path)), client=LOCAL,
                    base_url="http://127.0.0.1") as c:
        assert c.get("/api/calibration").json()["calibration"]["method"] == "points"


# -- the replay source ------------------------------------------------------------------------------


def test_the_replay_judges_logs_and_publishes_a_whole_game_with_its_illegal_move(tmp_path: Path) -> None:
    hub = Hub()
    store = GameStore(tmp_path, fsync=False)
    src = ReplaySource(hub, store, frames=False)
    src.begin()
    while src.step():
        pass
    history = hub.history()
    illegal = [m for m in history if m.get("kind") == "illegal"]
    assert len(illegal) == 1 and illegal[0]["rule"] == "K4" and illegal[0]["cards"] == ["9H", "2D"]
    assert history[-1]["type"] == "call" and history[-1]["call"] == "won"
    state = hub.latest("state")
    assert state is not None and state["phase"] == "over" and state["cards_left"] == [0]
    (game,) = store.games()
    assert (game.result, game.illegal, game.moves, game.calls) == ("won", 1, 243, 1)
    assert len(src.decide_times) == 244


def test_the_replay_obeys_pause_end_and_a_correction(tmp_path: Path) -> None:
    from cardref.web.hub import Command

    hub = Hub()
    store = GameStore(tmp_path, fsync=False)
    src = ReplaySource(hub, store, frames=False)
    src.begin()
    src.step()
    src.step()  # the illegal move
    src.handle(Command("correction", {"reason": "it was legal", "by": "Anna"}))
    src.handle(Command("pause"))
    assert hub.latest("state")["phase"] == "paused"  # type: ignore[index]
    src.handle(Command("end"))
    (game,) = store.games()
    assert game.result == "abandoned" and game.illegal == 0 and game.corrections == 1
    assert hub.history()[-1]["kind"] == "correction"


def test_a_table_filmed_by_the_phone_page_is_calibrated_from_its_picture_and_refereed(tmp_path: Path) -> None:
    """``cardref serve --camera phone``: the phone page's frames are the table's camera; uncalibrated,
    the pages get the picture alone, the set-up page calibrates from the markers in it, and the game
    named on the command line starts on the calibrated table."""
    import argparse
    import time

    from cardref.commands.serve import _table
    from referee import klondike

    args = argparse.Namespace(camera="phone", camera_size=None, players="Ann", game="klondike", rules="draw=1",
                              calibration=tmp_path / "table.json", games_dir=tmp_path / "games", resume=None)
    settings = WebSettings(games_dir=tmp_path / "games", calibration_file=tmp_path / "table.json")
    hub = Hub()
    app = create_app(settings, hub=hub, store=GameStore(settings.games_dir, fsync=False), source=_table(args))
    picture = render(klondike.new_game(klondike.deal(3))).jpeg

    def film_until(done: Any, seconds: float = 60.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline and not done():
            assert client.post("/api/camera/frame", content=picture, headers={"Content-Type": "image/jpeg"}).status_code == 202
            time.sleep(0.1)
        assert done()

    with TestClient(app, client=LOCAL, base_url="http://127.0.0.1:8000") as client:
        film_until(lambda: hub.latest_frame() is not None)
        frame, jpeg = hub.latest_frame()  # type: ignore[misc]
        assert frame["cards"] == [] and jpeg  # the picture alone: nothing is read before calibration
        assert client.get("/api/session").json()["setup"]["players"][0]["name"] == "Ann"
        w, h = table_size_mm()
        r = client.post(f"/api/calibration/markers?layout=corners&width_mm={w}&height_mm={h}")
        assert r.status_code == 200, r.text
        assert (tmp_path / "table.json").is_file()  # saved where --calibration said
        film_until(lambda: client.get("/api/games").json() != [])
        film_until(lambda: (hub.latest_frame() or ({"cards": []}, b""))[0]["cards"] != [])  # now the cards are read
        (game,) = client.get("/api/games").json()
        assert game["game"] == "klondike" and game["players"] == ["Ann"] and "draw=1" in game["rules"]


def test_a_card_named_on_the_referee_screen_goes_to_the_pipeline(remote: TestClient, hub: Hub) -> None:
    r = remote.post("/api/session/name", json={"zone": "centre1", "card": "QS", "by": "Ann"}, headers=auth())
    assert r.status_code == 202
    command = hub.commands.get(timeout=1.0)
    assert command is not None and command.kind == "name" and command.data == {"zone": "centre1", "card": "QS", "by": "Ann"}
    for bad in ({"zone": "centre1; drop", "card": "QS"}, {"zone": "centre1", "card": "QUEEN"}, {"zone": "centre1"}):
        assert remote.post("/api/session/name", json=bad, headers=auth()).status_code == 422


def test_the_set_up_page_offers_the_games_left_unfinished_to_take_up_again(settings: WebSettings, hub: Hub) -> None:
    """cardref was killed in the middle of a game: a camera table (whose source says it takes games up)
    lists it, and taking it up starts it again at the table; a finished game or a replay cannot."""
    from cardref.live import LiveReferee
    from referee import klondike
    from test_live import table_of

    store = GameStore(settings.games_dir, fsync=False)
    crashed = store.new_game("klondike", "draw=1", ["Ann"])
    LiveReferee("klondike", "draw=1", writer=crashed).feed(table_of(klondike.new_game(klondike.deal(4)), 5.0, 0))
    crashed.close()  # no end record
    ended = store.new_game("klondike", "draw=1", ["Bob"])
    ended.end(1.0, "won")
    ended.close()

    class Table:
        def __init__(self, services: Any) -> None:
            services.session.takes_up = True

        def start(self) -> None:
            pass

        def stop(self) -> None:
            pass

    with TestClient(create_app(settings, hub=hub, store=store), client=LOCAL, base_url="http://127.0.0.1:8000") as replay:
        assert replay.get("/api/session/unfinished").json() == []  # a replay takes nothing up
        assert replay.post("/api/session/take-up", json={"game_id": crashed.id}).status_code == 409
    with TestClient(create_app(settings, hub=hub, store=store, source=Table), client=LOCAL, base_url="http://127.0.0.1:8000") as table:
        listed = table.get("/api/session/unfinished").json()
        assert [g["id"] for g in listed] == [crashed.id] and listed[0]["players"] == ["Ann"]
        refused = table.post("/api/session/take-up", json={"game_id": ended.id})
        assert refused.status_code == 409 and "has ended" in refused.json()["detail"]
        assert table.post("/api/session/take-up", json={"game_id": "nosuch"}).status_code == 409
        assert table.post("/api/session/take-up", json={"game_id": crashed.id}).json()["phase"] == "playing"
        commands = []
        while (command := hub.commands.get(timeout=0.1)) is not None:
            commands.append(command)
        assert [(c.kind, c.data.get("take_up")) for c in commands if c.kind == "start"] == [("start", crashed.id)]
    with TestClient(create_app(settings, hub=hub, store=store, source=Table), client=REMOTE) as remote:
        assert remote.post("/api/session/take-up", json={"game_id": crashed.id}).status_code == 401  # a control action
