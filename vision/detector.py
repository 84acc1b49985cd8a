"""Card detection on the CPU with ONNX Runtime: no PyTorch at run time.

Two stages, both small ONNX models shipped in ``models/``:

1. a detector (YOLO-style output ``(1, 4 + 2, N)``: cx, cy, w, h in input pixels, then the scores of
   "corner index" and "card back"), run on the letterboxed frame;
2. a classifier that reads the card code from a square crop around each corner index, cut from the
   full-resolution frame (:func:`crop_square`); its last class ``NONE`` rejects boxes that are not a
   readable index.

Parts of the frame may be run again on their own (``DetectorConfig.tiles``: far cards at the frame's
own resolution; ``DetectorConfig.turned``: a side seat's sideways cards turned up), their candidates
pooled with the whole frame's before NMS.

The result is one :class:`~vision.detections.Detection` per corner index (``card`` = ``10H`` ...) or
back (``card`` = ``BACK``), boxes in the pixels of the image that was passed in. Sessions are cached
per (model file, thread count). NumPy and OpenCV are imported here; ONNX Runtime only when a model is
first loaded.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

import cv2
import numpy as np

from vision.detections import BACK, Detection, box_iou

MODELS = Path(__file__).resolve().parent.parent / "models"
DETECTOR_ONNX = MODELS / "corner_detector.onnx"
CLASSIFIER_ONNX = MODELS / "corner_classifier.onnx"
STRIDE = 32
INDEX_ASPECT = 1.7
"""A whole corner index's height over its width (rank over suit): 1.5-1.8 in the decks measured."""


class ImageError(ValueError):
    """An input that is not a readable image."""


def crop_square(img: np.ndarray, box: Sequence[float], size: int, margin: float = 1.3, turns: int = 0) -> np.ndarray:
    """A ``size`` x ``size`` crop centred on ``box``, its side ``margin`` times the box's longer side,
    turned by ``turns`` quarter turns counter-clockwise (``np.rot90``).

    Parts outside the frame are filled by repeating the border. The same rule is used to make the
    classifier's training crops and at run time.
    """
    if turns % 4:
        return np.ascontiguousarray(np.rot90(crop_square(img, box, size, margin), turns))
    x1, y1, x2, y2 = (float(v) for v in box)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1, 2.0) * margin
    s = size / side
    m = np.array([[s, 0, size / 2 - s * cx], [0, s, size / 2 - s * cy]], np.float32)
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def letterbox(img: np.ndarray, imgsz: int) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Scale the longer side to ``imgsz`` and pad each side to a multiple of 32 (grey 114).

    Returns the padded image, the scale and the (left, top) padding, so a box maps back to the
    input as ``(x - left) / scale``.
    """
    h, w = img.shape[:2]
    r = imgsz / max(h, w)
    nw, nh = max(1, round(w * r)), max(1, round(h * r))
    pw, ph = (-nw) % STRIDE, (-nh) % STRIDE
    left, top = pw // 2, ph // 2
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if r < 1 else cv2.INTER_LINEAR)
    out = cv2.copyMakeBorder(resized, top, ph - top, left, pw - left, cv2.BORDER_CONSTANT, value=(114, 114, 114))
    return out, r, (float(left), float(top))


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression (boxes as x1, y1, x2, y2)."""
    order = np.argsort(-scores)
    keep: list[int] = []
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx1 = np.maximum(boxes[i, 0], boxes[rest, 0])
        yy1 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx2 = np.minimum(boxes[i, 2], boxes[rest, 2])
        yy2 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.clip(xx2 - xx1, 0, None) * np.clip(yy2 - yy1, 0, None)
        ov = inter / (areas[i] + areas[rest] - inter + 1e-9)
        order = rest[ov <= iou]
    return np.array(keep, dtype=np.int64)


@lru_cache(maxsize=8)
def _session(path: str, threads: int) -> Any:
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    return ort.InferenceSession(path, sess_options=opts, providers=["CPUExecutionProvider"])


def _meta(session: Any) -> dict[str, str]:
    return dict(session.get_modelmeta().custom_metadata_map)


