#!/usr/bin/env python3
"""Time revm (through pyrevm) on the EVM benchmarks that `make bench` also runs on carchain's EVM.

The benchmarks (inputs in ../shared/bench, see its README, and Benchmarks/EVMData/callheavy.json):
  snailtracer  SnailTracer's runtime code at an account, Benchmark() = 0x30627b7c, 10^9 gas
  analysis     revm's `analysis` contract, 0x8035f0ce (jump-destination analysis of a large code)
  burntpix     burntpix.json: four contracts with storage, run(0, 20000)
  callheavy    callheavy.json: a contract that CALLs another one 100,000 times

Every timed run starts from a fresh EVM holding only the prestate (a second run on the same EVM would
find storage warm and already written, and use less gas). Only the message call itself is timed; the
set-up is not. pyrevm executes a call as a transaction, so its gas includes the intrinsic cost and is
net of the refund: the script reports execution gas = gas_used + gas_refunded - intrinsic, the figure
carchain's interpreter reports for the same message, and checks it against the expected value.

BurntPix: pyrevm inserts storage through its journal, so slots 1 and 2 start warm and revm uses 4,000 gas
less than the correct Cancun figure (../shared/bench/README.md); that difference is expected and checked.

`binding` times a call to an account whose code is a single STOP: the cost of pyrevm's Python binding and
transaction set-up, included in every revm figure (it matters only for the short `analysis` call).

With --cases DIR it also runs the evm-benchmarks cases tools/bench-evm-cases.py wrote there (keys
`main/…`, `micro/…`; London; each for up to 2 s or 100 × N runs).

Usage (project venv): .venv/bin/python tools/bench-revm.py [--runs N] [--only NAME,...] [--cases DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import pyrevm
from pyrevm import EVM, AccountInfo

ROOT = Path(__file__).resolve().parent.parent
CALLER = "0x00000000000000000000000000000000000000ca"
CODE_ADDRESS = "0x00000000000000000000000000000000000000c0"
# Execution gas (no intrinsic gas) carchain's interpreter must report, and what revm reports.
# SnailTracer: ../shared/bench/README.md (py-evm agrees). BurntPix: 159,033,567 with intrinsic (evmone
# agrees) minus 21,344 intrinsic; revm 4,000 less (warm slots, see above).
EXPECTED = {
    "snailtracer": (165_962_868, 165_962_868),
    "analysis": (None, None),
    "burntpix": (159_012_223, 159_008_223),
    "callheavy": (None, None),
}


def shared_dir() -> Path:
    shared = os.environ.get("CARCHAIN_SHARED_DIR")
    candidates = [Path(shared)] if shared else [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    for base in candidates:
        if (base / "bench" / "snailtracer.runtime.hex").exists():
            return base
    sys.exit(f"bench-revm: no bench/ inputs under {[str(c) for c in candidates]}; set CARCHAIN_SHARED_DIR")


def hex_bytes(text: str) -> bytes:
    return bytes.fromhex(text.strip().removeprefix("0x"))


def code_case(path: Path, selector: str) -> dict:
    return {
        "pre": {CODE_ADDRESS: {"code": path.read_text().strip(), "nonce": "0x0", "balance": "0x0", "storage": {}}},
        "to": CODE_ADDRESS,
        "input": selector,
        "gas": hex(1_000_000_000),
    }


def cases() -> dict[str, dict]:
    bench = shared_dir() / "bench"
    return {
        "snailtracer": code_case(bench / "snailtracer.runtime.hex", "0x30627b7c"),
        "analysis": code_case(bench / "analysis.runtime.hex", "0x8035f0ce"),
        "burntpix": json.loads((bench / "burntpix.json").read_text()),
        "callheavy": json.loads((ROOT / "Benchmarks" / "EVMData" / "callheavy.json").read_text()),
        "binding": {
            "pre": {CODE_ADDRESS: {"code": "0x00", "nonce": "0x0", "balance": "0x0", "storage": {}}},
            "to": CODE_ADDRESS,
            "input": "0x",
            "gas": hex(1_000_000),
        },
    }


def suite_cases(folder: Path) -> dict[str, dict]:
    """The evm-benchmarks cases tools/bench-evm-cases.py wrote (keys with a `/`; BurntPix is run above)."""
    cases = {}
    for entry in json.loads((folder / "cases.json").read_text()):
        if "/" in entry["key"]:
            cases[entry["key"]] = json.loads((folder / entry["file"]).read_text())
    return cases


def fresh_evm(pre: dict, spec: str = "CANCUN") -> EVM:
    evm = EVM(spec_id=spec)
    for address, account in pre.items():
        evm.insert_account_info(
            address,
            AccountInfo(
                code=hex_bytes(account.get("code", "0x")),
                nonce=int(account.get("nonce", "0x0"), 16),
                balance=int(account.get("balance", "0x0"), 16),
            ),
        )
        storage = account.get("storage") or {}
        for key, value in storage.items():
            evm.insert_account_storage(address, int(key, 16), int(value, 16))
    return evm


def intrinsic_gas(data: bytes) -> int:
    zeros = data.count(0)
    return 21_000 + 4 * zeros + 16 * (len(data) - zeros)


def run(name: str, case: dict, runs: int, seconds: float | None = None) -> dict:
    """`runs` timed calls (with `seconds`: at most `runs`, stopping after that much time once 5 ran)."""
    data = hex_bytes(case["input"])
    gas = int(case["gas"], 16)
    walls, cpus = [], []
    output = b""
    execution_gas = 0
    spec = case.get("fork", "Cancun").upper()
    caller = case.get("caller", CALLER)
    deadline = time.perf_counter() + seconds if seconds is not None else None
    for _ in range(runs):
        if deadline is not None and len(walls) >= 5 and time.perf_counter() > deadline:
            break
        evm = fresh_evm(case["pre"], spec)
        start, cpu_start = time.perf_counter_ns(), time.thread_time_ns()
        output = evm.message_call(caller, case["to"], calldata=data, gas=gas)
        cpus.append(time.thread_time_ns() - cpu_start)
        walls.append(time.perf_counter_ns() - start)
        result = evm.result
        if not result.is_success:
            sys.exit(f"bench-revm: {name} failed on revm: {result.reason}")
        execution_gas = result.gas_used + result.gas_refunded - intrinsic_gas(data)
    expected = EXPECTED.get(name, (None, None))[1]
    if expected is not None and execution_gas != expected:
        sys.exit(f"bench-revm: {name} used {execution_gas:,} execution gas on revm, expected {expected:,}")
    return {
        "runs": len(walls),
        "minMilliseconds": min(walls) / 1e6,
        "medianMilliseconds": statistics.median(walls) / 1e6,
        "minCPUMilliseconds": min(cpus) / 1e6,
        "medianCPUMilliseconds": statistics.median(cpus) / 1e6,
        "executionGas": execution_gas,
        "expectedCarchainGas": EXPECTED.get(name, (None, None))[0],
        "outputBytes": len(output),
        "outputPrefix": output[:32].hex(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="timed runs of each heavy benchmark (default 10)")
    parser.add_argument("--only", default="", help="comma-separated benchmark names")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--cases", type=Path, help="also run the evm-benchmarks cases written there by "
                        "tools/bench-evm-cases.py (London, 10^9 gas)")
    args = parser.parse_args()
    if args.runs < 1:
        sys.exit("bench-revm: --runs must be positive")
    selected = set(filter(None, args.only.split(",")))
    results = {}
    selected_cases = cases()
    if args.cases and (args.cases / "cases.json").exists():
        selected_cases.update(suite_cases(args.cases))
    for name, case in selected_cases.items():
        if selected and name not in selected:
            continue
        # The short calls are repeated more so that their minimum is meaningful.
        if "/" in name:
            results[name] = run(name, case, args.runs * 100, seconds=2.0)
            continue
        runs = args.runs * 100 if name in ("analysis", "binding") else args.runs
        results[name] = run(name, case, runs)
    report = {"reference": "revm 8.0.0 via pyrevm " + getattr(pyrevm, "__version__", "0.3.7"), "benchmarks": results}
    if args.json:
        print(json.dumps(report))
        return
    for name, r in results.items():
        print(
            f"revm {name:12s} min {r['minMilliseconds']:9.3f} ms  median {r['medianMilliseconds']:9.3f} ms  "
            f"CPU min {r['minCPUMilliseconds']:9.3f} ms  gas {r['executionGas']:,}  ({r['runs']} runs)"
        )


if __name__ == "__main__":
    main()
