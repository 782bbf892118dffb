#!/usr/bin/env python3
"""Run CarChain operations on py-evm and report what the bytecode did, for the Swift tests that compare
the contract with CarChainModel (Tests/CarChainTests/ModelAgreementTests.swift) and drive the Swift
binding over a real EVM (Tests/CarChainTests/PyEVMBackend.swift).

The chain is tools/carchain_replay.py's LocalChain (py-evm, Cancun by default).

BATCH MODE (default): one JSON document on stdin, one on stdout.

Input:
  {"fork": "Cancun",                          # optional
   "artifact": "contracts/CarChain.json",     # optional; relative to the package root, or absolute
   "keys": ["0x0101…01", "0x0202…02", …],     # private keys; keys[0] deploys the contract (the manager)
   "mined": false,                            # optional; see below
   "views": true,                             # optional; false skips every view (results carry no "views")
   "sequences": [
     {"views": {"userIds": ["u1", …], "plates": ["C1", …]},   # read at the end of the sequence
      "ops": [{"sender": 1,                   # index into keys
               "function": "rentCar",         # registerNewUser | registerNewCar | addCredit | rentCar | returnCar
               "args": {"plate": "C1", "userId": "u1"},   # userId, plate, credit (decimal string)
               "value": "0"}]}]}              # optional wei sent with the call (the contract refuses any)

Output:
  {"accounts": ["0x…", …],                    # address of each key, lowercase hex
   "sequences": [
     {"contract": "0x…",
      "deployGasUsed": 1111249,               # mined mode: the deployment receipt's gasUsed
      "results": [                            # one per op
        {"ok": true, "gasUsed": 40962,        # the receipt's gas in mined mode, null otherwise
         "revertData": "0x…",                 # the revert payload ("0x" when empty or on success)
         "output": "0x…",                     # the return data, or the revert payload
         "reason": "car not rented" | null,   # Error(string) decoded by eth-abi, null otherwise
         "logs": [{"address": "0x…", "topics": ["0x…"], "data": "0x…"}],
         "events": [{"event": "CarRented", "args": {"plate": "C1", "userId": "u1"}}],   # decoded by eth-abi
         "views": {…}}],                      # the reads the op can have changed, after it (see VIEWS)
      "finalViews": {…}}]}                    # every view for the sequence's userIds and plates

VIEWS: {"registeredUsers": "2", "registeredCars": "1", "rentedCars": "0", "availableCars": "1",
        "getUserCredit": [["<id>", "5"], …], "getUserCar": [["<id>", "C1"], …], "isUserRegistered": [["<id>", true], …],
        "getUserAccount": [["<id>", "0x…"], …], "getCar": [["<plate>", [true, "<renter id>"]], …]}
(Pairs rather than objects: ids that differ only by Unicode normalization are distinct for the contract,
and some JSON readers would merge them as object keys.)
After each op "views" holds the counters, and after a successful op also the per-id/per-plate views of
its own userId and plate (the only ones an op can change); "finalViews" covers the sequence's "views"
lists (the Swift test passes every id and plate the sequence used). Numbers are decimal strings. An id
longer than 256 bytes or a plate longer than 64 makes the view revert (the decoder's bound); such
entries are omitted. For the seed artifact only the views it has are read.

Each sequence deploys a fresh contract. By default everything runs as transactions through py-evm's state
executor inside one costless state for the whole batch (spoofed senders, gas price 0: the same EVM, the
same checks and effects, ~10x faster than signing and mining a block per transaction); views are message
calls whose effects are reverted. "mined": true sends every operation
as a signed EIP-155 transaction in its own block via LocalChain.transact, as the gas replay does.

SERVE MODE (--serve): JSON lines for a ContractBackend. First line {"keys": [...], "fork": "Cancun"} →
{"accounts": [...]}; then per line one request:
  {"method": "send", "from": "0x…", "to": "0x…" | null, "data": "0x…", "value": "0"}
    → {"ok", "gasUsed", "gasPrice", "txHash", "blockNumber", "output", "logs", "contractAddress"}
  {"method": "call", "from": "0x…" | null, "to": "0x…", "data": "0x…"} → {"ok", "output"}
Transactions are signed with the sender's key and mined one per block.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import carchain_replay as R  # noqa: E402  (sets up the ECC backend before eth imports)
from eth.vm.message import Message  # noqa: E402
from eth.vm.spoof import SpoofTransaction  # noqa: E402
from eth_abi import decode as abi_decode  # noqa: E402
from eth_abi import encode as abi_encode  # noqa: E402
from eth_keys import keys as eth_keys  # noqa: E402
from eth_utils import function_signature_to_4byte_selector, keccak  # noqa: E402

ARG_PLATE, ARG_USER_ID = 64, 256  # the contract's decoder bounds (bytes)
GAS = R.CALL_GAS

FUNCTIONS = {
    "registerNewUser": ("registerNewUser(string)", ["userId"]),
    "registerNewCar": ("registerNewCar(string)", ["plate"]),
    "addCredit": ("addCredit(string,uint256)", ["userId", "credit"]),
    "rentCar": ("rentCar(string,string)", ["plate", "userId"]),
    "returnCar": ("returnCar(string,string)", ["plate", "userId"]),
}


@functools.lru_cache(maxsize=None)
def address_of(key: bytes) -> bytes:
    # Deriving an address costs an elliptic-curve multiplication (and a backend probe) each time.
    return R.address_of(key)


@functools.lru_cache(maxsize=None)
def selector(signature: str) -> bytes:
    return function_signature_to_4byte_selector(signature)


def hx(b: bytes) -> str:
    return "0x" + b.hex()


def unhex(s: str) -> bytes:
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


def canonical(p: dict) -> str:
    if p["type"].startswith("tuple"):
        return "(" + ",".join(canonical(c) for c in p["components"]) + ")" + p["type"][5:]
    return p["type"]


def op_calldata(op: dict) -> bytes:
    signature, names = FUNCTIONS[op["function"]]
    types = R.arg_types(signature)
    args = []
    for name, t in zip(names, types):
        v = op["args"][name]
        args.append(int(v) if t == "uint256" else v)
    return selector(signature) + abi_encode(types, args)


class FastState:
    """One LocalChain for a whole batch; each sequence gets a fresh costless py-evm state on top of it,
    deploys its own contract there and runs its operations as spoofed transactions (no signing, no
    mining)."""

    def __init__(self, fork: str, keys: list[bytes]):
        self.chain = R.LocalChain(fork, keys)
        self.vm = self.chain.chain.get_vm()
        self.fresh()

    def fresh(self) -> None:
        # Entered and never left (leaving reverts everything, which py-evm refuses for long journals);
        # a new one per sequence keeps the journal short.
        self._costless = self.vm.in_costless_state()
        self.state = self._costless.__enter__()
        self.context = None

    def execute(self, sender: bytes, to: bytes, data: bytes, value: int, gas: int = GAS):
        unsigned = self.vm.create_unsigned_transaction(
            nonce=self.state.get_nonce(sender), gas_price=0, gas=gas, to=to, value=value, data=data
        )
        tx = SpoofTransaction(unsigned, from_=sender)
        if self.context is None:
            self.context = self.state.get_transaction_context(tx)
        return self.state.costless_execute_transaction(tx)


class Runner:
    """A freshly deployed CarChain, run fast (in a shared FastState) or mined (its own LocalChain, one
    signed transaction per block)."""

    def __init__(self, fork: str, keys: list[bytes], artifact: dict, fast: FastState | None):
        self.keys = keys
        self.abi = artifact["abi"]
        self.functions = {e["name"]: e for e in self.abi if e.get("type") == "function"}
        self.events = {
            keccak(text=e["name"] + "(" + ",".join(canonical(p) for p in e["inputs"]) + ")"): e
            for e in self.abi
            if e.get("type") == "event"
        }
        self.fast = fast
        self.mined = fast is None
        if fast is None:
            self.chain = R.LocalChain(fork, keys)
            dep = self.chain.deploy(keys[0], R.hexbytes(artifact["bytecode"]))
            if not dep.ok:
                raise SystemExit("deployment failed")
            self.address = dep.contract_address
            self.deploy_gas_used = dep.gas_used
        else:
            fast.fresh()
            computation = fast.execute(address_of(keys[0]), b"", R.hexbytes(artifact["bytecode"]), 0, R.DEPLOY_GAS)
            if computation.is_error:
                raise SystemExit("deployment failed")
            self.address = computation.msg.storage_address
            self.state = fast.state
            self.code = self.state.get_code(self.address)

    def transact(self, key: bytes, data: bytes, value: int) -> dict:
        if self.mined:
            r = self.chain.transact(key, self.address, data, value=value)
            logs = [(l.address, l.topics, l.data) for l in r.logs]
            return self._outcome(r.ok, r.gas_used, r.output, logs)
        computation = self.fast.execute(address_of(key), self.address, data, value)
        logs = [(a, [t.to_bytes(32, "big") for t in ts], d) for a, ts, d in computation.get_log_entries()]
        # No receipt here: the costless state never commits between transactions, so EIP-2200's original
        # values (and with them SSTORE gas and refunds) differ from a mined block's; gas is only exact in mined mode.
        return self._outcome(not computation.is_error, None, bytes(computation.output), logs)

    def _outcome(self, ok: bool, gas_used: int | None, output: bytes, logs: list) -> dict:
        events = []
        for address, topics, data in logs:
            entry = self.events.get(bytes(topics[0])) if topics else None
            if entry is None:
                events.append({"event": None, "args": {}})
                continue
            values = abi_decode([canonical(p) for p in entry["inputs"]], bytes(data))
            events.append({"event": entry["name"], "args": {p["name"]: jsonable(v) for p, v in zip(entry["inputs"], values)}})
        return {
            "ok": ok,
            "gasUsed": gas_used,
            "revertData": hx(b"" if ok else output),
            "output": hx(output),
            "reason": None if ok else R.decode_revert_reason(output),
            "logs": [{"address": hx(bytes(a)), "topics": [hx(bytes(t)) for t in ts], "data": hx(bytes(d))} for a, ts, d in logs],
            "events": events,
        }

    def view(self, name: str, *args):
        """The decoded output of a view, or None if it reverts."""
        fn = self.functions[name]
        types = [canonical(p) for p in fn["inputs"]]
        data = selector(name + "(" + ",".join(types) + ")") + abi_encode(types, list(args))
        if self.mined:
            r = self.chain.call(self.address, data)
            ok, output = r.ok, r.output
        else:
            message = Message(gas=GAS, to=self.address, sender=address_of(self.keys[0]), value=0, data=data, code=self.code)
            snapshot = self.state.snapshot()
            computation = self.state.computation_class.apply_message(self.state, message, self.fast.context)
            self.state.revert(snapshot)
            ok, output = not computation.is_error, bytes(computation.output)
        if not ok:
            return None
        out = abi_decode([canonical(p) for p in fn["outputs"]], output)
        return [jsonable(v) for v in out] if len(out) > 1 else jsonable(out[0])

    def views(self, user_ids: list[str], plates: list[str]) -> dict:
        out = {}
        for name in ("registeredUsers", "registeredCars", "rentedCars", "availableCars"):
            out[name] = self.view(name)
        per_id = [n for n in ("getUserCredit", "getUserCar", "isUserRegistered", "getUserAccount") if n in self.functions]
        for name in per_id:
            out[name] = [[uid, self.view(name, uid)] for uid in user_ids if len(uid.encode()) <= ARG_USER_ID]
        if "getCar" in self.functions:
            out["getCar"] = [[p, self.view("getCar", p)] for p in plates if len(p.encode()) <= ARG_PLATE]
        return out


def jsonable(v):
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return str(v)
    if isinstance(v, bytes):
        return hx(v)
    if isinstance(v, str) and v.startswith("0x") and len(v) == 42:
        return v.lower()
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def load_artifact(path: str | None) -> dict:
    p = Path(path) if path else R.OUR_ARTIFACT
    if not p.is_absolute():
        p = R.ROOT / p
    return R.load_artifact(p)


def batch(request: dict) -> dict:
    keys = [unhex(k) for k in request["keys"]]
    artifact = load_artifact(request.get("artifact"))
    fork = request.get("fork", "Cancun")
    mined = bool(request.get("mined", False))
    with_views = bool(request.get("views", True))
    out = {"accounts": [hx(address_of(k)) for k in keys], "sequences": []}
    fast = None if mined else FastState(fork, keys)
    for sequence in request["sequences"]:
        runner = Runner(fork, keys, artifact, fast)
        results = []
        for op in sequence["ops"]:
            r = runner.transact(keys[op["sender"]], op_calldata(op), int(op.get("value", "0")))
            args = op["args"]
            if with_views and r["ok"]:
                r["views"] = runner.views([args["userId"]] if "userId" in args else [], [args["plate"]] if "plate" in args else [])
            elif with_views:
                r["views"] = runner.views([], [])
            results.append(r)
        views = sequence.get("views", {})
        final = runner.views(views.get("userIds", []), views.get("plates", [])) if with_views else {}
        entry = {"contract": hx(runner.address), "results": results, "finalViews": final}
        if mined:
            entry["deployGasUsed"] = runner.deploy_gas_used
        out["sequences"].append(entry)
    return out


def serve() -> int:
    first = json.loads(sys.stdin.readline())
    keys = [unhex(k) for k in first["keys"]]
    chain = R.LocalChain(first.get("fork", "Cancun"), keys)
    by_address = {address_of(k): k for k in keys}
    print(json.dumps({"accounts": [hx(a) for a in by_address]}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            resp = handle(chain, keys, by_address, req)
        except Exception as e:  # reported to the Swift side as a backend error
            resp = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(resp), flush=True)
    return 0


def handle(chain, keys, by_address, req: dict) -> dict:
    sender = unhex(req["from"]) if req.get("from") else address_of(keys[0])
    if req["method"] == "call":
        r = chain.call(unhex(req["to"]), unhex(req["data"]), sender=sender)
        return {"ok": r.ok, "output": hx(r.output)}
    if req["method"] != "send":
        return {"error": f"unknown method {req['method']}"}
    key = by_address.get(sender)
    if key is None:
        return {"error": f"no key for {hx(sender)}"}
    to = unhex(req["to"]) if req.get("to") else b""
    vm = chain.chain.get_vm()
    unsigned = vm.create_unsigned_transaction(
        nonce=vm.state.get_nonce(sender), gas_price=R.GAS_PRICE,
        gas=R.DEPLOY_GAS if to == b"" else GAS, to=to, value=int(req.get("value", "0")), data=unhex(req["data"]),
    )
    tx = unsigned.as_signed_transaction(eth_keys.PrivateKey(key), chain_id=chain.chain_id)
    block, receipt, computation = chain.chain.apply_transaction(tx)
    chain._timestamp += 12
    chain.chain.mine_block(timestamp=chain._timestamp)
    created = computation.msg.storage_address if to == b"" and not computation.is_error else None
    return {
        "ok": not computation.is_error,
        "gasUsed": receipt.gas_used,
        "gasPrice": str(R.GAS_PRICE),
        "txHash": hx(tx.hash),
        "blockNumber": block.header.block_number,
        "output": hx(bytes(computation.output)),
        "logs": [
            {"address": hx(bytes(l.address)), "topics": [hx(t.to_bytes(32, "big")) for t in l.topics], "data": hx(bytes(l.data))}
            for l in receipt.logs
        ],
        "contractAddress": hx(created) if created else None,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--serve", action="store_true", help="JSON-lines backend mode")
    a = p.parse_args()
    if a.serve:
        return serve()
    json.dump(batch(json.load(sys.stdin)), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
