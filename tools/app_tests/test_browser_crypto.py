"""The page's own cryptography (Sources/CarChainApp/Web/js/crypto/: Keccak-256, secp256k1 with RFC 6979, EIP-191
messages, legacy and EIP-1559 transaction signing, the WebCrypto keystore), run in Chromium and compared with:

- the Swift implementation's vectors (testdata/app/browser-crypto-vectors.json, checked against the Swift code by
  BrowserCryptoVectorTests), byte for byte: hashes, public keys, addresses, r/s/recovery, raw transactions;
- eth-account and eth-utils (Python) on random keys, messages and transactions made here.

The modules are served from the source tree by a static server (what the app bundles is a copy of them)."""

from __future__ import annotations

import functools
import json
import random
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

from conftest import ROOT

WEB = ROOT / "Sources" / "CarChainApp" / "Web"
VECTORS = json.loads((ROOT / "testdata" / "app" / "browser-crypto-vectors.json").read_text())

RUN = """
const done = arguments[arguments.length - 1];
const input = arguments[0];
(async () => {
  const { keccak256 } = await import('/js/crypto/keccak.js');
  const ecc = await import('/js/crypto/secp256k1.js');
  const { signTransaction } = await import('/js/crypto/transaction.js');
  const out = { keccak: [], signatures: [], personal: [], transactions: [] };
  for (const hex of input.keccak) out.keccak.push(ecc.toHex(keccak256(ecc.fromHex(hex))));
  for (const { key, hash } of input.signatures) {
    const k = ecc.fromHex(key);
    const s = await ecc.sign(ecc.fromHex(hash), k);
    out.signatures.push({ address: ecc.address(k), publicKey: ecc.toHex(ecc.publicKey(k)),
      r: '0x' + s.r.toString(16).padStart(64, '0'), s: '0x' + s.s.toString(16).padStart(64, '0'), recovery: s.recovery });
  }
  for (const { key, message } of input.personal) out.personal.push(await ecc.signPersonalMessage(message, ecc.fromHex(key)));
  for (const { key, transaction } of input.transactions) out.transactions.push(await signTransaction(transaction, ecc.fromHex(key)));
  return out;
})().then(done, (error) => done({ error: String(error && error.stack || error) }));
"""


@pytest.fixture(scope="module")
def static_page(browsers):
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(WEB))
    handler.log_message = lambda *args: None
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    driver = browsers.new()
    driver.set_script_timeout(120)
    driver.get(f"http://127.0.0.1:{server.server_address[1]}/icon.svg")
    yield driver
    server.shutdown()
    server.server_close()


def run(driver, cases: dict) -> dict:
    answer = driver.execute_async_script(RUN, cases)
    assert "error" not in answer, answer.get("error")
    return answer


def test_against_the_swift_vectors(static_page):
    cases = {
        "keccak": [case["input"] for case in VECTORS["keccak256"]],
        "signatures": [{"key": case["key"], "hash": case["hash"]} for case in VECTORS["signatures"]],
        "personal": [{"key": case["key"], "message": case["message"]} for case in VECTORS["personal"]],
        "transactions": [{"key": case["key"], "transaction": case["transaction"]} for case in VECTORS["transactions"]],
    }
    answer = run(static_page, cases)
    assert answer["keccak"] == [case["hash"] for case in VECTORS["keccak256"]]
    for got, want in zip(answer["signatures"], VECTORS["signatures"], strict=True):
        assert got["address"] == want["address"]
        assert got["publicKey"] == want["publicKey"]
        assert (got["r"], got["s"], got["recovery"]) == (want["r"], want["s"], want["recovery"]), want
    assert answer["personal"] == [case["signature"] for case in VECTORS["personal"]]
    for got, want in zip(answer["transactions"], VECTORS["transactions"], strict=True):
        assert (got["raw"], got["hash"]) == (want["raw"], want["hash"]), want["transaction"]
    assert len(answer["transactions"]) >= 10 and len(answer["signatures"]) >= 20


