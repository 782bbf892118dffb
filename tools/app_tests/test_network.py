"""The app on a real network (issue 33): `carchain app --rpc URL --auth-url URL --contract ADDR --chain-id N` serves the
pages for a node and an auth service it does not run, and holds no user key — the browser signs.

Stand-ins: a separate `carchain node --chain-id 11155111 --block-time 1` for Sepolia (blocks every second, as a
network makes them), and the same against the py-evm reference node for the chain (tools/pyevm-node.py, blocks made by
a steady trickle of transfers); the auth emulator of another `carchain node`, on its own port, for Firebase; a local
tile server for the map's tiles. The manager imports the deployer's key into the browser's keystore, a user makes a new
key there, a faucet (web3.py) funds it, and both register, buy credit, rent, return and register a car — every
transaction signed in the page, relayed by the app server, followed to 2 confirmations, checked on chain with web3.py.
A wallet on the wrong chain is refused before anything is signed, and the app server's directory holds no key.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
from selenium.webdriver.common.action_chains import ActionChains

from conftest import DEPLOYER_KEY, DESKTOP, MANAGER, PHONE, ROOT, TileServer, console_errors, screenshot
from page import Page
from pytest_support import NodeProcess, carchain_binary, missing

CHAIN_ID = 11155111
CONFIRMATIONS = 2
FAUCET_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # dev account 1
PUMP_KEY = "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6"  # dev account 9
CAR_ABI = [
    {"name": "getCar", "type": "function", "stateMutability": "view", "inputs": [{"name": "p", "type": "string"}],
     "outputs": [{"name": "registered", "type": "bool"}, {"name": "renter", "type": "string"}]},
    {"name": "getUserCredit", "type": "function", "stateMutability": "view", "inputs": [{"name": "u", "type": "string"}],
     "outputs": [{"name": "", "type": "uint256"}]},
    {"name": "getUserAccount", "type": "function", "stateMutability": "view", "inputs": [{"name": "u", "type": "string"}],
     "outputs": [{"name": "", "type": "address"}]},
    {"name": "rentCar", "type": "function", "stateMutability": "nonpayable",
     "inputs": [{"name": "p", "type": "string"}, {"name": "u", "type": "string"}], "outputs": []},
]


def binary() -> Path:
    found = carchain_binary()
    if found is None or not found.exists():
        missing("no carchain binary (run `swift build -c release --product carchain` or set CARCHAIN_BIN)")
    return found


@pytest.fixture(scope="module")
def auth_service():
    """Firebase's stand-in: the auth emulator of a `carchain node` on its own port (no contract, no app)."""
    server = NodeProcess([str(binary()), "node", "--ephemeral", "--no-carchain", "--no-app", "--port", "0"])
    yield server
    server.stop()


@pytest.fixture(scope="module")
def tiles():
    server = TileServer()
    yield server
    server.close()


