#!/usr/bin/env python3
"""Drive a running `carchain node` with web3.py through debug_traceCall, debug_traceTransaction and
debug_traceBlockByNumber (web3.py has no typed method for them: `manager.request_blocking`, as a client does).

Input (stdin, JSON): {"url": "http://…"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

A contract that emits a log and calls the identity precompile is deployed with a transaction eth-account signs. Its
call traced by debug_traceCall with callTracer (withLog) must show the CALL, the precompile's STATICCALL and the log;
mined as a signed transaction, its receipt's gasUsed must be the traced gasUsed, and debug_traceTransaction must give
the same frames. 4byteTracer counts the selector, prestateTracer in diff mode shows the sender's nonce step, the
block trace lists the transaction, and an unknown tracer is a -32602 error.
"""
import json
import sys
import traceback

from eth_account import Account
from web3 import Web3
from web3.exceptions import Web3RPCError

# Dev account 2 of the test mnemonic (the node funds it).
SENDER_KEY = "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a"
CHAIN_ID = 4
# Runtime: LOG1(topic 0xaa) of calldata word 0, STATICCALL identity on it, return it.
RUNTIME = bytes.fromhex(
    "60003560005260aa60206000a1"  # MSTORE(0, calldataload(0)); LOG1(0, 32, 0xaa)
    "602060206020600060045afa50"  # STATICCALL(gas, 4, 0, 32, 32, 32); POP
    "60206020f3")                # RETURN(32, 32)
INITCODE = bytes([0x60, len(RUNTIME), 0x60, 0x0c, 0x60, 0x00, 0x39, 0x60, len(RUNTIME), 0x60, 0x00, 0xf3]) + RUNTIME


def main():
    request = json.load(sys.stdin)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)[:2000]})

    try:
        w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 30}))
        check("connected", w3.is_connected())
        sender = Account.from_key(SENDER_KEY)
        fees = {"maxFeePerGas": 100 * 10**9, "maxPriorityFeePerGas": 10**9}
        nonce = w3.eth.get_transaction_count(sender.address)
        deploy = sender.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": nonce, "to": None, "value": 0,
                                          "gas": 200000, "data": INITCODE, **fees})
        deployed = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(deploy.raw_transaction), timeout=30)
        contract = deployed["contractAddress"]
        check("deployed", deployed["status"] == 1 and w3.eth.get_code(contract) == RUNTIME, deployed)

        data = "0x12345678" + "00" * 28
        call = {"from": sender.address, "to": contract, "data": data, "gas": hex(100000)}
        config = {"tracer": "callTracer", "tracerConfig": {"withLog": True}}
        traced = w3.manager.request_blocking("debug_traceCall", [call, "latest", config])
        check("top frame is the CALL", traced["type"] == "CALL" and traced["to"] == contract.lower(), traced)
        check("returned the word", traced.get("output") == data, traced)
        inner = traced.get("calls", [])
        check("one STATICCALL to the identity precompile",
              len(inner) == 1 and inner[0]["type"] == "STATICCALL" and int(inner[0]["to"], 16) == 4
              and inner[0].get("output") == data and "value" not in inner[0], inner)
        logs = traced.get("logs", [])
        check("the log, before the call", len(logs) == 1 and logs[0]["address"] == contract.lower()
              and logs[0]["data"] == data and int(logs[0]["position"], 16) == 0
              and logs[0]["topics"] == ["0x" + "00" * 31 + "aa"], logs)

        real = sender.sign_transaction({"type": 2, "chainId": CHAIN_ID, "nonce": nonce + 1, "to": contract, "value": 0,
                                        "gas": 100000, "data": data, **fees})
        tx_hash = w3.eth.send_raw_transaction(real.raw_transaction)
        receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
        check("traced gasUsed is the receipt's", int(traced["gasUsed"], 16) == receipt["gasUsed"],
              f"{traced['gasUsed']} vs {receipt['gasUsed']}")
        mined = w3.manager.request_blocking("debug_traceTransaction", [tx_hash.to_0x_hex(), config])
        check("the mined transaction's frames are the call's", mined == traced, f"{mined} != {traced}")

        counts = w3.manager.request_blocking("debug_traceTransaction", [tx_hash.to_0x_hex(), {"tracer": "4byteTracer"}])
        check("4byte counts the selector", counts == {"0x12345678-28": 1}, counts)
        diff = w3.manager.request_blocking(
            "debug_traceTransaction", [tx_hash.to_0x_hex(), {"tracer": "prestateTracer", "tracerConfig": {"diffMode": True}}])
        me = sender.address.lower()
        check("prestate diff: the sender's nonce", diff["pre"][me].get("nonce", 0) == nonce + 1
              and diff["post"][me]["nonce"] == nonce + 2, diff)
        block = w3.manager.request_blocking(
            "debug_traceBlockByNumber", [hex(receipt["blockNumber"]), {"tracer": "callTracer"}])
        check("block trace lists the transaction", len(block) == 1 and block[0]["txHash"] == tx_hash.to_0x_hex()
              and block[0]["result"]["to"] == contract.lower(), block)
        try:
            w3.manager.request_blocking("debug_traceCall", [call, "latest", {"tracer": "jsTracer"}])
            check("unknown tracer refused", False, "no error")
        except Web3RPCError as error:
            check("unknown tracer refused", error.rpc_response["error"]["code"] == -32602, error.rpc_response)
    except Exception:  # a failure is a check, so the Swift test reports it
        check("no exception", False, traceback.format_exc())
    json.dump({"checks": checks}, sys.stdout)


if __name__ == "__main__":
    main()
