"""What the pytest suites under tools/ (auth_tests, app_tests) share: the built `carchain` binary, and the rule for a
missing prerequisite — skipped with its reason, or a failure under CARCHAIN_STRICT=1 (what CI sets)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STRICT = os.environ.get("CARCHAIN_STRICT") == "1"


def missing(reason: str):
    """Skips the test (fails it under CARCHAIN_STRICT=1) because a prerequisite is missing."""
    if STRICT:
        pytest.fail(f"CARCHAIN_STRICT=1 and {reason}", pytrace=False)
    pytest.skip(f"SKIPPED: {reason}")


def carchain_binary() -> Path | None:
    """CARCHAIN_BIN, else .build/release/carchain, else .build/debug/carchain."""
    if os.environ.get("CARCHAIN_BIN"):
        return Path(os.environ["CARCHAIN_BIN"])
    for build in ("release", "debug"):
        path = ROOT / ".build" / build / "carchain"
        if path.exists():
            return path
    return None
