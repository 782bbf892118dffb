#!/usr/bin/env bash
# `make fetch-evm-benchmarks`: fetch ipsilon/evm-benchmarks (the main and micro cases evmone's evmone-bench
# runs, state tests filled for London) at the commit evmone v0.23.0 pins as its test/evm-benchmarks
# submodule, into .evm-benchmarks/ (ignored by git; tools/bench-evm-cases.py and the package-benchmark
# target find it there). EVM_BENCHMARKS_DIR points anywhere else that holds the repository.
set -euo pipefail
cd "$(dirname "$0")/.."
COMMIT=d8b88f4046a87d6b902378cef752591f95427b43
dest=.evm-benchmarks
if [ ! -d "$dest/.git" ]; then
  git clone --quiet --no-checkout https://github.com/ipsilon/evm-benchmarks.git "$dest"
fi
git -C "$dest" fetch --quiet --depth 1 origin "$COMMIT" 2>/dev/null || git -C "$dest" fetch --quiet origin
git -C "$dest" checkout --quiet "$COMMIT"
echo "evm-benchmarks @ ${COMMIT:0:10} in $dest ($(ls "$dest"/benchmarks/main "$dest"/benchmarks/micro | grep -c json) case files)"
