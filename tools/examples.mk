# The outside packages (included by the main Makefile through `-include tools/*.mk`).
#   make example         build and run Examples/TokenApp, a package of its own that depends on this one by path and uses
#                        the EthereumContracts products and the ContractBindings plugin as an app would.
#   make example-tests   build and run Examples/ContractTests, contract tests as a Swift team writes them: the
#                        EthereumTesting product on snekmate's ERC-20 and ERC-4626 and a vault with a planted bug,
#                        compiled by the venv's vyper at test time (docs/TESTING.md).
#
# A second package normally rebuilds every dependency in its own .build (~15 minutes on 2 cores, more than CI can
# spend). Built with this package's scratch path instead, it reuses everything `make test` built: a path
# dependency's identity is its directory's name, the same as this package's as the root, so its modules (and the
# other packages' — swift-nio, AsyncHTTPClient, GRDB, …) compile with the same flags into the same files and are
# not rebuilt; only the example's own target, the plugin's output and the link remain (about a minute, measured:
# 55 s, 97 s when EthereumContracts had changed). The next `swift build` of this package re-resolves its own
# dependencies (seconds). EXAMPLE_SCRATCH overrides the directory.
EXAMPLE_SCRATCH ?= $(abspath .build)
.PHONY: example example-tests

example:
	@echo "==> Examples/TokenApp (scratch path $(EXAMPLE_SCRATCH))"
	@start=$$(date +%s); \
	$(SWIFT) build -c release --package-path Examples/TokenApp --scratch-path $(EXAMPLE_SCRATCH) --product TokenApp && \
	echo "==> Examples/TokenApp built in $$(( $$(date +%s) - start )) s"
	$(EXAMPLE_SCRATCH)/release/TokenApp

# The same scratch path as the app: only the test target, its bindings and the link are built (82 s measured after
# `make test`'s build, then 14 s of tests); a step of `make test`. CARCHAIN_VENV (exported by the Makefile) tells the
# tests where vyper and snekmate are.
example-tests: venv
	@echo "==> Examples/ContractTests (scratch path $(EXAMPLE_SCRATCH))"
	@start=$$(date +%s); \
	$(SWIFT) build -c release --build-tests --package-path Examples/ContractTests --scratch-path $(EXAMPLE_SCRATCH) && \
	echo "==> Examples/ContractTests built in $$(( $$(date +%s) - start )) s"
	$(SWIFT) test -c release --skip-build --package-path Examples/ContractTests --scratch-path $(EXAMPLE_SCRATCH)
