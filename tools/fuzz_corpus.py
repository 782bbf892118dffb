#!/usr/bin/env python3
"""Regenerates the fuzzers' seed corpora (Fuzz/corpus/<harness>/) from the conformance vectors and the tests.

    .venv/bin/python tools/fuzz_corpus.py [--ethtests DIR]

Sources: ethereum/tests RLPTests (valid and invalid encodings), TransactionTests (every txbytes, valid or not),
ABITests and eth-abi encodings of values of the ABI harness's signatures, KeyStoreTests (as written and with cheap
KDF parameters, so the fuzzer reaches decryption), the request bodies of Tests/DevNodeTests, and fixed-seed byte
strings for the structured harnesses (node, auth), whose inputs are decisions rather than formats. File names are
content hashes, so a rerun rewrites the same files; the total stays a few hundred KiB.
"""
import argparse
import glob
import hashlib
import json
import os
import random
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")
MAX_SEED = 4096  # bytes: larger seeds slow every mutation and add little


def unhex(text):
    text = text[2:] if text.startswith("0x") else text
    return bytes.fromhex(text)


class Corpus:
    def __init__(self, name):
        self.dir = os.path.join(CORPUS, name)
        shutil.rmtree(self.dir, ignore_errors=True)
        os.makedirs(self.dir)
        self.count = 0
        self.size = 0

    def add(self, data):
        if isinstance(data, str):
            data = data.encode()
        if len(data) > MAX_SEED:
            return
        name = hashlib.sha1(data).hexdigest()[:16]
        path = os.path.join(self.dir, name)
        if os.path.exists(path):
            return
        with open(path, "wb") as f:
            f.write(data)
        self.count += 1
        self.size += len(data)


def rlp(ethtests):
    c = Corpus("rlp")
    for path in glob.glob(os.path.join(ethtests, "RLPTests", "**", "*.json"), recursive=True):
        for case in json.load(open(path)).values():
            out = case.get("out", "")
            try:
                c.add(unhex(out))
            except ValueError:
                pass
    return c


def transaction(ethtests):
    c = Corpus("transaction")
    for path in sorted(glob.glob(os.path.join(ethtests, "TransactionTests", "**", "*.json"), recursive=True)):
        for case in json.load(open(path)).values():
            try:
                c.add(unhex(case.get("txbytes", "")))
            except ValueError:
                pass
    return c


# Must match FuzzHarness.abiSignatures (Fuzz/Harnesses/ABIHarness.swift), in order.
ABI_SIGNATURES = [
    "(uint256,address,bool,bytes32)",
    "(uint8,int8,int256,bytes1,bytes31)",
    "(bytes,string)",
    "(uint256[],address[3],string[])",
    "((uint256,string)[],bytes32[2])",
    "(string[][],(bytes,uint64[3])[2])",
    "(int24,bytes[],(bool,(string,address[]))[])",
    "(uint256[][2][],(string,(bytes,(uint8[],string)[])))",
    "((bytes[2],string)[2][])",
    "(string,uint256,(address,uint96)[],bytes4)",
]

ADDR = "0x" + "ab" * 20
ABI_VALUES = [
    [(2**256 - 1, ADDR, True, b"\x11" * 32), (0, "0x" + "00" * 20, False, b"\x00" * 32)],
    [(255, -128, -(2**255), b"\x7f", b"\x01" * 31), (0, 127, 2**255 - 1, b"\x00", b"\x00" * 31)],
    [(b"", ""), (b"\x00" * 33, "carchain ü"), (bytes(range(64)), "x" * 65)],
    [([1, 2, 3], [ADDR] * 3, ["a", "", "bc"]), ([], [ADDR] * 3, [])],
    [([(1, "one"), (2, "")], [b"\x01" * 32, b"\x02" * 32]), ([], [b"\x00" * 32] * 2)],
    [([["a", "b"], []], [(b"\x01", [1, 2, 3]), (b"", [0, 0, 0])])],
    [(-1, [b"", b"\x02"], [(True, ("s", [ADDR])), (False, ("", []))])],
    [([[[1], [2, 3]], [[], [4]]], ("t", (b"\xff", [([1, 2], "u")])))],
    [([[([b"a", b"b"], "c"), ([b"", b""], "")]],)],
    [("rent", 10**18, [(ADDR, 2**96 - 1)], b"\xde\xad\xbe\xef")],
]


