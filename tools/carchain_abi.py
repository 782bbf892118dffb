"""ABI-level access to a deployed contract on a carchain_replay.LocalChain: typed calls, transactions
with decoded revert reasons, and decoded event logs.  Used by the pytest files in tools/tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from eth_abi import decode as abi_decode
from eth_abi import encode as abi_encode
from eth_utils import function_signature_to_4byte_selector, keccak

from carchain_replay import LocalChain, Log, Result


def _canonical_type(param: dict) -> str:
    t = param["type"]
    if t.startswith("tuple"):
        inner = ",".join(_canonical_type(c) for c in param["components"])
        return f"({inner}){t[len('tuple'):]}"
    return t


def signature(entry: dict) -> str:
    """name(type1,type2,...) of an ABI function or event entry."""
    return f"{entry['name']}({','.join(_canonical_type(p) for p in entry.get('inputs', []))})"


def selectors(abi: Sequence[dict]) -> dict[str, str]:
    """Function signature -> 4-byte selector (hex, no 0x) for every function of an ABI."""
    return {
        signature(e): function_signature_to_4byte_selector(signature(e)).hex()
        for e in abi
        if e.get("type") == "function"
    }


@dataclass
class Event:
    """A decoded log: event name and its fields by name."""

    name: str
    args: dict[str, Any]


@dataclass
class Tx:
    """A mined transaction: receipt gas, success, revert reason (Error(string)) and decoded events."""

    result: Result
    events: list[Event] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result.ok

    @property
    def gas_used(self) -> int:
        return self.result.gas_used

    @property
    def reason(self) -> str | None:
        return self.result.revert_reason


class Contract:
    """A deployed contract seen through its ABI."""

    def __init__(self, chain: LocalChain, address: bytes, abi: Sequence[dict]):
        self.chain = chain
        self.address = address
        self.abi = list(abi)
        self._functions = {e["name"]: e for e in self.abi if e.get("type") == "function"}
        self._events = {keccak(text=signature(e)): e for e in self.abi if e.get("type") == "event"}

    def encode(self, name: str, *args: Any) -> bytes:
        fn = self._functions[name]
        types = [_canonical_type(p) for p in fn["inputs"]]
        return function_signature_to_4byte_selector(signature(fn)) + abi_encode(types, list(args))

    def transact(self, key: bytes, name: str, *args: Any, gas: int = 210_000) -> Tx:
        result = self.chain.transact(key, self.address, self.encode(name, *args), gas=gas)
        return Tx(result, self.decode_logs(result.logs) if result.ok else [])

    def transact_raw(self, key: bytes, data: bytes, gas: int = 210_000, value: int = 0) -> Tx:
        result = self.chain.transact(key, self.address, data, gas=gas, value=value)
        return Tx(result, self.decode_logs(result.logs) if result.ok else [])

    def call(self, name: str, *args: Any, sender: bytes | None = None) -> Any:
        """eth_call; returns the single output, or a tuple when the function has several."""
        fn = self._functions[name]
        r = self.chain.call(self.address, self.encode(name, *args), sender=sender)
        if not r.ok:
            raise AssertionError(f"call {name}{args} reverted: {r.revert_reason!r} ({r.output.hex()})")
        out = abi_decode([_canonical_type(p) for p in fn["outputs"]], r.output)
        return out[0] if len(out) == 1 else tuple(out)

    def decode_logs(self, logs: Sequence[Log]) -> list[Event]:
        events = []
        for log in logs:
            if log.address != self.address:
                raise AssertionError("log from another address")
            if not log.topics or log.topics[0] not in self._events:
                raise AssertionError(f"log with unknown topic0: {[t.hex() for t in log.topics]}")
            entry = self._events[log.topics[0]]
            inputs = entry["inputs"]
            if any(p.get("indexed") for p in inputs):
                raise AssertionError("indexed fields are not expected in CarChain events")
            values = abi_decode([_canonical_type(p) for p in inputs], log.data)
            # Strict: the data must be exactly the canonical encoding of the decoded values.
            if abi_encode([_canonical_type(p) for p in inputs], list(values)) != log.data:
                raise AssertionError(f"{entry['name']}: log data is not canonically encoded")
            events.append(Event(entry["name"], {p["name"]: v for p, v in zip(inputs, values)}))
        return events
