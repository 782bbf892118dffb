#!/usr/bin/env python3
"""Run transactions on py-evm and on revm (pyrevm) and report what the tracers' overlap with them needs: py-evm's
tree of message computations (each frame's kind, addresses, value, input, gas given, gas used, output, failure) and
revm's EIP-3155 steps (pc, opcode, gas before, gas cost, depth), for Tests/DevNodeTests/Tracers/TracerCrossCheckTests.

Input (stdin, JSON):
  {"fork": "Cancun",
   "key": "0x…",                                   # the sender's private key
   "accounts": {"0x…": {"balance": "0x…", "code": "0x…", "storage": {"0x1": "0x7"}}},
   "transactions": [{"to": "0x…", "data": "0x…", "gas": 1000000}]}   # in order, each on the state the last left;
                                                                        # without "to", a creation

Output (stdout, JSON):
  {"pyevm": [{"gasUsed": 123, "frames": FRAME}],    # the receipt's gas; FRAME = {"type", "from", "to", "value",
                                                   #  "gas", "gasUsed", "input", "output", "failed", "error",
                                                   #  "calls": [FRAME…]}
   "revm": [{"gasUsed": 123, "steps": [{"pc", "op", "gas", "gasCost", "depth"}]}]}

py-evm keeps no opcode per computation: a frame's kind is read from its message (a creation; a static message under a
non-static parent; one whose storage is not its code's, DELEGATECALL when it moves no value, else CALLCODE; else CALL).
CREATE and CREATE2 are both "CREATE". py-evm has no frame for SELFDESTRUCT. revm prints its trace on standard output,
which is captured around each call; pyrevm keeps each call's changes for the next (committing again would make the
next call find no code).
"""
import json
import os
import sys
import tempfile
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import carchain_replay as R  # noqa: E402  (sets up the ECC backend before eth imports)
from eth import constants  # noqa: E402
from eth.chains.base import MiningChain  # noqa: E402
from eth.consensus import ConsensusApplier, NoProofConsensus  # noqa: E402
from eth.db.atomic import AtomicDB  # noqa: E402
from eth_keys import keys  # noqa: E402

CHAIN_ID = 4
COINBASE = b"\x00" * 19 + b"\xcb"


def unhex(s):
    return bytes.fromhex(s[2:] if s.startswith("0x") else s)


def hx(b):
    return "0x" + bytes(b).hex()


def pyevm_chain(fork, accounts, sender):
    vm_config = ConsensusApplier(NoProofConsensus).amend_vm_configuration(((0, R.FORKS[fork]),))
    chain_class = MiningChain.configure(__name__="TraceXcheckChain", vm_configuration=vm_config, chain_id=CHAIN_ID)
    genesis_state = {sender: {"balance": 10**24, "nonce": 0, "code": b"", "storage": {}}}
    for address, account in accounts.items():
        genesis_state[unhex(address)] = {
            "balance": int(account.get("balance", "0x0"), 16),
            "nonce": 0,
            "code": unhex(account.get("code", "0x")),
            "storage": {int(k, 16): int(v, 16) for k, v in account.get("storage", {}).items()},
        }
    genesis = {
        "coinbase": COINBASE, "difficulty": 0, "gas_limit": 30_000_000, "timestamp": 1_700_000_000,
        "extra_data": b"", "nonce": b"\x00" * 8, "mix_hash": constants.ZERO_HASH32,
    }
    return chain_class.from_genesis(AtomicDB(), genesis, genesis_state)


def frame(computation, parent):
    msg = computation.msg
    if msg.is_create:
        kind = "CREATE"
    elif parent is None:
        kind = "CALL"
    elif msg.is_static and not parent.msg.is_static:
        kind = "STATICCALL"
    elif msg.storage_address != msg.code_address:
        kind = "DELEGATECALL" if not msg.should_transfer_value else "CALLCODE"
    else:
        kind = "CALL"
    failed = computation.is_error
    return {
        "type": kind,
        "from": hx(parent.msg.storage_address if parent is not None else msg.sender),
        # The code's address for CALLCODE and DELEGATECALL (the account called), as the call tracer names it.
        "to": hx(msg.code_address if kind in ("CALLCODE", "DELEGATECALL") else msg.storage_address),
        "value": hex(msg.value),
        "gas": msg.gas,
        "gasUsed": computation.get_gas_used(),
        "input": hx(msg.code if msg.is_create else msg.data),
        "output": hx(computation.output),
        "failed": failed,
        "error": type(computation.error).__name__ if failed else None,
        "calls": [frame(child, computation) for child in computation.children],
    }


