"""Calibration from the setup page, through :mod:`calibration`: ArUco markers found in the live
picture (or an uploaded image), or four clicked corners of the play area; the zone templates drawn
onto the picture so people can check them; the printable marker sheet. OpenCV is imported only
inside the handlers that decode images."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..deps import Services, get_services, require_control
from ..hub import Command

router = APIRouter(prefix="/api/calibration", tags=["calibration"])

Pair = tuple[float, float]


class CornersIn(BaseModel):
    """Four (or more) points clicked on the live picture and where they lie on the table. Without
    ``table_mm`` the points are the play area's corners (top-left, top-right, bottom-right,
    bottom-left as player 1 sees them) and ``width_mm`` x ``height_mm`` its size."""

    model_config = ConfigDict(extra="forbid")

    image_px: list[Pair] = Field(min_length=4, max_length=64, title="clicked points", description="picture pixels")
    image_size: tuple[int, int] = Field(title="picture size", description="width, height in pixels")
    table_mm: list[Pair] | None = Field(default=None, max_length=64, title="table points", description="mm")
    width_mm: float = Field(default=800.0, gt=0, le=5000, title="play area width")
    height_mm: float = Field(default=600.0, gt=0, le=5000, title="play area height")


class CalibrationOut(BaseModel):
    calibration: dict[str, Any] | None = Field(title="the calibration file in use", description="docs/calibration-format.md")
    detection: dict[str, Any] | None = Field(default=None, title="the last marker detection")


def _latest_image(svc: Services, body: bytes) -> Any:
    import cv2
    import numpy as np

    data = body
    if not data:
        latest = svc.hub.latest_frame()
        data = latest[1] if latest is not None else (svc.phone.latest_jpeg() or b"")
    if not data:
        raise HTTPException(409, "no picture: no camera frame yet and no image sent")
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise HTTPException(422, "the image could not be decoded (send JPEG or PNG)")
    return image


def _layout(layout: str, width_mm: float, height_mm: float) -> Any:
    from calibration.markers import MarkerLayout

    return MarkerLayout.sheet() if layout == "sheet" else MarkerLayout.corners(width_mm, height_mm)


def _detect(image: Any) -> dict[str, Any]:
    from calibration.markers import detect_markers

    found = detect_markers(image)
    h, w = image.shape[:2]
    return {"image_size": [w, h], "markers": [{"id": i, "corners": q.round(1).tolist()} for i, q in sorted(found.items())]}


def _set(svc: Services, cal: Any, detection: dict[str, Any] | None) -> CalibrationOut:
    doc = cal.model_dump(mode="json", exclude_none=True)
    with svc.calibration.lock:
        svc.calibration.current = doc
        svc.calibration.last_detection = detection
    if svc.settings.calibration_file is not None:
        from calibration.store import save_calibration

        save_calibration(cal, svc.settings.calibration_file)
    svc.hub.commands.put(Command("calibration", doc))
    return CalibrationOut(calibration=doc, detection=detection)


@router.get("", response_model=CalibrationOut, summary="The calibration in use")
def get_calibration(svc: Services = Depends(get_services)) -> CalibrationOut:
    with svc.calibration.lock:
        return CalibrationOut(calibration=svc.calibration.current, detection=svc.calibration.last_detection)


@router.get("/markers", summary="ArUco markers found in the latest picture (for the live view)")
def markers_now(svc: Services = Depends(get_services)) -> dict[str, Any]:
    return _detect(_latest_image(svc, b""))


@router.post("/markers", response_model=CalibrationOut, dependencies=[Depends(require_control)],
             summary="Calibrate from the markers in the latest picture, or in an image sent as the body")
async def calibrate_markers(
    request: Request,
    layout: Literal["sheet", "corners"] = Query("sheet", description="the printed sheet laid whole, or four cut-out corners"),
    width_mm: float = Query(800.0, gt=0, le=5000, description="corners: play area width"),
    height_mm: float = Query(600.0, gt=0, le=5000, description="corners: play area height"),
    svc: Services = Depends(get_services),
) -> CalibrationOut:
    from calibration.homography import CalibrationError
    from calibration.markers import fit_markers, detect_markers
    from calibration.store import MarkersUsed, make_calibration

    image = _latest_image(svc, await request.body())
    placed = _layout(layout, width_mm, height_mm)
    found = detect_markers(image, placed.dictionary)
    h, w = image.shape[:2]
    try:
        fit = fit_markers(found, placed, (w, h))
    except CalibrationError as exc:
        raise HTTPException(422, str(exc)) from None
    cal = make_calibration(fit.homography, "markers", rms_error_mm=fit.rms_error_mm,
                           markers=MarkersUsed.model_validate(placed.to_json()))
    detection = {"image_size": [w, h], "found_ids": fit.found_ids, "rms_error_mm": round(fit.rms_error_mm, 3),
                 "markers": [{"id": i, "corners": q.round(1).tolist()} for i, q in sorted(found.items())]}
    return _set(svc, cal, detection)


@router.post("/points", response_model=CalibrationOut, dependencies=[Depends(require_control)],
             summary="Calibrate from points clicked on the picture (four corners of the play area)")
def calibrate_points(body: CornersIn, svc: Services = Depends(get_services)) -> CalibrationOut:
    from calibration.homography import CalibrationError, TableHomography
    from calibration.store import PointPairs, make_calibration

    table = body.table_mm or [(0.0, 0.0), (body.width_mm, 0.0), (body.width_mm, body.height_mm), (0.0, body.height_mm)]
    if len(table) != len(body.image_px):
        raise HTTPException(422, f"{len(body.image_px)} clicked points but {len(table)} table points")
    try:
        hom = TableHomography.from_point_pairs(body.image_px, table, body.image_size)
    except CalibrationError as exc:
        raise HTTPException(422, str(exc)) from None
    cal = make_calibration(hom, "points", points=PointPairs(image_px=list(body.image_px), table_mm=list(table)))
    return _set(svc, cal, None)


@router.get("/zones", summary="A game's zone template, in table mm and (once calibrated) picture pixels")
def zones(
    game: Literal["klondike", "double_solitaire", "stress", "zenuwen"] = Query("klondike"),
    players: int | None = Query(None, ge=1, le=4),
    columns: Literal[7, 8] = Query(7),
    width: int | None = Query(None, ge=1, le=20000, description="picture width to draw on (default: calibration size)"),
    height: int | None = Query(None, ge=1, le=20000),
    svc: Services = Depends(get_services),
) -> dict[str, Any]:
    from calibration.store import CalibrationFile
    from calibration.templates import template, template_size

    from referee.followers import find_follower

    follower = find_follower(game)
    try:
        # a game that fixes its player count (Double Solitaire: two) needs no ``players``
        layout = template(follower.layout_game, players or getattr(follower.rules_from_spec(""), "players", None), columns)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    out: dict[str, Any] = {"layout": layout.to_json(), "size_mm": list(template_size(layout)), "zones_px": None}
    with svc.calibration.lock:
        doc = svc.calibration.current
    if doc is not None:
        hom = CalibrationFile.model_validate(doc).homography()
        if width and height:
            hom = hom.for_image_size((width, height))
        out["image_size"] = list(hom.image_size)
        out["zones_px"] = [
            {"name": z.name, "role": z.role, "seat": z.seat, "points": hom.to_image(z.polygon()).round(1).tolist()}
            for z in layout.zones
        ]
    return out


@router.get("/marker-sheet.pdf", summary="The printable A4 marker sheet", response_class=Response,
            responses={200: {"content": {"application/pdf": {}}}})
def marker_sheet() -> Response:
    from calibration.marker_sheet import sheet_pdf

    return Response(sheet_pdf(), media_type="application/pdf",
                    headers={"Content-Disposition": 'inline; filename="cardref-markers.pdf"'})
