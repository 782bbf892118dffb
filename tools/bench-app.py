#!/usr/bin/env python3
"""`make bench-app`: the web app's speed, measured in the page (headless Chromium through selenium) on loopback,
each figure next to a reference measured in the same run.

- First load to a usable map (index, modules, config, profile, cars, the map drawn: `window.carchainMetrics.marks
  .mapReady`, ms since navigation start), browser cache disabled, with 18 cars and with 1,000 cars. Reference: the
  same browser navigating to one static file of the same server (`/app/icon.svg`, its responseEnd).
- Map redraws while panning (mouse drags through ActionChains; each redraw's duration as the page measures it), with
  1,000 cars, next to the same with 18 cars.
- App API reads over a keep-alive HTTP connection (GET /app/api/v1/cars, /availability, /me), next to a plain
  `eth_blockNumber` round trip on the same server (the loopback floor).

Targets (issue 21): first load <= 300 ms with 18 cars; <= 100 ms per redraw with 1,000 cars; API reads p50 <= 5 ms.
"""

from __future__ import annotations

import http.client
import json
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MANAGER = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"  # dev account 0, the deployer
LOADS = int(os.environ.get("APP_BENCH_LOADS", "15"))


sys.path.insert(0, str(ROOT / "tools" / "app_tests"))
from conftest import Node as AppNode  # noqa: E402  (the browser tests' node: `carchain node --port 0`, banner read)
from pytest_support import carchain_binary  # noqa: E402


