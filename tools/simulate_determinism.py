#!/usr/bin/env python3
"""Checks that `eth_simulateV1` answers are derived only from the request and the base block.

Every `eth_simulateV1` request of the rpc-compat suite, and variants of it (`traceTransfers`, `validation` and
`returnFullTransactions` flipped; the blocks simulated on block 1 and on `earliest`), goes to two fresh
`carchain node` processes on the suite's chain (each process hashes its dictionaries with its own random seed),
the second in reverse order, then again to the first. Every answer must be identical, byte for byte, in all three.
Bases at `pending` are left out: the pending block's timestamp is the clock's, as geth's.

Usage: python3 tools/simulate_determinism.py [--carchain PATH] [--dir RPC_COMPAT_DIR]
Exit 0 when every answer agrees, 1 when one differs (each printed); without the suite or the binary it says SKIPPED,
and exits 2 under CARCHAIN_STRICT=1.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import rpc_compat  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def requests(directory: Path) -> list[tuple[str, dict]]:
    out: list[tuple[str, dict]] = []
    for path in sorted(directory.glob("eth_simulateV1/*.io")):
        for exchange in rpc_compat.parse_io(path.read_text(), str(path)).exchanges:
            body = json.loads(exchange.request)
            out.append((path.name, body))
            params = body.get("params") or []
            if not params or not isinstance(params[0], dict):
                continue
            for key in ("traceTransfers", "validation", "returnFullTransactions"):
                variant = copy.deepcopy(body)
                variant["params"][0][key] = not variant["params"][0].get(key, False)
                out.append((f"{path.name} {key}={variant['params'][0][key]}", variant))
            for tag in ("0x1", "earliest"):
                variant = copy.deepcopy(body)
                variant["params"] = [variant["params"][0], tag]
                out.append((f"{path.name} on {tag}", variant))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--carchain", type=Path, default=Path(os.environ.get("CARCHAIN_BIN", ROOT / ".build/release/carchain")))
    parser.add_argument("--dir", type=Path, default=rpc_compat.shared_dir() / "rpc-compat", help="the rpc-compat suite")
    args = parser.parse_args()
    if not (args.dir / "chain.rlp").is_file() or not args.carchain.is_file():
        missing = args.dir / "chain.rlp" if not (args.dir / "chain.rlp").is_file() else args.carchain
        if os.environ.get("CARCHAIN_STRICT") == "1":
            print(f"simulate-determinism: {missing} is missing", file=sys.stderr)
            return 2
        print(f"simulate-determinism: SKIPPED: {missing} is missing")
        return 0
    cases = requests(args.dir)
    nodes = [rpc_compat.Node(args.carchain, args.dir, False) for _ in range(2)]
    try:
        urls = [node.start(60) for node in nodes]

        def ask(url: str, body: dict) -> object:
            return rpc_compat.post(url, json.dumps(body), 60)

        first = [ask(urls[0], body) for _, body in cases]
        other = [ask(urls[1], body) for _, body in reversed(cases)][::-1]
        again = [ask(urls[0], body) for _, body in cases]
    finally:
        for node in nodes:
            node.stop()
    differing = 0
    for (name, _), a, b, c in zip(cases, first, other, again):
        if a != b or a != c:
            differing += 1
            where = "another process" if a != b else "the same process, asked again"
            print(f"DIFFERS {name} ({where}):\n  {json.dumps(a)[:400]}\n  {json.dumps(b if a != b else c)[:400]}")
    print(f"simulate-determinism: {len(cases)} requests, {len(cases) - differing} identical in both processes and on repeat, {differing} differing")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
