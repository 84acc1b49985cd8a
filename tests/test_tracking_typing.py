"""Calibration, capture and tracking pass ``mypy --strict`` (STYLE.md: run a type checker as part of the tests)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MODULES = [
    "calibration",
    *(f"vision/{m}.py" for m in ("capture", "frame_sources", "watchdog", "card_grouping", "pile_assignment",
                                 "stability", "motion", "tracking", "back_edges", "reach", "table_state", "synthetic_scenes", "state_check", "detection_replay")),
    "cardref/commands/observe.py",
    "cardref/commands/calibrate.py",
    "cardref/commands/compare_states.py",
]


def test_calibration_capture_and_tracking_are_strictly_typed() -> None:
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--follow-imports=silent", *MODULES],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
