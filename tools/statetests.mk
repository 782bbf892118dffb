# Ethereum state-test conformance (included by the main Makefile through `-include tools/*.mk`;
# SWIFT and ETHTESTS_DIR come from there).
#   make statetests   build carchain in release and run the GeneralStateTests of both suites:
#                     fails when a required fork passes < $(STATETESTS_MIN_RATE)% of its post entries,
#                     or when any failing case is not listed in docs/EVM-known-failures.txt.
.PHONY: statetests

STATETESTS_MIN_RATE ?= 99.5
STATETESTS_KNOWN := docs/EVM-known-failures.txt
# Cancun's pass rate is printed but not gated by default: its 161 entries that call the KZG point-evaluation
# precompile (0x0a, EIP-4844) are skipped — not implemented (no BLS12-381 library here) — which leaves
# Cancun at 98.9% passed with 0 failures. A failure in any fork still fails the run. Once 0x0a exists, set
# STATETESTS_CANCUN_GATE to `--rate-fork Cancun` (make statetests STATETESTS_CANCUN_GATE=--rate-fork\ Cancun).
STATETESTS_CANCUN_GATE ?=
STATETESTS_FLAGS := --quiet --min-pass-rate $(STATETESTS_MIN_RATE) --known-failures $(STATETESTS_KNOWN)

statetests:
	$(SWIFT) build -c release --product carchain
	@if [ ! -d "$(ETHTESTS_DIR)/Cancun/GeneralStateTests" ]; then \
	  echo "SKIPPED: GeneralStateTests not found at $(ETHTESTS_DIR) (set ETHTESTS_DIR or run make fetch-ethtests)"; \
	else \
	  echo "==> GeneralStateTests (Cancun suite: Istanbul … Shanghai must pass $(STATETESTS_MIN_RATE)%; Cancun rate reported; no fork may fail)"; \
	  .build/release/carchain evm statetest "$(ETHTESTS_DIR)/Cancun/GeneralStateTests" $(STATETESTS_FLAGS) \
	    --rate-fork Istanbul --rate-fork Berlin --rate-fork London --rate-fork Paris --rate-fork Shanghai \
	    $(STATETESTS_CANCUN_GATE) && \
	  echo "==> GeneralStateTests (Constantinople suite: Byzantium and ConstantinopleFix must pass $(STATETESTS_MIN_RATE)%)" && \
	  .build/release/carchain evm statetest "$(ETHTESTS_DIR)/Constantinople/GeneralStateTests" $(STATETESTS_FLAGS) \
	    --rate-fork Byzantium --rate-fork ConstantinopleFix; \
	fi
