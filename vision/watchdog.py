"""The camera watchdog's decisions, as small pure functions (no threads here; :mod:`vision.capture` calls them).

A camera is offline when its capture worker died or no frame came for ``stale_after_s``; it is then
reconnected every ``reconnect_interval_s``. Status is reported only when it changes.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Callable


class CameraStatus(enum.Enum):
    STARTING = "starting"
    """Not opened yet."""
    ONLINE = "online"
    """Frames are coming."""
    OFFLINE = "offline"
    """Lost, stuck or not openable: being reconnected."""
    ENDED = "ended"
    """A file or folder has no more frames."""


class Action(enum.Enum):
    NONE = "none"
    RESTART = "restart"
    """Give up on the current worker and start a new one with a fresh connection."""


@dataclass(frozen=True, slots=True)
class Health:
    worker_alive: bool
    ended: bool
    last_frame_at: float | None
    """Monotonic time of the last frame, None before the first."""
    started_at: float
    """Monotonic time the current worker started."""


def is_stale(health: Health, now: float, stale_after_s: float) -> bool:
    """No frame for ``stale_after_s`` (counting from the worker's start when none came yet)."""
    since = health.last_frame_at if health.last_frame_at is not None else health.started_at
    return now - since > stale_after_s


def judge(health: Health, now: float, stale_after_s: float) -> CameraStatus:
    """What the camera's status is now."""
    if health.ended:
        return CameraStatus.ENDED
    if not health.worker_alive or is_stale(health, now, stale_after_s):
        return CameraStatus.OFFLINE
    if health.last_frame_at is None:
        return CameraStatus.STARTING
    return CameraStatus.ONLINE


def decide(health: Health, now: float, stale_after_s: float, last_restart: float, reconnect_interval_s: float) -> Action:
    """Restart the worker when it died or is stuck, at most once per reconnect interval."""
    if health.ended or judge(health, now, stale_after_s) is not CameraStatus.OFFLINE:
        return Action.NONE
    if now - last_restart < reconnect_interval_s:
        return Action.NONE
    return Action.RESTART


class StatusReporter:
    """Calls ``notify`` only when the status changes."""

    def __init__(self, notify: Callable[[CameraStatus], None] | None = None) -> None:
        self.status = CameraStatus.STARTING
        self._notify = notify
        self.history: list[CameraStatus] = []

    def report(self, status: CameraStatus) -> bool:
        if status is self.status:
            return False
        self.status = status
        self.history.append(status)
        if self._notify is not None:
            self._notify(status)
        return True
