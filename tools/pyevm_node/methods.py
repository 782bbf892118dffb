"""One handler per JSON-RPC method: parse the parameters, ask the chain, encode the result.

Each handler takes the chain and the request's ``params`` and returns a JSON value or raises RPCError.
Parameter errors are -32602; a block or state that does not exist is -32000 ("header not found"), as in
go-ethereum; lookups of unknown hashes answer null.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Any, Callable

from . import serialize
from .chain import MAX_LOG_BLOCK_RANGE, PRIORITY_FEE, CallRequest, DevChain, tx_type
from .rpc_types import (
    SERVER_ERROR,
    RPCError,
    data,
    invalid_params,
    params_list,
    parse_address,
    parse_bool,
    parse_data,
    parse_hash,
    parse_quantity,
    quantity,
)

NODE_VERSION = "0.1.0"


def _package_version(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "unknown"


# "dev" and the tool's name tell clients this is a development node (the carchain CLI allows its dev
# accounts on such nodes).
CLIENT_VERSION = (
    f"carchain-pyevm-node/v{NODE_VERSION}/dev/py-evm-{_package_version('py-evm')}"
    f"/eth-tester-{_package_version('eth-tester')}"
)

TAGS = ("latest", "pending", "safe", "finalized", "earliest")


def header_for(chain: DevChain, tag: Any, what: str = "block"):
    """The header a block parameter names: a tag, a number, or an EIP-1898 object."""
    if tag is None:
        tag = "latest"
    if isinstance(tag, dict):
        if "blockHash" in tag:
            header = chain.header_by_hash(parse_hash(tag["blockHash"], f"{what}.blockHash"))
            if header is None:
                raise RPCError(SERVER_ERROR, "header not found")
            return header
        if "blockNumber" in tag:
            tag = tag["blockNumber"]
        else:
            raise invalid_params(f"{what}: expected blockHash or blockNumber")
    if isinstance(tag, str) and tag in TAGS:
        return chain.header_by_number(0) if tag == "earliest" else chain.head()
    header = chain.header_by_number(parse_quantity(tag, what))
    if header is None:
        raise RPCError(SERVER_ERROR, "header not found")
    return header


def call_request(value: Any, what: str) -> CallRequest:
    if not isinstance(value, dict):
        raise invalid_params(f"{what}: expected a transaction call object")
    payload = None
    for key in ("input", "data"):
        if value.get(key) is not None:
            given = parse_data(value[key], f"{what}.{key}")
            if payload is not None and given != payload:
                raise invalid_params(f'{what}: both "data" and "input" are set and differ')
            payload = given
    sender = value.get("from")
    to = value.get("to")
    gas = value.get("gas")
    return CallRequest(
        sender=parse_address(sender, f"{what}.from") if sender is not None else b"\x00" * 20,
        to=parse_address(to, f"{what}.to") if to is not None else b"",
        gas=parse_quantity(gas, f"{what}.gas") if gas is not None else None,
        value=parse_quantity(value.get("value") or "0x0", f"{what}.value"),
        data=payload or b"",
    )


# Handlers


def web3_client_version(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "web3_clientVersion")
    return CLIENT_VERSION


def net_version(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "net_version")
    return str(chain.chain_id)


def net_listening(chain: DevChain, params: Any) -> Any:
    return True


def eth_chain_id(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "eth_chainId")
    return quantity(chain.chain_id)


def eth_syncing(chain: DevChain, params: Any) -> Any:
    return False


def eth_accounts(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "eth_accounts")
    return [data(a) for a in chain.accounts]


def eth_block_number(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "eth_blockNumber")
    return quantity(chain.head().block_number)


def eth_get_balance(chain: DevChain, params: Any) -> Any:
    address, tag = params_list(params, 1, 2, "eth_getBalance")
    state = chain.state_at(header_for(chain, tag))
    return quantity(state.get_balance(parse_address(address, "address")))


def eth_get_transaction_count(chain: DevChain, params: Any) -> Any:
    address, tag = params_list(params, 1, 2, "eth_getTransactionCount")
    # "pending" equals "latest": executable transactions are mined at once; only transactions waiting
    # for a nonce gap stay in the pool, and those do not count (as in go-ethereum).
    state = chain.state_at(header_for(chain, tag))
    return quantity(state.get_nonce(parse_address(address, "address")))


def eth_get_code(chain: DevChain, params: Any) -> Any:
    address, tag = params_list(params, 1, 2, "eth_getCode")
    state = chain.state_at(header_for(chain, tag))
    return data(state.get_code(parse_address(address, "address")))


def eth_get_storage_at(chain: DevChain, params: Any) -> Any:
    address, slot, tag = params_list(params, 2, 3, "eth_getStorageAt")
    if isinstance(slot, str) and len(slot) == 66:
        position = int.from_bytes(parse_hash(slot, "position"), "big")
    else:
        position = parse_quantity(slot, "position")
    state = chain.state_at(header_for(chain, tag))
    return data(state.get_storage(parse_address(address, "address"), position).to_bytes(32, "big"))


def eth_gas_price(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "eth_gasPrice")
    return quantity(chain.next_base_fee() + PRIORITY_FEE)


def eth_max_priority_fee_per_gas(chain: DevChain, params: Any) -> Any:
    params_list(params, 0, 0, "eth_maxPriorityFeePerGas")
    return quantity(PRIORITY_FEE)


def _effective_tip(tx, base_fee: int) -> int:
    if tx_type(tx) >= 2:
        return min(tx.max_priority_fee_per_gas, tx.max_fee_per_gas - base_fee)
    return tx.gas_price - base_fee


def _rewards(chain: DevChain, blk, percentiles: list[float]) -> list[str]:
    """The tips at the given percentiles of the block's gas, as eth_feeHistory defines them."""
    base_fee = getattr(blk.header, "base_fee_per_gas", 0) or 0
    receipts = chain.receipts(blk)
    used, previous = [], 0
    for rcpt in receipts:
        used.append(rcpt.gas_used - previous)
        previous = rcpt.gas_used
    tips = sorted(zip((_effective_tip(tx, base_fee) for tx in blk.transactions), used))
    if not tips:
        return [quantity(0)] * len(percentiles)
    total = sum(u for _, u in tips)
    out, index, cumulative = [], 0, tips[0][1]
    for p in percentiles:
        threshold = total * p / 100
        while cumulative < threshold and index < len(tips) - 1:
            index += 1
            cumulative += tips[index][1]
        out.append(quantity(max(tips[index][0], 0)))
    return out


