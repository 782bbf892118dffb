# The EVM benchmark cases (included by the main Makefile through `-include tools/*.mk`).
#   make fetch-evm-benchmarks   fetch ipsilon/evm-benchmarks into .evm-benchmarks (or set EVM_BENCHMARKS_DIR)
#   make bench-evm              only the EVM part of `make bench`: carchain next to evmone (EVMONE_DIR, built as
#                               docs/EVM.md describes) and revm on evm-benchmarks' cases, BurntPix and the rest
#   make bench-evm-callgrind    instructions per call of carchain and evmone on every case (valgrind)
.PHONY: fetch-evm-benchmarks bench-evm bench-evm-callgrind

fetch-evm-benchmarks:
	@bash tools/fetch-evm-benchmarks.sh

bench-evm: deps venv
	@bash tools/bench.sh 'EVM.*'

bench-evm-callgrind: release
	@cases=$$(mktemp -d) && python3 tools/bench-evm-cases.py $$cases && bash tools/bench-callgrind.sh $$cases; rm -rf $$cases
