"""Fixtures for the web app's browser tests: a real `carchain node` (with the app at /app/) on a free loopback port,
and headless Chromium (Debian's `chromium` and `chromium-driver`) driven by selenium. Screenshots of each screen go
to APP_SCREENSHOTS (default .build/app-screenshots/).

The node binary is CARCHAIN_BIN, else .build/release/carchain, else .build/debug/carchain. When it, Chromium,
chromedriver or selenium is missing the tests skip with the reason; with CARCHAIN_STRICT=1 they fail instead.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pytest_support import NodeProcess, carchain_binary, missing  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = Path(os.environ.get("APP_SCREENSHOTS", ROOT / ".build" / "app-screenshots"))
# Dev account 0 of the public test mnemonic: CarChain's deployer, the manager.
DEPLOYER_KEY = "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
MANAGER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
PHONE = (390, 844)
DESKTOP = (1280, 800)


class Node(NodeProcess):
    """`carchain node --port 0` (or `port`) on a fresh data directory (or in memory), with the web app."""

    def __init__(self, binary: Path, *extra: str, data_dir: str | None = None, port: int = 0):
        arguments = [str(binary), "node", "--port", str(port), "--host", "127.0.0.1", *extra]
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

    def request(self, method: str, path: str, body=None, token: str | None = None):
        """An HTTP request to the node (JSON in and out): (status, answer), errors included."""
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def user(self, email: str, passphrase: str, private_key: str | None = None, password: str = "user-password") -> dict:
        """Signs up through the auth routes and sets the account up through the app API (what the sign-up page
        does); returns the session the page keeps in localStorage, with the account's address."""
        status, answer = self.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=test",
                                      {"email": email, "password": password, "returnSecureToken": True})
        assert status == 200, answer
        body = {"walletPassphrase": passphrase, **({"privateKey": private_key} if private_key else {})}
        status, setup = self.request("POST", "/app/api/v1/account", body, answer["idToken"])
        assert status == 200, setup
        return {"uid": answer["localId"], "email": email, "idToken": answer["idToken"], "displayName": "",
                "refreshToken": answer["refreshToken"], "expiresAt": int(time.time() * 1000) + 3_600_000,
                "address": setup["address"]}

    def nonce(self, address: str) -> int:
        return int(self.rpc("eth_getTransactionCount", address, "latest"), 16)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def sign_in_page(driver, url: str, session: dict):
    """Puts a session (tokens) where the page keeps it, as a returning user's browser has it."""
    driver.get(url + "/app/icon.svg")
    kept = {key: value for key, value in session.items() if key != "address"}
    driver.execute_script("localStorage.setItem('carchain.session', arguments[0])", json.dumps(kept))


# The demo fleet (DemoFleet.swift): the seed's plates and 15 generated ones on a sunflower spiral around Puerta del
# Sol, about 100 m apart.
def demo_fleet() -> list[dict]:
    plates = ["6789BBB", "2353HYP", "5432TPK"]
    state, mask = 0x00C4C4A12018, (1 << 64) - 1

    def draw():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)
    letters = "BCDFGHJKLMNPRSTVWXYZ"
    while len(plates) < 18:
        plate = "".join(str(draw() % 10) for _ in range(4)) + "".join(letters[draw() % 20] for _ in range(3))
        if plate not in plates:
            plates.append(plate)
    return [{"plate": plate, **dict(zip(("latitude", "longitude"), moved(40.4168, -3.7038, 110 * math.sqrt(i + 1), i * 137.50776405)))}
            for i, plate in enumerate(plates)]


def moved(latitude: float, longitude: float, metres: float, bearing: float) -> tuple[float, float]:
    radius = 6371008.8
    d, t = metres / radius, math.radians(bearing)
    p1, l1 = math.radians(latitude), math.radians(longitude)
    p2 = math.asin(math.sin(p1) * math.cos(d) + math.cos(p1) * math.sin(d) * math.cos(t))
    l2 = l1 + math.atan2(math.sin(t) * math.sin(d) * math.cos(p1), math.cos(d) - math.sin(p1) * math.sin(p2))
    return math.degrees(p2), math.degrees(l2)


