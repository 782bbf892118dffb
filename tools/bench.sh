#!/usr/bin/env bash
# `make bench`: the package-benchmark suite (release build) and, in the same run, the reference figures
# they are compared with:
#   - OpenSSL's SHA3-256 on the same Keccak-f[1600] permutation (for the Keccak benchmarks);
#   - evmone (tools/bench-evmone.cpp, linking an evmone built from its source beside the project: docs/EVM.md)
#     on ipsilon/evm-benchmarks' main and micro cases (EVM_BENCHMARKS_DIR, or what `make fetch-evm-benchmarks`
#     fetched) and BurntPix, in EVMONE_ROUNDS rounds alternating with carchain's (package-benchmark) in the
#     same run; tools/bench-compare.py prints both, the ratio, the geometric mean and the goals, and checks
#     gas and output against evmone's (carchain also checks each case's state test before timing it);
#   - revm (tools/bench-revm.py: revm 8 through pyrevm 0.3.7, project venv) on the EVM benchmarks that
#     package-benchmark runs on carchain's EVM (SnailTracer, analysis, BurntPix, CALL-heavy): both figures,
#     min and median, the ratio and the gas each used (EVMBenchmarks.swift writes its per-call samples to
#     CARCHAIN_BENCH_RESULTS, and tools/bench-compare.py prints the table);
#   - SnailTracer on carchain's EVM (`carchain evm run --bench`) next to py-evm, the slow reference
#     (tools/bench-pyevm-snailtracer.py);
#   - the CarChain rentCar transaction on the executor, in µs (package-benchmark, "EVM CarChain rentCar");
#   - newHeads over WebSocket to 1,000 subscribers next to 1 subscriber, mine to last receipt (package-benchmark,
#     "node WebSocket newHeads …", both in this run);
#   - c-kzg-4844's verify_kzg_proof (tools/bench-ckzg.py) next to the KZG point evaluation and BLS12-381
#     pairing benchmarks;
#   - OpenSSL's ECDSA P-256 verification (openssl speed) next to the P256VERIFY benchmark;
#   - the web app's API reads in process next to eth_blockNumber through the node's handler (package-benchmark,
#     "app API …"), and the page in headless Chromium (tools/bench-app.py: first load and map redraws measured in
#     the page, API reads over loopback next to an eth_blockNumber round trip on the same server).
# Usage: tools/bench.sh [FILTER-REGEX]   e.g. tools/bench.sh 'EVM.*'   (the revm comparison runs when the
# filter is the default or matches "EVM"; the py-evm one when it matches "SnailTracer"; SNAIL_RUNS=N sets
# carchain's repetitions there, REVM_RUNS=N revm's; EVMONE_DIR=… (or EVMONE_HARNESS=binary) turns on evmone,
# EVMONE_ROUNDS, EVMONE_RUNS and EVMONE_SECONDS shape its rounds; BENCH_RESULTS_KEEP=dir keeps every sample.)
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-.*}"
root="$(pwd)"

# The shared data (SnailTracer code): CARCHAIN_SHARED_DIR, else ../shared or ../../shared (worktrees).
if [ -z "${CARCHAIN_SHARED_DIR:-}" ]; then
  for candidate in "$root/../shared" "$root/../../shared"; do
    if [ -f "$candidate/bench/snailtracer.runtime.hex" ]; then CARCHAIN_SHARED_DIR="$(cd "$candidate" && pwd)"; break; fi
  done
fi
export CARCHAIN_SHARED_DIR="${CARCHAIN_SHARED_DIR:-$root/../shared}"
python="${CARCHAIN_VENV:-$root/.venv}/bin/python"

