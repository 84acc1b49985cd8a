"""The ``cardref`` command: one sub-command per module, registered below.

Each command module exposes ``register(subparsers)``, which adds its parser and sets ``func`` (called
with the parsed arguments, returning the exit code). Modules are imported here, but each one keeps its
heavy imports (OpenCV, ONNX Runtime, FastAPI) inside the function that runs, so ``cardref referee``
starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = [
    "cardref.commands.deal",
    "cardref.commands.referee",
    "cardref.commands.demo",
    "cardref.commands.games",
    "cardref.commands.analyze",
    "cardref.commands.detect",
    "cardref.commands.evaluate",
    "cardref.commands.render",
    "cardref.commands.serve",
    "cardref.commands.observe",
    "cardref.commands.calibrate",
    "cardref.commands.compare_states",
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardref", description="A camera referee for real playing cards.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