class PyEVMNode:
    """tools/pyevm-node.py on a free port, the chain id given; its first line is the port."""

    def __init__(self):
        python = Path(os.environ.get("CARCHAIN_VENV", ROOT / ".venv")) / "bin" / "python"
        if not python.exists():
            missing("the venv's python is missing (make venv)")
        self.process = subprocess.Popen([str(python), str(ROOT / "tools" / "pyevm-node.py"), "--port", "0", "--chain-id",
                                         str(CHAIN_ID), "--exit-with-parent"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if not line.isdigit():
            self.stop()
            raise RuntimeError(f"pyevm-node did not start: {line!r} {self.process.stderr.read()[:2000]}")
        self.url = f"http://127.0.0.1:{line}"
        threading.Thread(target=self.process.stderr.read, daemon=True).start()

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()


class BlockPump:
    """Makes a block about every `interval` seconds on an automining node (a 1-wei transfer each), so that a
    transaction gets its confirmations as on a network."""

    def __init__(self, web3, interval: float = 0.8):
        from eth_account import Account
        self.web3, self.account, self.interval = web3, Account.from_key(PUMP_KEY), interval
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        nonce = self.web3.eth.get_transaction_count(self.account.address)
        while not self.stopped.wait(self.interval):
            signed = self.account.sign_transaction({"to": self.account.address, "value": 1, "gas": 21000, "nonce": nonce,
                                                    "chainId": CHAIN_ID, "maxFeePerGas": 10**11, "maxPriorityFeePerGas": 10**9})
            try:
                self.web3.eth.send_raw_transaction(signed.raw_transaction)
                nonce += 1
            except Exception:
                nonce = self.web3.eth.get_transaction_count(self.account.address)

    def stop(self):
        self.stopped.set()
        self.thread.join(5)


def deploy(web3) -> str:
    """CarChain from dev account 0 (the manager), signed here: the py-evm node has no unlocked accounts."""
    from eth_account import Account
    artifact = json.loads((ROOT / "contracts" / "CarChain.json").read_text())
    deployer = Account.from_key(DEPLOYER_KEY)
    signed = deployer.sign_transaction({"data": artifact["bytecode"], "gas": 3_000_000, "nonce": web3.eth.get_transaction_count(deployer.address),
                                        "chainId": CHAIN_ID, "maxFeePerGas": 10**11, "maxPriorityFeePerGas": 10**9, "value": 0})
    receipt = web3.eth.wait_for_transaction_receipt(web3.eth.send_raw_transaction(signed.raw_transaction), timeout=60)
    assert receipt["status"] == 1
    return receipt["contractAddress"]


@pytest.fixture(params=["carchain-node", "pyevm"], scope="module")
def network(request, auth_service, tiles):
    """The chain (one of the two stand-ins), the CarChain contract on it, and `carchain app` serving it."""
    from web3 import Web3

    pump = None
    if request.param == "carchain-node":
        chain = NodeProcess([str(binary()), "node", "--ephemeral", "--chain-id", str(CHAIN_ID), "--block-time", "1", "--no-app",
                             "--port", "0"])
        web3 = Web3(Web3.HTTPProvider(chain.url))
        contract = "0x5FbDB2315678afecb367f032d93F642f64180aa3"  # dev account 0's first deployment, at the node's start
        deadline = time.time() + 30
        while web3.eth.get_code(contract) == b"" and time.time() < deadline:
            time.sleep(0.2)
    else:
        chain = PyEVMNode()
        web3 = Web3(Web3.HTTPProvider(chain.url))
        contract = deploy(web3)
        pump = BlockPump(web3)
    data_dir = tempfile.mkdtemp(prefix="carchain-app-network-")
    app = NodeProcess([str(binary()), "app", "--rpc", chain.url, "--auth-url", auth_service.url, "--contract", contract,
                       "--chain-id", str(CHAIN_ID), "--port", "0", "--data-dir", data_dir, "--confirmations", str(CONFIRMATIONS),
                       "--map-tiles", tiles.template, "--map-attribution", "Tiles: the test's own server"])
    app.app = app.url + "/app/"
    yield {"name": request.param, "chain": chain, "web3": web3, "contract": contract, "app": app, "data_dir": data_dir,
           "auth": auth_service}
    app.stop()
    if pump:
        pump.stop()
    chain.stop()


def follow_dialog(page: Page, passphrase: str, web3=None) -> list[str]:
    """Confirms with the passphrase and records every state the dialog shows while the transaction goes (until it
    closes). The states are recorded in the page by a MutationObserver, so a state shown for less than one of the test's
    polls (the "Sent" state, when the node mines at once) is not missed. With `web3`, the chain's head when the dialog
    closed is the list's `closed_at` attribute."""
    page.wait_visible("#confirm-passphrase")
    page.type("#confirm-passphrase", passphrase)
    page.driver.execute_script(
        "const p = document.querySelector('#confirm-progress'); const e = document.querySelector('#confirm-error');"
        "const states = window.__dialogStates = [];"
        "const note = () => { const t = (e.hidden ? '' : 'ERROR ' + e.textContent) || (p.hidden ? '' : p.textContent);"
        "  if (t && states[states.length - 1] !== t) states.push(t); };"
        "window.__dialogObserver?.disconnect();"
        "window.__dialogObserver = new MutationObserver(note);"
        "for (const n of [p, e]) window.__dialogObserver.observe(n,"
        "  {childList: true, characterData: true, subtree: true, attributes: true, attributeFilter: ['hidden']});")
    page.click("#confirm-ok")
    deadline = time.time() + 120
    seen = []
    while time.time() < deadline:
        open_, seen = page.driver.execute_script(
            "return [document.querySelector('#confirm').open, window.__dialogStates.slice()];")
        errors = [s for s in seen if s.startswith("ERROR")]
        assert not errors, errors
        if not open_:
            page.driver.execute_script("window.__dialogObserver?.disconnect();")
            if web3 is not None:
                seen = ClosedDialog(seen)
                seen.closed_at = web3.eth.block_number
            return seen
        time.sleep(0.03)
    raise AssertionError(f"the transaction did not finish: {seen}")


class ClosedDialog(list):
    closed_at: int = 0


def confirmed_when_closed(web3, sender: str, states: "ClosedDialog"):
    """The newest transaction of `sender` succeeded and had its confirmations when the dialog closed: the page waited
    for them. (Whether the page's poll caught the "k of n confirmations" state in between depends on when blocks come;
    the dialog's states are checked for what is certain: sent, then done.)"""
    assert any(s.startswith("Sent (0x") for s in states), states
    for number in range(states.closed_at, max(states.closed_at - 40, -1), -1):
        for tx in web3.eth.get_block(number, full_transactions=True).transactions:
            if tx["from"].lower() == sender.lower():
                receipt = web3.eth.get_transaction_receipt(tx["hash"])
                assert receipt["status"] == 1, receipt
                assert states.closed_at - receipt["blockNumber"] + 1 >= CONFIRMATIONS, (states.closed_at, receipt["blockNumber"])
                return
    raise AssertionError(f"no transaction from {sender} in the 40 blocks before {states.closed_at}")


def api_as(page: Page, path: str):
    return page.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "const t = JSON.parse(localStorage.getItem('carchain.session')).idToken;"
        f"fetch('/app/api/v1{path}', {{headers: {{Authorization: 'Bearer ' + t}}}}).then(r => r.json()).then(done);")


def test_real_network_browser_signs(network, browsers):
    from eth_account import Account
    from web3 import Web3

    web3, app = network["web3"], network["app"]
    contract = web3.eth.contract(address=network["contract"], abi=CAR_ABI)
    # One auth service serves both chains: each run has its own people.
    domain = f"{network['name']}.rentals.example"

    # The manager: the deployer's key imported into the browser's keystore, registered by a transaction signed here.
    manager = Page(browsers.new(DESKTOP), app.app)
    manager.open()
    assert "this server holds none" in manager.text("#mode")
    assert "Sepolia" in manager.text("#mode")
    manager.click("#tab-signup")
    assert network["contract"][:10] in manager.text("#form-signup") or "0xf39F" in manager.text("#form-signup")
    manager.sign_up(f"fleet@{domain}", "fleet-password", "fleet-pass", private_key=DEPLOYER_KEY, name="Fleet desk",
                    wait_for="#form-register-account")
    manager.click("#form-register-account button[type=submit]")
    states = follow_dialog(manager, "fleet-pass", web3)
    confirmed_when_closed(web3, MANAGER, states)
    manager.wait(lambda: manager.visible("#nav"), "the manager's screens")
    assert "manager" in manager.text("#who")

    # The manager registers a car by clicking the map: signed in the page, 2 confirmations, then placed.
    manager.go("manager")
    manager.wait_visible("#manager-map")
    ActionChains(manager.driver).move_to_element_with_offset(manager.find("#manager-map"), 20, 10).click().perform()
    manager.wait_text("#register-position", "at ")
    manager.type("#register-plate", "4242BCD")
    manager.click("#form-register button[type=submit]")
    follow_dialog(manager, "fleet-pass")
    manager.wait_text("#notice", "Car 4242BCD is registered")
    assert contract.functions.getCar("4242BCD").call() == [True, ""]
    # The new car shows on the manager's map (refitted to it), over tiles from the tile server, with its attribution.
    manager.wait(lambda: manager.driver.execute_script(
        "const m = document.querySelector('#manager-map').getBoundingClientRect();"
        "const c = document.querySelector('#manager-map [data-plate=\"4242BCD\"] circle'); if (!c) return false;"
        "const r = c.getBoundingClientRect(); return r.width > 0 && r.left >= m.left && r.right <= m.right && r.top >= m.top && r.bottom <= m.bottom;"),
        "the new car on the manager's map", 20)
    manager.wait(lambda: len(manager.all("#manager-map image[data-tile]")) > 0, "tiles on the manager's map")
    assert "the test's own server" in manager.text("#manager-map-attribution")
    zooms = {z for z, _, _ in network_tiles(manager)}
    assert zooms and all(12 <= z <= 19 for z in zooms), zooms
    screenshot(manager.driver, f"20-network-manager-tiles-{network['name']}")

    # A user: a new key made and kept in the browser; no ETH yet, so the page says where to send some.
    user = Page(browsers.new(PHONE), app.app)
    user.open()
    user.sign_up(f"ana@{domain}", "ana-password", "ana-pass", name="Ana", wait_for="#form-register-account")
    user.wait(lambda: user.visible("#enrol-fund"), "the funding hint")
    address = user.text("#enrol-address")
    assert Web3.is_address(address) and address.lower() in user.text("#enrol-fund").lower()
    faucet = Account.from_key(FAUCET_KEY)
    signed = faucet.sign_transaction({"to": Web3.to_checksum_address(address), "value": Web3.to_wei(0.05, "ether"), "gas": 21000,
                                      "nonce": web3.eth.get_transaction_count(faucet.address), "chainId": CHAIN_ID,
                                      "maxFeePerGas": 10**11, "maxPriorityFeePerGas": 10**9})
    web3.eth.send_raw_transaction(signed.raw_transaction)
    user.wait(lambda: not user.visible("#enrol-fund"), "the page to see the funds", 30)
    user.click("#form-register-account button[type=submit]")
    follow_dialog(user, "ana-pass")
    user.wait(lambda: user.visible("#nav"), "the user's screens")
    uid = user.driver.execute_script("return JSON.parse(localStorage.getItem('carchain.session')).uid")
    assert contract.functions.getUserAccount(uid).call() == Web3.to_checksum_address(address)

    # Buy credit, rent, return: each signed in the page, followed to its confirmations.
    user.go("profile")
    user.type("#form-credit input[name=amount]", "2")
    user.click("#form-credit button[type=submit]")
    follow_dialog(user, "ana-pass")
    user.wait_text("#notice", "You bought 2 credit")
    user.go("map")
    user.select_car("4242BCD")
    user.click("#sheet-rent")
    states = follow_dialog(user, "ana-pass", web3)
    confirmed_when_closed(web3, address, states)
    user.wait_text("#notice", "You rented 4242BCD")
    assert contract.functions.getCar("4242BCD").call() == [True, uid]
    user.go("rental")
    user.click("#rental-return")
    follow_dialog(user, "ana-pass")
    user.wait_text("#notice", "You returned 4242BCD")
    assert contract.functions.getUserCredit(uid).call() == 1
    screenshot(user.driver, f"21-network-user-{network['name']}")
    # Every transaction of the user's came from the user's account, signed in the page (nonce 0..3: register, credit,
    # rent, return).
    assert web3.eth.get_transaction_count(Web3.to_checksum_address(address)) == 4

    # A transaction that fails on chain shows as failed: the manager (who may not rent) sends one outside the app.
    deployer = Account.from_key(DEPLOYER_KEY)
    failing = contract.functions.rentCar("4242BCD", "nobody").build_transaction({
        "from": deployer.address, "gas": 200_000, "nonce": web3.eth.get_transaction_count(deployer.address), "chainId": CHAIN_ID,
        "maxFeePerGas": 10**11, "maxPriorityFeePerGas": 10**9})
    hash_ = web3.eth.send_raw_transaction(deployer.sign_transaction(failing).raw_transaction).hex()
    outcome = user.driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "import('/app/js/receipt.js').then(m => m.follow(arguments[0])).then(o => done({ok: o.status}), e => done({failed: e.code, message: e.message}));",
        "0x" + hash_.removeprefix("0x"))
    assert outcome.get("failed") and "revert" in outcome["message"].lower(), outcome
    # The states the dialog shows, in order, whatever the timing of blocks: the server's answers scripted (pending, mined
    # with 1 of 2 confirmations, confirmed), the page's own follow() unchanged.
    states = user.driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        const answers = [{status: 'pending'}, {status: 'success', blockNumber: 7, confirmations: 1, requiredConfirmations: 2, confirmed: false},
                         {status: 'success', blockNumber: 7, confirmations: 2, requiredConfirmations: 2, confirmed: true}];
        Promise.all([import('/app/js/api.js'), import('/app/js/receipt.js')]).then(async ([{api}, receipt]) => {
          const real = api.transaction;
          api.transaction = async () => answers.shift();
          const seen = [];
          try { const outcome = await receipt.follow('0x' + 'ab'.repeat(32), (text) => seen.push(text)); done({seen, status: outcome.status}); }
          finally { api.transaction = real; }
        }, (error) => done({error: String(error)}));""")
    assert states == {"seen": ["Sent (0xabababab…): waiting to be mined…", "Mined in block 7: 1 of 2 confirmations…"],
                      "status": "success"}, states

    # The server holds no key: what it keeps is positions and the uid -> address book, nothing encrypted, no key.
    kept = [path for path in Path(network["data_dir"]).rglob("*") if path.is_file()]
    for path in kept:
        text = path.read_bytes().decode("utf-8", "replace")
        assert "ciphertext" not in text and "crypto" not in text.lower(), path
        assert DEPLOYER_KEY not in text.lower(), path
    assert not any("keystore" in part.lower() for path in kept for part in path.parts), kept
    token = user.driver.execute_script("return JSON.parse(localStorage.getItem('carchain.session')).idToken")
    import urllib.error
    import urllib.request
    request = urllib.request.Request(app.url + "/app/api/v1/rent", data=json.dumps({"plate": "4242BCD", "walletPassphrase": "x"}).encode(),
                                     headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"}, method="POST")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 409 and json.loads(refused.value.read())["error"]["code"] == "BROWSER_SIGNS"

    for page in (manager, user):
        assert [m for m in console_errors(page.driver) if "Failed to load resource" not in m] == []

    # An injected wallet on chain 1 (checked once: it does not depend on the node): asked to switch, it refuses, and
    # nothing is signed or linked.
    if network["name"] == "carchain-node":
        page = Page(browsers.new(DESKTOP, provider_script=WRONG_CHAIN_WALLET), app.app)
        page.open()
        page.sign_up(f"wrong-chain@{domain}", "wrong-password", wallet=True, wait_for="#error")
        assert "Your wallet is on chain 1, this app on chain 11155111" in page.text("#error")
        calls = page.driver.execute_script("return window.carchainWalletCalls")
        assert "personal_sign" not in calls and "eth_sendTransaction" not in calls, calls
        assert api_as(page, "/me")["address"] is None


def network_tiles(page: Page) -> list[tuple[int, int, int]]:
    return [tuple(int(v) for v in tile.split("/")) for tile in
            page.driver.execute_script("return [...document.querySelectorAll('image[data-tile]')].map(i => i.dataset.tile)")]


WRONG_CHAIN_WALLET = """
(() => {
  window.carchainWalletCalls = [];
  window.ethereum = {
    async request({ method, params }) {
      window.carchainWalletCalls.push(method);
      if (method === "eth_chainId") return "0x1";
      if (method === "eth_requestAccounts" || method === "eth_accounts") return ["0x9965507d1a55bcc2695c58ba16fb37d819b0a4dc"];
      if (method === "wallet_switchEthereumChain") throw new Error("the user refused");
      throw new Error("not expected here: " + method);
    },
  };
})();
"""
