# Generated documentation. `make method-table` rewrites docs/NODE.md's method table from the node's method list
# (FuzzHarness.nodeMethods, checked against the dispatcher) and anvil's and Hardhat's names; the test that does
# it (NodeMethodTableTests) fails in `make test` while the table is out of date.
.PHONY: method-table
method-table:
	CARCHAIN_WRITE_METHOD_TABLE=1 $(SWIFT) test --filter NodeMethodTableTests

# The API reference: a DocC catalog in each of the library's main modules (Sources/<Module>/<Module>.docc: a landing
# page, topic groups, articles), converted by docc into one archive each in $(DOCS_DIR) with warnings as errors —
# an unresolved ``Symbol`` link, a topic naming nothing, a bad parameter list fail the build. `make docs` builds the
# modules (release, as `make test` does; EthereumContracts depends on the other three) and then runs `docs-check`,
# which `make test` runs right after its own build. The symbol graphs are extracted from the release build's modules
# with the flags their compile used (read from .build/release.yaml), so no second, debug build of the dependencies
# is made, as `swift package generate-documentation` would (it works too: README, "Use it from Swift"). Measured on
# 2 cores shared with other builds (load 6–7): docs-check 13–40 s wall, about 5 s of CPU, for the four modules;
# `swift package -c release generate-documentation` with the same four targets 104 s wall (34 s CPU), plus 51 s the
# first time to build the plugin's snippet-extract tool. Doc comments are read through the modules' source info, so
# after editing one, rebuild the module (`make docs` does) before checking.
# Browse an archive with `docc preview Sources/EthereumContracts/EthereumContracts.docc
# --additional-symbol-graph-dir .build/docs/symbol-graphs/EthereumContracts`, or serve $(DOCS_DIR)/<Module>.doccarchive
# from any static web server (its documentation/ and index.html are there).
DOCS_MODULES := EthereumContracts EthereumRPC EthereumABI EthereumCrypto
DOCS_DIR := .build/docs
DOCC ?= docc
.PHONY: docs docs-check

docs: deps
	$(SWIFT) build -c release --target EthereumContracts
	@$(MAKE) --no-print-directory docs-check

docs-check:
	@start=$$(date +%s); failed=""; \
	for module in $(DOCS_MODULES); do \
	  graphs=$(DOCS_DIR)/symbol-graphs/$$module; rm -rf "$$graphs"; mkdir -p "$$graphs"; \
	  flags=$$(python3 -c 'import json, re, sys; \
	    text = open(".build/release.yaml").read(); \
	    at = re.search(r"\"C\.%s-[^\"]*-release\.module\":" % re.escape(sys.argv[1]), text); \
	    args = json.loads(re.search(r"^    args: (\[.*\])$$", text[at.end():], re.M).group(1)) if at else sys.exit(1); \
	    keep = [a for i, a in enumerate(args[1:], 1) if a in ("-I", "-Xcc", "-target") or args[i - 1] in ("-I", "-Xcc", "-target")]; \
	    print("\n".join(keep))' $$module) \
	    || { echo "docs: $$module is not in .build/release.yaml; build it first (make docs)" >&2; exit 1; }; \
	  mapfile -t flags <<< "$$flags"; \
	  $(SWIFT) symbolgraph-extract -module-name $$module "$${flags[@]}" -module-cache-path .build/release/ModuleCache \
	    -minimum-access-level public -emit-extension-block-symbols -output-dir "$$graphs" || { failed="$$failed $$module"; continue; }; \
	  $(DOCC) convert Sources/$$module/$$module.docc --additional-symbol-graph-dir "$$graphs" \
	    --output-path $(DOCS_DIR)/$$module.doccarchive --fallback-display-name $$module \
	    --fallback-bundle-identifier org.carchain.$$module --warnings-as-errors >$(DOCS_DIR)/$$module.log 2>&1 \
	    || { cat $(DOCS_DIR)/$$module.log >&2; failed="$$failed $$module"; }; \
	done; \
	if [ -n "$$failed" ]; then \
	  echo "docs: DocC reported warnings (errors here) for:$$failed; see above, fix the doc comments or the catalogs" >&2; exit 1; \
	fi; \
	echo "==> docs: $(DOCS_MODULES) built without warnings in $$(( $$(date +%s) - start )) s ($(DOCS_DIR)/<Module>.doccarchive)"
