# The outside package (included by the main Makefile through `-include tools/*.mk`).
#   make example   build and run Examples/TokenApp, a package of its own that depends on this one by path and uses
#                  the EthereumContracts products and the ContractBindings plugin as an app would.
#
# A second package normally rebuilds every dependency in its own .build (~15 minutes on 2 cores). Building it with
# this package's scratch path instead reuses what `make test` built: the other packages' modules (swift-nio,
# AsyncHTTPClient, GRDB, …) are compiled with the same flags and are not rebuilt; only this package's modules are
# (as a dependency they get another -package-name). EXAMPLE_SCRATCH overrides the directory.
EXAMPLE_SCRATCH ?= $(abspath .build)
.PHONY: example

example:
	@echo "==> Examples/TokenApp (scratch path $(EXAMPLE_SCRATCH))"
	@start=$$(date +%s); \
	$(SWIFT) build -c release --package-path Examples/TokenApp --scratch-path $(EXAMPLE_SCRATCH) --product TokenApp; \
	echo "==> Examples/TokenApp built in $$(( $$(date +%s) - start )) s"
	$(EXAMPLE_SCRATCH)/release/TokenApp