class Node(AppNode):
    """The node, with one keep-alive HTTP connection for the timed requests."""

    def __init__(self, data_dir: str):
        super().__init__(binary(), data_dir=data_dir)
        self.host, self.port = self.url[len("http://"):].split(":")
        self.connection = http.client.HTTPConnection(self.host, int(self.port), timeout=120)

    def request(self, method: str, path: str, body=None, headers=None):
        payload = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        all_headers = {"Content-Type": "application/json", **(headers or {})}
        try:
            self.connection.request(method, path, body=payload, headers=all_headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):
            # The node closes connections idle past --http-timeout: open a new one.
            self.connection.close()
            self.connection = http.client.HTTPConnection(self.host, int(self.port), timeout=120)
            self.connection.request(method, path, body=payload, headers=all_headers)
            response = self.connection.getresponse()
        data = response.read()
        return response.status, (json.loads(data) if data else None)

    def rpc(self, method, *params):
        status, answer = self.request("POST", "/", {"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)})
        if "error" in answer:
            sys.exit(f"bench-app: {method}: {answer['error']}")
        return answer["result"]


def binary() -> Path:
    return carchain_binary() or ROOT / ".build" / "release" / "carchain"


def plates(count: int) -> list[str]:
    """Distinct plates in the seed app's format (four digits, three capitals)."""
    letters = "BCDFGHJKLMNPRSTVWXYZ"
    return [f"{i:04d}{letters[i % 20]}{letters[(i // 20) % 20]}{letters[(i // 400) % 20]}" for i in range(count)]


def register_cars(node: Node, data_dir: str, names: list[str], already: int):
    """Registers cars on chain from the manager (unlocked dev account 0) in batches, and places them in the fleet
    registry on a sunflower spiral around Puerta del Sol (about 110 m × sqrt(i) out)."""
    from eth_abi import encode
    from eth_utils import keccak

    contract = json.loads((Path(data_dir) / "carchain.json").read_text())["contract"]
    selector = keccak(text="registerNewCar(string)")[:4]
    new = names[already:]
    for start in range(0, len(new), 100):
        batch = [{"jsonrpc": "2.0", "id": i, "method": "eth_sendTransaction", "params": [{
            "from": MANAGER, "to": contract, "gas": hex(200_000),
            "data": "0x" + (selector + encode(["string"], [plate])).hex()}]} for i, plate in enumerate(new[start:start + 100])]
        status, answers = node.request("POST", "/", batch)
        bad = [a for a in answers if "error" in a]
        if bad:
            sys.exit(f"bench-app: registering cars: {bad[0]['error']}")
    cars = []
    for i, plate in enumerate(names):
        bearing = math.radians(i * 137.50776405)
        metres = 110 * math.sqrt(i + 1)
        lat = 40.4168 + (metres * math.cos(bearing)) / 111_320
        lon = -3.7038 + (metres * math.sin(bearing)) / (111_320 * math.cos(math.radians(40.4168)))
        cars.append({"plate": plate, "latitude": lat, "longitude": lon, "updatedAt": "2026-01-01T00:00:00Z"})
    registry = {"version": 1, "cars": sorted(cars, key=lambda c: c["plate"])}
    path = Path(data_dir) / "fleet.json"
    path.write_text(json.dumps(registry))


def sign_up(node: Node) -> dict:
    status, answer = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=bench",
                                  {"email": "bench@example.com", "password": "bench-password", "returnSecureToken": True})
    if status != 200:
        sys.exit(f"bench-app: sign-up failed: {answer}")
    token = answer["idToken"]
    status, setup = node.request("POST", "/app/api/v1/account", {"walletPassphrase": "bench-passphrase"},
                                 {"Authorization": f"Bearer {token}"})
    if status != 200:
        sys.exit(f"bench-app: account setup failed: {setup}")
    return {"uid": answer["localId"], "email": "bench@example.com", "idToken": token,
            "refreshToken": answer["refreshToken"], "expiresAt": int(time.time() * 1000) + 3_600_000}


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    if not chromium or not Path(driver_path).exists():
        sys.exit("bench-app: Chromium or chromedriver is missing (make deps)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,800", f"--user-data-dir={tempfile.mkdtemp(prefix='carchain-bench-')}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.setCacheDisabled", {"cacheDisabled": True})
    return driver


def first_loads(driver, url: str, session: dict) -> list[float]:
    driver.get(url + "/app/")
    driver.execute_script("localStorage.setItem('carchain.session', arguments[0])", json.dumps(session))
    times = []
    for run in range(LOADS):
        # A new query each time: a change of the hash alone would not load the page again.
        driver.get(url + f"/app/?load={run}#/map")
        deadline = time.time() + 30
        ready = None
        while ready is None and time.time() < deadline:
            ready = driver.execute_script("return window.carchainMetrics && window.carchainMetrics.marks.mapReady")
            if ready is None:
                time.sleep(0.01)
        if ready is None:
            sys.exit(f"bench-app: the map did not become ready: {driver.execute_script('return document.body.innerText')[:500]}")
        times.append(float(ready))
    return times


def static_loads(driver, url: str) -> list[float]:
    times = []
    for _ in range(LOADS):
        driver.get(url + "/app/icon.svg")
        times.append(float(driver.execute_script("return performance.getEntriesByType('navigation')[0].responseEnd")))
    return times


def redraws(driver, url: str, drags: int = 20) -> tuple[list[float], list[float]]:
    """Each redraw's script time and its time to the next frame (rendering included), while dragging the map."""
    from selenium.webdriver.common.action_chains import ActionChains

    driver.get(url + f"/app/?redraw={time.time()}#/map")
    deadline = time.time() + 30
    while driver.execute_script("return window.carchainMetrics && window.carchainMetrics.marks.mapReady") is None:
        if time.time() > deadline:
            sys.exit("bench-app: the map did not become ready")
        time.sleep(0.02)
    start = driver.execute_script("return [window.carchainMetrics.redraws.length, window.carchainMetrics.frames.length]")
    element = driver.find_element("css selector", "#map")
    for i in range(drags):
        step = 12 if i % 2 == 0 else -12
        chain = ActionChains(driver, duration=16).move_to_element(element).click_and_hold()
        for _ in range(6):
            chain = chain.move_by_offset(step, step // 2)
        chain.release().perform()
    time.sleep(0.3)
    scripts, frames = driver.execute_script(
        "return [window.carchainMetrics.redraws.slice(arguments[0]), window.carchainMetrics.frames.slice(arguments[1])]", *start)
    return [float(s) for s in scripts], [float(s) for s in frames]


def api_reads(node: Node, token: str, path: str, runs: int = 300) -> list[float]:
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(10):  # warm-up: the connection, the snapshot of the fleet at this head
        node.request("GET", path, headers=headers)
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        status, _ = node.request("GET", path, headers=headers)
        out.append((time.perf_counter() - started) * 1000)
        if status != 200:
            sys.exit(f"bench-app: GET {path} answered {status}")
    return out


def block_number_round_trips(node: Node, runs: int = 300) -> list[float]:
    for _ in range(10):
        node.rpc("eth_blockNumber")
    out = []
    for _ in range(runs):
        started = time.perf_counter()
        node.rpc("eth_blockNumber")
        out.append((time.perf_counter() - started) * 1000)
    return out


def line(name: str, samples: list[float], target: str = "") -> str:
    ordered = sorted(samples)
    p50 = statistics.median(ordered)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"    {name:<52} min {ordered[0]:8.2f} ms  median {p50:8.2f} ms  p95 {p95:8.2f} ms  (n={len(ordered)}){target}"


def main():
    if not binary().exists():
        sys.exit(f"bench-app: no carchain binary at {binary()} (swift build -c release --product carchain)")
    data_dir = tempfile.mkdtemp(prefix="carchain-bench-app-")
    node = Node(data_dir)
    driver = None
    try:
        names = plates(1000)
        register_cars(node, data_dir, names[:18], 0)
        session = sign_up(node)
        driver = browser()
        print("==> The web app in headless Chromium (loopback, browser cache disabled)")
        reference = static_loads(driver, node.url)
        loads18 = first_loads(driver, node.url, session)
        redraw18 = redraws(driver, node.url)
        token = session["idToken"]
        reads = {path: api_reads(node, token, path) for path in ("/app/api/v1/cars", "/app/api/v1/availability", "/app/api/v1/me")}
        floor = block_number_round_trips(node)
        register_cars(node, data_dir, names, 18)
        loads1000 = first_loads(driver, node.url, session)
        redraw1000 = redraws(driver, node.url)
        cars1000 = api_reads(node, token, "/app/api/v1/cars", runs=100)
        print(line("reference: one static file (/app/icon.svg)", reference))
        print(line("first load to a usable map, 18 cars", loads18, "   target <= 300 ms"))
        print(line("first load to a usable map, 1,000 cars", loads1000))
        print(line("reference: redraw while panning, 18 cars (script)", redraw18[0]))
        print(line("reference: redraw while panning, 18 cars (to frame)", redraw18[1]))
        print(line("redraw while panning, 1,000 cars (script)", redraw1000[0]))
        print(line("redraw while panning, 1,000 cars (to frame)", redraw1000[1], "   target <= 100 ms"))
        print(line("reference: eth_blockNumber round trip", floor))
        for path, samples in reads.items():
            print(line(f"GET {path[len('/app/api/v1'):]} (18 cars)", samples, "   target p50 <= 5 ms"))
        print(line("GET /cars (1,000 cars)", cars1000))
    finally:
        if driver is not None:
            driver.quit()
        node.stop()
        shutil.rmtree(data_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