def test_against_eth_account_on_random_input(static_page):
    from eth_account import Account
    from eth_account.messages import encode_defunct
    from eth_utils import keccak

    rng = random.Random(33)
    keys = ["0x" + rng.getrandbits(256).to_bytes(32, "big").hex() for _ in range(12)]
    messages = [bytes(rng.getrandbits(8) for _ in range(rng.choice([0, 1, 31, 135, 136, 137, 500]))) for _ in range(24)]
    transactions = []
    for i, key in enumerate(keys):
        data = "0x" + bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300))).hex()
        common = {"nonce": rng.randint(0, 2**40), "gas": rng.randint(21000, 2**24), "to": Account.create().address, "value": 0, "data": data}
        if i % 2:
            tx = {**common, "type": 2, "chainId": rng.choice([1, 4, 11155111, 31337]), "maxFeePerGas": rng.randint(10**9, 10**12),
                  "maxPriorityFeePerGas": rng.randint(0, 10**9)}
        else:
            tx = {**common, "chainId": rng.choice([1, 4, 11155111, 31337]), "gasPrice": rng.randint(1, 10**12)}
        transactions.append((key, tx))
    hexed = lambda tx: {k: (hex(v) if isinstance(v, int) else v) for k, v in tx.items()}  # noqa: E731
    cases = {
        "keccak": ["0x" + m.hex() for m in messages],
        "signatures": [{"key": key, "hash": "0x" + keccak(m).hex()} for key, m in zip(keys * 2, messages)],
        "personal": [{"key": key, "message": f"CarChain test message {i} ✓"} for i, key in enumerate(keys)],
        "transactions": [{"key": key, "transaction": {**hexed(tx), "type": hex(tx.get("type", 0))}} for key, tx in transactions],
    }
    answer = run(static_page, cases)
    assert answer["keccak"] == ["0x" + keccak(m).hex() for m in messages]
    for got, (key, m) in zip(answer["signatures"], zip(keys * 2, messages), strict=True):
        signed = Account.unsafe_sign_hash(keccak(m), key)
        assert got["address"] == Account.from_key(key).address
        assert (int(got["r"], 16), int(got["s"], 16), got["recovery"]) == (signed.r, signed.s, signed.v - 27)
    for got, (i, key) in zip(answer["personal"], enumerate(keys), strict=True):
        assert got == "0x" + Account.sign_message(encode_defunct(text=f"CarChain test message {i} ✓"), key).signature.hex()
    for got, (key, tx) in zip(answer["transactions"], transactions, strict=True):
        signed = Account.sign_transaction(tx, key)
        assert got["raw"] == "0x" + signed.raw_transaction.hex(), tx
        assert got["hash"] == "0x" + signed.hash.hex()


def test_keystore_round_trip_and_wrong_passphrase(static_page):
    """The browser's keystore: encrypt, store nothing in the clear, unlock with the passphrase only."""
    answer = static_page.execute_async_script("""
        const done = arguments[arguments.length - 1];
        (async () => {
          const ks = await import('/js/crypto/keystore.js');
          const ecc = await import('/js/crypto/secp256k1.js');
          const key = ecc.fromHex(arguments[0]);
          const file = await ks.create('a passphrase', key.slice());
          const text = JSON.stringify(file);
          const back = await ks.unlock(ks.parse(text), 'a passphrase');
          let wrong = null;
          try { await ks.unlock(file, 'another'); } catch (error) { wrong = error.code; }
          return { address: file.address, clear: text.includes(arguments[0].slice(2)), back: ecc.toHex(back), wrong,
                   iterations: file.kdf.iterations };
        })().then(done, (error) => done({ error: String(error) }));
    """, "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318")
    assert "error" not in answer, answer
    assert answer["address"] == "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23"
    assert answer["clear"] is False
    assert answer["back"] == "0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
    assert answer["wrong"] == "WRONG_PASSPHRASE"
    assert answer["iterations"] >= 600000
