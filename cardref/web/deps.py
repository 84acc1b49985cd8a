"""Shared services and the dependencies the routers take them through (FastAPI ``Depends``).

The services are made in the app's ``lifespan`` and handed to each request as lifespan state
(``request.state.services``), not hung on the app object. :func:`require_control` guards the
control actions: from this machine (and its own pages: a page from another site in the same
browser, or a DNS name rebound to 127.0.0.1, does not count) they are open; otherwise they need the token shown
at start-up (header ``X-Cardref-Token``, ``Authorization: Bearer ...`` or ``?token=`` for WebSockets).
"""

from __future__ import annotations

import secrets
import threading
from urllib.parse import urlsplit
from dataclasses import dataclass, field
from typing import Any

from fastapi import Depends, HTTPException, status
from starlette.requests import HTTPConnection

from cardref.gamelog import GameStore

from .hub import Hub
from .phone import PhoneCamera
from .session import Session
from .settings import WebSettings, is_loopback

TOKEN_HEADER = "x-cardref-token"


@dataclass
class CalibrationState:
    """The calibration in use (a :class:`calibration.store.CalibrationFile` as JSON) and the last
    marker detection, for the setup page."""

    current: dict[str, Any] | None = None
    last_detection: dict[str, Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Services:
    settings: WebSettings
    hub: Hub
    store: GameStore
    session: Session
    phone: PhoneCamera
    calibration: CalibrationState


def get_services(conn: HTTPConnection) -> Services:
    services = getattr(conn.state, "services", None)
    if services is None:  # pragma: no cover - a route called without the lifespan
        raise HTTPException(status.HTTP_503_SERVICE_UNAVAILABLE, "cardref is starting or stopping")
    return services  # type: ignore[no-any-return]


def get_hub(svc: Services = Depends(get_services)) -> Hub:
    return svc.hub


def get_store(svc: Services = Depends(get_services)) -> GameStore:
    return svc.store


def get_settings(svc: Services = Depends(get_services)) -> WebSettings:
    return svc.settings


def presented_token(conn: HTTPConnection) -> str:
    token = conn.headers.get(TOKEN_HEADER, "")
    auth = conn.headers.get("authorization", "")
    if not token and auth.lower().startswith("bearer "):
        token = auth[7:].strip()
    if not token:
        token = conn.query_params.get("token", "")
    return token


def _host_name(host_header: str) -> str:
    """``127.0.0.1:8000`` -> ``127.0.0.1``; ``[::1]:8000`` -> ``::1``."""
    host = host_header.strip()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def same_origin(conn: HTTPConnection) -> bool:
    """False for a browser request made by a page from another site (its ``Origin`` is not this
    server): such a page must not drive the referee through the visitor's browser (CSRF)."""
    origin = conn.headers.get("origin")
    if origin is None:
        return True  # not sent by a page from elsewhere (curl, scripts, same-origin GETs)
    return urlsplit(origin).netloc.lower() == conn.headers.get("host", "").lower()


def control_allowed(conn: HTTPConnection, settings: WebSettings) -> bool:
    """This machine, asking for this machine by name or address (not a rebound DNS name) from
    this server's own pages; or anyone with the token."""
    client = conn.client.host if conn.client else ""
    if is_loopback(client) and is_loopback(_host_name(conn.headers.get("host", ""))) and same_origin(conn):
        return True
    token = presented_token(conn)
    return bool(settings.token) and bool(token) and secrets.compare_digest(token, settings.token or "")


def require_control(conn: HTTPConnection, svc: Services = Depends(get_services)) -> None:
    """Control actions (setup, start, corrections, delete, frames) from another machine need the token."""
    if not control_allowed(conn, svc.settings):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "control from another machine needs the token shown when cardref serve started "
            f"(header {TOKEN_HEADER!r} or Authorization: Bearer)",
            headers={"WWW-Authenticate": "Bearer"},
        )
