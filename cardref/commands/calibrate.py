"""``cardref calibrate``: make a calibration file (docs/calibration-format.md) or the marker sheet.

    cardref calibrate markers FRAME.png --layout corners --game klondike --out CAL.json
    cardref calibrate points --image-size 1280x720 --image "102,54 1180,60 1250,700 30,690" \\
        --table "0,0 560,0 560,585 0,585" --game klondike --out CAL.json
    cardref calibrate sheet --out DIR          (markers-a4.pdf and markers-a4.png)
    cardref calibrate preview FRAME.png --calibration CAL.json --out PREVIEW.png   (zones drawn on a frame)

``markers`` reads one picture (or the first frame of a video) of the table with the printed markers
on it; with ``--layout corners`` they lie outside the corners of the game's play area (its size comes
from the zone template unless ``--width``/``--height`` say otherwise).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from vision.frame_sources import parse_size


def _pairs(text: str) -> list[tuple[float, float]]:
    try:
        out = [(float(a), float(b)) for a, b in (p.split(",") for p in text.split())]
    except ValueError as exc:
        raise ValueError(f"points are 'x,y x,y ...', got {text!r}") from exc
    return out


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("calibrate", help="make a calibration file (markers or four points) or the marker sheet")
    sub = p.add_subparsers(dest="how", required=True, metavar="HOW")
    m = sub.add_parser("markers", help="find the printed ArUco markers in a picture or video of the table")
    m.add_argument("picture", help="an image, or a video (its first frame is used)")
    m.add_argument("--layout", choices=("corners", "sheet"), default="corners")
    m.add_argument("--width", type=float, help="play area width, mm (corners; default: the template's)")
    m.add_argument("--height", type=float, help="play area height, mm (corners; default: the template's)")
    m.add_argument("--marker-mm", type=float, default=60.0, help="printed marker side (60 on the shipped sheet)")
    pts = sub.add_parser("points", help="four or more clicked image points and where they lie on the table")
    pts.add_argument("--image-size", required=True, type=parse_size, help="WIDTHxHEIGHT of the picture clicked in")
    pts.add_argument("--image", required=True, type=_pairs, help="'x,y x,y x,y x,y' in pixels")
    pts.add_argument("--table", required=True, type=_pairs, help="the same points on the table, mm")
    for q in (m, pts):
        q.add_argument("--game", choices=("klondike", "stress", "zenuwen"), help="add this game's zone template")
        q.add_argument("--players", type=int)
        q.add_argument("--columns", type=int, choices=(7, 8), default=7)
        q.add_argument("--origin", type=lambda t: _pairs(t)[0], default=(0.0, 0.0),
                       help="'x,y': where the template's top-left goes on the table, mm")
        q.add_argument("--rotation", type=float, default=0.0, help="turn the template, degrees")
        q.add_argument("--out", required=True, help="CAL.json to write")
    v = sub.add_parser("preview", help="draw a calibration's zones on a picture of the table, to check it")
    v.add_argument("picture", help="an image, or a video (its first frame is used)")
    v.add_argument("--calibration", required=True, help="CAL.json")
    v.add_argument("--game", choices=("klondike", "stress", "zenuwen"), help="when the file has no layout")
    v.add_argument("--players", type=int)
    v.add_argument("--columns", type=int, choices=(7, 8), default=7)
    v.add_argument("--out", required=True, help="PNG to write")
    s = sub.add_parser("sheet", help="write the printable marker sheet (PDF and 300 dpi PNG)")
    s.add_argument("--out", required=True, help="folder to write markers-a4.pdf and markers-a4.png into")
    p.set_defaults(func=main)


def _first_picture(path: str) -> Any:
    import cv2

    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        cap = cv2.VideoCapture(path)
        ok, image = cap.read()
        cap.release()
        if not ok:
            raise ValueError(f"cannot read a picture from {path!r}")
    return image


def _layout_spec(args: argparse.Namespace) -> Any:
    from calibration.store import LayoutSpec

    if not args.game:
        return None
    return LayoutSpec(game=args.game, players=args.players, columns=args.columns,
                      origin_mm=tuple(args.origin), rotation_deg=args.rotation)


def draw_zones(image: Any, homography: Any, layout: Any) -> Any:
    """The picture with every zone outlined and named, and its fan direction as an arrow."""
    import cv2
    import numpy as np

    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    h = homography.for_image_size((out.shape[1], out.shape[0]))
    for zone in layout.zones:
        poly = np.round(h.to_image(zone.polygon())).astype(np.int32)
        colour = (60, 220, 60) if zone.seat <= 1 else (220, 160, 40) if zone.seat == 2 else (60, 160, 240)
        cv2.polylines(out, [poly], True, colour, 2)
        centre = zone.polygon().mean(axis=0)
        c = h.to_image([centre])[0]
        cv2.putText(out, zone.name, (int(c[0]) - 25, int(c[1])), cv2.FONT_HERSHEY_SIMPLEX, 0.4, colour, 1)
        if zone.fan is not None:
            tip = h.to_image([centre + 30.0 * np.asarray(zone.fan)])[0]
            cv2.arrowedLine(out, (int(c[0]), int(c[1]) + 8), (int(tip[0]), int(tip[1]) + 8), colour, 1, tipLength=0.3)
    return out


def main(args: argparse.Namespace) -> int:
    from calibration.homography import CalibrationError, TableHomography
    from calibration.store import MarkersUsed, PointPairs, make_calibration, save_calibration

    try:
        if args.how == "sheet":
            from calibration.marker_sheet import write_sheet

            for path in write_sheet(args.out):
                print(path)
            return 0
        if args.how == "preview":
            import cv2

            from calibration.store import load_calibration
            from calibration.templates import template

            cal = load_calibration(args.calibration)
            zones = cal.layout.build() if cal.layout is not None else template(args.game or "klondike", args.players, args.columns)
            if not cv2.imwrite(args.out, draw_zones(_first_picture(args.picture), cal.homography(), zones)):
                raise OSError(f"cannot write {args.out!r}")
            print(args.out)
            return 0
        spec = _layout_spec(args)
        if args.how == "points":
            h = TableHomography.from_point_pairs(args.image, args.table, args.image_size)
            cal = make_calibration(h, "points", points=PointPairs(image_px=args.image, table_mm=args.table), layout=spec)
            save_calibration(cal, args.out)
            print(f"{args.out}: from {len(args.image)} points", file=sys.stderr)
            return 0
        from calibration.markers import MarkerLayout, calibrate_from_markers
        from calibration.templates import template, template_size

        if args.layout == "sheet":
            layout = MarkerLayout.sheet(args.marker_mm)
        else:
            w, h_mm = args.width, args.height
            if w is None or h_mm is None:
                if spec is None:
                    raise ValueError("--layout corners needs --game (for the play area's size) or --width and --height")
                tw, th = template_size(template(args.game, args.players, args.columns))
                w, h_mm = w or tw, h_mm or th
            layout = MarkerLayout.corners(w, h_mm, args.marker_mm)
        fit = calibrate_from_markers(_first_picture(args.picture), layout)
        used = MarkersUsed.model_validate(layout.to_json())
        cal = make_calibration(fit.homography, "markers", markers=used, rms_error_mm=round(fit.rms_error_mm, 3), layout=spec)
        save_calibration(cal, args.out)
        print(f"{args.out}: markers {fit.found_ids}, corner error {fit.rms_error_mm:.2f} mm RMS", file=sys.stderr)
        return 0
    except (ValueError, OSError, CalibrationError) as exc:
        print(f"cardref calibrate: {exc}", file=sys.stderr)
        return 2
