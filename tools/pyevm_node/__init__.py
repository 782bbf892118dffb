"""A small Ethereum JSON-RPC node for tests: eth-tester's PyEVMBackend behind an HTTP server.

Run it through tools/pyevm-node.py; see that file for the options. The package is split by concept:
``rpc_types`` (JSON-RPC errors, hex quantities and parameter parsing), ``chain`` (the chain, the
transaction pool and automine), ``serialize`` (blocks, transactions, receipts and logs as JSON),
``methods`` (one handler per JSON-RPC method) and ``server`` (HTTP, batching, command line).
"""
