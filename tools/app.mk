# The web app's targets (included by the main Makefile through `-include tools/*.mk`; SWIFT, VENV, PYTHON and the
# `venv` target come from there).
#   make test-app    the CarChain web app in headless Chromium (Debian's chromium and chromium-driver, driven by
#                    selenium from the venv) against a real `carchain node`: tools/app_tests. Part of `make test`.
#                    Screenshots of each screen go to .build/app-screenshots/. CARCHAIN_STRICT=1 turns a missing
#                    prerequisite (binary, Chromium, chromedriver, selenium) into a failure instead of a skip.
#   make bench-app   the page's first load and map redraws measured in the page (tools/bench-app.py), with
#                    references from the same run. `make bench` runs it through tools/bench.sh.
.PHONY: test-app bench-app

test: test-app

test-app: deps venv carchain-build
	@CARCHAIN_BIN=$(abspath .build/release/carchain) tools/watchdog.sh 20 $(PYTHON) -m pytest -q -p no:cacheprovider tools/app_tests

bench-app: deps venv
	$(SWIFT) build -c release --product carchain
	@CARCHAIN_BIN=$(abspath .build/release/carchain) $(PYTHON) tools/bench-app.py
