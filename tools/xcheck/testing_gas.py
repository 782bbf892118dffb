#!/usr/bin/env python3
"""Run a contract's transactions on py-evm and report each receipt's gas, the independent truth that
Tests/EthereumTestingTests checks EthereumTesting's gas records and snapshot against.

The chain is tools/carchain_replay.py's LocalChain (py-evm; one transaction per block).

One JSON document on stdin, one on stdout.

Input:
  {"fork": "Cancun",
   "keys": ["0x0101…01", …],                     # private keys; funded at genesis
   "steps": [{"sender": 0,                         # index into keys
              "to": null | "deployed",             # null: a deployment; "deployed": the contract the first step made
              "data": "0x…"}]}                     # creation code with constructor arguments, or calldata

Output:
  {"steps": [{"ok": true, "gasUsed": 45000}]}
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import carchain_replay as R  # noqa: E402  (sets up the ECC backend before eth imports)

# A gas limit every step fits in; gasUsed does not depend on it.
GAS = 16_000_000


def main() -> int:
    request = json.load(sys.stdin)
    keys = [bytes.fromhex(k.removeprefix("0x")) for k in request["keys"]]
    chain = R.LocalChain(request.get("fork", "Cancun"), funded_keys=keys)
    deployed: bytes | None = None
    out = []
    for step in request["steps"]:
        data = bytes.fromhex(step["data"].removeprefix("0x"))
        key = keys[step["sender"]]
        if step.get("to") is None:
            result = chain.deploy(key, data, gas=GAS)
            if deployed is None and result.ok:
                deployed = result.contract_address
        else:
            if deployed is None:
                raise SystemExit("a call step before any deployment")
            result = chain.transact(key, deployed, data, gas=GAS)
        out.append({"ok": result.ok, "gasUsed": result.gas_used})
    json.dump({"steps": out}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
