#!/usr/bin/env python3
"""Write the EVM benchmark cases as prestate files, one per case, for the references and for callgrind.

The cases:
  - ipsilon/evm-benchmarks (`benchmarks/main/*.json`, `benchmarks/micro/*.json`, state tests filled for London):
    one case per transaction input, keyed `main/<test>/<label>` or `micro/<test>/<label>` as evmone's
    evmone-bench names them; read from EVM_BENCHMARKS_DIR (the repository's root or its `benchmarks/`
    folder; `make fetch-evm-benchmarks` fetches it), never copied into this repository.
  - BurntPix (`../shared/bench/burntpix.json`, Cancun), keyed `burntpix`.

Each case is written to OUT/<key with / as __>.json in the shape `carchain evm run --prestate` reads
({pre, to, input, gas}) plus the members the other readers need: `key`, `fork` (London for evm-benchmarks,
their fill fork; Cancun for BurntPix), `caller` (the state test's sender). The call is a message, not a
transaction: no intrinsic gas, caller and callee warm, 10^9 gas (the cases' gas limit). OUT/cases.json lists
them in order. Readers: tools/bench-evmone.cpp (evmone), tools/bench-revm.py (revm), tools/bench-callgrind.sh.

Usage: python3 tools/bench-evm-cases.py OUT_DIR [--only REGEX]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAS = 1_000_000_000
BENCH_CALLER = "0x00000000000000000000000000000000000000ca"


def evm_benchmarks_dir() -> Path | None:
    """EVM_BENCHMARKS_DIR (the repository or its benchmarks/ folder), else what make fetch-evm-benchmarks fetched."""
    candidates = [os.environ.get("EVM_BENCHMARKS_DIR", ""), str(ROOT / ".evm-benchmarks")]
    for candidate in filter(None, candidates):
        base = Path(candidate)
        for folder in (base / "benchmarks", base):
            if (folder / "main").is_dir():
                return folder
    return None


def shared_bench_dir() -> Path | None:
    shared = os.environ.get("CARCHAIN_SHARED_DIR")
    for base in [Path(shared)] if shared else [ROOT.parent / "shared", ROOT.parent.parent / "shared"]:
        if (base / "bench" / "burntpix.json").exists():
            return base / "bench"
    return None


def state_test_cases(folder: Path) -> list[dict]:
    cases = []
    for group in ("main", "micro"):
        for path in sorted((folder / group).glob("*.json")):
            document = json.loads(path.read_text())
            if len(document) != 1:
                sys.exit(f"bench-evm-cases: {path} holds {len(document)} tests, expected one")
            (name, test), = document.items()
            tx = test["transaction"]
            labels = test.get("_info", {}).get("labels", {})
            for index, data in enumerate(tx["data"]):
                label = labels.get(str(index), str(index))
                cases.append({
                    "key": f"{group}/{name}/{label}",
                    "fork": "London",
                    "caller": tx["sender"],
                    "to": tx["to"],
                    "input": data,
                    "gas": hex(GAS),
                    "pre": test["pre"],
                })
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", default="", help="regular expression the keys must match (search)")
    args = parser.parse_args()
    cases: list[dict] = []
    folder = evm_benchmarks_dir()
    if folder is None:
        print("SKIPPED: the evm-benchmarks cases (set EVM_BENCHMARKS_DIR or run make fetch-evm-benchmarks)",
              file=sys.stderr)
    else:
        cases += state_test_cases(folder)
    bench = shared_bench_dir()
    if bench is None:
        print("SKIPPED: BurntPix (no bench/burntpix.json; set CARCHAIN_SHARED_DIR)", file=sys.stderr)
    else:
        burntpix = json.loads((bench / "burntpix.json").read_text())
        cases.append({"key": "burntpix", "fork": "Cancun", "caller": BENCH_CALLER, **burntpix})
    if args.only:
        pattern = re.compile(args.only)
        cases = [c for c in cases if pattern.search(c["key"])]
    args.out.mkdir(parents=True, exist_ok=True)
    index = []
    for case in cases:
        file = case["key"].replace("/", "__") + ".json"
        (args.out / file).write_text(json.dumps(case))
        index.append({"key": case["key"], "file": file, "fork": case["fork"]})
    (args.out / "cases.json").write_text(json.dumps(index, indent=1))
    print(f"{len(cases)} cases written to {args.out}", file=sys.stderr)
    return 0 if cases else 1


if __name__ == "__main__":
    sys.exit(main())
