#!/usr/bin/env python3
"""Compile contracts/CarChain.vy with the pinned vyper and write (or check) contracts/CarChain.json.

    python tools/compile_contract.py            # regenerate contracts/CarChain.json
    python tools/compile_contract.py --check    # exit 1 with a readable message if the committed
                                                # artifact differs from a fresh compile

The artifact holds the ABI, the creation and runtime bytecode, the method identifiers, the compiler
name/version/settings, the EVM version and the SHA-256 of the source it was compiled from.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "contracts" / "CarChain.vy"
ARTIFACT = ROOT / "contracts" / "CarChain.json"

PINNED_VYPER = "0.4.3"
EVM_VERSION = "cancun"
OPTIMIZE = "gas"
EXPERIMENTAL_CODEGEN = False


def compile_source(
    source: str, evm_version: str = EVM_VERSION, optimize: str = OPTIMIZE, experimental: bool = EXPERIMENTAL_CODEGEN
) -> dict:
    """Compile Vyper source with the pinned settings; returns abi, bytecode, deployedBytecode, methodIdentifiers."""
    import vyper
    from vyper.compiler.settings import OptimizationLevel, Settings

    if vyper.__version__ != PINNED_VYPER:
        raise SystemExit(
            f"compile_contract: vyper {vyper.__version__} is installed but {PINNED_VYPER} is pinned "
            "(tools/requirements.txt); run `make venv`"
        )
    settings = Settings(
        evm_version=evm_version,
        optimize=OptimizationLevel.from_string(optimize),
        experimental_codegen=experimental,
    )
    out = vyper.compile_code(
        source,
        contract_path="contracts/CarChain.vy",
        settings=settings,
        output_formats=["abi", "bytecode", "bytecode_runtime", "method_identifiers"],
    )
    return {
        "abi": out["abi"],
        "bytecode": out["bytecode"],
        "deployedBytecode": out["bytecode_runtime"],
        # vyper lists the fallback as "__default__()"; it has no selector, so it is left out.
        "methodIdentifiers": {
            k: v[2:] if v.startswith("0x") else v
            for k, v in out["method_identifiers"].items()
            if k != "__default__()"
        },
    }


def build_artifact() -> dict:
    source = SOURCE.read_bytes()
    out = compile_source(source.decode("utf-8"))
    return {
        "contractName": "CarChain",
        "sourcePath": "contracts/CarChain.vy",
        "sourceSha256": hashlib.sha256(source).hexdigest(),
        "compiler": {"name": "vyper", "version": PINNED_VYPER, "optimize": OPTIMIZE},
        "evmVersion": EVM_VERSION,
        "abi": out["abi"],
        "bytecode": out["bytecode"],
        "deployedBytecode": out["deployedBytecode"],
        "methodIdentifiers": out["methodIdentifiers"],
    }


def render(artifact: dict) -> str:
    return json.dumps(artifact, indent=2) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="compile contracts/CarChain.vy into contracts/CarChain.json")
    p.add_argument("--check", action="store_true", help="compare the committed artifact with a fresh compile")
    a = p.parse_args(argv)
    fresh = render(build_artifact())
    if not a.check:
        ARTIFACT.write_text(fresh)
        print(f"wrote {ARTIFACT.relative_to(ROOT)}")
        return 0
    if not ARTIFACT.exists():
        print(f"check-contracts: {ARTIFACT.relative_to(ROOT)} is missing; run `make contracts` and commit it")
        return 1
    committed = ARTIFACT.read_text()
    if committed == fresh:
        print(f"check-contracts: {ARTIFACT.relative_to(ROOT)} matches vyper {PINNED_VYPER} ({EVM_VERSION})")
        return 0
    old, new = json.loads(committed), json.loads(fresh)
    changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    print(
        f"check-contracts: {ARTIFACT.relative_to(ROOT)} is stale — it differs from what vyper {PINNED_VYPER} "
        f"produces from {SOURCE.relative_to(ROOT)} in: {', '.join(changed) or 'formatting'}.\n"
        "Run `make contracts` and commit contracts/CarChain.json."
    )
    diff = list(difflib.unified_diff(committed.splitlines(), fresh.splitlines(), "committed", "fresh", lineterm="", n=0))
    for line in diff[:12]:
        print("  " + (line if len(line) < 160 else line[:157] + "..."))
    return 1


if __name__ == "__main__":
    sys.exit(main())
