"""Settings of the web app: one pydantic model, ``extra="forbid"``, a title, description and bounds
on every field, so a typo in a settings file or a keyword is an error that names the field."""

from __future__ import annotations

import ipaddress
import secrets
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

LOOPBACK_NAMES = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) only reaches this machine."""
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


class WebSettings(BaseModel):
    """How ``cardref serve`` (and ``cardref demo``) run the web app."""

    model_config = ConfigDict(extra="forbid", title="cardref web settings")

    host: str = Field(
        default="127.0.0.1", min_length=1, max_length=255, title="listen address",
        description="127.0.0.1 keeps cardref on this machine; 0.0.0.0 opens it to the network (control then needs the token)",
    )
    port: int = Field(default=8000, ge=0, le=65535, title="port", description="TCP port; 0 picks a free one")
    games_dir: Path | None = Field(
        default=None, title="games directory",
        description="where recorded games live; default $CARDREF_GAMES or ~/.local/share/cardref/games",
    )
    calibration_file: Path | None = Field(
        default=None, title="calibration file",
        description="loaded at start-up if it exists and written when the setup page calibrates (docs/calibration-format.md)",
    )
    token: str | None = Field(
        default=None, min_length=16, max_length=200, title="control token",
        description="needed for control actions from other machines; generated at start-up when not given",
    )
    max_upload_bytes: int = Field(
        default=4_000_000, ge=10_000, le=100_000_000, title="upload limit",
        description="largest request body accepted (calibration images, phone frames, corrections), bytes",
    )
    max_frame_bytes: int = Field(
        default=2_000_000, ge=10_000, le=50_000_000, title="frame limit",
        description="largest JPEG frame the hub passes to viewers or the phone camera accepts, bytes",
    )
    viewer_queue: int = Field(
        default=256, ge=8, le=100_000, title="viewer queue",
        description="messages held per viewer before its oldest are dropped (frames: only the newest is held)",
    )
    max_viewers: int = Field(default=200, ge=1, le=10_000, title="viewer limit", description="WebSocket viewers at once")
    phone_fps: float = Field(default=8.0, gt=0, le=60, title="phone camera rate", description="frames per second a phone sends")

    @field_validator("host")
    @classmethod
    def _host_plain(cls, value: str) -> str:
        if any(c.isspace() for c in value) or "/" in value:
            raise ValueError(f"not a host name or address: {value!r}")
        return value

    @property
    def local_only(self) -> bool:
        return is_loopback(self.host)

    def with_token(self) -> "WebSettings":
        """These settings with a control token (a new random one unless set)."""
        if self.token:
            return self
        return self.model_copy(update={"token": secrets.token_urlsafe(18)})
