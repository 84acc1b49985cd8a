"""The printable marker sheet: four ArUco markers on A4, as a vector PDF and a 300 dpi PNG.

Print at 100 % ("actual size", no fit-to-page) and check the 100 mm bar with a ruler. Lay the sheet
whole on the table (layout ``sheet``) or cut the four markers out along the dashed lines and lay them
outside the corners of the play area (layout ``corners``), all upright as player 1 reads them.
The PDF is written by hand (a few drawing operators), so no PDF library is needed.
"""

from __future__ import annotations

import zlib
from pathlib import Path

import numpy as np
import numpy.typing as npt

from calibration.markers import A4_MM, MarkerLayout, aruco_dictionary

PT_PER_MM = 72.0 / 25.4
CUT_MARGIN_MM = 8.0


def marker_bits(marker_id: int, dictionary: str = "DICT_4X4_50") -> npt.NDArray[np.bool_]:
    """The marker's cells, border included, True where black (6 x 6 for a 4x4 dictionary)."""
    import cv2

    d = aruco_dictionary(dictionary)
    cells = int(d.markerSize) + 2
    img = cv2.aruco.generateImageMarker(d, marker_id, cells)
    return np.asarray(img < 128)


def _labels(layout: MarkerLayout) -> list[tuple[float, float, str]]:
    out = []
    for m in layout.markers:
        out.append((m.x_mm, m.y_mm + m.size_mm + 5.0, f"cardref marker {m.id}  ({m.size_mm:.0f} mm)"))
    return out


def sheet_pdf(layout: MarkerLayout | None = None) -> bytes:
    """The sheet as a one-page A4 PDF with the markers drawn as exact vector squares."""
    layout = layout or MarkerLayout.sheet()
    w_mm, h_mm = A4_MM
    ops: list[str] = []

    def y(mm: float) -> float:  # PDF y grows upwards
        return (h_mm - mm) * PT_PER_MM

    ops.append("0 g")
    for m in layout.markers:
        bits = marker_bits(m.id, layout.dictionary)
        cell = m.size_mm / bits.shape[0]
        for r in range(bits.shape[0]):
            for c in range(bits.shape[1]):
                if bits[r, c]:
                    x0 = (m.x_mm + c * cell) * PT_PER_MM
                    ops.append(f"{x0:.3f} {y(m.y_mm + (r + 1) * cell):.3f} {cell * PT_PER_MM:.3f} {cell * PT_PER_MM:.3f} re f")
    ops.append("0.5 G 0.5 w [4 4] 0 d")
    for m in layout.markers:
        x0, y0 = m.x_mm - CUT_MARGIN_MM, m.y_mm - CUT_MARGIN_MM
        side = m.size_mm + 2 * CUT_MARGIN_MM
        ops.append(f"{x0 * PT_PER_MM:.3f} {y(y0 + side):.3f} {side * PT_PER_MM:.3f} {side * PT_PER_MM:.3f} re S")
    ops.append("[] 0 d 0 G 1 w")
    bar_x, bar_y = (w_mm - 100.0) / 2.0, h_mm / 2.0
    ops.append(f"{bar_x * PT_PER_MM:.3f} {y(bar_y):.3f} m {(bar_x + 100) * PT_PER_MM:.3f} {y(bar_y):.3f} l S")
    for tick in (0.0, 100.0):
        tx = (bar_x + tick) * PT_PER_MM
        ops.append(f"{tx:.3f} {y(bar_y - 3):.3f} m {tx:.3f} {y(bar_y + 3):.3f} l S")
    texts = _labels(layout) + [
        (bar_x, bar_y + 8.0, "this bar must measure 100 mm: print at actual size"),
        (bar_x, bar_y + 14.0, "lay upright as player 1 reads it"),
    ]
    for tx, ty, text in texts:
        safe = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        ops.append(f"BT /F1 9 Tf {tx * PT_PER_MM:.3f} {y(ty):.3f} Td ({safe}) Tj ET")
    content = zlib.compress("\n".join(ops).encode("ascii"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {w_mm * PT_PER_MM:.2f} {h_mm * PT_PER_MM:.2f}] "
         "/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>").encode("ascii"),
        b"<< /Length " + str(len(content)).encode() + b" /Filter /FlateDecode >>\nstream\n" + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def sheet_image(layout: MarkerLayout | None = None, dpi: float = 300.0) -> npt.NDArray[np.uint8]:
    """The sheet as a grayscale image at ``dpi`` (A4: 2480 x 3508 px at 300 dpi)."""
    import cv2

    layout = layout or MarkerLayout.sheet()
    px = dpi / 25.4
    w, h = int(round(A4_MM[0] * px)), int(round(A4_MM[1] * px))
    img = np.full((h, w), 255, np.uint8)
    for m in layout.markers:
        bits = marker_bits(m.id, layout.dictionary)
        n = bits.shape[0]
        for r in range(n):
            for c in range(n):
                if bits[r, c]:
                    x0 = int(round((m.x_mm + c * m.size_mm / n) * px))
                    x1 = int(round((m.x_mm + (c + 1) * m.size_mm / n) * px))
                    y0 = int(round((m.y_mm + r * m.size_mm / n) * px))
                    y1 = int(round((m.y_mm + (r + 1) * m.size_mm / n) * px))
                    img[y0:y1, x0:x1] = 0
    for tx, ty, text in _labels(layout):
        cv2.putText(img, text, (int(tx * px), int(ty * px)), cv2.FONT_HERSHEY_SIMPLEX, dpi / 300.0, 0, 2)
    bar_x, bar_y = (A4_MM[0] - 100.0) / 2.0, A4_MM[1] / 2.0
    cv2.line(img, (int(bar_x * px), int(bar_y * px)), (int((bar_x + 100) * px), int(bar_y * px)), 0, 2)
    cv2.putText(img, "this bar must measure 100 mm", (int(bar_x * px), int((bar_y + 8) * px)),
                cv2.FONT_HERSHEY_SIMPLEX, dpi / 300.0, 0, 2)
    return img


def write_sheet(folder: str | Path, layout: MarkerLayout | None = None) -> list[Path]:
    """Write ``markers-a4.pdf`` and ``markers-a4.png`` (300 dpi) into ``folder``."""
    import cv2

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    pdf, png = folder / "markers-a4.pdf", folder / "markers-a4.png"
    pdf.write_bytes(sheet_pdf(layout))
    cv2.imwrite(str(png), sheet_image(layout), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    return [pdf, png]