def read_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR, or raise :class:`ImageError` naming the file."""
    p = Path(path)
    if not p.is_file():
        raise ImageError(f"no such image file: {str(p)!r}")
    data = np.fromfile(str(p), dtype=np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if img is None:
        raise ImageError(f"cannot decode image: {str(p)!r} ({data.size} bytes)")
    return img


@dataclass
class DetectorConfig:
    """``imgsz``: the detector's input size (longer side), or several sizes whose candidates are pooled.
    ``conf`` is the threshold on the reported confidence (detector score x classifier probability);
    boxes scoring below ``conf * candidate_factor`` are not even classified: the reported confidence is
    the detector's score times a probability, so a box under ``conf`` can never be reported, and cutting
    it before NMS changes nothing (a box only suppresses boxes that score lower)."""

    imgsz: int | tuple[int, ...] = (384, 640)
    conf: float = 0.15
    iou: float = 0.5
    candidate_factor: float = 1.0
    threads: int = 2
    reread: tuple[tuple[int, int, int, int], ...] = ()
    """Parts of the frame (x1, y1, x2, y2) where indices lie side by side or one under another, a draw-3
    waste's, a Klondike column's (vision.fine_regions picks them): a box there that the classifier reads
    as a card under ``reread_below`` is read again from crops shifted by ``reread_shift`` of its width
    and height each way, and the five readings decide."""
    reread_all: bool = False
    """Read every unsure card reading again, wherever it lies: for a still picture (``cardref detect``,
    ``cardref evaluate``), which is read once, so only being right counts. Not in the live pipeline
    outside Klondike's fanned piles: there a far seat's steady misreading became a wavering faint truth
    that a Zenuwen referee waited on (docs/truth-videos.md, eighteenth session)."""
    reread_below: float = 0.9
    reread_shift: float = 0.05
    tiles: tuple[tuple[int, int, int, int], ...] = ()
    """Parts of the frame (x1, y1, x2, y2 in its pixels) also run at their own resolution, candidates
    pooled with the whole frame's: where a table's far cards are too small for the whole-frame sizes
    (vision.fine_regions picks them from the calibration)."""
    turned: tuple["Turned", ...] = ()
    """Parts of the frame where cards lie sideways, as a side seat's do (vision.fine_regions picks them
    from the calibration)."""
    top_down: tuple["TopDown", ...] = ()
    """Parts of the table read from a view warped to look straight down on them: a far seat, whose
    indices the camera sees small and squashed (vision.fine_regions picks them from the calibration)."""


@dataclass(frozen=True)
class TopDown:
    """A part of the table seen from straight above: ``matrix`` (3x3, row by row) takes frame pixels to
    the pixels of a ``size`` (width, height) picture of it, cards standing upright there. The detector
    reads that picture whole, at its usual sizes; what it finds inside ``outline`` (frame pixels) is
    mapped back and replaces what the frame itself gave there."""

    matrix: tuple[float, ...]
    size: tuple[int, int]
    outline: tuple[tuple[float, float], ...]

    def holds(self, x: float, y: float) -> bool:
        return _holds(self.outline, x, y)

    def picture(self, img: np.ndarray) -> np.ndarray:
        return cv2.warpPerspective(img, np.asarray(self.matrix, np.float64).reshape(3, 3), self.size,
                                   flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)

    def to_frame(self, box: Sequence[float]) -> tuple[float, float, float, float]:
        """A box of the picture as the frame box around it."""
        x1, y1, x2, y2 = box
        pts = np.array([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float64)
        back = cv2.perspectiveTransform(pts, np.linalg.inv(np.asarray(self.matrix, np.float64).reshape(3, 3)))[0]
        return float(back[:, 0].min()), float(back[:, 1].min()), float(back[:, 0].max()), float(back[:, 1].max())


@dataclass(frozen=True)
class Turned:
    """A part of the frame where cards lie sideways: the outline (x, y frame pixels) holds them, and
    ``turns`` quarter turns (``np.rot90``) stand them up. The rectangle around the outline is run again
    at its own resolution, turned, and an index whose centre lies inside the outline is read turned.
    The models learnt upright and upside-down indices (every card shows both); sideways ones they
    barely read. The outline, not the rectangle, decides: a neighbouring seat's upright cards in the
    rectangle's corner are read as they are (read turned, the near seat lost three of 29 tops)."""

    turns: int
    outline: tuple[tuple[float, float], ...]
    pad: int = 16
    """Pixels of table around the outline in the tile the detector runs on (context for its edges)."""

    @property
    def tile(self) -> tuple[int, int, int, int]:
        xs, ys = [p[0] for p in self.outline], [p[1] for p in self.outline]
        return (int(np.floor(min(xs))) - self.pad, int(np.floor(min(ys))) - self.pad,
                int(np.ceil(max(xs))) + self.pad, int(np.ceil(max(ys))) + self.pad)

    def holds(self, x: float, y: float) -> bool:
        return _holds(self.outline, x, y)


