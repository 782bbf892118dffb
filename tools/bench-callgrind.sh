#!/usr/bin/env bash
# Instructions per call, carchain's EVM and evmone, on the EVM benchmark cases: the repeatable measure on a
# shared machine (wall-clock time wanders with the load; the instruction count does not).
#
# For each case written by tools/bench-evm-cases.py: valgrind's callgrind counts the instructions of
# `carchain evm run --prestate CASE --fork F --bench 2` minus `--bench 1` (one call with the analysed code
# cached, set-up and process start cancelled out), and of tools/bench-evmone.cpp's harness with `--runs 2`
# minus `--runs 1` (one call on a fresh state, after a warm-up call). Valgrind 3.19 cannot read the Swift
# release binary's DWARF, so carchain runs from a copy made with `objcopy --strip-debug` (the symbol table
# stays: callgrind_annotate still names functions).
#
# Usage: tools/bench-callgrind.sh CASES_DIR [KEY-REGEX] > counts.jsonl
#   CASES_DIR  from `python3 tools/bench-evm-cases.py CASES_DIR`
#   EVMONE_HARNESS=path  the compiled harness (default .build/bench-evmone; without it only carchain is counted)
# Prints one JSON object per case: {"key", "carchain", "evmone"} (instructions per call; null when not run).
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:?usage: tools/bench-callgrind.sh CASES_DIR [KEY-REGEX]}"
pattern="${2:-.}"
command -v valgrind >/dev/null || { echo "bench-callgrind: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
harness="${EVMONE_HARNESS:-.build/bench-evmone}"
mkdir -p .build/callgrind
binary=.build/callgrind/carchain
if [ ! -x "$binary" ] || [ .build/release/carchain -nt "$binary" ]; then
  objcopy --strip-debug .build/release/carchain "$binary"
fi

# Instructions callgrind collected for the command given.
collected() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected :/ { print $NF }'
}

python3 -c 'import json,sys; [print(c["key"], c["file"], c["fork"]) for c in json.load(open(sys.argv[1]))]' \
  "$cases/cases.json" | while read -r key file fork; do
  [[ "$key" =~ $pattern ]] || continue
  one=$(collected "$binary" evm run --prestate "$cases/$file" --fork "$fork" --bench 1)
  two=$(collected "$binary" evm run --prestate "$cases/$file" --fork "$fork" --bench 2)
  carchain=$((two - one))
  evmone=null
  if [ -x "$harness" ]; then
    one=$(collected "$harness" "$cases" --only "$key" --runs 1 --seconds 0)
    two=$(collected "$harness" "$cases" --only "$key" --runs 2 --seconds 0)
    evmone=$((two - one))
  fi
  echo "{\"key\": \"$key\", \"carchain\": $carchain, \"evmone\": $evmone}"
done
