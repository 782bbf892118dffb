"""What the pytest suites under tools/ (auth_tests, app_tests) share: the built `carchain` binary, and the rule for a
missing prerequisite — skipped with its reason, or a failure under CARCHAIN_STRICT=1 (what CI sets)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
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


class NodeProcess:
    """A `carchain node` started with `arguments` (which include `--port 0`): its URL read from the banner's first line
    (`listening on http://HOST:PORT`), the rest of its output drained so it never blocks on a full pipe."""

    def __init__(self, arguments: list[str]):
        self.process = subprocess.Popen(arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        match = re.search(r"listening on (http://([\d.]+):(\d+))", line)
        if not match:
            self.stop()
            raise RuntimeError(f"carchain node did not start: {line!r} {self.process.stderr.read()[:2000]}")
        self.url, self.host, self.port = match.group(1), match.group(2), int(match.group(3))
        self.hostport = f"{self.host}:{self.port}"
        threading.Thread(target=self.process.stdout.read, daemon=True).start()
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def stop(self):
        """SIGTERM, then SIGKILL after 30 s; nothing when it has stopped already."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
