# The outside package (included by the main Makefile through `-include tools/*.mk`).
#   make example   build and run Examples/TokenApp, a package of its own that depends on this one by path and uses
#                  the EthereumContracts products and the ContractBindings plugin as an app would.
#
# A second package normally rebuilds every dependency in its own .build (~15 minutes on 2 cores, more than CI can
# spend). Built with this package's scratch path instead, it reuses everything `make test` built: a path
# dependency's identity is its directory's name, the same as this package's as the root, so its modules (and the
# other packages' — swift-nio, AsyncHTTPClient, GRDB, …) compile with the same flags into the same files and are
# not rebuilt; only the example's own target, the plugin's output and the link remain (about a minute, measured:
# 55 s, 97 s when EthereumContracts had changed). The next `swift build` of this package re-resolves its own
# dependencies (seconds). EXAMPLE_SCRATCH overrides the directory.
EXAMPLE_SCRATCH ?= $(abspath .build)
.PHONY: example

example:
	@echo "==> Examples/TokenApp (scratch path $(EXAMPLE_SCRATCH))"
	@start=$$(date +%s); \
	$(SWIFT) build -c release --package-path Examples/TokenApp --scratch-path $(EXAMPLE_SCRATCH) --product TokenApp && \
	echo "==> Examples/TokenApp built in $$(( $$(date +%s) - start )) s"
	$(EXAMPLE_SCRATCH)/release/TokenApp
