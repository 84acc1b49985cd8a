"""Reading YOLO-format folders (``images/`` + ``labels/`` + a ``data.yaml`` with class names).

Classes are mapped by **name** to ours (``10H`` ... ``KS``, ``BACK``); names we do not have (jokers)
are dropped, and spellings such as ``10h``, ``TH``, ``BACKS`` are accepted. No YAML library needed:
``names`` may be a flow list (``names: ['10C', ...]``) or a block mapping / list.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

from vision.detections import BACK

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["C", "D", "H", "S"]
CARDS = [r + s for s in SUITS for r in RANKS]
CLASSES = CARDS + [BACK]
UNREADABLE = "UNREADABLE"
"""Class name of a box where a card shows but its index cannot be read (too small, too blurred): the
evaluation ignores detections there instead of counting them as hits or false alarms."""
IMAGE_EXT = (".jpg", ".jpeg", ".png", ".bmp", ".webp")


def normalise_name(name: str) -> str | None:
    """Our card code for a class name from another dataset, :data:`UNREADABLE` for a don't-care box, or
    None (jokers, unknown names)."""
    n = name.strip().upper().replace(" ", "").replace("_", "").replace("-", "")
    if n in ("BACK", "BACKS", "CARDBACK"):
        return BACK
    if n in (UNREADABLE, "IGNORE"):
        return UNREADABLE
    words = {"ACE": "A", "KING": "K", "QUEEN": "Q", "JACK": "J", "TEN": "10"}
    suits = {"CLUBS": "C", "CLUB": "C", "DIAMONDS": "D", "DIAMOND": "D", "HEARTS": "H", "HEART": "H",
             "SPADES": "S", "SPADE": "S"}
    m = re.fullmatch(r"(10|[2-9AJQKT]|ACE|KING|QUEEN|JACK|TEN)(OF)?([CDHS]|CLUBS?|DIAMONDS?|HEARTS?|SPADES?)", n)
    if not m:
        return None
    rank = words.get(m.group(1), m.group(1))
    rank = "10" if rank == "T" else rank
    suit = suits.get(m.group(3), m.group(3))
    code = rank + suit
    return code if code in CARDS else None


def read_names(data_yaml: Path) -> list[str]:
    text = data_yaml.read_text()
    m = re.search(r"^names:\s*(\[.*?\])", text, re.M | re.S)
    if m:
        return [str(x) for x in ast.literal_eval(m.group(1))]
    m = re.search(r"^names:\s*\n((?:[ \t]+.*\n?)+)", text, re.M)
    if not m:
        raise ValueError(f"no 'names' in {str(data_yaml)!r}")
    names: list[str] = []
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line:
            continue
        item = re.sub(r"^(-|\d+:)\s*", "", line).strip().strip("'\"")
        names.append(item)
    return names


@dataclass(frozen=True)
class Labelled:
    image: Path
    boxes: list[tuple[str, float, float, float, float]]  # (code, cx, cy, w, h) normalised


def find_data_yaml(folder: Path) -> Path | None:
    for p in (folder / "data.yaml", folder.parent / "data.yaml", folder.parent.parent / "data.yaml"):
        if p.is_file():
            return p
    return None


def read_folder(folder: str | Path, names: list[str] | None = None) -> list[Labelled]:
    """Every image under ``folder/images`` with its labels mapped to our class names.

    ``names`` (the folder's class names by index) default to the nearest ``data.yaml``.
    """
    root = Path(folder)
    img_dir = root / "images" if (root / "images").is_dir() else root
    lab_dir = root / "labels" if (root / "labels").is_dir() else root
    if names is None:
        y = find_data_yaml(root)
        if y is None:
            raise ValueError(f"no data.yaml near {str(root)!r}; pass the class names")
        names = read_names(y)
    mapping = [normalise_name(n) for n in names]
    out = []
    for img in sorted(p for p in img_dir.iterdir() if p.suffix.lower() in IMAGE_EXT):
        lab = lab_dir / (img.stem + ".txt")
        boxes = []
        if lab.is_file():
            for line in lab.read_text().splitlines():
                parts = line.split()
                if len(parts) < 5:
                    continue
                k = int(float(parts[0]))
                code = mapping[k] if 0 <= k < len(mapping) else None
                if code is None:
                    continue
                cx, cy, w, h = (float(v) for v in parts[1:5])
                boxes.append((code, cx, cy, w, h))
        out.append(Labelled(img, boxes))
    return out
