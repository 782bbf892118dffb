# Fuzzing (included by the main Makefile through `-include tools/*.mk`; SWIFT, PYTHON and the deps/venv targets
# come from there). Fuzz/README.md explains the harnesses, corpora and regressions.
#   make fuzz          sanitizer build, then each libFuzzer harness for FUZZ_SECONDS (default 60) one after
#                      another, then the EVM differential against revm for FUZZ_SECONDS on a fresh seed
#   make fuzz-smoke    the same for FUZZ_SMOKE_SECONDS (default 5) per harness, and the fixed-seed EVM
#                      differential (EVM_DIFF_CASES programs, every fork)
#   make evm-diff      only the fixed-seed EVM differential: part of `make test`, with FuzzSmokeTests (seeds and
#                      fixed-seed mutants through every harness body, in the normal test binary)
#   make fuzz-corpus   regenerate Fuzz/corpus from the conformance vectors and the node's tests
#   FUZZ_HARNESSES="rlp node" limits the libFuzzer runs; CARCHAIN_FUZZ_AVOID_KNOWN=0 lets the node harness send
#   the open crash classes of Fuzz/regressions/KNOWN-OPEN too.
.PHONY: fuzz fuzz-build fuzz-smoke evm-diff fuzz-corpus

FUZZ_SECONDS ?= 60
FUZZ_SMOKE_SECONDS ?= 5
FUZZ_HARNESSES ?=
EVM_DIFF_CASES ?= 150

fuzz-build: deps
	@bash tools/fuzz.sh build

fuzz: fuzz-build venv
	@echo "==> libFuzzer harnesses, $(FUZZ_SECONDS) s each"
	@bash tools/fuzz.sh run $(FUZZ_SECONDS) $(FUZZ_HARNESSES)
	$(SWIFT) build -c release --product carchain
	@echo "==> EVM differential against revm, $(FUZZ_SECONDS) s"
	@$(PYTHON) tools/fuzz_evm.py --seconds $(FUZZ_SECONDS) --seed $$(date +%s) --report .build-fuzz/evm-differences.json

fuzz-smoke: fuzz-build venv
	@echo "==> libFuzzer harnesses, smoke run of $(FUZZ_SMOKE_SECONDS) s each"
	@FUZZ_WORK=.build-fuzz/smoke bash tools/fuzz.sh run $(FUZZ_SMOKE_SECONDS) $(FUZZ_HARNESSES)
	@$(MAKE) --no-print-directory evm-diff

evm-diff: venv carchain-build
	@echo "==> EVM differential against revm (seed 1, $(EVM_DIFF_CASES) programs per fork)"
	@$(PYTHON) tools/fuzz_evm.py --cases $(EVM_DIFF_CASES) --seed 1

fuzz-corpus: venv
	@$(PYTHON) tools/fuzz_corpus.py
