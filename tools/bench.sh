#!/usr/bin/env bash
# `make bench`: the package-benchmark suite (release build) and, in the same run, the reference figures
# they are compared with (OpenSSL's SHA3-256 on the same Keccak-f[1600] permutation).
# Usage: tools/bench.sh [FILTER-REGEX]   e.g. tools/bench.sh 'Keccak.*'
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-.*}"

echo "==> Reference: openssl speed -evp sha3-256 ($(openssl version))"
for bytes in 32 64 1024 16384; do
  # The last line reads "sha3-256   <bytes/s in 1000s>k" for the one size asked.
  openssl speed -evp sha3-256 -bytes "$bytes" -seconds 1 2>/dev/null | awk -v b="$bytes" '
    /^sha3-256/ { v=$NF; sub(/k$/,"",v); printf "    openssl sha3-256 %6d B: %9.1f MB/s  (%7.1f ns per hash)\n", b, v/1000, b*1e9/(v*1000) }'
done

echo "==> package-benchmark (release)"
swift package --allow-writing-to-package-directory benchmark --target CarchainBenchmarks \
  --filter "$filter" --format markdown --no-progress 2>&1 | grep -v '^Build\|^\[' || true