def _holds(outline: Sequence[tuple[float, float]], x: float, y: float) -> bool:
    """Whether the point lies inside the outline or on it (frame pixels)."""
    return cv2.pointPolygonTest(np.asarray(outline, np.float32), (float(x), float(y)), False) >= 0


class CardDetector:
    """Corner-index detector + card-code classifier. Thread-safe; sessions are shared and cached."""

    def __init__(self, detector: str | Path = DETECTOR_ONNX, classifier: str | Path = CLASSIFIER_ONNX,
                 config: DetectorConfig | None = None) -> None:
        self.config = config or DetectorConfig()
        for p in (detector, classifier):
            if not Path(p).is_file():
                raise FileNotFoundError(f"model file not found: {str(p)!r}")
        self._models = (detector, classifier)
        self._det = _session(str(Path(detector).resolve()), self.config.threads)
        self._cls = _session(str(Path(classifier).resolve()), self.config.threads)
        meta = _meta(self._cls)
        self.classes: list[str] = json.loads(meta["classes"])
        self._none = self.classes.index("NONE")
        self.crop_size = int(meta.get("crop_size", 64))
        self.crop_margin = float(meta.get("crop_margin", 1.3))
        self._lock = threading.Lock()
        self._plain_detector: CardDetector | None = None

    def detect(self, img: np.ndarray) -> list[Detection]:
        """Detections in one BGR frame (any size), boxes in that frame's pixels."""
        if not isinstance(img, np.ndarray) or img.ndim != 3 or img.shape[2] != 3 or img.size == 0:
            raise ImageError(f"expected a BGR image of shape (H, W, 3), got {getattr(img, 'shape', type(img))}")
        out = self._detect(img)
        for view in self.config.top_down:
            out = [d for d in out if not view.holds((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2)]
            for d in self._plain.detect(view.picture(img)):
                box = view.to_frame(d.box)
                if view.holds((box[0] + box[2]) / 2, (box[1] + box[3]) / 2):
                    out.append(Detection(d.card, box, d.confidence))
        return _dedupe(out) if self.config.top_down else out

    @property
    def _plain(self) -> "CardDetector":
        """The same models and sizes with no parts of their own (for a top-down picture; the sessions
        are shared)."""
        if self._plain_detector is None:
            plain = replace(self.config, tiles=(), turned=(), top_down=(), reread=(), reread_all=False)
            self._plain_detector = CardDetector(*self._models, config=plain)
        return self._plain_detector

    def _detect(self, img: np.ndarray) -> list[Detection]:
        boxes, scores, kinds = self._find(img)
        out: list[Detection] = []
        corner = np.nonzero(kinds == 0)[0]
        if corner.size:
            codes, probs = self._read(img, boxes[corner])
            for j, code, p in zip(corner, codes, probs):
                if code == "NONE" or scores[j] * p < self.config.conf:
                    continue
                out.append(Detection(code, tuple(float(v) for v in boxes[j]), float(scores[j] * p)))  # type: ignore[arg-type]
        for j in np.nonzero(kinds == 1)[0]:
            if scores[j] >= self.config.conf:
                out.append(Detection(BACK, tuple(float(v) for v in boxes[j]), float(scores[j])))  # type: ignore[arg-type]
        return _dedupe(out)

    def read_boxes(self, img: np.ndarray, boxes: Sequence[Sequence[float]]) -> list[tuple[str, float]]:
        """The classifier alone: the code (or ``NONE``) and its probability for each given corner box
        (frame pixels); ``cardref evaluate --stages`` uses it on the labelled boxes."""
        if len(boxes) == 0:
            return []
        codes, probs = self._read(img, np.asarray(boxes, np.float32))
        return [(c, float(p)) for c, p in zip(codes, probs)]

    def find_boxes(self, img: np.ndarray) -> list[tuple[str, tuple[float, float, float, float], float]]:
        """The detector alone: ("corner" or ``BACK``, box, score) for each candidate after NMS."""
        boxes, scores, kinds = self._find(img)
        return [("corner" if k == 0 else BACK, tuple(float(v) for v in b), float(sc))  # type: ignore[misc]
                for b, sc, k in zip(boxes, scores, kinds)]

    def _find(self, img: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Candidate boxes (input pixels), scores and kinds (0 corner, 1 back) after NMS.

        With several input sizes the frame is run once per size and the candidates are pooled before
        NMS: a small size finds big close-up indices, a large one the small indices of a whole table.
        """
        c = self.config
        sizes = (c.imgsz,) if isinstance(c.imgsz, int) else tuple(c.imgsz)
        parts = [self._run(img, s) for s in sizes]
        H, W = img.shape[:2]
        for x1, y1, x2, y2, turns in [(*t, 0) for t in c.tiles] + [(*t.tile, t.turns) for t in c.turned]:
            x1, y1, x2, y2 = max(0, x1), max(0, y1), min(W, x2), min(H, y2)
            if x2 - x1 < 32 or y2 - y1 < 32:
                continue
            tile = np.ascontiguousarray(np.rot90(img[y1:y2, x1:x2], turns))
            b, sc, kind = self._run(tile, -(-max(x2 - x1, y2 - y1) // 32) * 32)
            b = _unturn(b, turns, x2 - x1, y2 - y1)
            parts.append((b + np.array([x1, y1, x1, y1], np.float32), sc, kind))
        boxes = np.concatenate([p[0] for p in parts])
        scores = np.concatenate([p[1] for p in parts])
        kinds = np.concatenate([p[2] for p in parts])
        kept = []
        for k in (0, 1):
            idx = np.nonzero(kinds == k)[0]
            if idx.size:
                kept.append(idx[nms(boxes[idx], scores[idx], c.iou)])
        if not kept:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)
        sel = np.concatenate(kept)
        return boxes[sel], scores[sel], kinds[sel]

    def _run(self, img: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        c = self.config
        lb, r, (left, top) = letterbox(img, imgsz)
        x = np.ascontiguousarray(lb[:, :, ::-1].transpose(2, 0, 1)[None], dtype=np.float32) / 255.0
        pred = self._det.run(None, {self._det.get_inputs()[0].name: x})[0][0]  # (4 + nc, N)
        cls_scores = pred[4:]
        kinds = cls_scores.argmax(0)
        scores = cls_scores.max(0)
        keep = scores >= c.conf * c.candidate_factor
        pred, kinds, scores = pred[:, keep], kinds[keep], scores[keep]
        cx, cy, w, h = pred[:4]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        boxes = (boxes - np.array([left, top, left, top], np.float32)) / r
        H, W = img.shape[:2]
        boxes = np.clip(boxes, 0, [W, H, W, H]).astype(np.float32)
        return boxes, scores.astype(np.float32), kinds.astype(np.int64)

    def _read(self, img: np.ndarray, boxes: np.ndarray) -> tuple[list[str], np.ndarray]:
        """The classifier's code and probability per box (cut turned up where cards lie sideways).

        Where indices lie side by side or one under another (``reread``; everywhere with
        ``reread_all``), an unsure reading is often the crop's, not the index's: a box a pixel higher or
        narrower tips a narrow index one way or the other (a draw-3 waste's middle 3H, read 5H at 0.64
        from one box and 3H at 0.86 from one a pixel lower). There a box read as a card under
        ``reread_below`` is read again from four crops shifted around it, and the five readings choose
        the code."""
        p = self._probabilities(img, boxes)
        c = self.config
        # (a box first read as no index at all is left: in a waste that is 4 in 7 of the unsure boxes, and
        # reading them again changed no published state of eight draw-3 renders)
        card = p.argmax(1) != self._none
        unsure = np.nonzero((p.max(1) < c.reread_below) & card & self._in_reread(boxes))[0]
        if unsure.size:
            b = boxes[unsure]
            size = np.stack([b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]] * 2, 1) * c.reread_shift
            total = p[unsure].copy()
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                total += self._probabilities(img, b + size * np.array([dx, dy, dx, dy], np.float32))
            # the five readings choose the code; the first reading's probability of that code stands if
            # it was higher (the crops around a box only confirm what it says; averaged, they would
            # lower every unsure reading, and the tracker counts on its confidences)
            mean = total / 5
            p[unsure] = mean + (mean == mean.max(1, keepdims=True)) * np.maximum(p[unsure] - mean, 0)
            self._read_whole_index(img, boxes, p, unsure)
        best = p.argmax(1)
        return [self.classes[int(i)] for i in best], p[np.arange(len(best)), best]

    def _read_whole_index(self, img: np.ndarray, boxes: np.ndarray, p: np.ndarray, unsure: np.ndarray) -> None:
        """A box wider than tall holds half an index: a big rank without the suit printed under it
        (kennard_4c_big, Klondike seed 808: a waste's top 3S, boxed at its 3 alone at 0.42 and read 5S
        or 3S at 0.24, was never published in five passes of the stock; the box grown down over its
        spade reads 3S at 0.98). Such an unsure box is read again grown to an index's height
        (``INDEX_ASPECT`` times its width) down and up (a card lying the other way, or its far index),
        and the surer of the readings as a card stands. In ``p`` in place, rows ``unsure``."""
        b = boxes[unsure]
        w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
        half = np.nonzero((h < w) & np.array([self._turns(x) == 0 for x in b], bool))[0]
        if not half.size:
            return
        b, tall = b[half], w[half] * INDEX_ASPECT
        down = np.stack([b[:, 0], b[:, 1], b[:, 2], b[:, 1] + tall], 1)
        up = np.stack([b[:, 0], b[:, 3] - tall, b[:, 2], b[:, 3]], 1)
        rows = unsure[half]
        for grown in (self._probabilities(img, down), self._probabilities(img, up)):
            surer = (grown.max(1) > p[rows].max(1)) & (grown.argmax(1) != self._none)
            p[rows[surer]] = grown[surer]

    def _in_reread(self, boxes: np.ndarray) -> np.ndarray:
        """Whether each box's centre lies in one of the ``reread`` parts of the frame (all with ``reread_all``)."""
        if self.config.reread_all:
            return np.ones(len(boxes), bool)
        cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
        inside = np.zeros(len(boxes), bool)
        for x1, y1, x2, y2 in self.config.reread:
            inside |= (cx >= x1) & (cx <= x2) & (cy >= y1) & (cy <= y2)
        return inside

    def _probabilities(self, img: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """The classifier's 53 class probabilities per box."""
        crops = np.stack([crop_square(img, b, self.crop_size, self.crop_margin, self._turns(b)) for b in boxes])
        x = np.ascontiguousarray(crops[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0
        logits = self._cls.run(None, {self._cls.get_inputs()[0].name: x})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        return np.asarray(e / e.sum(1, keepdims=True))

    def _turns(self, box: np.ndarray) -> int:
        """The quarter turns that stand up a card whose index is at ``box`` (0 outside ``turned``)."""
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        return next((t.turns % 4 for t in self.config.turned if t.holds(cx, cy)), 0)


def _unturn(boxes: np.ndarray, turns: int, w: int, h: int) -> np.ndarray:
    """Boxes found in ``np.rot90(tile, turns)`` in the pixels of the ``w`` x ``h`` tile itself."""
    k = turns % 4
    if k == 0 or len(boxes) == 0:
        return boxes
    x1, y1, x2, y2 = boxes.T
    if k == 1:  # rot90 ccw: (x, y) of the turned image is (w - y, x) of the tile
        out = np.stack([w - y2, x1, w - y1, x2], 1)
    elif k == 2:
        out = np.stack([w - x2, h - y2, w - x1, h - y1], 1)
    else:  # k == 3, rot90 cw: (x, y) of the turned image is (y, h - x) of the tile
        out = np.stack([y1, h - x2, y2, h - x1], 1)
    return out.astype(np.float32)


def _dedupe(dets: list[Detection], iou: float = 0.5, inside: float = 0.4) -> list[Detection]:
    """One printed index is one card, whatever the two stages disagreed on: drop a detection that
    overlaps a more confident one by IoU > ``iou``. Between two card faces also one that lies partly
    (``inside`` of the smaller box) within the other: indices that both show fully cannot overlap
    (each card's index sits below its own top edge, which covers the index under it), so a box half on
    one index and half on the next is a misreading that mixes them (a 3C from the 3 of a 3D and the
    club of the 4C above it). A back's box is looser and often spans the indices of the face-up cards
    laid on the backs: a face inside it stays (a corner found on a back pattern is the classifier's to
    reject)."""
    dets = sorted(dets, key=lambda d: -d.confidence)
    out: list[Detection] = []
    for d in dets:
        if all(box_iou(d.box, o.box) <= iou and (BACK in (d.card, o.card) or _ios(d.box, o.box) <= inside)
               for o in out):
            out.append(d)
    return out


def _ios(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over the smaller box's area."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return ix * iy / small if small > 0 else 0.0


@lru_cache(maxsize=4)
def default_detector(threads: int = 2, imgsz: int | tuple[int, ...] = (384, 640),
                     tiles: tuple[tuple[int, int, int, int], ...] = (),
                     turned: tuple[Turned, ...] = (), top_down: tuple[TopDown, ...] = (),
                     reread: tuple[tuple[int, int, int, int], ...] = ()) -> CardDetector:
    """The shipped models, loaded once per (threads, imgsz, tiles, turned, top_down, reread)."""
    return CardDetector(config=DetectorConfig(threads=threads, imgsz=imgsz, tiles=tiles, turned=turned,
                                              top_down=top_down, reread=reread))
