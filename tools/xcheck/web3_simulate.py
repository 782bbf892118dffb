#!/usr/bin/env python3
"""Drive a running `carchain node` with web3.py and eth-account through eth_simulateV1.

Input (stdin, JSON): {"url": "http://…"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

A transfer signed by eth-account is mined; web3.py's `eth.simulate_v1` then simulates the same transaction, unsigned
and with `validation`, on the block before it with the mined block's time and fee recipient: the simulated block must
carry the mined block's state root, receipts root, logs bloom, gas used and base fee (the roots do not depend on the
signature). A contract is deployed (eth-account signs); a simulated call must return what eth_call returns and use
the gas the same call uses when mined as a signed transaction. web3.py parses every answer with its own result formatters.
"""
import json
import sys
import traceback

from eth_account import Account
from web3 import Web3

# Dev account 1 of the test mnemonic (the node funds it).
SENDER_KEY = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
CHAIN_ID = 4
RECIPIENT = "0xc100000000000000000000000000000000000000"
# Runtime: return calldata word 0 + 1.
RUNTIME = bytes.fromhex("600035600101600052602060" + "00f3")
INITCODE = bytes.fromhex("600e600c600039600e6000f3") + RUNTIME


def main():
    request = json.load(sys.stdin)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})

    try:
        w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 30}))
        check("connected", w3.is_connected())
        sender = Account.from_key(SENDER_KEY)
        nonce = w3.eth.get_transaction_count(sender.address)
        fees = {"maxFeePerGas": 100 * 10**9, "maxPriorityFeePerGas": 10**9}
        tx = {"type": 2, "chainId": CHAIN_ID, "nonce": nonce, "to": Web3.to_checksum_address(RECIPIENT),
              "value": 10**18, "gas": 21000, **fees}
        signed = sender.sign_transaction(tx)
        receipt = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(signed.raw_transaction), timeout=30)
        mined = w3.eth.get_block(receipt["blockNumber"])
        check("transfer mined", receipt["status"] == 1, receipt)

        # Quantities as hex strings: web3.py passes the payload through as given, and geth takes no JSON numbers here.
        payload = {
            "blockStateCalls": [{
                "blockOverrides": {"time": hex(mined["timestamp"]), "feeRecipient": mined["miner"]},
                "calls": [{"from": sender.address, "to": Web3.to_checksum_address(RECIPIENT), "value": hex(10**18),
                           "gas": hex(21000), "nonce": hex(nonce), **{k: hex(v) for k, v in fees.items()}}],
            }],
            "validation": True,
        }
        simulated = w3.eth.simulate_v1(payload, mined["number"] - 1)
        check("one simulated block", len(simulated) == 1, simulated)
        block = simulated[0]
        for field in ("number", "parentHash", "stateRoot", "receiptsRoot", "logsBloom", "gasUsed", "baseFeePerGas"):
            check(f"simulated {field} equals the mined block's", block[field] == mined[field],
                  f"{block[field]!r} != {mined[field]!r}")
        call = block["calls"][0]
        check("simulated call succeeded", call["status"] == 1 and call["gasUsed"] == receipt["gasUsed"], call)
        check("chain unchanged", w3.eth.block_number == mined["number"])

        # A contract call: the simulated return and gas equal eth_call's.
        deploy = sender.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": nonce + 1, "to": None, "value": 0,
                                          "gas": 100000, "data": INITCODE, **fees})
        deployed = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(deploy.raw_transaction), timeout=30)
        contract = deployed["contractAddress"]
        data = "0x" + (41).to_bytes(32, "big").hex()
        expected = w3.eth.call({"to": contract, "data": data})
        simulated = w3.eth.simulate_v1({"blockStateCalls": [{"calls": [{"to": contract, "data": data}]}]}, "latest")
        call = simulated[0]["calls"][0]
        check("simulated call returns eth_call's data", bytes(call["returnData"]) == bytes(expected),
              f"{call['returnData']!r} != {expected!r}")
        check("returned 42", int.from_bytes(bytes(call["returnData"]), "big") == 42, call)
        # The same call mined as a signed transaction uses the gas the simulation reports.
        real = sender.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": nonce + 2, "to": contract, "value": 0,
                                        "gas": 100000, "data": data, **fees})
        used = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(real.raw_transaction), timeout=30)
        check("simulated gas equals the mined transaction's", call["gasUsed"] == used["gasUsed"],
              f"{call['gasUsed']} != {used['gasUsed']}")
        # web3.py 8 has no formatter for maxUsedGas yet: it stays a hex string.
        max_used = call["maxUsedGas"]
        max_used = int(max_used, 16) if isinstance(max_used, str) else max_used
        check("maxUsedGas at least gasUsed", max_used >= call["gasUsed"], call)
    except Exception:  # a failure is a check, so the Swift test reports it
        check("no exception", False, traceback.format_exc())
    json.dump({"checks": checks}, sys.stdout)


if __name__ == "__main__":
    main()
