# Generated documentation. `make method-table` rewrites docs/NODE.md's method table from the node's method list
# (FuzzHarness.nodeMethods, checked against the dispatcher) and anvil's and Hardhat's names; the test that does
# it (NodeMethodTableTests) fails in `make test` while the table is out of date.
.PHONY: method-table
method-table:
	CARCHAIN_WRITE_METHOD_TABLE=1 $(SWIFT) test --filter NodeMethodTableTests