def register_fleet(node: Node, data_dir: str, cars: list[dict]):
    """Registers `cars` on chain from the manager (the node's unlocked dev account 0) and places them in the data
    directory's fleet registry, as `carchain car register --at` does."""
    from eth_abi import encode
    from eth_utils import keccak

    contract = json.loads((Path(data_dir) / "carchain.json").read_text())["contract"]
    selector = keccak(text="registerNewCar(string)")[:4]
    batch = [{"jsonrpc": "2.0", "id": i, "method": "eth_sendTransaction", "params": [{
        "from": MANAGER, "to": contract, "gas": hex(200_000), "data": "0x" + (selector + encode(["string"], [car["plate"]])).hex()}]}
        for i, car in enumerate(cars)]
    status, answers = node.request("POST", "/", batch)
    assert status == 200 and all("result" in answer for answer in answers), answers
    registry = [{"plate": car["plate"], "latitude": car["latitude"], "longitude": car["longitude"],
                 "updatedAt": "2026-01-01T00:00:00Z"} for car in cars]
    (Path(data_dir) / "fleet.json").write_text(json.dumps({"version": 1, "cars": sorted(registry, key=lambda c: c["plate"])}))


class DelayProxy:
    """A TCP proxy in front of a server that holds each chunk the browser sends for `delay` seconds: a slow network
    for HTTP and WebSocket alike."""

    def __init__(self, target_port: int, delay: float):
        self.server = socket.socket()
        self.server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(128)
        self.port = self.server.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.target, self.delay = target_port, delay
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                client.close()
                continue
            threading.Thread(target=self._pipe, args=(client, upstream, self.delay), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, 0), daemon=True).start()

    @staticmethod
    def _pipe(source, sink, delay):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if delay:
                    time.sleep(delay)
                sink.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, sink):
                try:
                    end.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

    def close(self):
        self.server.close()


def responsive(driver, timeout: float = 5.0) -> bool:
    """The watchdog: whether the page's renderer runs a script within `timeout` seconds (a page stuck in a loop
    does not)."""
    answer = {}

    def ask():
        try:
            answer["value"] = driver.execute_script("return 1")
        except Exception as error:  # the renderer crashed, or the session went away
            answer["error"] = error
    thread = threading.Thread(target=ask, daemon=True)
    thread.start()
    thread.join(timeout)
    return answer.get("value") == 1


def kill_browser(driver):
    """Ends a browser whose renderer no longer answers (driver.quit would wait on it): chromedriver's process and its
    children, by their ids."""
    service = driver.service.process
    pending = [service.pid]
    found = []
    while pending:
        pid = pending.pop()
        found.append(pid)
        children = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split()
        pending.extend(int(child) for child in children)
    for pid in reversed(found):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


def png(width: int, height: int, rgb: tuple[int, int, int]) -> bytes:
    """A plain PNG of one colour (zlib and a CRC: the format's whole story for a flat image)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


class TileServer:
    """A local XYZ raster tile server: GET /{z}/{x}/{y}.png answers a 256×256 PNG whose colour follows the tile (a
    checkerboard), and records what was asked."""

    def __init__(self):
        self.requests: list[tuple[int, int, int]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                parts = self.path.split("?")[0].strip("/").removesuffix(".png").split("/")
                try:
                    z, x, y = (int(part) for part in parts)
                except ValueError:
                    self.send_error(404)
                    return
                owner.requests.append((z, x, y))
                shade = 225 if (x + y) % 2 else 240
                body = png(256, 256, (shade, shade - 10, shade - 25))
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.template = f"http://127.0.0.1:{self.port}/{{z}}/{{x}}/{{y}}.png"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


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
