# Ethereum blockchain-test conformance (included by the main Makefile through `-include tools/*.mk`;
# SWIFT and ETHTESTS_DIR come from there).
#   make blocktests   build carchain in release and run the EEST blockchain tests of
#                     BlockchainTests-Prague/ through the chain's block processor: fails when Prague passes
#                     < $(BLOCKTESTS_MIN_RATE)% of its tests. Without the vectors it says SKIPPED, and fails
#                     under CARCHAIN_STRICT=1 (as CI runs it).
.PHONY: blocktests

BLOCKTESTS_MIN_RATE ?= 99

blocktests: carchain-build
	@if [ ! -d "$(ETHTESTS_DIR)/BlockchainTests-Prague" ]; then \
	  echo "SKIPPED: blockchain tests not found at $(ETHTESTS_DIR)/BlockchainTests-Prague (set ETHTESTS_DIR)"; \
	  if [ "$${CARCHAIN_STRICT:-}" = "1" ]; then echo "make blocktests: no vectors under CARCHAIN_STRICT=1" >&2; exit 1; fi; \
	else \
	  echo "==> EEST blockchain tests (Prague suite: Prague must pass $(BLOCKTESTS_MIN_RATE)%)"; \
	  .build/release/carchain evm blocktest "$(ETHTESTS_DIR)/BlockchainTests-Prague" --quiet \
	    --min-pass-rate $(BLOCKTESTS_MIN_RATE); \
	fi
