"""Fixtures for the web app's browser tests: a real `carchain node` (with the app at /app/) on a free loopback port,
and headless Chromium (Debian's `chromium` and `chromium-driver`) driven by selenium. Screenshots of each screen go
to APP_SCREENSHOTS (default .build/app-screenshots/).

The node binary is CARCHAIN_BIN, else .build/release/carchain, else .build/debug/carchain. When it, Chromium,
chromedriver or selenium is missing the tests skip with the reason; with CARCHAIN_STRICT=1 they fail instead.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pytest_support import NodeProcess, carchain_binary, missing  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("APP_SCREENSHOTS", ROOT / ".build" / "app-screenshots"))
# Dev account 0 of the public test mnemonic: CarChain's deployer, the manager.
DEPLOYER_KEY = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
PHONE = (390, 844)
DESKTOP = (1280, 800)


class Node(NodeProcess):
    """`carchain node --port 0` on a fresh data directory (or in memory), with the web app."""

    def __init__(self, binary: Path, *extra: str, data_dir: str | None = None):
        arguments = [str(binary), "node", "--port", "0", "--host", "127.0.0.1", *extra]
        arguments += ["--data-dir", data_dir] if data_dir else ["--ephemeral"]
        super().__init__(arguments)
        self.app = self.url + "/app/"

    def rpc(self, method: str, *params):
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
        request = urllib.request.Request(self.url + "/", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.loads(response.read())
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    def get_json(self, path: str):
        with urllib.request.urlopen(self.url + path, timeout=60) as response:
            return json.loads(response.read())


@pytest.fixture(scope="module")
def node():
    binary = carchain_binary()
    if binary is None or not binary.exists():
        missing("no carchain binary (run `swift build -c release --product carchain` or set CARCHAIN_BIN)")
    server = Node(binary, "--eth-price", "3000")
    yield server
    server.stop()


def chromium_paths() -> tuple[str, str]:
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)
    if not browser or not driver:
        missing("Chromium or chromedriver is not installed (`make deps` installs Debian's chromium and chromium-driver)")
    return browser, driver


class Browsers:
    """Headless Chromium windows, each its own profile (so each signs in as its own user)."""

    def __init__(self):
        try:
            from selenium import webdriver  # noqa: F401
        except ImportError:
            missing("selenium is not installed (make venv)")
        self.browser, self.driver = chromium_paths()
        self.open: list = []

    def new(self, size=DESKTOP, provider_script: str | None = None):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        options = webdriver.ChromeOptions()
        options.binary_location = self.browser
        for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                         f"--window-size={size[0]},{size[1]}", "--force-device-scale-factor=1",
                         f"--user-data-dir={tempfile.mkdtemp(prefix='carchain-chromium-')}"):
            options.add_argument(argument)
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(self.driver))
        # The page's viewport is exactly `size` (a phone's is a mobile viewport), whatever the window's frame takes.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
        if provider_script:
            driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": provider_script})
        self.open.append(driver)
        return driver

    def quit(self):
        for driver in self.open:
            try:
                driver.quit()
            except Exception:
                pass


@pytest.fixture(scope="module")
def browsers():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    pool = Browsers()
    yield pool
    pool.quit()


def screenshot(driver, name: str):
    """Saves the current screen as APP_SCREENSHOTS/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(SCREENSHOTS / f"{name}.png"))


def console_errors(driver) -> list[str]:
    """The page's JavaScript errors (a module that fails to load, an exception)."""
    try:
        entries = driver.get_log("browser")
    except Exception:
        return []
    return [entry["message"] for entry in entries if entry["level"] == "SEVERE"]
