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
