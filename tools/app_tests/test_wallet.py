"""The EIP-1193 path: a test provider injected into the page (window.ethereum) that forwards every request to the
node's JSON-RPC, where a dev account is unlocked (eth_sendTransaction, personal_sign). The user signs up with the
wallet, buys credit and rents a car; every transaction is sent by the wallet's account, checked with web3.py."""

from __future__ import annotations

from conftest import DEPLOYER_KEY, DESKTOP, screenshot
from page import Page

WALLET_ACCOUNT = "0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"  # dev account 5 of the test mnemonic

PROVIDER = """
(() => {
  const account = "%s";
  const sent = [];
  window.carchainTestProvider = { sent };
  window.ethereum = {
    isCarchainTestProvider: true,
    async request({ method, params }) {
      if (method === "eth_requestAccounts" || method === "eth_accounts") return [account.toLowerCase()];
      const response = await fetch("/", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: sent.length + 1, method, params: params ?? [] }),
      });
      const answer = await response.json();
      if (answer.error) throw new Error(answer.error.message);
      if (method === "eth_sendTransaction") sent.push(answer.result);
      return answer.result;
    },
  };
})();
""" % WALLET_ACCOUNT


def test_wallet_signs(node, browsers):
    from web3 import Web3

    web3 = Web3(Web3.HTTPProvider(node.url))
    # The manager registers a car (through the page, with a key on the server).
    manager = Page(browsers.new(DESKTOP), node.app)
    manager.open()
    manager.sign_up("boss@example.com", "boss-password", "boss-passphrase", private_key=DEPLOYER_KEY)
    manager.go("manager")
    from selenium.webdriver.common.action_chains import ActionChains
    ActionChains(manager.driver).move_to_element_with_offset(manager.find("#manager-map"), 10, 10).click().perform()
    manager.type("#register-plate", "5432TPK")
    manager.click("#form-register button[type=submit]")
    manager.confirm("boss-passphrase")
    manager.wait_done("Car 5432TPK is registered")

    page = Page(browsers.new(DESKTOP, provider_script=PROVIDER), node.app)
    page.open()
    page.click("#tab-signup")
    assert page.visible("#signup-choice-wallet")
    page.sign_up("wallet@example.com", "wallet-password", wallet=True)
    uid = page.driver.execute_script("return JSON.parse(localStorage.getItem('carchain.session')).uid")
    me = page.driver.execute_script("""
        const token = JSON.parse(localStorage.getItem('carchain.session')).idToken;
        return fetch('/app/api/v1/me', {headers: {Authorization: 'Bearer ' + token}}).then(r => r.json());
    """)
    assert me["address"] == WALLET_ACCOUNT and me["serverHoldsKey"] is False and me["registered"] is True

    page.go("profile")
    page.type("#form-credit input[name=amount]", "2")
    page.click("#form-credit button[type=submit]")
    page.wait_visible("#confirm-wallet")
    assert not page.visible("#confirm-passphrase")
    page.confirm(None)
    page.wait_done("You bought 2 credit")

    page.go("map")
    page.select_car("5432TPK")
    page.click("#sheet-rent")
    page.confirm(None)
    page.wait_done("You rented 5432TPK")
    screenshot(page.driver, "09-wallet-rented")

    sent = page.driver.execute_script("return window.carchainTestProvider.sent")
    assert len(sent) == 3  # registerNewUser, addCredit, rentCar
    for tx_hash in sent:
        receipt = web3.eth.get_transaction_receipt(tx_hash)
        assert receipt["status"] == 1
        assert receipt["from"] == WALLET_ACCOUNT
    config = node.get_json("/app/api/v1/config")
    contract = web3.eth.contract(address=config["contract"], abi=[
        {"name": "getCar", "type": "function", "stateMutability": "view", "inputs": [{"name": "p", "type": "string"}],
         "outputs": [{"name": "registered", "type": "bool"}, {"name": "renter", "type": "string"}]},
        {"name": "getUserAccount", "type": "function", "stateMutability": "view", "inputs": [{"name": "u", "type": "string"}],
         "outputs": [{"name": "", "type": "address"}]},
    ])
    assert contract.functions.getCar("5432TPK").call() == [True, uid]
    assert contract.functions.getUserAccount(uid).call() == WALLET_ACCOUNT

    # The node goes away: the page says so instead of failing silently, and what the person asks for says why.
    node.stop()
    page.wait(lambda: "Offline" in page.text("#connection"), "the connection badge to say the node is offline", 10)
    page.go("profile")
    assert "unreachable" in page.error()