def eth_fee_history(chain: DevChain, params: Any) -> Any:
    count_param, newest_param, percentiles = params_list(params, 2, 3, "eth_feeHistory")
    count = count_param if isinstance(count_param, int) and not isinstance(count_param, bool) else parse_quantity(count_param, "blockCount")
    if not 1 <= count <= 1024:
        raise invalid_params("blockCount must be between 1 and 1024")
    newest = header_for(chain, newest_param, "newestBlock").block_number
    if percentiles is not None:
        if not isinstance(percentiles, list) or not all(isinstance(p, (int, float)) and not isinstance(p, bool) for p in percentiles):
            raise invalid_params("rewardPercentiles: expected a list of numbers")
        if any(not 0 <= p <= 100 for p in percentiles) or any(a > b for a, b in zip(percentiles, percentiles[1:])):
            raise invalid_params("rewardPercentiles must be increasing and within 0..100")
    oldest = max(0, newest - count + 1)
    base_fees, ratios, rewards = [], [], []
    for number in range(oldest, newest + 1):
        header = chain.header_by_number(number)
        base_fees.append(quantity(getattr(header, "base_fee_per_gas", 0) or 0))
        ratios.append(header.gas_used / header.gas_limit if header.gas_limit else 0.0)
        if percentiles:
            rewards.append(_rewards(chain, chain.block(header), percentiles))
    following = chain.header_by_number(newest + 1)
    next_fee = getattr(following, "base_fee_per_gas", 0) if following is not None else chain.next_base_fee()
    base_fees.append(quantity(next_fee or 0))
    result: dict[str, Any] = {"oldestBlock": quantity(oldest), "baseFeePerGas": base_fees, "gasUsedRatio": ratios}
    if percentiles:
        result["reward"] = rewards
    return result


def eth_estimate_gas(chain: DevChain, params: Any) -> Any:
    request, tag = params_list(params, 1, 2, "eth_estimateGas")
    return quantity(chain.estimate_gas(call_request(request, "transaction"), header_for(chain, tag)))


def eth_call(chain: DevChain, params: Any) -> Any:
    request, tag = params_list(params, 1, 2, "eth_call")
    return data(chain.call(call_request(request, "transaction"), header_for(chain, tag)))


def eth_send_raw_transaction(chain: DevChain, params: Any) -> Any:
    (raw,) = params_list(params, 1, 1, "eth_sendRawTransaction")
    payload = parse_data(raw, "transaction")
    if not payload:
        raise invalid_params("transaction: empty")
    return data(chain.send_raw_transaction(payload))


def eth_get_transaction_by_hash(chain: DevChain, params: Any) -> Any:
    (tx_hash,) = params_list(params, 1, 1, "eth_getTransactionByHash")
    wanted = parse_hash(tx_hash, "transaction hash")
    found = chain.locate(wanted)
    if found is not None:
        blk, tx, index = found
        return serialize.transaction(blk, tx, index, False)
    waiting = chain.queued(wanted)
    if waiting is not None:
        return serialize.transaction(chain.pending_block(), waiting, 0, True)
    return None


