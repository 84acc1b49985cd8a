"""Train the corner-index classifier (52 card codes + ``NONE``): a small CNN in PyTorch, exported to ONNX.

    .venv-train/bin/python -m vision.train_classifier --epochs 12        # fresh run, or resume
    .venv-train/bin/python -m vision.train_classifier --export           # best checkpoint -> ONNX

Input: square crops cut around a corner index by :func:`vision.detector.crop_square`, stored as
``data/synth/cls/train/<CODE>/*.png`` (synthetic scenes, training decks) and
``data/real/cls/train/<CODE>/*.png`` (the real photos' train split). Validation:
``data/synth/cls/val`` (training decks). Checkpoints (``runs/cls/<name>/last.pt``, ``best.pt``) hold
the model, optimiser and epoch, so a run resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from vision.yolo_folder import CARDS

ROOT = Path(__file__).resolve().parent.parent
CLASSES = CARDS + ["NONE"]
CROP = 64  # crops are stored, and the shipped ONNX takes them, at this size
MARGIN = 1.3


ARCHS = {  # input side the crop is averaged down to, and channels of the six 3x3 conv blocks
    "s": (32, (16, 32, 32, 64, 64, 128)),
    "m": (32, (24, 48, 48, 96, 96, 160)),
    "f40": (40, (24, 48, 48, 96, 96, 160)),
}


def build_model(arch: str = "f40"):
    """The classifier as exported: (N, 3, 64, 64) RGB crops in [0, 1] -> 53 logits in CLASSES order.

    ``s``/``m`` end in one 53-way layer. ``f40`` reads rank and suit apart (13 + 4 logits, plus one for
    ``NONE``) and scores card (r, s) as rank[r] + suit[s]: every rank is learnt from all four suits and
    every suit from thirteen ranks, which is what carries over to deck designs never seen in training.
    The 64 -> input-side averaging is inside the model, so training and the ONNX see the same pixels."""
    import torch
    import torch.nn as nn

    size, c = ARCHS[arch]
    factored = arch.startswith("f")

    def block(cin: int, cout: int, stride: int) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # adaptive average pooling CROP -> size as a matrix, x' = A x A^T: the same numbers as
    # F.adaptive_avg_pool2d, which the ONNX exporter refuses when size does not divide CROP
    pool = torch.zeros(size, CROP)
    for i in range(size):
        a, b = (i * CROP) // size, -((-(i + 1) * CROP) // size)
        pool[i, a:b] = 1.0 / (b - a)

    class CornerNet(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.register_buffer("pool", pool, persistent=False)
            self.trunk = nn.Sequential(
                *block(3, c[0], 1), *block(c[0], c[1], 2),
                *block(c[1], c[2], 1), *block(c[2], c[3], 2),
                *block(c[3], c[4], 1), *block(c[4], c[5], 2),
                nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.1))
            self.head = nn.Linear(c[5], 13 + 4 + 1 if factored else len(CLASSES))

        def forward(self, x):
            out = self.head(self.trunk(self.pool @ x @ self.pool.T))
            if not factored:
                return out
            rank, suit, none = out[:, :13], out[:, 13:17], out[:, 17:]
            # CARDS runs suit by suit, rank within suit
            cards = rank.repeat(1, 4) + torch.repeat_interleave(suit, 13, dim=1)
            return torch.cat([cards, none], dim=1)

    return CornerNet()


def load_trunk(model, checkpoint: dict) -> None:
    """Conv weights of an earlier run (any head, old single-Sequential layout too) as a start."""
    state = {}
    for k, v in checkpoint["model"].items():
        k = k if k.startswith(("trunk.", "head.")) else f"trunk.{k}"
        state[k] = v
    own = model.state_dict()
    state = {k: v for k, v in state.items() if k in own and own[k].shape == v.shape}
    model.load_state_dict(state, strict=False)
    print(f"initialised {len(state)} of {len(own)} tensors", flush=True)


def load_dir(dirs: list[Path], repeat: list[int]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for d, rep in zip(dirs, repeat):
        if not d.is_dir():
            continue
        for k, code in enumerate(CLASSES):
            for f in sorted((d / code).glob("*.png")) if (d / code).is_dir() else []:
                img = cv2.imread(str(f))
                if img is None:
                    continue
                if img.shape[:2] != (CROP, CROP):
                    img = cv2.resize(img, (CROP, CROP), interpolation=cv2.INTER_AREA)
                img = img[..., ::-1]
                for _ in range(rep):
                    xs.append(img)
                    ys.append(k)
    return np.stack(xs), np.array(ys, np.int64)


def shift(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Geometric jitter on a uint8 batch: where a detector box lands around an index varies (scale,
    offset, a little rotation), and the stored crops fix only one such draw per box."""
    out = np.empty_like(x)
    n = len(x)
    scale = rng.uniform(0.85, 1.2, n)
    ang = rng.normal(0, 8, n)
    d = rng.uniform(-0.08, 0.08, (n, 2)) * CROP
    for i in range(n):
        m = cv2.getRotationMatrix2D((CROP / 2, CROP / 2), ang[i], scale[i])
        m[:, 2] += d[i]
        out[i] = cv2.warpAffine(x[i], m, (CROP, CROP), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    return out


def lowres(x: np.ndarray, rng: np.random.Generator, share: float, sides: tuple[int, int] = (10, 24)) -> np.ndarray:
    """A ``share`` of the batch seen from far: each crop shrunk to ``sides`` pixels across (a far seat's
    index is 6-9 pixels high in a 1280x720 frame, its crop 10-14) and enlarged back, as the detector's
    crop of it is."""
    out = x.copy()
    for i in np.nonzero(rng.random(len(x)) < share)[0]:
        side = int(rng.integers(sides[0], sides[1] + 1))
        small = cv2.resize(x[i], (side, side), interpolation=cv2.INTER_AREA)
        out[i] = cv2.resize(small, (CROP, CROP), interpolation=cv2.INTER_LINEAR)
    return out


def augment(x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Photometric jitter on a uint8 batch (N, H, W, 3): brightness, contrast, colour, noise, blur."""
    x = x.astype(np.float32)
    n = len(x)
    x = x * rng.uniform(0.6, 1.35, (n, 1, 1, 1)) + rng.uniform(-30, 30, (n, 1, 1, 1))
    mean = x.mean(axis=(1, 2, 3), keepdims=True)
    x = (x - mean) * rng.uniform(0.6, 1.4, (n, 1, 1, 1)) + mean
    x = x * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
    gray = rng.random(n) < 0.1
    x[gray] = x[gray].mean(axis=3, keepdims=True)
    x = x + rng.uniform(0, 8, (n, 1, 1, 1)) * rng.standard_normal(x.shape).astype(np.float32)
    blur = rng.random(n) < 0.2
    for i in np.nonzero(blur)[0]:
        x[i] = cv2.GaussianBlur(x[i], (0, 0), rng.uniform(0.5, 1.3))
    return np.clip(x, 0, 255)


def to_tensor(x: np.ndarray):
    import torch

    return torch.from_numpy(np.ascontiguousarray(x.transpose(0, 3, 1, 2), dtype=np.float32) / 255.0)


class _Batches:
    """One epoch's jittered batches, in a fixed order; with loader workers they are made in other
    processes (on a GPU box the numpy jitter, not the network, is what each step waits for: the first
    GPU run trained 52 s per epoch with its GPU mostly idle). Each batch draws from its own seed, so
    the batches do not depend on which worker makes them."""

    def __init__(self, x: np.ndarray, y: np.ndarray, perm: np.ndarray, batch: int, lowres_share: float, seed: int):
        self.x, self.y, self.perm, self.batch, self.lowres_share, self.seed = x, y, perm, batch, lowres_share, seed

    def __len__(self) -> int:
        return len(self.perm) // self.batch

    def __getitem__(self, k: int):
        import torch

        if not 0 <= k < len(self):
            raise IndexError(k)
        rng = np.random.default_rng((self.seed, k))
        idx = self.perm[k * self.batch:(k + 1) * self.batch]
        x = augment(lowres(shift(self.x[idx], rng), rng, self.lowres_share), rng)
        return to_tensor(x), torch.from_numpy(self.y[idx])


def train(a: argparse.Namespace) -> None:
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(a.threads)
    run = ROOT / "runs" / "cls" / a.name
    run.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    dirs = [ROOT / d for d in a.data] + [ROOT / "data/real/cls/train"]
    xtr, ytr = load_dir(dirs, [1] * len(a.data) + [a.real_repeat])
    xva, yva = load_dir([ROOT / "data/synth/cls/val"], [1])
    print(f"train {len(xtr)} val {len(xva)} crops, loaded in {time.time() - t0:.0f}s", flush=True)
    model = build_model(a.arch)
    if a.init:  # weights of an earlier run of ours as the start of a new schedule
        load_trunk(model, torch.load(ROOT / a.init, weights_only=False, map_location="cpu"))
    model.to(a.device)
    opt = torch.optim.AdamW(model.parameters(), lr=a.lr, weight_decay=5e-4)
    t_start = time.time()

    def spent() -> float:
        """The share of the time budget used (0 without one)."""
        return (time.time() - t_start) / (a.minutes * 60.0) if a.minutes else 0.0

    if a.minutes:
        # a time budget instead of an epoch count: the one-cycle shape follows the share of the budget
        # spent, so a machine of unknown speed (a lent GPU box) ends its schedule when its time is up
        a.epochs = 10**6
        sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda _: one_cycle(spent()))
    else:
        steps = a.epochs * (len(xtr) // a.batch)
        sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=a.lr, total_steps=steps, pct_start=0.15)
    start, best = 0, 0.0
    last = run / "last.pt"
    if last.exists() and not a.fresh:
        ck = torch.load(last, weights_only=False, map_location=a.device)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        sched.load_state_dict(ck["sched"])
        start, best = ck["epoch"] + 1, ck["best"]
        print(f"resumed at epoch {start}", flush=True)
    rng = np.random.default_rng(start)
    for epoch in range(start, a.epochs):
        model.train()
        t0 = time.time()
        perm = rng.permutation(len(xtr))
        tot, correct, lsum = 0, 0, 0.0
        batches = torch.utils.data.DataLoader(
            _Batches(xtr, ytr, perm, a.batch, a.lowres, int(rng.integers(2**31))), batch_size=None,
            num_workers=a.workers, worker_init_fn=lambda _: cv2.setNumThreads(1))
        for k, (xb, yb) in enumerate(batches):
            i = k * a.batch
            xb, yb = xb.to(a.device), yb.to(a.device)
            out = model(xb)
            loss = F.cross_entropy(out, yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            lsum += float(loss.detach()) * len(yb)
            if (i // a.batch) % 50 == 0:
                print(f"  step {i // a.batch}/{len(perm) // a.batch} loss {float(loss.detach()):.3f} {time.time() - t0:.0f}s", flush=True)
            tot += len(yb)
            correct += int((out.argmax(1) == yb).sum())
            if spent() >= 1:
                break
        acc = evaluate(model, xva, yva)
        far = evaluate(model, lowres(xva, np.random.default_rng(0), 1.0), yva)  # the same draw every epoch
        print(f"epoch {epoch + 1}/{a.epochs} loss {lsum / max(tot, 1):.4f} train_acc {correct / max(tot, 1):.4f} "
              f"val_acc {acc:.4f} val_far_acc {far:.4f} {time.time() - t0:.0f}s", flush=True)
        ck = {"model": model.state_dict(), "opt": opt.state_dict(), "sched": sched.state_dict(),
              "epoch": epoch, "best": max(best, acc), "classes": CLASSES, "arch": a.arch}
        torch.save(ck, last)
        if acc >= best:
            best = acc
            torch.save(ck, run / "best.pt")
        if spent() >= 1:
            break


def one_cycle(p: float, warm: float = 0.15) -> float:
    """Learning-rate factor at progress ``p`` (0..1): a linear rise over ``warm``, then a cosine fall
    to 1/1000, as torch's OneCycleLR draws it."""
    import math

    if p < warm:
        return 0.04 + 0.96 * p / warm
    q = min(1.0, (p - warm) / (1 - warm))
    return 0.001 + 0.999 * 0.5 * (1 + math.cos(math.pi * q))

def evaluate(model, x: np.ndarray, y: np.ndarray) -> float:
    import torch

    if len(x) == 0:
        return 0.0
    model.eval()
    correct = 0
    device = next(model.parameters()).device
    with torch.no_grad():
        for i in range(0, len(x), 512):
            correct += int((model(to_tensor(x[i:i + 512]).to(device)).argmax(1).cpu().numpy() == y[i:i + 512]).sum())
    return correct / len(x)


def export(a: argparse.Namespace) -> None:
    import onnx
    import torch

    ck = torch.load(ROOT / "runs" / "cls" / a.name / a.checkpoint, weights_only=False, map_location="cpu")
    net = build_model(ck["arch"])
    net.load_state_dict(ck["model"])
    net.eval()
    out = Path(a.out)
    torch.onnx.export(net, torch.zeros(1, 3, CROP, CROP), str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=18, dynamo=False)
    m = onnx.load(str(out))
    for k, v in {"classes": json.dumps(CLASSES), "crop_size": str(CROP), "crop_margin": str(MARGIN),
                 "arch": ck["arch"], "epoch": str(ck["epoch"] + 1), "val_acc": f"{ck['best']:.4f}"}.items():
        p = m.metadata_props.add()
        p.key, p.value = k, v
    onnx.save(m, str(out))
    print("exported", out, out.stat().st_size, "bytes")


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="corner")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="cpu", help="torch device: cpu, cuda")
    ap.add_argument("--workers", type=int, default=0, help="processes making the jittered batches (0: this one)")
    ap.add_argument("--minutes", type=float, default=0.0, help="train for this long (one-cycle over the time) instead of --epochs")
    ap.add_argument("--real-repeat", type=int, default=2)
    ap.add_argument("--arch", choices=sorted(ARCHS), default="f40")
    ap.add_argument("--lowres", type=float, default=0.0, help="share of crops seen from far (shrunk and enlarged back)")
    ap.add_argument("--data", nargs="+", default=["data/synth/cls/train"], help="crop folders (CODE/*.png) besides the real ones")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--init", metavar="PT", help="start a new run from this checkpoint's weights")
    ap.add_argument("--export", action="store_true")
    ap.add_argument("--checkpoint", default="best.pt")
    ap.add_argument("--out", default=str(ROOT / "models" / "corner_classifier.onnx"))
    a = ap.parse_args()
    export(a) if a.export else train(a)
