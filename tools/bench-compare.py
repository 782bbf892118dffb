#!/usr/bin/env python3
"""Print carchain's EVM benchmark figures next to evmone's and revm's from the same `make bench` run.

Reads, from the directory given:
  carchain-<round>/<key>.json  carchain's per-call samples (Benchmarks/CarchainBenchmarks/EVMBenchmarkSamples.swift
                               under package-benchmark; a `/` in a key is written `__`), one folder per round
                               (or the files straight in the directory: one round);
  evmone-<round>.jsonl         evmone's samples on the same cases (tools/bench-evmone.cpp), one file per round;
  revm.json                    revm through pyrevm (tools/bench-revm.py --json);
  callgrind.jsonl              optional: instructions per call of both (tools/bench-callgrind.sh).
Samples of every round are pooled: min and median are over all of them.

Prints the evmone table (evm-benchmarks' main and micro cases, BurntPix; ratio = carchain / evmone, the
geometric means and the goals), then the revm table. Exits 1 when gas or output differ between carchain and
a reference, or when a case is missing on one side.

Usage: python3 tools/bench-compare.py RESULTS_DIR [--markdown]   (--markdown: the docs/EVM.md table)
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

# key, label, target ratio (carchain time / revm time), gas carchain uses above revm
REVM_ROWS = [
    ("snailtracer", "SnailTracer", 0.8, 0),
    ("analysis", "analysis (code analysed per call)", 0.8, 0),
    ("burntpix", "BurntPix", 0.8, 4_000),
    ("callheavy", "CALL-heavy (100,000 calls)", 1.2, 0),
]

# Goals against evmone (issue 37): every main case <= 1.0, geometric mean over main + micro <= 0.9,
# SnailTracer <= 0.9, BurntPix <= 1.0 (minimum times).
GOALS = {"main/snailtracer/benchmark": 0.9, "burntpix": 1.0}
MAIN_GOAL, GEOMEAN_GOAL = 1.0, 0.9


def pooled(samples: list[int]) -> dict:
    ordered = sorted(samples)
    return {"min": ordered[0] / 1e6, "median": ordered[len(ordered) // 2] / 1e6, "runs": len(ordered)}


def carchain_results(results: Path) -> dict[str, dict]:
    folders = sorted(p for p in results.glob("carchain-*") if p.is_dir()) or [results]
    merged: dict[str, dict] = {}
    for folder in folders:
        for path in folder.glob("*.json"):
            if path.name == "revm.json":
                continue
            data = json.loads(path.read_text())
            if "key" not in data:
                continue
            entry = merged.setdefault(data["key"], {"samples": [], "gas": data["gasUsed"],
                                                    "output": data.get("outputKeccak"), "files": data})
            # Files without raw samples (older runs) contribute their min and median only.
            entry["samples"] += data.get("samples") or []
            if entry["gas"] != data["gasUsed"] or entry["output"] != data.get("outputKeccak"):
                entry["inconsistent"] = True
    for entry in merged.values():
        if entry["samples"]:
            entry.update(pooled(entry["samples"]))
        else:
            entry.update(min=entry["files"]["minMilliseconds"], median=entry["files"]["medianMilliseconds"],
                         runs=entry["files"]["runs"])
    return merged


def evmone_results(results: Path) -> dict[str, dict]:
    merged: dict[str, dict] = {}
    for path in sorted(results.glob("evmone-*.jsonl")):
        for line in path.read_text().splitlines():
            if not line.strip():
                continue
            data = json.loads(line)
            entry = merged.setdefault(data["key"], {"samples": [], "gas": data["gasUsed"], "output": data["outputKeccak"],
                                                    "success": data["success"]})
            entry["samples"] += data["samples"]
    for entry in merged.values():
        entry.update(pooled(entry["samples"]))
    return merged


def figure(ms: float) -> str:
    return f"{ms * 1000:8.1f} us" if ms < 1 else f"{ms:8.2f} ms"


def short(ms: float) -> str:
    if ms < 0.1:
        return f"{ms * 1000:.2f} µs"
    if ms < 1:
        return f"{ms * 1000:.1f} µs"
    return f"{ms:.2f} ms"


def same_output(a: str | None, b: str | None) -> bool:
    return a is not None and b is not None and a.lower().removeprefix("0x") == b.lower().removeprefix("0x")


def evmone_table(results: Path, carchain: dict, markdown: bool) -> bool:
    evmone = evmone_results(results)
    if not evmone:
        return False
    counts = {}
    callgrind = results / "callgrind.jsonl"
    if callgrind.exists():
        for line in callgrind.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                counts[row["key"]] = row
    failed = False
    ratios: dict[str, list[float]] = {"main": [], "micro": []}
    lines = []
    for key, e in evmone.items():
        c = carchain.get(key)
        if c is None:
            lines.append((key, None))
            failed = True
            continue
        gas_ok = c["gas"] == e["gas"] and e["success"]
        output_ok = same_output(c["output"], e["output"])
        failed |= not (gas_ok and output_ok) or c.get("inconsistent", False)
        ratio_min, ratio_median = c["min"] / e["min"], c["median"] / e["median"]
        group = key.split("/")[0]
        if group in ratios:
            ratios[group].append(ratio_min)
        lines.append((key, dict(c=c, e=e, gas_ok=gas_ok, output_ok=output_ok, ratio_min=ratio_min,
                                ratio_median=ratio_median, counts=counts.get(key))))
    geomean = {g: math.exp(statistics.fmean(math.log(r) for r in rs)) for g, rs in ratios.items() if rs}
    both = ratios["main"] + ratios["micro"]
    if both:
        geomean["main + micro"] = math.exp(statistics.fmean(math.log(r) for r in both))

    def instructions(row: dict | None, side: str) -> str:
        if not row or row.get(side) is None:
            return "—"
        return f"{row[side] / 1e6:,.2f} M" if row[side] >= 1e6 else f"{row[side] / 1e3:,.1f} k"

    if markdown:
        print("| case | gas | carchain min / median | evmone min / median | ratio min / median | "
              "instructions per call, carchain / evmone |")
        print("|---|---|---|---|---|---|")
    else:
        print(f"    {'case':42s} {'gas':>12s}  {'carchain min':>11s} {'median':>11s}   {'evmone min':>11s} "
              f"{'median':>11s}   ratio min / median   instructions carchain / evmone")
    for key, row in lines:
        if row is None:
            print(f"    {key:42s} (not measured on carchain in this run)")
            continue
        c, e = row["c"], row["e"]
        check = "" if row["gas_ok"] and row["output_ok"] else (
            "  GAS DIFFERS" if not row["gas_ok"] else "  OUTPUT DIFFERS")
        goal = GOALS.get(key, MAIN_GOAL if key.startswith("main/") else None)
        miss = "" if goal is None or row["ratio_min"] <= goal else f"  (goal <= {goal})"
        if markdown:
            print(f"| {key} | {c['gas']:,} | {short(c['min'])} / {short(c['median'])} | "
                  f"{short(e['min'])} / {short(e['median'])} | **{row['ratio_min']:.2f}×** / {row['ratio_median']:.2f}× | "
                  f"{instructions(row['counts'], 'carchain')} / {instructions(row['counts'], 'evmone')} |{check}")
        else:
            print(f"    {key:42s} {c['gas']:>12,}  {figure(c['min'])} {figure(c['median'])}   {figure(e['min'])} "
                  f"{figure(e['median'])}   {row['ratio_min']:9.2f} / {row['ratio_median']:5.2f}x   "
                  f"{instructions(row['counts'], 'carchain'):>10s} / {instructions(row['counts'], 'evmone'):<10s}"
                  f"{check}{miss}")
    runs_c = sorted({row["c"]["runs"] for _, row in lines if row})
    runs_e = sorted({row["e"]["runs"] for _, row in lines if row})
    print(f"    runs per case: carchain {runs_c[0]}–{runs_c[-1]}, evmone {runs_e[0]}–{runs_e[-1]}" if runs_c and runs_e else "")
    for group, value in geomean.items():
        goal = f" (goal <= {GEOMEAN_GOAL})" if group == "main + micro" else ""
        print(f"    geometric mean of the min ratios, {group}: {value:.3f}{goal}")
    return failed


def revm_table(results: Path, carchain: dict) -> bool:
    revm_file = results / "revm.json"
    if not revm_file.exists():
        return False
    revm = json.loads(revm_file.read_text())["benchmarks"]
    failed = False
    print(f"    {'benchmark':34s} {'carchain min':>12s} {'median':>11s}   {'revm min':>11s} {'median':>11s}   "
          f"{'ratio (min / median)':>20s}  target  gas")
    for key, label, target, gas_above in REVM_ROWS:
        c = carchain.get(key)
        if key not in revm or c is None:
            print(f"    {label:34s} (not measured in this run)")
            continue
        r = revm[key]
        ratio_min = c["min"] / r["minMilliseconds"]
        ratio_median = c["median"] / r["medianMilliseconds"]
        gas_ok = c["gas"] == r["executionGas"] + gas_above
        failed |= not gas_ok
        gas = f"{c['gas']:,}" + ("" if gas_above == 0 else f" (revm {r['executionGas']:,}, warm slots)")
        print(f"    {label:34s} {figure(c['min'])} {figure(c['median'])}   "
              f"{figure(r['minMilliseconds'])} {figure(r['medianMilliseconds'])}   "
              f"{ratio_min:9.2f} / {ratio_median:5.2f}x  <={target:<4}"
              f"{'ok ' if ratio_min <= target else 'MISS'} {gas}{'' if gas_ok else '  GAS DIFFERS'}")
    # evm-benchmarks cases revm ran too (tools/bench-revm.py --cases).
    suite = [(k, v) for k, v in revm.items() if "/" in k]
    if suite:
        print(f"    {'evm-benchmarks case':42s} {'carchain min':>12s}   {'revm min':>11s}   ratio min   gas")
        for key, r in suite:
            c = carchain.get(key)
            if c is None:
                continue
            gas_ok = c["gas"] == r["executionGas"]
            failed |= not gas_ok
            print(f"    {key:42s} {figure(c['min'])}   {figure(r['minMilliseconds'])}   {c['min'] / r['minMilliseconds']:9.2f}   "
                  f"{c['gas']:,}{'' if gas_ok else '  GAS DIFFERS (revm ' + format(r['executionGas'], ',') + ')'}")
    for key, label in (("analysis-cached", "analysis with the analysed code cached (carchain keeps it per code hash)"),
                       ("stop", "carchain's set-up, a STOP call")):
        if key in carchain:
            print(f"    {label}: min {figure(carchain[key]['min']).strip()}, median {figure(carchain[key]['median']).strip()}")
    if "binding" in revm:
        b = revm["binding"]
        print(f"    revm figures include pyrevm's Python binding and transaction set-up: a call to a STOP "
              f"takes min {figure(b['minMilliseconds']).strip()} there")
    if "rentcar" in carchain:
        print(f"    CarChain rentCar on the executor: median {figure(carchain['rentcar']['median']).strip()} (target <= 15 us)")
    return failed


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        sys.exit(__doc__)
    results = Path(args[0])
    markdown = "--markdown" in sys.argv
    carchain = carchain_results(results)
    failed = False
    if any(results.glob("evmone-*.jsonl")):
        print("==> EVM benchmarks: carchain (package-benchmark) vs evmone (tools/bench-evmone.cpp), same run")
        failed |= evmone_table(results, carchain, markdown)
    if (results / "revm.json").exists() and not markdown:
        print("==> EVM benchmarks: carchain (package-benchmark, in-process) vs revm (pyrevm), same run")
        failed |= revm_table(results, carchain)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
