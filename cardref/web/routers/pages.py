"""The HTML pages (plain files under ``cardref/web/static``; nothing is fetched from the internet)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse

router = APIRouter(include_in_schema=False)

STATIC = Path(str(resources.files("cardref.web") / "static"))
PAGES = {"": "live.html", "live": "live.html", "referee": "referee.html", "setup": "setup.html",
         "phone": "phone.html", "review": "review.html", "docs": "api.html"}


def _page(name: str) -> FileResponse:
    path = STATIC / PAGES[name]
    if not path.is_file():  # pragma: no cover - a broken install
        raise HTTPException(404, f"page {name!r} is missing from this install")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/")
def live_page() -> FileResponse:
    return _page("")


@router.get("/review/{game_id}")
def review_game_page(game_id: str) -> FileResponse:
    return _page("review")


@router.get("/{name}")
def page(name: str) -> FileResponse:
    if name not in PAGES:
        raise HTTPException(404, f"no page {name!r}")
    return _page(name)