def run_pyevm(request):
    key = keys.PrivateKey(unhex(request["key"]))
    sender = key.public_key.to_canonical_address()
    chain = pyevm_chain(request.get("fork", "Cancun"), request["accounts"], sender)
    results = []
    for i, tx in enumerate(request["transactions"]):
        vm = chain.get_vm()
        unsigned = vm.create_unsigned_transaction(
            nonce=vm.state.get_nonce(sender), gas_price=R.GAS_PRICE, gas=tx["gas"], to=unhex(tx.get("to", "0x")),
            value=int(tx.get("value", "0x0"), 16), data=unhex(tx.get("data", "0x")))
        signed = unsigned.as_signed_transaction(key, chain_id=CHAIN_ID)
        _block, receipt, computation = chain.apply_transaction(signed)
        chain.mine_block(timestamp=1_700_000_000 + 12 * (i + 1))
        top = frame(computation, None)
        top["gas"] = tx["gas"]
        top["gasUsed"] = receipt.gas_used
        results.append({"gasUsed": receipt.gas_used, "frames": top})
    return results


def run_revm(request):
    import pyrevm

    spec = request.get("fork", "Cancun").upper()
    sender = hx(keys.PrivateKey(unhex(request["key"])).public_key.to_canonical_address())
    evm = pyrevm.EVM(spec_id=spec, tracing=True, env=pyrevm.Env(block=pyrevm.BlockEnv(
        number=1, coinbase=hx(COINBASE), timestamp=1_700_000_012, gas_limit=30_000_000, excess_blob_gas=0)))
    evm.insert_account_info(sender, pyrevm.AccountInfo(balance=10**24, nonce=0))
    for address, account in request["accounts"].items():
        code = unhex(account.get("code", "0x"))
        evm.insert_account_info(address, pyrevm.AccountInfo(
            balance=int(account.get("balance", "0x0"), 16), nonce=0, code=code if code else None))
    for address, account in request["accounts"].items():
        for slot, value in account.get("storage", {}).items():
            # An inserted slot goes to revm's database only if the journal entry it makes is reverted (each alone).
            checkpoint = evm.snapshot()
            evm.insert_account_storage(address, int(slot, 16), int(value, 16))
            evm.revert(checkpoint)
    results = []
    for tx in request["transactions"]:
        handle, path = tempfile.mkstemp()
        saved = os.dup(1)
        sys.stdout.flush()
        os.dup2(handle, 1)
        try:
            try:
                value = int(tx.get("value", "0x0"), 16)
                if "to" in tx:
                    evm.message_call(sender, tx["to"], calldata=unhex(tx.get("data", "0x")), value=value, gas=tx["gas"])
                else:
                    evm.deploy(sender, unhex(tx["data"]), value=value, gas=tx["gas"])
            except Exception:  # pyrevm raises for a revert or halt; the trace and result are still there
                pass
        finally:
            sys.stdout.flush()
            os.dup2(saved, 1)
            os.close(saved)
            os.close(handle)
        steps = []
        with open(path) as f:
            for line in f:
                entry = json.loads(line)
                if "pc" not in entry:
                    continue
                steps.append({"pc": entry["pc"], "op": entry["opName"], "gas": int(entry["gas"], 16),
                              "gasCost": int(entry["gasCost"], 16), "depth": entry["depth"]})
        os.unlink(path)
        results.append({"gasUsed": evm.result.gas_used, "steps": steps})
    return results


def main():
    request = json.load(sys.stdin)
    answer = {"pyevm": run_pyevm(request), "revm": run_revm(request)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
