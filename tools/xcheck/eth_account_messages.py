#!/usr/bin/env python3
"""EIP-191 personal messages and EIP-712 typed data, signed with eth-account, for carchain's tests.

stdin: {"personal": [{"key": "0x…", "message": "0x<hex bytes>"}], "typed": [{"key": "0x…", "data": {…}}]}
stdout: {"personal": [{"hash": "0x…", "signature": "0x<r‖s‖v>"}],
         "typed": [{"domain": "0x…", "message": "0x…", "hash": "0x…", "signature": "0x…"} | {"error": "…"}]}
"""
import json
import sys

from eth_account import Account
from eth_account.messages import _hash_eip191_message, encode_defunct, encode_typed_data


def main():
    request = json.load(sys.stdin)
    personal = []
    for case in request.get("personal", []):
        message = encode_defunct(hexstr=case["message"])
        signed = Account.sign_message(message, case["key"])
        personal.append({"hash": "0x" + bytes(signed.message_hash).hex(), "signature": "0x" + bytes(signed.signature).hex()})
    typed = []
    for case in request.get("typed", []):
        try:
            message = encode_typed_data(full_message=case["data"])
            signed = Account.sign_message(message, case["key"])
            typed.append({
                "domain": "0x" + bytes(message.header).hex(),
                "message": "0x" + bytes(message.body).hex(),
                "hash": "0x" + bytes(_hash_eip191_message(message)).hex(),
                "signature": "0x" + bytes(signed.signature).hex(),
            })
        except Exception as error:  # reported per case
            typed.append({"error": f"{type(error).__name__}: {error}"})
    json.dump({"personal": personal, "typed": typed}, sys.stdout)


if __name__ == "__main__":
    main()