def abi(ethtests):
    from eth_abi import encode

    c = Corpus("abi")
    for index, (signature, samples) in enumerate(zip(ABI_SIGNATURES, ABI_VALUES)):
        types = split_types(signature[1:-1])
        for values in samples:
            data = encode(types, list(values))
            for mode, lenient in ((0, 0), (1, 1)):
                c.add(bytes([mode, index << 1 | lenient]) + data)
        c.add(bytes([4, 0]) + signature.encode())
        c.add(bytes([4, 0]) + ("f" + signature).encode())
    vectors = json.load(open(os.path.join(ethtests, "ABITests", "basic_abi_tests.json")))
    for case in vectors.values():
        data = unhex(case["result"])
        c.add(bytes([0, 0]) + data)
        c.add(bytes([4, 0]) + ("(" + ",".join(case["types"]) + ")").encode())
    artifact = os.path.join(ROOT, "contracts", "CarChain.json")
    if os.path.exists(artifact):
        abi_json = json.dumps(json.load(open(artifact))["abi"], separators=(",", ":"))
        c.add(bytes([5, 0]) + abi_json[:MAX_SEED - 2].encode())
        entries = json.load(open(artifact))["abi"]
        for entry in entries[:12]:
            c.add(bytes([5, 0]) + json.dumps([entry], separators=(",", ":")).encode())
    c.add(bytes([6, 0]) + unhex("08c379a0") + encode(["string"], ["car not available"]))
    c.add(bytes([6, 0]) + unhex("4e487b71") + encode(["uint256"], [0x11]))
    return c


def split_types(text):
    """Splits a comma-separated type list at depth 0."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return [t for t in out if t]


def keystore(ethtests):
    c = Corpus("keystore")
    vectors = json.load(open(os.path.join(ethtests, "KeyStoreTests", "basic_tests.json")))
    for case in vectors.values():
        doc = case["json"]
        c.add(json.dumps(doc, indent=1))
        cheap = json.loads(json.dumps(doc))
        crypto = cheap.get("crypto") or cheap.get("Crypto")
        params = crypto["kdfparams"]
        if crypto["kdf"] == "scrypt":
            params.update(n=2, r=1, p=1)
        else:
            params["c"] = 1
        c.add(json.dumps(cheap, separators=(",", ":")))
    return c


REQUEST = re.compile(r'(?:answer|result|errorCode)\(\s*"([a-z0-9]+_[A-Za-z0-9]+)"(?:,\s*"((?:[^"\\]|\\.)*)")?')
RAW = re.compile(r'\braw\(\s*"((?:[^"\\]|\\.)*)"')


def swift_unescape(text):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t", "0": "\0"}.get(m.group(1), m.group(1)), text)


def jsonrpc(_ethtests):
    c = Corpus("jsonrpc")
    bodies = []
    for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "DevNodeTests", "*.swift"))):
        text = open(path).read()
        for method, params in REQUEST.findall(text):
            params = swift_unescape(params) if params else "[]"
            if "\\(" in params:
                continue  # interpolated in the test: not a literal
            bodies.append('{"jsonrpc":"2.0","id":7,"method":"%s","params":%s}' % (method, params))
        for raw in RAW.findall(text):
            if "\\(" not in raw:
                bodies.append(swift_unescape(raw))
    for body in bodies:
        c.add(body)
    for i in range(0, len(bodies) - 2, 7):
        c.add("[" + ",".join(bodies[i:i + 3]) + "]")
    return c


def structured(name, count, seed):
    """Byte strings for a structured harness: each byte is a decision, so varied random strings reach varied calls."""
    c = Corpus(name)
    rng = random.Random(seed)
    for i in range(count):
        length = rng.choice([8, 16, 32, 64, 128, 256, 512])
        c.add(bytes(rng.randrange(256) for _ in range(length)))
    return c


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default = os.environ.get("ETHTESTS_DIR") or os.path.join(os.path.dirname(ROOT), "shared", "ethtests")
    parser.add_argument("--ethtests", default=default, help="the conformance vectors (default: $ETHTESTS_DIR or ../shared/ethtests)")
    args = parser.parse_args()
    if not os.path.isdir(os.path.join(args.ethtests, "RLPTests")):
        sys.exit(f"fuzz_corpus: no conformance vectors at {args.ethtests} (set --ethtests or ETHTESTS_DIR)")
    corpora = [rlp(args.ethtests), transaction(args.ethtests), abi(args.ethtests), keystore(args.ethtests),
               jsonrpc(args.ethtests), structured("node", 48, 14), structured("auth", 32, 15)]
    total = 0
    for c in corpora:
        print(f"{os.path.basename(c.dir):12} {c.count:5} files {c.size / 1024:8.1f} KiB")
        total += c.size
    print(f"{'total':12} {'':5}       {total / 1024:8.1f} KiB")


if __name__ == "__main__":
    main()
