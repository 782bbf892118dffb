# web3.py's own integration suite (included by the main Makefile through `-include tools/*.mk`; SWIFT, VENV, PYTHON and
# the `venv` target come from there).
#   make test-web3    the module test classes web3.py ships (web3/_utils/module_testing: Web3, Eth, Net, the
#                     Go-Ethereum debug and txpool classes, PersistentConnectionProviderTest) over HTTP, WebSocket
#                     and IPC as web3.py runs them against geth, against one `carchain node` on web3's geth
#                     fixture chain (tools/web3_suite). Part of `make test`. CARCHAIN_STRICT=1 turns a
#                     missing prerequisite (the binary) into a failure instead of a skip.
.PHONY: test-web3

test: test-web3

test-web3: venv carchain-build
	@CARCHAIN_BIN=$(abspath .build/release/carchain) tools/watchdog.sh 20 $(PYTHON) -m pytest -q -p no:cacheprovider -rfEX tools/web3_suite
