"""Test 1: the replay harness reproduces the seed README's gas table exactly, on every fork it lists.

This validates the harness (set-up, transaction format, one transaction per block) before it is used
to measure our contract."""

import pytest

import carchain_replay as R
from conftest import parse_seed_gas_table


def test_seed_table_lists_the_scenario(seed_readme):
    forks, rows = parse_seed_gas_table(seed_readme)
    assert forks == list(R.FORKS), "the harness knows every fork of the seed table, in its order"
    assert [r["step"] for r in rows] == list(range(len(R.SCENARIO) + 1))
    assert [r["label"] for r in rows] == R.step_labels()


@pytest.mark.parametrize("fork", list(R.FORKS))
def test_seed_reproduces_readme_table(seed_readme, fork):
    _forks, rows = parse_seed_gas_table(seed_readme)
    got = R.replay(R.seed_bytecode(), fork)
    diffs = [
        f"step {r['step']} ({r['label']}): README gas {r[fork]} ok {r['ok']}, replay gas {g.gas_used} ok {g.ok}"
        for r, g in zip(rows, got)
        if (r[fork], r["ok"]) != (g.gas_used, g.ok)
    ]
    assert not diffs, f"{fork}: " + "; ".join(diffs)
