# The dev node's long checks, outside `make test` (which runs the restart property test with 200 seeds).
# make restart-soak: the restart property test (Tests/DevNodeTests/RestartPropertyTests.swift) over
# RESTART_SEEDS seeds (default 2000): random dev-method sequences, then kill -9 or SIGTERM and a restart, each seed
# checking that the node starts and serves its last acknowledged block, state and chain id as they were.
RESTART_SEEDS ?= 2000

.PHONY: restart-soak
restart-soak: deps
	$(SWIFT) build -c release --build-tests
	CARCHAIN_RESTART_SEEDS=$(RESTART_SEEDS) $(SWIFT) test -c release --skip-build --filter RestartPropertyTests
