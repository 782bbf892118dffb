#!/usr/bin/env python3
"""Drive a running `carchain node` with web3.py and eth-account through issue 18's dev methods.

Input (stdin, JSON): {"url": "http://…"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

- eth_signTypedData_v4: the node's signature of an EIP-712 message (nested structs, arrays, bytes, string)
  equals eth-account's `encode_typed_data` + `sign_message` with the same dev key, and recovers to the account.
- eth_signTransaction: geth's `{raw, tx}`; the raw bytes decode in eth-account to the dev account as sender and
  hash to `tx.hash`, for a legacy and an EIP-1559 transaction, and nothing is sent.
- Impersonation: web3.py sends from a funded address the node has no key for (a "whale") after
  anvil_impersonateAccount; the transaction is mined, eth_getTransactionByHash names the whale as `from`, and the
  receipt is found by the hash web3.py got back.
- anvil_dumpState -> anvil_reset -> anvil_loadState: balances, nonces, code and storage read back equal.
"""
import json
import sys
import traceback

from eth_account import Account
from eth_account.messages import encode_typed_data
from eth_utils import keccak
from web3 import Web3

# Dev account 0 of the test mnemonic (the node holds its key).
DEV_KEY = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
WHALE = "0x00000000219ab540356cBB839Cbe05303d7705Fa"
RECIPIENT = "0x1111111111111111111111111111111111111111"

TYPED = {
    "types": {
        "EIP712Domain": [
            {"name": "name", "type": "string"}, {"name": "version", "type": "string"},
            {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"},
        ],
        "Person": [{"name": "name", "type": "string"}, {"name": "wallets", "type": "address[]"}],
        "Mail": [
            {"name": "from", "type": "Person"}, {"name": "to", "type": "Person[]"},
            {"name": "contents", "type": "string"}, {"name": "attachment", "type": "bytes"},
            {"name": "amount", "type": "uint256"},
        ],
    },
    "primaryType": "Mail",
    "domain": {"name": "Ether Mail", "version": "1", "chainId": 4,
               "verifyingContract": "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC"},
    "message": {
        "from": {"name": "Cow", "wallets": ["0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826"]},
        "to": [{"name": "Bob", "wallets": ["0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB", "0xB0BdaBea57B0BDABeA57b0bdABEA57b0BDabEa57"]}],
        "contents": "Hello, Bob!",
        "attachment": "0xdeadbeef",
        "amount": 1000000000000000000,
    },
}


def main():
    request = json.load(sys.stdin)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})

    def rpc(method, params):
        answer = w3.provider.make_request(method, params)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    try:
        w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 30}))
        check("connected", w3.is_connected())
        dev = Account.from_key(DEV_KEY)
        chain_id = w3.eth.chain_id

        # EIP-712
        typed = json.loads(json.dumps(TYPED))
        typed["domain"]["chainId"] = chain_id
        node_sig = rpc("eth_signTypedData_v4", [dev.address, typed])
        expected = dev.sign_message(encode_typed_data(full_message=typed))
        check("signTypedData_v4 equals eth-account", node_sig == "0x" + expected.signature.hex().removeprefix("0x"),
              f"{node_sig} vs {expected.signature.hex()}")
        recovered = Account.recover_message(encode_typed_data(full_message=typed), signature=node_sig)
        check("signTypedData_v4 recovers the account", recovered == dev.address, recovered)
        # MetaMask sends the typed data as JSON text.
        check("signTypedData_v4 takes JSON text", rpc("eth_signTypedData_v4", [dev.address, json.dumps(typed)]) == node_sig)

        # eth_signTransaction
        block_before = w3.eth.block_number
        for name, fields in [
            ("legacy", {"gasPrice": hex(3 * 10**9)}),
            ("eip1559", {"maxFeePerGas": hex(5 * 10**9), "maxPriorityFeePerGas": hex(10**9)}),
        ]:
            signed = rpc("eth_signTransaction", [{"from": dev.address, "to": RECIPIENT, "value": hex(7), "gas": hex(21000), **fields}])
            raw = signed["raw"]
            sender = Account.recover_transaction(raw)
            check(f"signTransaction {name} recovers the sender", sender == dev.address, sender)
            check(f"signTransaction {name} tx.hash is keccak(raw)",
                  signed["tx"]["hash"] == "0x" + keccak(bytes.fromhex(raw[2:])).hex(), signed["tx"])
        check("signTransaction sends nothing", w3.eth.block_number == block_before, w3.eth.block_number)

        # Impersonation: a whale with funds and no key.
        rpc("anvil_setBalance", [WHALE, hex(50 * 10**18)])
        before = w3.eth.get_balance(RECIPIENT)
        rpc("anvil_impersonateAccount", [WHALE])
        tx_hash = w3.eth.send_transaction({"from": WHALE, "to": RECIPIENT, "value": 10**18})
        receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
        check("impersonated send mined", receipt["status"] == 1, receipt)
        tx = w3.eth.get_transaction(tx_hash)
        check("impersonated from", tx["from"] == WHALE, tx["from"])
        check("impersonated hash stable", tx["hash"] == tx_hash, tx["hash"])
        check("impersonated value moved", w3.eth.get_balance(RECIPIENT) == before + 10**18)
        rpc("anvil_stopImpersonatingAccount", [WHALE])
        try:
            w3.eth.send_transaction({"from": WHALE, "to": RECIPIENT, "value": 1})
            check("stopped impersonation refuses", False, "accepted")
        except Exception as error:  # web3 raises its own error type for the JSON-RPC error
            check("stopped impersonation refuses", "unknown account" in str(error), error)

        # dump -> reset -> load
        rpc("anvil_setCode", [RECIPIENT, "0x6001600155"])
        rpc("anvil_setStorageAt", [RECIPIENT, "0x5", "0x" + "00" * 31 + "2a"])
        watched = [dev.address, WHALE, RECIPIENT]
        snapshot = {a: (w3.eth.get_balance(a), w3.eth.get_transaction_count(a), w3.eth.get_code(a)) for a in watched}
        slot = w3.eth.get_storage_at(RECIPIENT, 5)
        dump = rpc("anvil_dumpState", [])
        rpc("anvil_reset", [])
        check("reset to genesis", w3.eth.block_number == 0, w3.eth.block_number)
        check("reset cleared the code", w3.eth.get_code(RECIPIENT) == b"")
        check("loadState answers true", rpc("anvil_loadState", [dump]) is True)
        after = {a: (w3.eth.get_balance(a), w3.eth.get_transaction_count(a), w3.eth.get_code(a)) for a in watched}
        check("loaded accounts equal the dumped ones", after == snapshot, f"{after} vs {snapshot}")
        check("loaded storage", w3.eth.get_storage_at(RECIPIENT, 5) == slot)
    except Exception:
        check("no exception", False, traceback.format_exc())
    print(json.dumps({"checks": checks}))


if __name__ == "__main__":
    main()