# evmone's timing harness (tools/bench-evmone.cpp): EVMONE_HARNESS if set, else compiled into .build/bench-evmone
# against the evmone build in EVMONE_DIR (laid out as docs/EVM.md, "evmone next to carchain", builds it). Prints
# the harness's path, or nothing (with the reason on stderr) when there is none.
evmone_harness() {
  if [ -n "${EVMONE_HARNESS:-}" ]; then echo "$EVMONE_HARNESS"; return; fi
  local dir="${EVMONE_DIR:-}" out="$root/.build/bench-evmone"
  if [ -z "$dir" ] || [ ! -f "$dir/build/lib/libevmone.so" ]; then
    echo "SKIPPED: evmone reference (set EVMONE_DIR to an evmone build made as docs/EVM.md describes)" >&2
    return
  fi
  if [ ! -x "$out" ] || [ tools/bench-evmone.cpp -nt "$out" ] || [ "$dir/build/lib/libevmone.so" -nt "$out" ]; then
    local s="$dir/src/evmone" b="$dir/build"
    g++ -std=c++20 -O2 -march=x86-64-v2 -I"$s" -I"$s/include" -I"$s/lib" -I"$s/evmc/include" -I"$dir/src/intx/include" \
      -I"$dir/prefix/include" tools/bench-evmone.cpp -o "$out" "$b/test/utils/libevmone.testutils.a" \
      "$b/test/state/libevmone-state.a" "$b/lib/evmone_precompiles/libevmone_precompiles.a" "$b/deps/src/blst/libblst.a" \
      -L"$b/lib" -levmone -Wl,-rpath,"$b/lib" >&2 || { echo "SKIPPED: evmone reference (the harness did not compile)" >&2; return; }
  fi
  echo "$out"
}

echo "==> Reference: openssl speed -evp sha3-256 ($(openssl version))"
for bytes in 32 64 1024 16384; do
  # The last line reads "sha3-256   <bytes/s in 1000s>k" for the one size asked.
  openssl speed -evp sha3-256 -bytes "$bytes" -seconds 1 2>/dev/null | awk -v b="$bytes" '
    /^sha3-256/ { v=$NF; sub(/k$/,"",v); printf "    openssl sha3-256 %6d B: %9.1f MB/s  (%7.1f ns per hash)\n", b, v/1000, b*1e9/(v*1000) }'
done

if [ "$filter" = ".*" ] || [[ "SnailTracer" =~ $filter ]]; then
  snail="$CARCHAIN_SHARED_DIR/bench/snailtracer.runtime.hex"
  if [ ! -f "$snail" ]; then
    echo "SKIPPED: SnailTracer comparison ($snail not found; set CARCHAIN_SHARED_DIR)"
  else
    echo "==> SnailTracer (Cancun, 1e9 gas, Benchmark() = 0x30627b7c): carchain EVM vs py-evm, same run"
    swift build -c release --product carchain 2>&1 | grep -E 'error|warning: unre' || true
    swift_json="$(.build/release/carchain evm run --code "$(tr -d '\n' < "$snail")" --input 0x30627b7c \
      --gas 1000000000 --bench "${SNAIL_RUNS:-10}" --json)"
    if [ -x "$python" ]; then
      py_json="$("$python" tools/bench-pyevm-snailtracer.py --json)"
    else
      py_json=""
      echo "SKIPPED: py-evm SnailTracer reference (no Python venv; run make venv)"
    fi
    SWIFT_JSON="$swift_json" PY_JSON="$py_json" python3 - <<'EOF'
import json, os, sys
s = json.loads(os.environ["SWIFT_JSON"])
expected = 165_962_868
gas = int(s["gasUsed"])
ok = gas == expected and s["status"] == "success"
print(f"    carchain EVM: {s['minMilliseconds']:.1f} ms wall (median {s['medianMilliseconds']:.1f} ms, "
      f"CPU {s['minCPUMilliseconds']:.1f} ms), {s['mgasPerSecond']:.0f} Mgas/s, gas used {gas:,} "
      f"({'= the expected' if ok else 'EXPECTED'} {expected:,}), best of {s['runs']}")
if os.environ["PY_JSON"]:
    p = json.loads(os.environ["PY_JSON"])
    print(f"    py-evm:       {p['wallSeconds'] * 1000:.0f} ms wall (CPU {p['cpuSeconds'] * 1000:.0f} ms), "
          f"{p['mgasPerSecond']:.1f} Mgas/s, gas used {p['gasUsed']:,}")
    wall = p["wallSeconds"] * 1000 / s["minMilliseconds"]
    cpu = p["cpuSeconds"] * 1000 / s["minCPUMilliseconds"]
    print(f"    ratio:        carchain is {wall:.0f}x faster than py-evm by wall time ({cpu:.0f}x by CPU time); target >= 50x")
    print("    published (evm-bench 2022, other machine): evmone 43 ms, revm 53 ms, geth 163 ms, py-evm 13.7 s")
if not ok:
    sys.exit("SnailTracer gas or status differs from the expected figure")
EOF
  fi
fi

