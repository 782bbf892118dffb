"""The storage layout and the per-call storage traffic contracts/README.md describes: a rent changes
exactly three words and a return two (the minimum the lower-bound arguments use), and the words hold
what the layout table says."""

import collections

import pytest
from eth_utils import keccak

import carchain_replay as R
from conftest import MANAGER, deploy_ours
from eth.vm.forks.cancun.computation import CancunComputation

MASK64 = 2**64 - 1


@pytest.fixture
def opcode_counter(monkeypatch):
    """Counts the opcodes executed by Cancun computations, by mnemonic."""
    counts = collections.Counter()
    wrapped = {}
    for code, fn in CancunComputation.opcodes.items():
        name = getattr(fn, "mnemonic", None) or getattr(getattr(fn, "__wrapped__", None), "mnemonic", "?")

        def op(computation, _fn=fn, _name=name):
            counts[_name] += 1
            return _fn(computation=computation)

        wrapped[code] = op
    monkeypatch.setattr(CancunComputation, "opcodes", wrapped)
    return counts


def slot_of(key: bytes, slot: int) -> int:
    """Storage slot of HashMap entry `key` (32 bytes) of the map declared at `slot`; vyper hashes the
    slot first: keccak256(slot ++ key) (solidity's order is the reverse)."""
    return int.from_bytes(keccak(slot.to_bytes(32, "big") + key), "big")


def test_rent_and_return_touch_only_the_minimum_words(opcode_counter):
    cc = deploy_ours()
    for step, (sig, args, label) in enumerate(R.SCENARIO, start=1):
        opcode_counter.clear()
        tx = cc.transact(MANAGER, sig.split("(")[0], *args)
        name = sig.split("(")[0]
        if name in R.OUR_WORDS and tx.ok:
            words = R.OUR_WORDS[name]
            assert opcode_counter["SSTORE"] == words, f"step {step} {label}: {opcode_counter['SSTORE']} SSTOREs"
            assert opcode_counter["SLOAD"] == words, f"step {step} {label}: {opcode_counter['SLOAD']} SLOADs"
            assert opcode_counter["LOG1"] == 1 and sum(opcode_counter[f"LOG{i}"] for i in (0, 2, 3, 4)) == 0


def test_words_hold_what_the_layout_says():
    cc = deploy_ours()
    for sig, args, _label in R.SCENARIO[:12]:  # up to step 12: uid1 rents 6789BBB, uid2 rents 2353HYP
        cc.transact(MANAGER, sig.split("(")[0], *args)
    state = cc.chain.chain.get_vm().state

    def word(slot):
        return state.get_storage(cc.address, slot)

    counters = word(0)
    assert counters >> 255 == 1
    assert (counters & MASK64, (counters >> 64) & MASK64, (counters >> 128) & MASK64) == (2, 3, 2)
    for index, plate, renter in ((1, "6789BBB", R.UID1), (2, "2353HYP", R.UID2), (3, "5432TPK", None)):
        car = word(slot_of(keccak(text=plate), 1))
        tag = int.from_bytes(keccak(text=renter), "big") >> 64 if renter else 0
        assert car == tag << 64 | index, plate
        packed = word(slot_of(index.to_bytes(32, "big"), 3))
        assert packed & 255 == len(plate) and packed.to_bytes(32, "big")[: len(plate)] == plate.encode()
    for uid, credit, last in ((R.UID1, 115, 1), (R.UID2, 0, 2)):
        assert word(slot_of(keccak(text=uid), 2)) == credit << 65 | last << 1 | 1, uid
    assert word(slot_of(keccak(text="nobody"), 2)) == 0
