# Execution-apis JSON-RPC conformance (hive's rpc-compat tests; included by the main Makefile through
# `-include tools/*.mk`; SWIFT comes from there).
#   make rpc-compat   build carchain in release, start `carchain node` on the suite's chain (genesis.json +
#                     chain.rlp from $(CARCHAIN_SHARED_DIR)/rpc-compat, default ../shared) and run every .io
#                     file through tools/rpc_compat.py: fails when fewer than $(RPC_COMPAT_MIN_RATE)% pass.
#                     Without the suite it says SKIPPED, and fails under CARCHAIN_STRICT=1 (as CI runs it).
#                     RPC_COMPAT_ARGS passes more options (e.g. RPC_COMPAT_ARGS="--filter eth_getProof --verbose").
#                     Then tools/simulate_determinism.py: every eth_simulateV1 request of the suite (and variants) on two
#                     node processes and twice on one must give identical answers.
.PHONY: rpc-compat

RPC_COMPAT_MIN_RATE ?= 95
RPC_COMPAT_ARGS ?=

rpc-compat: carchain-build
	@echo "==> execution-apis rpc-compat tests (must pass $(RPC_COMPAT_MIN_RATE)%)"
	@python3 tools/rpc_compat.py --carchain .build/release/carchain --min-pass-rate $(RPC_COMPAT_MIN_RATE) $(RPC_COMPAT_ARGS)
	@python3 tools/simulate_determinism.py --carchain .build/release/carchain
