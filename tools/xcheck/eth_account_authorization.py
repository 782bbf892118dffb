#!/usr/bin/env python3
"""Signs EIP-7702 authorizations with eth-account, for carchain's cross-implementation tests.

stdin: {"cases": [{"key": "0x<32 bytes>", "chainId": "0x…", "address": "0x…", "nonce": "0x…"}, ...]}
stdout: {"results": [{"chainId", "address", "nonce", "yParity", "r", "s" (geth's JSON: quantities as minimal hex,
the address lower case), "authority" (lower case), "signingHash", "rlp" (0x hex of
rlp([chain_id, address, nonce, y_parity, r, s]), encoded here with the rlp package)}, ...]}
(or {"error": …} per case).
"""
import json
import sys

import rlp
from eth_account import Account


def quantity(n):
    return hex(n)


def main():
    request = json.load(sys.stdin)
    results = []
    for case in request["cases"]:
        try:
            signed = Account.sign_authorization(
                {"chainId": int(case["chainId"], 16), "address": case["address"], "nonce": int(case["nonce"], 16)},
                case["key"])
            address = bytes(signed.address)
            encoded = rlp.encode([signed.chain_id, address, signed.nonce, signed.y_parity, signed.r, signed.s])
            results.append({
                "chainId": quantity(signed.chain_id), "address": "0x" + address.hex(), "nonce": quantity(signed.nonce),
                "yParity": quantity(signed.y_parity), "r": quantity(signed.r), "s": quantity(signed.s),
                "authority": "0x" + bytes(signed.authority).hex(), "signingHash": "0x" + bytes(signed.authorization_hash).hex(),
                "rlp": "0x" + encoded.hex(),
            })
        except Exception as error:  # reported per case, so one bad case does not hide the rest
            results.append({"error": f"{type(error).__name__}: {error}"})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
