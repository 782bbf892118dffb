"""The committed artifact is what the pinned compiler produces from the committed source
(the check behind `make check-contracts`), and the source's packed revert reasons say what their
comments say."""

import hashlib
import re

import compile_contract as C
import carchain_replay as R


def test_committed_artifact_matches_fresh_compile(capsys):
    assert C.main(["--check"]) == 0, capsys.readouterr().out


def test_artifact_records_compiler_and_source(our_artifact):
    assert our_artifact["compiler"] == {"name": "vyper", "version": C.PINNED_VYPER, "optimize": C.OPTIMIZE}
    assert our_artifact["evmVersion"] == "cancun"
    assert our_artifact["sourceSha256"] == hashlib.sha256(C.SOURCE.read_bytes()).hexdigest()
    for k in ("abi", "bytecode", "deployedBytecode"):
        assert our_artifact[k]


def test_check_reports_a_stale_artifact(tmp_path, monkeypatch, capsys):
    stale = tmp_path / "CarChain.json"
    stale.write_text(R.OUR_ARTIFACT.read_text().replace('"evmVersion": "cancun"', '"evmVersion": "paris"'))
    monkeypatch.setattr(C, "ARTIFACT", stale)
    monkeypatch.setattr(C, "ROOT", tmp_path)
    monkeypatch.setattr(C, "SOURCE", tmp_path / "CarChain.vy")
    (tmp_path / "CarChain.vy").write_bytes(R.OUR_SOURCE.read_bytes())
    assert C.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "stale" in out and "evmVersion" in out and "make contracts" in out


def test_packed_reasons_decode_to_their_comments():
    pattern = re.compile(r'^(E_\w+): constant\(bytes32\) = 0x([0-9a-f]{64})  # "([^"]+)"$', re.M)
    found = pattern.findall(R.OUR_SOURCE.read_text())
    assert len(found) >= 18
    for name, hexword, text in found:
        word = bytes.fromhex(hexword)
        n = word[31]
        assert word[:n].decode() == text, name
        assert word[n:31] == b"\0" * (31 - n), f"{name}: bytes after the text must be zero"