if [ "$filter" = ".*" ] || [[ "KZG point evaluation" =~ $filter ]] || [[ "BLS12_PAIRING_CHECK" =~ $filter ]]; then
  echo "==> Reference for the KZG and BLS12-381 pairing benchmarks: c-kzg-4844 (blst) verify_kzg_proof, same run"
  if [ -x "$python" ]; then "$python" tools/bench-ckzg.py 200; else echo "SKIPPED: ckzg reference (no venv; run make venv)"; fi
fi

if [ "$filter" = ".*" ] || [[ "P256VERIFY" =~ $filter ]]; then
  echo "==> Reference for P256VERIFY: openssl speed ecdsap256 ($(openssl version)), same run"
  # The result line reads " 256 bits ecdsa (nistp256)   <sign s> <verify s> <sign/s> <verify/s>".
  openssl speed -seconds 1 ecdsap256 2>/dev/null | awk '
    /ecdsa \(nistp256\)/ { printf "    openssl ECDSA P-256 verify: %.1f us per verification (%s verify/s)\n", 1e6/$NF, $NF }'
fi

compare_revm=0
if [ "$filter" = ".*" ] || [[ "EVM" =~ $filter ]] || [[ "$filter" == EVM* ]]; then compare_revm=1; fi
results="$(mktemp -d)"
trap 'rm -rf "$results"' EXIT
evmone_harness=""
if [ "$compare_revm" = 1 ]; then
  # The cases both references run: evm-benchmarks' main and micro cases and BurntPix, as prestate files.
  python3 tools/bench-evm-cases.py "$results/cases" || true
  evmone_harness="$(evmone_harness)"
  echo "==> Reference for the EVM benchmarks: revm (pyrevm) on the same calls, same run"
  if [ -x "$python" ]; then
    "$python" tools/bench-revm.py --runs "${REVM_RUNS:-20}" --cases "$results/cases" --json > "$results/revm.json"
  else
    echo "SKIPPED: revm reference (no Python venv; run make venv)"
  fi
fi

if [ "$filter" = ".*" ] || [[ "app" =~ $filter ]]; then
  if [ -x "$python" ]; then
    echo "==> The web app in headless Chromium (tools/bench-app.py), references in the same run"
    swift build -c release --product carchain 2>&1 | grep -E 'error|warning: unre' || true
    CARCHAIN_BIN="$root/.build/release/carchain" "$python" tools/bench-app.py || echo "bench-app.py failed"
  else
    echo "SKIPPED: the web app's page figures (no Python venv; run make venv)"
  fi
fi

# The chain-scale benchmarks make their chains with ChainPerfProbe's soak (ChainScaleBenchmarks.swift); the node
# latency benchmarks run the release `carchain node` (MiningLatencyBenchmarks.swift).
swift build -c release --product ChainPerfProbe 2>&1 | grep -E 'error|warning: unre' || true
swift build -c release --product carchain 2>&1 | grep -E 'error|warning: unre' || true
# evmone and carchain alternate: EVMONE_ROUNDS rounds (default 2) of evmone's harness, then package-benchmark
# (the first round runs every benchmark the filter selects, later rounds only the cases evmone runs too).
rounds=1
if [ -n "$evmone_harness" ]; then rounds="${EVMONE_ROUNDS:-2}"; fi
for round in $(seq 1 "$rounds"); do
  if [ -n "$evmone_harness" ]; then
    echo "==> evmone on the EVM benchmark cases (tools/bench-evmone.cpp), round $round of $rounds"
    "$evmone_harness" "$results/cases" --runs "${EVMONE_RUNS:-2000}" --seconds "${EVMONE_SECONDS:-2}" \
      > "$results/evmone-$round.jsonl"
  fi
  round_filter="$filter"
  if [ "$round" -gt 1 ]; then round_filter='EVM (evm-benchmarks|BurntPix).*'; fi
  echo "==> package-benchmark (release), round $round of $rounds"
  mkdir -p "$results/carchain-$round"
  CARCHAIN_BENCH_RESULTS="$results/carchain-$round" swift package --allow-writing-to-package-directory benchmark \
    --target CarchainBenchmarks --filter "$round_filter" --format markdown --no-progress 2>&1 | grep -v '^Build\|^\[' || true
done

if [ "$compare_revm" = 1 ]; then
  python3 tools/bench-compare.py "$results"
  if [ -n "${BENCH_RESULTS_KEEP:-}" ]; then mkdir -p "$BENCH_RESULTS_KEEP" && cp -r "$results"/. "$BENCH_RESULTS_KEEP"/; fi
fi
