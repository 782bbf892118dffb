#!/usr/bin/env python3
"""`make bench-auth`: sign-in latency of `carchain node`'s auth service over HTTP on loopback (one request at a
time: accounts:signInWithPassword, whose cost is one scrypt verification at N=2^15, r=8, p=1), next to the
reference measured in the same run: the same scrypt in Python's hashlib (OpenSSL), and a request that does no
scrypt (accounts:lookup with an ID token: RS256 verification and a SQLite read).

Usage: tools/bench-auth.py [--runs N] [--json]   (CARCHAIN_BIN names the binary, default .build/release/carchain)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "auth_tests"))
from conftest import Node, ROOT, unique_email  # noqa: E402


def timed(function, runs):
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        function()
        samples.append((time.perf_counter() - started) * 1000)
    return {"minMs": min(samples), "medianMs": statistics.median(samples), "runs": runs}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=40)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    binary = Path(os.environ.get("CARCHAIN_BIN", ROOT / ".build" / "release" / "carchain"))
    node = Node(binary)
    try:
        email = unique_email("bench")
        session = node.sign_up(email, "bench-password")

        def sign_in():
            response = node.client("signInWithPassword", {"email": email, "password": "bench-password",
                                                          "returnSecureToken": True})
            assert response.status == 200, response.body

        def lookup():
            assert node.client("lookup", {"idToken": session["idToken"]}).status == 200

        sign_in()  # warm up
        results = {
            "signInWithPassword": timed(sign_in, args.runs),
            "lookup": timed(lookup, args.runs),
            "hashlibScrypt": timed(lambda: hashlib.scrypt(b"bench-password", salt=b"0123456789abcdef", n=1 << 15,
                                                          r=8, p=1, maxmem=64 << 20, dklen=32), args.runs),
        }
    finally:
        node.stop()
    if args.json:
        print(json.dumps(results))
        return
    print("==> Auth sign-in latency (carchain node, loopback HTTP, one request at a time; scrypt N=2^15 r=8 p=1)")
    for name, label in [("signInWithPassword", "carchain accounts:signInWithPassword"),
                        ("lookup", "carchain accounts:lookup (no scrypt)"),
                        ("hashlibScrypt", "reference: hashlib.scrypt (OpenSSL)")]:
        r = results[name]
        print(f"    {label:42s} median {r['medianMs']:7.1f} ms, min {r['minMs']:7.1f} ms ({r['runs']} runs)")


if __name__ == "__main__":
    main()
