"""``cardref serve``: registered in the CLI, refuses bad settings, and serves the pages on
127.0.0.1 by default (a real uvicorn run in a subprocess, fed by the replay)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from cardref.cli import build_parser
from cardref.gamelog.store import GameStore


def test_serve_is_a_cardref_command_listening_on_localhost_by_default() -> None:
    args = build_parser().parse_args(["serve"])
    assert args.host == "127.0.0.1" and args.port == 8000 and not args.replay


def test_serve_refuses_a_bad_host() -> None:
    from cardref.cli import main

    assert main(["serve", "--host", "a b"]) == 2


def test_serve_says_which_clips_it_cannot_replay(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from cardref.cli import main

    stress = Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "stress_slap"
    assert main(["serve", "--replay-video", str(stress)]) == 2
    assert "stress video" in capsys.readouterr().out
    assert main(["serve", "--replay-video", str(tmp_path)]) == 2
    assert "not a truth video" in capsys.readouterr().out


def test_serve_runs_the_replay_and_prints_the_token_when_open_to_the_network(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardref.cli", "serve", "--host", "0.0.0.0", "--port", str(port),
         "--games-dir", str(tmp_path), "--replay", "--replay-speed", "50"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        banner = ""
        deadline = time.monotonic() + 60
        while "token" not in banner and time.monotonic() < deadline:
            banner += proc.stdout.readline()  # type: ignore[union-attr]
        assert f":{port}/referee" in banner and "need the token" in banner
        live = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/live", timeout=5) as r:
                    live = json.loads(r.read())
                if live["state"] and live["history"]:
                    break
            except OSError:
                pass
            time.sleep(0.3)
        assert live is not None and live["state"]["game"] == "klondike"
        assert live["status"]["camera"] == "replay"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


def test_serve_says_what_is_wrong_with_a_camera_table_before_it_starts(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from cardref.cli import main

    (tmp_path / "garbage.mp4").write_bytes(b"not a video")
    video = str(Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "klondike" / "video.mp4")
    games = str(tmp_path / "games")
    ended = GameStore(games, fsync=False).new_game("klondike", "draw=1", ["Ann"])
    ended.end(3.0, "won")
    ended.close()
    for args, said in [
        (["--camera", str(tmp_path / "nope.mp4")], "no camera index, URL, folder or video file"),
        (["--camera", str(tmp_path / "garbage.mp4")], "is no video file"),
        (["--camera", "0", "--replay"], "one source at a time"),
        (["--camera", "0", "--game", "zenuwen", "--players", "5"], "zenuwen is for 2-4 players, got 5"),
        (["--camera", "0", "--game", "zenuwen", "--players", "Ann,,Cor"], "names of 1 to 40 characters"),
        (["--camera", "0", "--game", "zenuwen", "--players", "3", "--rules", "players=2"], "players=2, but 3 players"),
        (["--camera", "0", "--camera-size", "big"], "looks like 1920x1080"),
        (["--resume", "last"], "give --camera too"),
        (["--camera", video, "--games-dir", games, "--resume", "nosuch"], "no game 'nosuch'"),
        (["--camera", video, "--games-dir", str(tmp_path / "none"), "--resume", "last"], "no game is recorded"),
        (["--camera", video, "--games-dir", games, "--resume", "last"], "has ended"),
    ]:
        assert main(["serve", *args]) == 2, args
        assert said in capsys.readouterr().out, args


def test_serve_referees_a_camera_table_and_records_the_game(tmp_path: Path) -> None:
    # A video file stands in for the webcam (played at its own pace, as a camera films it).
    clip = Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "klondike"
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardref.cli", "serve", "--port", str(port), "--games-dir", str(tmp_path / "games"),
         "--camera", str(clip / "video.mp4"), "--calibration", str(clip / "calibration.json"),
         "--game", "klondike", "--rules", json.loads((clip / "render.json").read_text())["rules"], "--players", "Ann"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        games: list = []
        live: dict = {}
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=5) as r:
                    games = json.loads(r.read())
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/live", timeout=5) as r:
                    live = json.loads(r.read())
                if games and live.get("history"):
                    break
            except OSError:
                pass
            time.sleep(0.5)
        games = games.get("games", games) if isinstance(games, dict) else games
        assert len(games) == 1 and games[0]["players"] == ["Ann"] and games[0]["game"] == "klondike"
        assert live["status"]["camera"] == "online" and live["history"]  # the first move was judged
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


def test_a_camera_tables_calibration_is_kept_in_the_config_folder_unless_told_otherwise(
    tmp_path: Path, monkeypatch, capsys  # type: ignore[no-untyped-def]
) -> None:
    import cardref.web.app as web_app
    from calibration.homography import TableHomography
    from calibration.store import load_calibration, make_calibration, save_calibration
    from cardref.cli import main

    served: list = []
    monkeypatch.setattr(web_app, "serve", lambda app, **kwargs: served.append(app))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    video = Path(__file__).resolve().parents[1] / "cardref" / "demo" / "clips" / "klondike" / "video.mp4"
    assert main(["serve", "--camera", str(video), "--games-dir", str(tmp_path / "games")]) == 0
    where = tmp_path / "config" / "cardref" / "calibration.json"
    assert served[0].state.settings.calibration_file == where
    assert f"calibration file {where} (not there yet" in capsys.readouterr().out
    # saved whole into a folder that did not exist yet, and read back
    cal = make_calibration(TableHomography.from_point_pairs([(0, 0), (10, 0), (10, 10), (0, 10)],
                                                            [(0, 0), (100, 0), (100, 100), (0, 100)], (20, 20)))
    save_calibration(cal, where)
    assert load_calibration(where).image_size == (20, 20) and not where.with_name("calibration.json.part").exists()
