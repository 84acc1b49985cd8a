"""Shared test setup: a test fails on any ERROR log line it did not expect (as python-chess does).

Mark a test that provokes errors on purpose with ``@pytest.mark.allow_error_logs``.
"""

from __future__ import annotations

import logging

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "allow_error_logs: the test provokes ERROR log lines on purpose")


@pytest.fixture(autouse=True)
def _no_unexpected_error_logs(request: pytest.FixtureRequest, caplog: pytest.LogCaptureFixture):  # type: ignore[no-untyped-def]
    caplog.set_level(logging.WARNING)
    yield
    if request.node.get_closest_marker("allow_error_logs"):
        return
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    if errors:
        lines = "\n".join(f"{r.name}: {r.getMessage()}" for r in errors[:5])
        pytest.fail(f"unexpected ERROR log lines:\n{lines}", pytrace=False)
