# carchain — the two commands a newcomer needs are `make demo` and `make test`; each installs what is
# missing first (Debian packages through apt, Python tools into a project-local venv).
SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT ?= swift
# Build: libsecp256k1, OpenSSL (Keccak reference), GMP, SQLite, pkg-config. Tests: the sqlite3 CLI (tampered-state
# test), rsvg-convert (fleet map rendering), Chromium and its WebDriver (the web app's browser tests, tools/app.mk);
# under CARCHAIN_STRICT=1 a missing one fails its test.
APT_PACKAGES := libsecp256k1-dev libssl-dev libgmp-dev libsqlite3-dev pkg-config librsvg2-bin sqlite3 chromium chromium-driver
VENV := .venv
PYTHON := $(VENV)/bin/python
SUDO := $(shell [ "$$(id -u)" -ne 0 ] && command -v sudo >/dev/null && echo sudo)
# Conformance vectors: ETHTESTS_DIR if set, else ../shared/ethtests, else what `make fetch-ethtests` fetched.
ETHTESTS_DIR ?= $(if $(wildcard ../shared/ethtests),$(abspath ../shared/ethtests),$(abspath .ethtests/ethtests))
export ETHTESTS_DIR
export CARCHAIN_VENV := $(abspath $(VENV))
# What a suite builds before it runs `.build/release/carchain`: the CLI alone when the suite runs on its own; under
# `make test`, the whole build with its tests (the one the test binary needs anyway). SwiftPM compiles part of the
# graph differently with --build-tests, so alternating the two rebuilt and relinked carchain at each switch; one
# kind of build for every phase builds it once.
CARCHAIN_BUILD ?= --product carchain
test: export CARCHAIN_BUILD = --build-tests

# Every suite that runs `.build/release/carchain` depends on carchain-build, so one `make` builds once however many
# suites it runs; `make test` passes CARCHAIN_BUILT=1 to the suites it runs as sub-makes, after its own build.
# Building once is also what keeps CI's time steady: a second `swift build` of an unchanged tree sometimes rebuilt
# the build plugins' host tools (carchain-bindgen, the benchmark plugin's generator) and, after them, every module
# that shares their dependencies (swift-system, swift-argument-parser: HummingbirdCore, Hummingbird,
# CarchainBenchmarks), 56-125 s each time, twice in the run of stop 47. The build runs under the watchdog too, so a CI
# log gives its duration next to every phase's: a clean `--build-tests` build took 1,042 s on one 2-core machine
# (profiled per compiler job: BoringSSL's C, twice — swift-crypto's and swift-nio-ssl's — 15% of the CPU time; the
# plugins' host tools, built twice, 7%; Chain 5%; GRDB 4%), and about twice that on a slower one.
.PHONY: carchain-build
carchain-build:
	$(if $(CARCHAIN_BUILT),@true,tools/watchdog.sh 90 $(SWIFT) build -c release $(CARCHAIN_BUILD))

.PHONY: help deps venv build release test bench bench-node soak demo clean fetch-ethtests

help:
	@echo "make demo    install what is missing, build, run the walkthrough on the embedded default"
	@echo "make test    install what is missing and run every test"
	@echo "make bench   run the benchmarks (release build), with reference figures"
	@echo "make build   debug build;  make release   release build"
	@echo "make docs    the API reference (DocC) of EthereumContracts, EthereumRPC, EthereumABI, EthereumCrypto into .build/docs"
	@echo "make fuzz    the fuzzers (FUZZ_SECONDS each, default 60) and the EVM differential against revm"

# System packages: install only those that are absent.
deps:
	@missing=""; for p in $(APT_PACKAGES); do \
	  dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "==> installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# Project-local Python venv, rebuilt when tools/requirements.txt changes.
