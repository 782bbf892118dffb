"""The rpc-compat runner's own logic (tools/rpc_compat.py): .io parsing, hive's comparison (full match,
numbers by value, error messages dropped only where both sides hold an error) and the speconly shape check.
Hand-made cases, each of which a wrong implementation fails."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rpc_compat as R  # noqa: E402


def test_parse_io_header_speconly_and_pairs():
    text = (
        "// a test\n// speconly: shape only\n\n"
        '>> {"jsonrpc":"2.0","id":1,"method":"a"}\n<< {"jsonrpc":"2.0","id":1,"result":"0x1"}\n'
        "// a comment after the first request is ignored, speconly: too\n"
        '>> {"jsonrpc":"2.0","id":2,"method":"b"}\n<< {"jsonrpc":"2.0","id":2,"result":[]}\n'
    )
    test = R.parse_io(text, "m/t.io")
    assert test.speconly
    assert [json.loads(e.request)["method"] for e in test.exchanges] == ["a", "b"]
    assert test.exchanges[1].expected == {"jsonrpc": "2.0", "id": 2, "result": []}
    assert test.exchanges[1].line == 7


def test_parse_io_speconly_only_in_header():
    text = '>> {"id":1}\n// speconly: too late\n<< {"id":1,"result":1}\n'
    assert not R.parse_io(text).speconly


@pytest.mark.parametrize(
    "text, message",
    [
        ('>> {"id":1}\n', "has no answer"),
        ('<< {"id":1}\n', "without a request"),
        ('>> {"id":1}\n>> {"id":2}\n<< {}\n', "without its answer"),
        ('>> {"id":1}\nhello\n<< {}\n', "invalid line"),
        (">> {not json}\n<< {}\n", "not JSON"),
        ("// only a comment\n", "no request"),
    ],
)
def test_parse_io_rejects_bad_files(text, message):
    with pytest.raises(R.IoFormatError, match=message):
        R.parse_io(text)


def test_full_match_and_numbers_by_value():
    assert R.compare_response({"id": 1, "result": {"a": [1, "0x2"]}}, {"result": {"a": [1.0, "0x2"]}, "id": 1}, False) is None
    diff = R.compare_response({"id": 1, "result": {"a": [1, "0x2"]}}, {"id": 1, "result": {"a": [1, "0x02"]}}, False)
    assert diff and diff.path == "result.a[1]" and diff.expected == "0x2" and diff.actual == "0x02"


def test_booleans_are_not_numbers_and_null_is_a_value():
    assert R.compare_response({"result": 1}, {"result": True}, False).path == "result"
    assert R.compare_response({"result": None}, {"result": "0x0"}, False).path == "result"


def test_missing_and_extra_members():
    diff = R.compare_response({"result": {"a": 1, "b": 2}}, {"result": {"a": 1}}, False)
    assert diff.path == "result.b" and diff.actual is R.MISSING
    diff = R.compare_response({"result": {"a": 1}}, {"result": {"a": 1, "c": 3}}, False)
    assert diff.path == "result.c" and diff.expected is R.MISSING
    assert "(missing)" in diff.describe()


def test_array_lengths():
    diff = R.compare_response({"result": [1, 2]}, {"result": [1, 2, 3]}, False)
    assert diff.path == "result[2]" and "2 elements expected, 3 received" in diff.describe()


def test_keys_with_odd_characters_are_quoted_in_the_path():
    diff = R.first_difference({"0xAb": {"0": 1}}, {"0xAb": {"0": 2}})
    assert diff.path == '["0xAb"]["0"]'


def test_error_message_dropped_only_when_both_sides_are_errors():
    expected = {"id": 1, "error": {"code": -32602, "message": "empty request"}}
    assert R.compare_response(expected, {"id": 1, "error": {"code": -32602, "message": "other words"}}, False) is None
    diff = R.compare_response(expected, {"id": 1, "error": {"code": -32000, "message": "empty request"}}, False)
    assert diff.path == "error.code"
    # An error where a result is expected: the message stays and the result is missing.
    diff = R.compare_response({"id": 1, "result": "0x1"}, {"id": 1, "error": {"code": 3, "message": "x"}}, False)
    assert diff.path == "result"
    # Other members of the error (data) still count.
    diff = R.compare_response({"error": {"code": 3, "message": "a", "data": "0x01"}}, {"error": {"code": 3, "message": "b", "data": "0x02"}}, False)
    assert diff.path == "error.data"


def test_nested_error_messages_dropped():
    expected = {"result": [{"calls": [{"status": "0x0", "error": {"code": 3, "message": "execution reverted"}}]}]}
    actual = {"result": [{"calls": [{"status": "0x0", "error": {"code": 3, "message": "execution reverted: nope"}}]}]}
    assert R.compare_response(expected, actual, False) is None
    actual["result"][0]["calls"][0]["error"]["code"] = -32015
    assert R.compare_response(expected, actual, False).path == "result[0].calls[0].error.code"


def test_speconly_checks_shape_not_values():
    example = {"id": 1, "result": {"pending": "0x6", "list": [{"a": "0x1", "b": None}], "flag": False}}
    same_shape = {"id": 1, "result": {"pending": "0x0", "list": [{"a": "0x9", "b": {"x": 1}, "extra": 1}, {"a": "0x2", "b": None}], "flag": True}}
    assert R.compare_response(example, same_shape, True) is None
    assert R.compare_response(example, {"id": 1, "result": {"pending": "0x0", "list": [], "flag": True}}, True) is None
    wrong_kind = json.loads(json.dumps(same_shape))
    wrong_kind["result"]["pending"] = 6
    diff = R.compare_response(example, wrong_kind, True)
    assert diff.path == "result.pending" and "a string expected, a number received" in diff.note
    missing = json.loads(json.dumps(same_shape))
    del missing["result"]["list"][1]["a"]
    assert R.compare_response(example, missing, True).path == "result.list[1].a"
    # Without the shape check the same answer fails on the values.
    assert R.compare_response(example, same_shape, False) is not None


def test_speconly_still_requires_a_result_and_compares_errors():
    diff = R.compare_response({"result": {"a": 1}}, {"error": {"code": -32601, "message": "no"}}, True)
    assert diff is not None and "a result expected" in diff.describe()
    assert R.compare_response({"error": {"code": -32000, "message": "a"}}, {"error": {"code": -32000, "message": "b"}}, True) is None
    assert R.compare_response({"error": {"code": -32000, "message": "a"}}, {"error": {"code": -32602, "message": "a"}}, True) is not None


def test_filter_and_sorted_order(tmp_path):
    for rel in ("b_m/x.io", "a_m/z.io", "a_m/y.io", "a_m/notes.txt"):
        (tmp_path / rel).parent.mkdir(exist_ok=True)
        (tmp_path / rel).write_text("")
    names = [p.relative_to(tmp_path).as_posix() for p in R.test_files(tmp_path, [])]
    assert names == ["a_m/y.io", "a_m/z.io", "b_m/x.io"]
    assert [p.name for p in R.test_files(tmp_path, ["b_m/"])] == ["x.io"]


def test_missing_suite_is_skipped_or_fails_under_strict(tmp_path, monkeypatch, capsys):
    monkeypatch.delenv("CARCHAIN_STRICT", raising=False)
    assert R.main(["--dir", str(tmp_path / "absent")]) == 0
    assert "SKIPPED" in capsys.readouterr().out
    monkeypatch.setenv("CARCHAIN_STRICT", "1")
    assert R.main(["--dir", str(tmp_path / "absent")]) == 1


def test_min_pass_rate_range():
    with pytest.raises(SystemExit):
        R.parse_args(["--min-pass-rate", "101"])


def test_speconly_maps_keyed_by_data_check_values_not_keys():
    tx = {"hash": "0x01", "blockHash": None, "nonce": "0x0"}
    example = {"result": {"pending": {"0xAbC0000000000000000000000000000000000001": {"0": tx}}, "queued": {}}}
    other_sender = {"result": {"pending": {"0x00000000000000000000000000000000000000Ff": {"7": {"hash": "0x02", "blockHash": None, "nonce": "0x7", "v": "0x1"}}}, "queued": {}}}
    assert R.compare_response(example, other_sender, True) is None
    assert R.compare_response(example, {"result": {"pending": {}, "queued": {}}}, True) is None
    missing_hash = {"result": {"pending": {"0x00000000000000000000000000000000000000Ff": {"7": {"blockHash": None, "nonce": "0x7"}}}, "queued": {}}}
    diff = R.compare_response(example, missing_hash, True)
    assert diff.path == 'result.pending["0x00000000000000000000000000000000000000Ff"]["7"].hash'
    # A value is checked against the example's value under the same key when there is one: a contract creation
    # (no recipient) recorded at nonce 1 accepts a null `to` there, while nonce 0's recorded recipient wants a string.
    sender = "0x0c2c51a0990AeE1d73C1228de158688341557508"
    recorded = {"result": {"pending": {sender: {"0": {"to": "0xaa"}, "1": {"to": None}}}, "queued": {}}}
    creation = {"result": {"pending": {sender: {"1": {"to": None}, "2": {"to": "0xbb"}}}, "queued": {}}}
    assert R.compare_response(recorded, creation, True) is None
    diff = R.compare_response(recorded, {"result": {"pending": {sender: {"0": {"to": None}}}, "queued": {}}}, True)
    assert diff.path == f'result.pending["{sender}"]["0"].to'
    # A record (named keys) still needs its members, and "queued" is a record member here.
    assert R.compare_response(example, {"result": {"pending": {}}}, True).path == "result.queued"


FAKE_NODE = r'''#!/usr/bin/env python3
"""A stand-in for `carchain node`: answers every JSON-RPC request with result "0x1" and records its pid."""
import http.server, json, os, sys
open(os.environ["FAKE_NODE_PIDFILE"], "w").write(str(os.getpid()))
assert sys.argv[1] == "node" and "--genesis" in sys.argv and "--import" in sys.argv and "--no-mining" in sys.argv
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        out = json.dumps({"jsonrpc": "2.0", "id": body.get("id"), "result": "0x1"}).encode()
        self.send_response(200); self.send_header("Content-Length", str(len(out))); self.end_headers(); self.wfile.write(out)
    def log_message(self, *a): pass
server = http.server.HTTPServer(("127.0.0.1", 0), H)
print(f"carchain node listening on http://127.0.0.1:{server.server_port}", flush=True)
server.serve_forever()
'''


def test_end_to_end_against_a_stand_in_node_which_is_stopped(tmp_path, monkeypatch, capsys):
    import os
    import time
    fake = tmp_path / "carchain"
    fake.write_text(FAKE_NODE)
    fake.chmod(0o755)
    suite = tmp_path / "suite"
    (suite / "m").mkdir(parents=True)
    (suite / "genesis.json").write_text("{}")
    (suite / "chain.rlp").write_bytes(b"")
    (suite / "m" / "a-pass.io").write_text('>> {"jsonrpc":"2.0","id":1,"method":"m"}\n<< {"jsonrpc":"2.0","id":1,"result":"0x1"}\n')
    (suite / "m" / "b-fail.io").write_text('>> {"jsonrpc":"2.0","id":1,"method":"m"}\n<< {"jsonrpc":"2.0","id":1,"result":"0x2"}\n')
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("FAKE_NODE_PIDFILE", str(pidfile))
    status = R.main(["--dir", str(suite), "--carchain", str(fake), "--json", "--timeout", "20"])
    report = json.loads(capsys.readouterr().out)
    assert status == 1
    assert (report["passed"], report["failed"]) == (1, 1)
    assert report["files"][1]["file"] == "m/b-fail.io" and 'expected "0x2", got "0x1"' in report["files"][1]["failure"]
    assert R.main(["--dir", str(suite), "--carchain", str(fake), "--min-pass-rate", "50", "--timeout", "20"]) == 0
    assert "rpc-compat: 1 passed, 1 failed (50.0%)" in capsys.readouterr().out
    # The node is gone once the runner returns.
    pid = int(pidfile.read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"the stand-in node {pid} still runs")


def test_a_node_that_exits_is_a_clear_error(tmp_path, capsys):
    fake = tmp_path / "carchain"
    fake.write_text("#!/bin/sh\necho 'carchain: Unknown option --genesis' >&2\nexit 1\n")
    fake.chmod(0o755)
    suite = tmp_path / "suite"
    (suite / "m").mkdir(parents=True)
    (suite / "genesis.json").write_text("{}")
    (suite / "m" / "a.io").write_text('>> {"id":1}\n<< {"id":1,"result":"0x1"}\n')
    assert R.main(["--dir", str(suite), "--carchain", str(fake), "--timeout", "20"]) == 1
    assert "exited with status 1: carchain: Unknown option --genesis" in capsys.readouterr().err
