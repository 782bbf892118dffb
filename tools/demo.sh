#!/usr/bin/env bash
# `make demo`: runs `carchain demo` on a fresh CARCHAIN_HOME under .demo/ (one directory per run, kept so the
# map and the logged-in demo user can be explored afterwards). Extra arguments go to `carchain demo`, e.g.
# `bash tools/demo.sh --rpc http://127.0.0.1:8545` to use a running node instead of the embedded chain.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release --show-bin-path)/carchain"
if [ ! -x "$bin" ]; then
  echo "carchain is not built: run \`swift build -c release --product carchain\` (or \`make demo\`)" >&2
  exit 1
fi
mkdir -p .demo
home="$(pwd)/.demo/run-$(date -u +%Y%m%d-%H%M%S)"
"$bin" demo --home "$home" "$@"
ln -sfn "$home" .demo/latest
echo
echo "(this run's files are also reachable as .demo/latest; the carchain binary is $bin —"
echo " put it on your PATH with: export PATH=\"$(dirname "$bin"):\$PATH\")"
