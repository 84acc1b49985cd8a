"""Train the corner-index / card-back detector with ultralytics, offline, resumable.

    .venv-train/bin/python -m vision.train_detector --epochs 14            # fresh run (or resume)
    .venv-train/bin/python -m vision.train_detector --export runs/det/corner/weights/best.pt

A fresh run builds the model from ``vision/cfg/corner-yolo11n-w125.yaml`` (no downloaded weights).
If ``runs/det/<name>/weights/last.pt`` exists and the run did not finish, training resumes from it.
Data: ``data/synth/det/train`` (+ ``data/real/det/train``, the real photos' train split), validated
on ``data/synth/det/val`` (training decks; the held-out decks are only for measuring).
"""

from __future__ import annotations

import argparse
import os
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def offline_env() -> None:
    """Keep ultralytics from touching the network: no font, weight or package downloads."""
    cfg = ROOT / "data" / "yolo_config"
    (cfg / "Ultralytics").mkdir(parents=True, exist_ok=True)
    for name in ("Arial.ttf", "Arial.Unicode.ttf"):
        dst = cfg / "Ultralytics" / name
        if not dst.exists():
            shutil.copy(_a_font(), dst)
    os.environ.setdefault("YOLO_CONFIG_DIR", str(cfg))
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ["YOLO_AUTOINSTALL"] = "False"


def _a_font() -> Path:
    """A TrueType font on this machine (Debian's DejaVu, else the copy matplotlib carries, which a bare
    training box has when it has ultralytics)."""
    debian = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if debian.exists():
        return debian
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"


