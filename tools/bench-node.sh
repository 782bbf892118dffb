#!/usr/bin/env bash
# Dev node benchmarks next to the py-evm reference node, in one run: builds the release carchain, then runs
# tools/bench-node.py (eth_call p50 over loopback, automined rentCar tx/s, embedded `carchain rent` ms).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product carchain >/dev/null
exec "${CARCHAIN_VENV:-$PWD/.venv}/bin/python" tools/bench-node.py --carchain .build/release/carchain "$@"
