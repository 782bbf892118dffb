"""Runs py-evm's precompiled contracts on inputs chosen by the Swift tests (cross-implementation check).

stdin:  {"cases": [{"fork": "byzantium"|"istanbul"|"berlin"|"cancun", "address": 1..9,
                    "input": "0x…", "gas": int}]}
stdout: {"results": [{"status": "success"|"failure", "gas": int, "output": "0x…"}]}

A precompile that raises a VMError (invalid input) or needs more gas than given is a failure, as in the EVM.
"""
import json
import sys

from eth.exceptions import VMError
from eth.vm.forks.berlin.computation import BerlinComputation
from eth.vm.forks.byzantium.computation import ByzantiumComputation
from eth.vm.forks.cancun.computation import CancunComputation
from eth.vm.forks.istanbul.computation import IstanbulComputation

FORKS = {
    "byzantium": ByzantiumComputation,
    "istanbul": IstanbulComputation,
    "berlin": BerlinComputation,
    "cancun": CancunComputation,
}


class OutOfGas(Exception):
    pass


class Message:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.data_as_bytes = data


class Computation:
    """The part of py-evm's ComputationAPI that its precompiles use."""

    def __init__(self, data: bytes, gas: int) -> None:
        self.msg = Message(data)
        self.gas = gas
        self.gas_used = 0
        self.output = b""

    def consume_gas(self, amount: int, reason: str) -> None:
        self.gas_used += amount
        if self.gas_used > self.gas:
            raise OutOfGas(reason)


def run(case: dict) -> dict:
    precompiles = FORKS[case["fork"]]._precompiles
    address = int(case["address"]).to_bytes(20, "big")
    data = bytes.fromhex(case["input"][2:])
    computation = Computation(data, int(case["gas"]))
    try:
        precompiles[address](computation)
    except (VMError, OutOfGas):
        return {"status": "failure", "gas": 0, "output": "0x"}
    return {"status": "success", "gas": computation.gas_used, "output": "0x" + bytes(computation.output).hex()}


def main() -> None:
    request = json.load(sys.stdin)
    json.dump({"results": [run(case) for case in request["cases"]]}, sys.stdout)


if __name__ == "__main__":
    main()
