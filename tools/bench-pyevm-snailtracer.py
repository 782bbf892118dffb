#!/usr/bin/env python3
"""Time py-evm on the SnailTracer benchmark call, for the ratio `make bench` prints next to carchain's.

The call is the one EVMBenchmarks.swift and `carchain evm run --bench` make: SnailTracer's runtime code
(../shared/bench/snailtracer.runtime.hex, see its README) installed at an account and called with
calldata 0x30627b7c (Benchmark()), 1,000,000,000 gas, value 0, under Cancun rules, by a message call
straight into py-evm's CancunComputation (no transaction, so no intrinsic gas, as in carchain's figure).
It checks the gas used (165,962,868) and prints one line, or a JSON object with --json.

Usage (project venv): .venv/bin/python tools/bench-pyevm-snailtracer.py [--runs N] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from eth.db.atomic import AtomicDB
from eth.vm.execution_context import ExecutionContext
from eth.vm.forks.cancun.state import CancunState
from eth.vm.message import Message

EXPECTED_GAS = 165_962_868
GAS_LIMIT = 1_000_000_000
CONTRACT = bytes.fromhex("00" * 19 + "c0")
CALLER = bytes.fromhex("00" * 19 + "ca")
ROOT = Path(__file__).resolve().parent.parent
BLANK_ROOT = bytes.fromhex("56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421")


def code_path() -> Path:
    shared = os.environ.get("CARCHAIN_SHARED_DIR")
    candidates = [Path(shared)] if shared else [ROOT.parent / "shared", ROOT.parent.parent / "shared"]
    for base in candidates:
        path = base / "bench" / "snailtracer.runtime.hex"
        if path.exists():
            return path
    sys.exit(f"SKIPPED: snailtracer.runtime.hex not found under {[str(c) for c in candidates]}")


def run_once(code: bytes) -> tuple[float, float, int]:
    context = ExecutionContext(
        coinbase=b"\x00" * 20, timestamp=1, block_number=1, difficulty=0, mix_hash=b"\x00" * 32,
        gas_limit=30_000_000, prev_hashes=(), chain_id=1, base_fee_per_gas=0, excess_blob_gas=0,
    )
    state = CancunState(AtomicDB(), context, BLANK_ROOT)
    state.set_code(CONTRACT, code)
    state.touch_account(CALLER)
    message = Message(
        gas=GAS_LIMIT, to=CONTRACT, sender=CALLER, value=0, data=bytes.fromhex("30627b7c"), code=code,
    )
    transaction_context = state.get_transaction_context_class()(gas_price=0, origin=CALLER)
    start, cpu_start = time.perf_counter(), time.process_time()
    computation = state.computation_class.apply_message(state, message, transaction_context)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    if computation.is_error:
        sys.exit(f"py-evm SnailTracer failed: {computation.error!r}")
    return elapsed, cpu, GAS_LIMIT - computation.get_gas_remaining()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="repetitions (the minimum time is reported)")
    parser.add_argument("--json", action="store_true", help="print a JSON object")
    args = parser.parse_args()
    code = bytes.fromhex(code_path().read_text().strip().removeprefix("0x"))
    times, cpu_times = [], []
    gas_used = 0
    for _ in range(max(1, args.runs)):
        elapsed, cpu, gas_used = run_once(code)
        times.append(elapsed)
        cpu_times.append(cpu)
    if gas_used != EXPECTED_GAS:
        sys.exit(f"py-evm SnailTracer used {gas_used} gas, expected {EXPECTED_GAS}")
    best, best_cpu = min(times), min(cpu_times)
    mgas = gas_used / best / 1e6
    if args.json:
        print(json.dumps({"implementation": "py-evm", "runs": len(times), "gasUsed": gas_used,
                          "wallSeconds": best, "cpuSeconds": best_cpu, "mgasPerSecond": mgas}))
    else:
        # CPU time is printed too: on a shared machine wall time includes time spent waiting for a core.
        print(f"py-evm SnailTracer: {best * 1000:.0f} ms wall, {best_cpu * 1000:.0f} ms CPU, "
              f"gas used {gas_used}, {mgas:.1f} Mgas/s (best of {len(times)})")


if __name__ == "__main__":
    main()
