# Contract targets (included by the main Makefile through `-include tools/*.mk`; VENV, PYTHON and
# the `venv` target come from there).
#   make contracts        compile contracts/CarChain.vy into contracts/CarChain.json (commit both)
#   make check-contracts  fail if the committed artifact differs from what the pinned vyper produces
#   make test-contracts   pytest tools/tests: seed replay, gas table, rules, events, views, ABI
#   make carchain-binding regenerate Sources/CarChain/Generated/CarChainBinding.swift from contracts/CarChain.json
#                         (the generator every contract's binding comes from; EthereumContractsTests checks it is current)
#   make token-bindings   regenerate Sources/EthereumTokens/Generated (ERC-20, ERC-721, ERC-1155) from contracts/standards
.PHONY: contracts check-contracts test-contracts carchain-binding token-bindings

contracts: venv
	@$(PYTHON) tools/compile_contract.py

check-contracts: venv
	@$(PYTHON) tools/compile_contract.py --check

test-contracts: venv
	@$(PYTHON) -m pytest -q -p no:cacheprovider tools/tests

carchain-binding:
	$(SWIFT) build -c release --product carchain-bindgen
	.build/release/carchain-bindgen contracts/CarChain.json --name CarChainBinding --without-bytecode --out Sources/CarChain/Generated

token-bindings:
	$(SWIFT) build -c release --product carchain-bindgen
	for n in ERC20 ERC721 ERC1155; do .build/release/carchain-bindgen --name $$n --out Sources/EthereumTokens/Generated contracts/standards/$$n.abi.json || exit 1; done