def eth_get_transaction_receipt(chain: DevChain, params: Any) -> Any:
    (tx_hash,) = params_list(params, 1, 1, "eth_getTransactionReceipt")
    found = chain.locate(parse_hash(tx_hash, "transaction hash"))
    if found is None:
        return None
    blk, tx, index = found
    return serialize.receipt(chain, blk, tx, index)


def eth_get_block_by_number(chain: DevChain, params: Any) -> Any:
    tag, full = params_list(params, 1, 2, "eth_getBlockByNumber")
    full = parse_bool(full, "full transactions") if full is not None else False
    if isinstance(tag, str) and tag in TAGS:
        header = header_for(chain, tag)
    else:
        header = chain.header_by_number(parse_quantity(tag, "block number"))
        if header is None:
            return None
    return serialize.block(chain, chain.block(header), full)


def eth_get_block_by_hash(chain: DevChain, params: Any) -> Any:
    block_hash, full = params_list(params, 1, 2, "eth_getBlockByHash")
    full = parse_bool(full, "full transactions") if full is not None else False
    header = chain.header_by_hash(parse_hash(block_hash, "block hash"))
    if header is None:
        return None
    return serialize.block(chain, chain.block(header), full)


def _topic_filter(topics: Any) -> list[set[str] | None]:
    if topics is None:
        return []
    if not isinstance(topics, list) or len(topics) > 4:
        raise invalid_params("topics: expected a list of at most 4 entries")
    out: list[set[str] | None] = []
    for i, entry in enumerate(topics):
        if entry is None:
            out.append(None)
        elif isinstance(entry, list):
            out.append({data(parse_hash(t, f"topics[{i}]")) for t in entry} if entry else None)
        else:
            out.append({data(parse_hash(entry, f"topics[{i}]"))})
    return out


def eth_get_logs(chain: DevChain, params: Any) -> Any:
    (criteria,) = params_list(params, 1, 1, "eth_getLogs")
    if not isinstance(criteria, dict):
        raise invalid_params("filter: expected an object")
    address = criteria.get("address")
    if address is None:
        addresses = None
    elif isinstance(address, list):
        addresses = {data(parse_address(a, "address")) for a in address} or None
    else:
        addresses = {data(parse_address(address, "address"))}
    topics = _topic_filter(criteria.get("topics"))
    if criteria.get("blockHash") is not None:
        if criteria.get("fromBlock") is not None or criteria.get("toBlock") is not None:
            raise invalid_params("filter: blockHash excludes fromBlock and toBlock")
        header = chain.header_by_hash(parse_hash(criteria["blockHash"], "blockHash"))
        if header is None:
            raise RPCError(SERVER_ERROR, "unknown block")
        numbers = range(header.block_number, header.block_number + 1)
    else:
        first = header_for(chain, criteria.get("fromBlock"), "fromBlock").block_number
        last = header_for(chain, criteria.get("toBlock"), "toBlock").block_number
        if first > last:
            raise invalid_params("filter: fromBlock is after toBlock")
        if last - first + 1 > MAX_LOG_BLOCK_RANGE:
            raise RPCError(SERVER_ERROR, f"query exceeds the limit of {MAX_LOG_BLOCK_RANGE} blocks")
        numbers = range(first, last + 1)
    out = []
    for number in numbers:
        header = chain.header_by_number(number)
        if header is None or header.gas_used == 0:
            continue
        for entry in serialize.logs_of_block(chain, chain.block(header)):
            if addresses is not None and entry["address"] not in addresses:
                continue
            if any(
                wanted is not None and (i >= len(entry["topics"]) or entry["topics"][i] not in wanted)
                for i, wanted in enumerate(topics)
            ):
                continue
            out.append(entry)
    return out


METHODS: dict[str, Callable[[DevChain, Any], Any]] = {
    "web3_clientVersion": web3_client_version,
    "net_version": net_version,
    "net_listening": net_listening,
    "eth_chainId": eth_chain_id,
    "eth_syncing": eth_syncing,
    "eth_accounts": eth_accounts,
    "eth_blockNumber": eth_block_number,
    "eth_getBalance": eth_get_balance,
    "eth_getTransactionCount": eth_get_transaction_count,
    "eth_getCode": eth_get_code,
    "eth_getStorageAt": eth_get_storage_at,
    "eth_gasPrice": eth_gas_price,
    "eth_maxPriorityFeePerGas": eth_max_priority_fee_per_gas,
    "eth_feeHistory": eth_fee_history,
    "eth_estimateGas": eth_estimate_gas,
    "eth_call": eth_call,
    "eth_sendRawTransaction": eth_send_raw_transaction,
    "eth_getTransactionByHash": eth_get_transaction_by_hash,
    "eth_getTransactionReceipt": eth_get_transaction_receipt,
    "eth_getBlockByNumber": eth_get_block_by_number,
    "eth_getBlockByHash": eth_get_block_by_hash,
    "eth_getLogs": eth_get_logs,
}
