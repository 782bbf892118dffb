#!/usr/bin/env python3
"""Print carchain's EVM benchmark figures next to revm's from the same `make bench` run.

Reads, from the directory given: revm.json (tools/bench-revm.py --json) and one <key>.json per carchain
benchmark (written by Benchmarks/CarchainBenchmarks/EVMBenchmarkSamples.swift under package-benchmark).
Prints min and median wall time of both, the ratio carchain/revm, and the gas each used; exits 1 when a
benchmark's gas differs from the other side's (BurntPix: revm uses 4,000 less, pyrevm's warm slots).

Usage: python3 tools/bench-compare.py RESULTS_DIR
"""

import json
import sys
from pathlib import Path

# key, label, target ratio (carchain time / revm time), gas carchain uses above revm
ROWS = [
    ("snailtracer", "SnailTracer", 0.8, 0),
    ("analysis", "analysis (code analysed per call)", 0.8, 0),
    ("burntpix", "BurntPix", 0.8, 4_000),
    ("callheavy", "CALL-heavy (100,000 calls)", 1.2, 0),
]


def figure(ms: float) -> str:
    return f"{ms * 1000:8.2f} us" if ms < 1 else f"{ms:8.2f} ms"


def main() -> int:
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    results = Path(sys.argv[1])
    revm = json.loads((results / "revm.json").read_text())["benchmarks"]
    failed = False
    print(f"    {'benchmark':34s} {'carchain min':>12s} {'median':>11s}   {'revm min':>11s} {'median':>11s}   "
          f"{'ratio (min / median)':>20s}  target  gas")
    for key, label, target, gas_above in ROWS:
        path = results / f"{key}.json"
        if key not in revm or not path.exists():
            print(f"    {label:34s} (not measured in this run)")
            continue
        c = json.loads(path.read_text())
        r = revm[key]
        ratio_min = c["minMilliseconds"] / r["minMilliseconds"]
        ratio_median = c["medianMilliseconds"] / r["medianMilliseconds"]
        gas_ok = c["gasUsed"] == r["executionGas"] + gas_above
        failed |= not gas_ok
        gas = f"{c['gasUsed']:,}" + ("" if gas_above == 0 else f" (revm {r['executionGas']:,}, warm slots)")
        print(f"    {label:34s} {figure(c['minMilliseconds'])} {figure(c['medianMilliseconds'])}   "
              f"{figure(r['minMilliseconds'])} {figure(r['medianMilliseconds'])}   "
              f"{ratio_min:9.2f} / {ratio_median:5.2f}x  <={target:<4}"
              f"{'ok ' if ratio_min <= target else 'MISS'} {gas}{'' if gas_ok else '  GAS DIFFERS'}")
    cached = results / "analysis-cached.json"
    if cached.exists():
        c = json.loads(cached.read_text())
        print(f"    analysis with the analysed code cached (carchain keeps it per code hash): "
              f"min {figure(c['minMilliseconds']).strip()}, median {figure(c['medianMilliseconds']).strip()}")
    if "binding" in revm:
        b = revm["binding"]
        print(f"    revm figures include pyrevm's Python binding and transaction set-up: a call to a STOP "
              f"takes min {figure(b['minMilliseconds']).strip()} there")
    stop = results / "stop.json"
    if stop.exists():
        c = json.loads(stop.read_text())
        print(f"    (carchain's set-up, a STOP call: min {figure(c['minMilliseconds']).strip()})")
    rentcar = results / "rentcar.json"
    if rentcar.exists():
        c = json.loads(rentcar.read_text())
        print(f"    CarChain rentCar on the executor: median {figure(c['medianMilliseconds']).strip()} (target <= 15 us)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