def _box_height(label: Path) -> float:
    """Median box height (fraction of the image) in a YOLO label file; 0 when empty."""
    hs = [float(line.split()[4]) for line in label.read_text().splitlines() if line.strip()] if label.exists() else []
    return float(sorted(hs)[len(hs) // 2]) if hs else 0.0


def write_data_yaml(with_real: bool, synth_n: int, min_h: float = 0.0, extra: tuple[str, ...] = (), real_repeat: int = 1) -> Path:
    """``data/det.yaml`` and ``data/det_train.txt``: ``synth_n`` synthetic scenes (sorted, so a resumed
    run sees the same list; with ``min_h``, only scenes whose median box is at least that tall, i.e.
    close and medium views), every image of the ``extra`` image folders, and the real photos' train
    split."""
    imgs = sorted((ROOT / "data/synth/det/train/images").glob("*.jpg"))
    if min_h:
        imgs = [p for p in imgs if _box_height(p.parent.parent / "labels" / (p.stem + ".txt")) >= min_h]
    if synth_n:
        step = max(1, len(imgs) // synth_n)
        imgs = imgs[::step][:synth_n]
    for folder in extra:
        imgs += sorted((ROOT / folder).glob("*.jpg"))
    if with_real and (ROOT / "data/real/det/train/images").is_dir():
        # listed ``real_repeat`` times: ultralytics keeps repeated lines, so the few photos weigh more
        imgs += sorted((ROOT / "data/real/det/train/images").glob("*.jpg")) * real_repeat
    lst = ROOT / "data" / "det_train.txt"
    lst.write_text("".join(f"{p}\n" for p in imgs))
    y = ROOT / "data" / "det.yaml"
    y.write_text(
        f"path: {ROOT / 'data'}\n"
        f"train: {str(lst)!r}\n"
        f"val: {str(ROOT / 'data/synth/det/val/images')!r}\n"
        "names: ['corner', 'BACK']\n"
    )
    return y


def results_without_polars() -> None:
    """ultralytics reads its results.csv back with polars only to store a summary in each checkpoint;
    a machine without polars (a lent GPU box that cannot install it) trains the same without it."""
    try:
        import polars  # noqa: F401
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer

        BaseTrainer.read_results_csv = lambda self: {}  # type: ignore[method-assign]


def set_threads(n: int):
    def cb(trainer) -> None:  # ultralytics sets 1 thread on a 2-core CPU; use them all
        import torch

        torch.set_num_threads(n)

    return cb


def train(a: argparse.Namespace) -> None:
    offline_env()
    from ultralytics import YOLO

    results_without_polars()
    run = ROOT / "runs" / "det" / a.name
    last = run / "weights" / "last.pt"
    if last.exists() and not a.fresh:
        model = YOLO(str(last))
        model.add_callback("on_pretrain_routine_end", set_threads(a.threads))
        model.add_callback("on_train_epoch_start", set_threads(a.threads))
        model.train(resume=True)
        return
    # a fresh model from the yaml, or (``--init``) weights of an earlier run of ours as the start
    model = YOLO(a.init) if a.init else YOLO(str(ROOT / "vision/cfg/corner-yolo11n-w125.yaml"))
    model.add_callback("on_pretrain_routine_end", set_threads(a.threads))
    model.add_callback("on_train_epoch_start", set_threads(a.threads))
    model.train(
        data=str(write_data_yaml(not a.no_real, a.synth_n, a.min_box_h, tuple(a.extra), a.real_repeat)), epochs=a.epochs, imgsz=a.imgsz, batch=a.batch,
        device=a.device, workers=a.workers, amp=False, pretrained=bool(a.init), project=str(ROOT / "runs" / "det"),
        name=a.name, exist_ok=True, plots=False, close_mosaic=a.close_mosaic, patience=100,
        fliplr=0.5, degrees=0.0, scale=0.5, mosaic=1.0, seed=0, deterministic=False,
        save_period=a.save_period, warmup_epochs=a.warmup, cache=a.cache or False,
        # a time budget (hours) replaces the epoch count: ultralytics sizes the epochs after the first
        **({"time": a.hours} if a.hours else {}),
        # ultralytics' "auto" optimiser picks AdamW at lr 0.0017 for short runs: enough to shake a
        # trained detector out of what it knew (a 2-epoch fine-tune lost 0.11 val mAP50); --lr0 sets it
        **({"optimizer": "AdamW", "lr0": a.lr0} if a.lr0 else {}),
    )


def export(pt: str, out: str) -> None:
    offline_env()
    from ultralytics import YOLO

    path = YOLO(pt).export(format="onnx", opset=18, dynamic=True, simplify=True, imgsz=640)
    if Path(path).resolve() != Path(out).resolve():
        shutil.move(path, out)  # ultralytics writes next to the weights; leave nothing behind there
    print("exported", out)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="corner")
    ap.add_argument("--epochs", type=int, default=14)
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--device", default="cpu", help="cpu, or a CUDA device index such as 0")
    ap.add_argument("--workers", type=int, default=0, help="data loader processes (0: in the training process)")
    ap.add_argument("--hours", type=float, default=0.0, help="train for this long instead of --epochs")
    ap.add_argument("--cache", choices=["ram", "disk"], help="keep decoded images (ram needs ~1 MB per 640 px scene)")
    ap.add_argument("--save-period", type=int, default=1, help="keep every Nth epoch's weights (-1: last and best only)")
    ap.add_argument("--close-mosaic", type=int, default=3)
    ap.add_argument("--lr0", type=float, help="AdamW learning rate (default: ultralytics' automatic choice)")
    ap.add_argument("--warmup", type=float, default=0.5, help="warm-up epochs (ultralytics default 3 is most of a short run)")
    ap.add_argument("--no-real", action="store_true")
    ap.add_argument("--real-repeat", type=int, default=1, help="list the real photos this many times")
    ap.add_argument("--synth-n", type=int, default=0, help="use this many synthetic scenes (0: all)")
    ap.add_argument("--min-box-h", type=float, default=0.0, help="only synthetic scenes whose median box is this tall (fraction)")
    ap.add_argument("--extra", nargs="*", default=[], metavar="DIR",
                    help="more training image folders (YOLO layout, labels beside images/), e.g. data/synth_b/det/train/images")
    ap.add_argument("--fresh", action="store_true", help="start over even if a last.pt exists")
    ap.add_argument("--init", metavar="PT", help="start a new run from this checkpoint's weights (not a resume)")
    ap.add_argument("--export", metavar="PT", help="export this checkpoint to models/corner_detector.onnx")
    ap.add_argument("--out", default=str(ROOT / "models" / "corner_detector.onnx"))
    a = ap.parse_args()
    if a.export:
        export(a.export, a.out)
    else:
        train(a)
