#!/usr/bin/env python3
"""Keystore v3 cross-checks with eth-account, for carchain's tests.

stdin: {"decrypt": [{"json": {...keystore...}, "password": "..."}],
        "encrypt": [{"key": "0x…", "password": "...", "kdf": "scrypt"|"pbkdf2", "iterations": N}]}
stdout: {"decrypted": ["0x<key>" | {"error": "..."}], "encrypted": [{...keystore...}]}
"""
import json
import sys

from eth_account import Account


def main():
    request = json.load(sys.stdin)
    decrypted = []
    for case in request.get("decrypt", []):
        try:
            decrypted.append("0x" + bytes(Account.decrypt(case["json"], case["password"])).hex())
        except Exception as error:  # reported per case
            decrypted.append({"error": f"{type(error).__name__}: {error}"})
    encrypted = []
    for case in request.get("encrypt", []):
        encrypted.append(Account.encrypt(case["key"], case["password"], kdf=case["kdf"], iterations=case["iterations"]))
    json.dump({"decrypted": decrypted, "encrypted": encrypted}, sys.stdout)


if __name__ == "__main__":
    main()