venv: $(VENV)/.installed
$(VENV)/.installed: tools/requirements.txt
	@echo "==> creating Python venv in $(VENV) from tools/requirements.txt"
	@python3 -m venv $(VENV)
	@$(VENV)/bin/pip install -q --disable-pip-version-check -r tools/requirements.txt
	@touch $@

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Tests run in release: dependencies are built once (the EVM conformance run needs release speed),
# and the optimizer is exercised by the same tests that check correctness. The test targets' own code is compiled
# without optimization (Package.swift, end): that halves their compile time (409 s -> 185 s on 2 cores).
test: deps venv check-contracts carchain-build
	@$(MAKE) --no-print-directory docs-check
	@# Three runs of the same test binary. The CLI tests wait on subprocesses synchronously and the conformance
	@# suites are long CPU-bound loops: on a 2-core machine they hold both threads of Swift's cooperative pool,
	@# so async tests with wall-clock bounds (the *TimingTests suites) and the CLI tests run on their own.
	@# Each phase runs under a watchdog (tools/watchdog.sh): output line by line, its duration at the end, and a run
	@# still going at its limit (several times its usual length) prints every thread's stack and fails, instead of
	@# waiting out CI's limit in silence.
	tools/watchdog.sh 35 $(SWIFT) test -c release --skip-build --skip 'CarchainCLITests|TimingTests'
	tools/watchdog.sh 20 $(SWIFT) test -c release --skip-build --filter CarchainCLITests
	tools/watchdog.sh 15 $(SWIFT) test -c release --skip-build --filter TimingTests
	@tools/watchdog.sh 10 $(MAKE) --no-print-directory test-contracts
	@tools/watchdog.sh 30 $(MAKE) --no-print-directory statetests CARCHAIN_BUILT=1
	@tools/watchdog.sh 15 $(MAKE) --no-print-directory blocktests CARCHAIN_BUILT=1
	@tools/watchdog.sh 15 $(MAKE) --no-print-directory rpc-compat CARCHAIN_BUILT=1
	@# The fixed-seed EVM differential against revm (tools/fuzz.mk). The harnesses' smoke run is FuzzSmokeTests,
	@# in the test binary above: a libFuzzer build with AddressSanitizer would add a quarter of an hour (make fuzz).
	@tools/watchdog.sh 10 $(MAKE) --no-print-directory evm-diff CARCHAIN_BUILT=1
	@# Last: the outside packages share this build's scratch path (tools/examples.mk), which leaves it set up for
	@# the examples' dependency graph (Examples/ContractTests: 82 s to build, 14 s to run, measured).
	@tools/watchdog.sh 15 $(MAKE) --no-print-directory example
	@tools/watchdog.sh 15 $(MAKE) --no-print-directory example-tests

bench: deps venv
	@bash tools/bench.sh
	@bash tools/bench-node.sh

# The dev node next to the py-evm reference node: eth_call p50, automined rentCar tx/s, embedded `carchain rent`.
bench-node: deps venv
	@bash tools/bench-node.sh

# The long soak (issue 36): SOAK_TRANSACTIONS (default 1,000,000) automined transactions of mixed traffic on SQLite
# and then in memory, resident memory reported every 100,000 (docs/CHAIN.md, "Memory"); `make test` runs 20,000.
SOAK_TRANSACTIONS ?= 1000000
soak: deps
	$(SWIFT) build -c release --product ChainPerfProbe
	@dir=$$(mktemp -d); trap 'rm -rf "$$dir"' EXIT; \
	echo "==> SQLite ($$dir)"; .build/release/ChainPerfProbe soak $(SOAK_TRANSACTIONS) "$$dir/chain" 100000 && \
	echo "==> in memory (--ephemeral)" && .build/release/ChainPerfProbe soak $(SOAK_TRANSACTIONS) memory 100000

# Release, like `make test`, so the two commands share one build of the dependencies.
demo: deps
	$(SWIFT) build -c release --product carchain
	@bash tools/demo.sh

fetch-ethtests:
	@bash tools/fetch-ethtests.sh

clean:
	rm -rf .build .build-fuzz $(VENV)

-include tools/*.mk
