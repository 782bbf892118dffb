#!/usr/bin/env python3
"""Cross-check the Swift ABI codec (EthereumABI) against eth-abi (PyPI), the reference Python codec.

Reads one JSON document on stdin and writes one on stdout (used by Tests/EthereumABITests/EthABICrossTests.swift).

Input:
  {"cases":   [{"types": ["uint8", "(string,bytes)[]"], "values": [<value>, ...], "encoding": "0x<Swift's encoding>"}],
   "hostile": [{"types": [...], "data": "0x..."}]}

Values use the JSON form of `ABIValue.jsonValue`: integers as decimal strings (signed with "-"), addresses
and bytes/bytesN as 0x-hex strings, strings as strings, bools as booleans, arrays and tuples as arrays.

Output:
  {"cases":   [{"encoding": "0x<eth-abi's encoding>" | null, "error": str | null,
                "decoded": [<value>, ...] | null,      # eth_abi.decode of *Swift's* encoding
                "decodeError": str | null}],
   "hostile": [{"ok": bool, "decoded": [<value>, ...] | null, "error": str | null}]}

`eth_abi.decode` runs with its default strict=True.
"""

from __future__ import annotations

import json
import sys

from eth_abi import decode, encode
from eth_abi.grammar import BasicType, TupleType, parse


def to_python(t, v):
    """The JSON form of a value -> the Python value eth-abi takes for type node t."""
    if t.is_array:
        return [to_python(t.item_type, x) for x in v]
    if isinstance(t, TupleType):
        return tuple(to_python(c, x) for c, x in zip(t.components, v))
    assert isinstance(t, BasicType)
    if t.base in ("uint", "int"):
        return int(v)
    if t.base == "bool":
        return bool(v)
    if t.base == "address":
        return v
    if t.base == "bytes":
        return bytes.fromhex(v[2:])
    if t.base == "string":
        return v
    raise ValueError(f"unsupported type {t.to_type_str()}")


def to_json(t, v):
    """A decoded Python value -> the JSON form (addresses stay as eth-abi gives them, checksummed)."""
    if t.is_array:
        return [to_json(t.item_type, x) for x in v]
    if isinstance(t, TupleType):
        return [to_json(c, x) for c, x in zip(t.components, v)]
    if t.base in ("uint", "int"):
        return str(v)
    if t.base == "bytes":
        return "0x" + v.hex()
    return v


def run_case(case: dict) -> dict:
    types = case["types"]
    nodes = [parse(s) for s in types]
    out = {"encoding": None, "error": None, "decoded": None, "decodeError": None}
    try:
        values = [to_python(n, v) for n, v in zip(nodes, case["values"])]
        out["encoding"] = "0x" + encode(types, values).hex()
    except Exception as e:  # reported to the Swift side, which fails the case
        out["error"] = f"{type(e).__name__}: {e}"
    try:
        decoded = decode(types, bytes.fromhex(case["encoding"][2:]))
        out["decoded"] = [to_json(n, v) for n, v in zip(nodes, decoded)]
    except Exception as e:
        out["decodeError"] = f"{type(e).__name__}: {e}"
    return out


def run_hostile(case: dict) -> dict:
    types = case["types"]
    nodes = [parse(s) for s in types]
    try:
        decoded = decode(types, bytes.fromhex(case["data"][2:]))
        return {"ok": True, "decoded": [to_json(n, v) for n, v in zip(nodes, decoded)], "error": None}
    except Exception as e:
        return {"ok": False, "decoded": None, "error": f"{type(e).__name__}: {e}"[:300]}


def main() -> int:
    request = json.load(sys.stdin)
    response = {
        "cases": [run_case(c) for c in request.get("cases", [])],
        "hostile": [run_hostile(c) for c in request.get("hostile", [])],
    }
    json.dump(response, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
