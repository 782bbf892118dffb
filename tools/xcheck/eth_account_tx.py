#!/usr/bin/env python3
"""Signs transactions with eth-account, for carchain's cross-implementation tests.

stdin: {"cases": [{"key": "0x<32 bytes>", "tx": {...}}, ...]} where tx uses eth-account's field names
("type", "chainId", "nonce", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "to", "value", "data",
"accessList", "maxFeePerBlobGas", "blobVersionedHashes", "authorizationList"); integers are 0x-hex strings.
A missing "to" is a contract creation; a legacy tx without "chainId" is unprotected. Each authorization is
{"chainId", "address", "nonce", "key"} and is signed here with its own key.
stdout: {"results": [{"raw": "0x…", "hash": "0x…", "sender": "0x…"}, ...]} (or {"error": …} per case).
"""
import json
import sys

from eth_account import Account

INTEGER_FIELDS = {"type", "chainId", "nonce", "gas", "gasPrice", "maxFeePerGas", "maxPriorityFeePerGas", "value",
                  "maxFeePerBlobGas"}


def build(tx):
    out = {}
    for name, value in tx.items():
        if name in INTEGER_FIELDS:
            out[name] = int(value, 16)
        elif name == "authorizationList":
            signed = []
            for auth in value:
                s = Account.sign_authorization(
                    {"chainId": int(auth["chainId"], 16), "address": auth["address"], "nonce": int(auth["nonce"], 16)},
                    auth["key"])
                signed.append(s)
            out[name] = signed
        else:
            out[name] = value
    return out


def main():
    request = json.load(sys.stdin)
    results = []
    for case in request["cases"]:
        try:
            signed = Account.sign_transaction(build(case["tx"]), case["key"])
            results.append({
                "raw": "0x" + bytes(signed.raw_transaction).hex(),
                "hash": "0x" + bytes(signed.hash).hex(),
                "sender": Account.from_key(case["key"]).address,
            })
        except Exception as error:  # reported per case, so one bad case does not hide the rest
            results.append({"error": f"{type(error).__name__}: {error}"})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
