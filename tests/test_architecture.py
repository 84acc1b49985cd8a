"""Dependencies point one way: referee is pure logic; vision and calibration know nothing of rules;
nothing imports the app package."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent

FORBIDDEN = {
    "referee": {"vision", "calibration", "cardref", "cv2", "numpy", "onnxruntime", "fastapi", "sqlite3", "time", "datetime"},
    "vision": {"referee", "cardref"},
    "calibration": {"referee", "vision", "cardref"},
}


def imports(path: pathlib.Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_packages_import_only_what_they_may(package: str) -> None:
    bad = {
        str(path.relative_to(ROOT)): sorted(imports(path) & FORBIDDEN[package])
        for path in (ROOT / package).rglob("*.py")
    }
    assert {k: v for k, v in bad.items() if v} == {}
