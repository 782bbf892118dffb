# Auth service targets (included by the main Makefile through `-include tools/*.mk`; SWIFT, VENV, PYTHON and the
# `venv` target come from there).
#   make test-auth    the Firebase Admin SDK (firebase-admin) and JS-SDK-shaped REST calls against a real
#                     `carchain node` (tools/auth_tests); part of `make test`. CARCHAIN_STRICT=1 turns a missing
#                     prerequisite (binary, firebase-admin) into a failure instead of a skip.
#   make bench-auth   p50 sign-in latency over HTTP next to raw scrypt (Python's hashlib) in the same run.
.PHONY: test-auth bench-auth

test: test-auth
bench: bench-auth

test-auth: venv carchain-build
	@CARCHAIN_BIN=$(abspath .build/release/carchain) tools/watchdog.sh 20 $(PYTHON) -m pytest -q -p no:cacheprovider tools/auth_tests

bench-auth: venv
	$(SWIFT) build -c release --product carchain
	@CARCHAIN_BIN=$(abspath .build/release/carchain) $(PYTHON) tools/bench-auth.py
