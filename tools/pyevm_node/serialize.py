"""Blocks, transactions, receipts and logs in the JSON-RPC wire form (camelCase keys, hex quantities).

eth-tester's serializers collect the fields (snake_case, Python values); this module renames them to
the names go-ethereum uses and encodes the values: integers as quantities, byte strings as data.
"""

from __future__ import annotations

from typing import Any

from eth_tester.backends.pyevm.serializers import (
    serialize_block,
    serialize_transaction,
    serialize_transaction_receipt,
)

from .rpc_types import data, quantity

# eth-tester's names whose JSON-RPC name is not the plain camelCase form.
RENAMED = {"coinbase": "miner", "data": "input", "sha3_uncles": "sha3Uncles"}
# Fields that are byte strings of any length but must stay data even when empty (never null).
DATA_FIELDS = {"input", "extraData", "logsBloom"}


def camel(name: str) -> str:
    if name in RENAMED:
        return RENAMED[name]
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def encode(value: Any) -> Any:
    """Integers to quantities, bytes to data, containers recursively."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return quantity(value)
    if isinstance(value, (bytes, bytearray)):
        return data(value)
    if isinstance(value, dict):
        return {camel(k): encode(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    return value


def access_list(entries: Any) -> list[dict[str, Any]]:
    out = []
    for entry in entries or ():
        address, keys = entry[0], entry[1]
        out.append({"address": data(address), "storageKeys": [data(k.to_bytes(32, "big")) if isinstance(k, int) else data(k) for k in keys]})
    return out


def transaction(block, tx, index: int, pending: bool) -> dict[str, Any]:
    fields = serialize_transaction(block, tx, index, pending)
    to = fields.get("to")
    out = encode({k: v for k, v in fields.items() if k not in ("access_list", "to")})
    out["to"] = data(to) if to else None
    if "access_list" in fields:
        out["accessList"] = access_list(fields["access_list"])
    if "chainId" not in out and fields.get("v", 0) >= 35:  # EIP-155 legacy: the chain id is in v
        out["chainId"] = quantity((fields["v"] - 35) // 2)
    return out


def block(chain, blk, full_transactions: bool) -> dict[str, Any]:
    fields = serialize_block(blk, full_transactions, False)
    fields.pop("transactions")
    out = encode(fields)
    out["extraData"] = data(blk.header.extra_data)  # eth-tester pads it to 32 bytes
    out["logsBloom"] = data(blk.header.bloom.to_bytes(256, "big"))
    if full_transactions:
        out["transactions"] = [transaction(blk, tx, i, False) for i, tx in enumerate(blk.transactions)]
    else:
        out["transactions"] = [data(tx.hash) for tx in blk.transactions]
    return out


def receipt(chain, blk, tx, index: int) -> dict[str, Any]:
    receipts = chain.receipts(blk)
    fields = serialize_transaction_receipt(blk, receipts, tx, index, False, chain.chain.get_vm())
    fields.pop("state_root", None)
    fields.pop("logs")
    to, created = fields.pop("to"), fields.pop("contract_address")
    first_log_index = sum(len(r.logs) for r in receipts[:index])
    out = encode(fields)
    out["to"] = data(to) if to else None
    out["contractAddress"] = data(created) if created else None
    out["logs"] = [log_entry(entry, blk, tx, index, first_log_index + i) for i, entry in enumerate(receipts[index].logs)]
    out["logsBloom"] = data(receipts[index].bloom.to_bytes(256, "big"))
    return out


def log_entry(entry, blk, tx, tx_index: int, log_index: int) -> dict[str, Any]:
    """One log of a mined transaction."""
    return {
        "address": data(entry.address),
        "topics": [data(t.to_bytes(32, "big")) for t in entry.topics],
        "data": data(entry.data),
        "blockNumber": quantity(blk.number),
        "blockHash": data(blk.hash),
        "transactionHash": data(tx.hash),
        "transactionIndex": quantity(tx_index),
        "logIndex": quantity(log_index),
        "removed": False,
    }


def logs_of_block(chain, blk) -> list[dict[str, Any]]:
    """Every log of a block, in order, with block-wide log indexes."""
    out = []
    for index, (tx, rcpt) in enumerate(zip(blk.transactions, chain.receipts(blk))):
        for entry in rcpt.logs:
            out.append(log_entry(entry, blk, tx, index, len(out)))
    return out
