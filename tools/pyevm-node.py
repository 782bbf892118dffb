#!/usr/bin/env python3
"""A small Ethereum JSON-RPC node for tests, backed by eth-tester's PyEVMBackend (py-evm).

    .venv/bin/python tools/pyevm-node.py [--port 0] [--chain-id 4] [--hang] [--exit-with-parent] [--lifetime S]

It listens on 127.0.0.1 (HTTP, JSON-RPC 2.0, batches), runs chain id 4 with automine (one block per
transaction), and funds the first 10 accounts of the mnemonic "test test test test test test test test
test test test junk" (m/44'/60'/0'/0/i) with 10,000 ETH each. Raw transactions must be replay-protected
(EIP-155) and signed for the node's chain id. The first line on stdout is the bound port (useful with
--port 0); nothing else is printed while it runs. --chain-id N runs (and reports) another chain id;
--hang accepts requests and never answers, for timeout tests. SIGTERM or SIGINT stops it.

Methods: web3_clientVersion, net_version, net_listening, eth_chainId, eth_syncing, eth_accounts,
eth_blockNumber, eth_getBalance, eth_getTransactionCount, eth_getCode, eth_getStorageAt, eth_gasPrice,
eth_maxPriorityFeePerGas, eth_feeHistory, eth_estimateGas, eth_call, eth_sendRawTransaction,
eth_getTransactionByHash, eth_getTransactionReceipt, eth_getBlockByNumber, eth_getBlockByHash, eth_getLogs.
"""

import os
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent
sys.path.insert(0, str(TOOLS))

# Without coincurve, eth-keys recovers senders in pure Python (~15 ms each) and py-evm recovers a
# transaction's sender several times; the memoizing backend of tools/carchain_ecc.py computes each once.
# Must be chosen before any eth module is imported.
from eth_keys.backends.coincurve import is_coincurve_available  # noqa: E402

if not is_coincurve_available():
    os.environ.setdefault("ECC_BACKEND_CLASS", "carchain_ecc.CachingNativeECCBackend")

from pyevm_node.server import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
