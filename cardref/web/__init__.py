"""The cardref web app: the live table, the referee screen, set-up, the phone camera and the review
of recorded games, served by ``cardref serve`` (FastAPI + uvicorn; docs/web-api.md).

The live pipeline publishes into :class:`Hub` (thread-safe, never blocks) and reads what people do
from ``hub.commands``; :func:`create_app` builds the app around a hub, :func:`serve` runs it.
FastAPI itself is imported only by :mod:`cardref.web.app`, so importing the hub stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .hub import Command, CommandQueue, Hub, MessageError
from .settings import WebSettings

if TYPE_CHECKING:
    from .app import create_app, serve


def __getattr__(name: str) -> Any:
    if name in ("create_app", "serve", "start_banner"):
        from . import app

        return getattr(app, name)
    raise AttributeError(name)


__all__ = ["Command", "CommandQueue", "Hub", "MessageError", "WebSettings", "create_app", "serve"]
