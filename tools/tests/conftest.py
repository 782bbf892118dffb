"""Shared fixtures for the contract tests: the harness modules on sys.path, the seed artifact and
README (test data outside the project, ../shared/seed-carchain), and a fresh chain with our contract."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TOOLS))

import carchain_replay as R  # noqa: E402
from carchain_abi import Contract  # noqa: E402

MANAGER = R.MANAGER_KEY
ALICE = b"\x02" * 32
BOB = b"\x03" * 32
CAROL = b"\x04" * 32
KEYS = (MANAGER, ALICE, BOB, CAROL)


def seed_dir() -> Path:
    return R.seed_artifact_path().parent


def missing(reason: str) -> None:
    """A missing prerequisite: a skip, or under CARCHAIN_STRICT=1 (CI) a failure with the reason."""
    if os.environ.get("CARCHAIN_STRICT") == "1":
        pytest.fail(f"missing prerequisite (CARCHAIN_STRICT=1): {reason}")
    pytest.skip(f"SKIPPED: {reason}")


@pytest.fixture(scope="session")
def seed_readme() -> str:
    path = seed_dir() / "README.md"
    if not path.exists():
        missing(f"seed-carchain not found at {seed_dir()} (set SEED_CARCHAIN_DIR)")
    return path.read_text()


@pytest.fixture(scope="session")
def seed_artifact() -> dict:
    path = R.seed_artifact_path()
    if not path.exists():
        missing(f"seed-carchain not found at {seed_dir()} (set SEED_CARCHAIN_DIR)")
    return R.load_artifact(path)


@pytest.fixture(scope="session")
def our_artifact() -> dict:
    return R.load_artifact(R.OUR_ARTIFACT)


def deploy_ours(fork: str = "Cancun") -> Contract:
    chain = R.LocalChain(fork, KEYS)
    art = R.load_artifact(R.OUR_ARTIFACT)
    dep = chain.deploy(MANAGER, R.hexbytes(art["bytecode"]))
    assert dep.ok, "deployment failed"
    return Contract(chain, dep.contract_address, art["abi"])


@pytest.fixture
def cc() -> Contract:
    """A fresh Cancun chain with CarChain deployed by MANAGER."""
    return deploy_ours()


def parse_seed_gas_table(readme: str) -> tuple[list[str], list[dict]]:
    """The seed README's replay table: fork names and, per step, {'step', 'ok', fork: gas}."""
    lines = [l for l in readme.splitlines() if l.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    forks = header[3:]
    rows = []
    for line in lines[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        row = {"step": int(cells[0]), "label": cells[1], "ok": cells[2] == "True"}
        row.update({f: int(v) for f, v in zip(forks, cells[3:])})
        rows.append(row)
    return forks, rows


def parse_seed_selectors(readme: str) -> dict[str, str]:
    """'name(types)' -> selector from the seed README's interface paragraph (parameter names, which
    the README gives for some functions, are dropped)."""
    out = {}
    for name, params, sel in re.findall(r"(\w+)\(([\w,\s]*)\)\s*([0-9a-f]{8})", readme):
        types = [p.split()[0] for p in params.split(",") if p.strip()]
        out[f"{name}({','.join(types)})"] = sel
    return out
