#!/usr/bin/env python3
"""Drive a running `carchain node` with web3.py (a real client) and report what it saw.

Input (stdin, JSON): {"url": "http://127.0.0.1:PORT", "artifact": "contracts/CarChain.json"}
Output (stdout, JSON): {"checks": [{"name": "...", "ok": true|false, "detail": "..."}]}

Scenario: chain id and accounts; deploy CarChain with eth_sendTransaction from a dev account; register a car
and a user, add credit, rent (receipts with status, gas and logs); eth_getLogs and a log filter (the events the
contract emitted, decoded by web3's ABI), a block filter; eth_call that reverts (code 3 with the revert data,
decoded by web3 as ContractLogicError with the reason); a signed raw transaction (eth-account); evm_snapshot
and evm_revert.
"""
import json
import os
import sys
import traceback

from eth_account import Account
from web3 import Web3
from web3.exceptions import ContractLogicError


def main():
    request = json.load(sys.stdin)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    artifact_path = request.get("artifact", "contracts/CarChain.json")
    if not os.path.isabs(artifact_path):
        artifact_path = os.path.join(root, artifact_path)
    with open(artifact_path) as f:
        artifact = json.load(f)
    checks = []

    def check(name, ok, detail=""):
        checks.append({"name": name, "ok": bool(ok), "detail": str(detail)})

    try:
        w3 = Web3(Web3.HTTPProvider(request["url"], request_kwargs={"timeout": 30}))
        check("connected", w3.is_connected())
        check("chain id 4", w3.eth.chain_id == 4, w3.eth.chain_id)
        accounts = w3.eth.accounts
        check("10 dev accounts", len(accounts) == 10, accounts)
        manager = accounts[0]
        w3.eth.default_account = manager
        check("client version", "carchain" in w3.client_version, w3.client_version)

        Car = w3.eth.contract(abi=artifact["abi"], bytecode=artifact["bytecode"])
        tx_hash = Car.constructor().transact({"from": manager})
        receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=30)
        check("deploy receipt status", receipt.status == 1, receipt)
        check("deploy contract address", receipt.contractAddress is not None, receipt.contractAddress)
        car = w3.eth.contract(address=receipt.contractAddress, abi=artifact["abi"])
        start_block = w3.eth.block_number

        log_filter = w3.eth.filter({"fromBlock": start_block, "address": car.address})
        block_filter = w3.eth.filter("latest")

        r1 = w3.eth.wait_for_transaction_receipt(car.functions.registerNewCar("WEB3CAR").transact(), timeout=30)
        check("registerNewCar status", r1.status == 1, r1)
        check("registerNewCar has a log", len(r1.logs) == 1, r1.logs)
        events = car.events.CarRegistered().process_receipt(r1)
        check("CarRegistered decoded", len(events) == 1, events)

        user = accounts[1]
        r2 = w3.eth.wait_for_transaction_receipt(car.functions.registerNewUser("web3user").transact({"from": user}), timeout=30)
        check("registerNewUser status", r2.status == 1, r2)
        r3 = w3.eth.wait_for_transaction_receipt(car.functions.addCredit("web3user", 3).transact({"from": user}), timeout=30)
        check("addCredit status", r3.status == 1, r3)
        r4 = w3.eth.wait_for_transaction_receipt(car.functions.rentCar("WEB3CAR", "web3user").transact({"from": user}), timeout=30)
        check("rentCar status", r4.status == 1, r4)
        check("rentCar gas used", 21000 < r4.gasUsed < 500000, r4.gasUsed)
        check("rentCar effective gas price", r4.effectiveGasPrice > 0, r4.effectiveGasPrice)
        check("credit after rent", car.functions.getUserCredit("web3user").call() == 2)
        check("user car", car.functions.getUserCar("web3user").call() == "WEB3CAR")

        logs = w3.eth.get_logs({"fromBlock": start_block, "address": car.address})
        check("eth_getLogs finds 4 events", len(logs) == 4, len(logs))
        rented = car.events.CarRented().get_logs(from_block=start_block)
        check("CarRented via get_logs", len(rented) == 1 and rented[0].args.get("plate", "WEB3CAR") is not None, rented)
        changes = log_filter.get_new_entries()
        check("log filter changes", len(changes) == 4, len(changes))
        check("log filter no repeats", len(log_filter.get_new_entries()) == 0)
        check("log filter all entries", len(log_filter.get_all_entries()) == 4)
        new_blocks = block_filter.get_new_entries()
        check("block filter changes", len(new_blocks) == 4, len(new_blocks))
        check("uninstall filter", w3.eth.uninstall_filter(log_filter.filter_id))

        # eth_call revert with data: renting an unknown car.
        try:
            car.functions.rentCar("NOSUCHCAR", "web3user").call({"from": user})
            check("eth_call revert raises", False, "no error")
        except ContractLogicError as error:
            check("eth_call revert raises", True, error)
            check("revert reason", "car not registered" in str(error) or "car" in str(error), error)
            check("revert data", isinstance(error.data, str) and error.data.startswith("0x08c379a0"), error.data)
        raw = w3.provider.make_request("eth_call", [{"from": user, "to": car.address,
                                                     "data": car.encode_abi("rentCar", args=["NOSUCHCAR", "web3user"])}, "latest"])
        check("revert error code 3", raw.get("error", {}).get("code") == 3, raw)

        # A transaction signed locally with eth-account.
        key = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"  # dev account 1
        signer = Account.from_key(key)
        tx = {"to": accounts[2], "value": 12345, "gas": 21000, "nonce": w3.eth.get_transaction_count(signer.address),
              "chainId": 4, "maxFeePerGas": w3.to_wei(10, "gwei"), "maxPriorityFeePerGas": w3.to_wei(1, "gwei"), "type": 2}
        signed = signer.sign_transaction(tx)
        raw_tx = getattr(signed, "raw_transaction", None) or getattr(signed, "rawTransaction")
        h = w3.eth.send_raw_transaction(raw_tx)
        rr = w3.eth.wait_for_transaction_receipt(h, timeout=30)
        check("raw transaction mined", rr.status == 1, rr)
        fetched = w3.eth.get_transaction(h)
        check("getTransaction from", fetched["from"] == signer.address, fetched)
        block = w3.eth.get_block(rr.blockNumber, full_transactions=True)
        check("block holds the transaction", block.transactions[0]["hash"] == h, block)

        # Snapshot and revert.
        before = w3.eth.block_number
        snap = w3.provider.make_request("evm_snapshot", [])["result"]
        car.functions.returnCar("WEB3CAR", "web3user").transact({"from": user})
        check("returned", car.functions.getUserCar("web3user").call() == "-")
        reverted = w3.provider.make_request("evm_revert", [snap])["result"]
        check("evm_revert", reverted is True, reverted)
        check("block number restored", w3.eth.block_number == before, w3.eth.block_number)
        check("state restored", car.functions.getUserCar("web3user").call() == "WEB3CAR")
        check("fee history", len(w3.eth.fee_history(2, "latest", [50])["baseFeePerGas"]) == 3)
    except Exception as error:  # report, do not crash: the Swift test prints the failures
        check("exception", False, traceback.format_exc() + str(error))
    json.dump({"checks": checks}, sys.stdout)


if __name__ == "__main__":
    main()
