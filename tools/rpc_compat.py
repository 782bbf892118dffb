#!/usr/bin/env python3
"""Runs the execution-apis JSON-RPC conformance tests (hive's rpc-compat suite) against `carchain node`.

The suite directory (genesis.json, chain.rlp and one `<method>/<name>.io` file per test) comes from
--dir, else $CARCHAIN_SHARED_DIR/rpc-compat, else ../shared/rpc-compat next to the project. The runner
starts one node on that chain exactly as hive does (import chain.rlp, safe and finalized at the head, no
mining), walks every .io file in sorted path order, POSTs each `>>` request and compares the answer with
the `<<` line the way hive's simulator does:

  * full JSON match: no missing or extra members, numbers compared by value, strings exactly;
  * where both the answer and the expectation hold an `error` object (top level or nested, e.g.
    eth_simulateV1's calls[].error), `error.message` is dropped from both first;
  * `// speconly:` files: a non-error expectation is only an example. Hive validates the result against
    the method's OpenRPC schema; this runner has no schema, so it checks the result's shape against the
    example instead: the same JSON kinds, every member of an example object present, and each element of
    an array checked against the example's first element (objects keyed by 0x-data or decimal numbers, such
    as txpool_content's senders and nonces, are maps: their values are checked the same way). Error expectations are compared in full.

Only the Python standard library is used. Exit status: 0 when the run passes (no failure, or with
--min-pass-rate at least that percentage), 1 otherwise or on a setup error, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MISSING = object()  # a member absent from one side


class IoFormatError(ValueError):
    """A .io file that does not follow the format (PROVENANCE.md, ".io format")."""


@dataclass
class Exchange:
    """One `>>` request line and the `<<` answer expected for it."""

    request: str
    expected: Any
    line: int


@dataclass
class IoTest:
    path: str
    speconly: bool
    exchanges: list[Exchange] = field(default_factory=list)


def parse_io(text: str, path: str = "<text>") -> IoTest:
    """Parses one .io file: a `//` comment header (a `// speconly:` line marks a shape-only test), then
    `>> request` / `<< response` lines in pairs; blank lines are skipped, `//` lines after the first
    request ignored, anything else is an error."""
    test = IoTest(path=path, speconly=False)
    pending: tuple[str, int] | None = None
    seen_request = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("//"):
            if not seen_request and line[2:].strip().startswith("speconly:"):
                test.speconly = True
            continue
        if line.startswith(">>"):
            if pending is not None:
                raise IoFormatError(f"{path}:{number}: a request follows the request of line {pending[1]} without its answer")
            body = line[2:].strip()
            try:
                json.loads(body)
            except json.JSONDecodeError as error:
                raise IoFormatError(f"{path}:{number}: the request is not JSON ({error})") from None
            pending = (body, number)
            seen_request = True
            continue
        if line.startswith("<<"):
            if pending is None:
                raise IoFormatError(f"{path}:{number}: an answer without a request")
            try:
                expected = json.loads(line[2:].strip())
            except json.JSONDecodeError as error:
                raise IoFormatError(f"{path}:{number}: the answer is not JSON ({error})") from None
            test.exchanges.append(Exchange(request=pending[0], expected=expected, line=pending[1]))
            pending = None
            continue
        raise IoFormatError(f"{path}:{number}: invalid line (not //, >> or <<): {line[:60]}")
    if pending is not None:
        raise IoFormatError(f"{path}:{pending[1]}: the last request has no answer")
    if not test.exchanges:
        raise IoFormatError(f"{path}: no request")
    return test


def strip_error_messages(expected: Any, actual: Any) -> tuple[Any, Any]:
    """Copies of both sides without `error.message` wherever both hold an `error` object at the same
    place (hive drops messages only when an error was expected and one came back)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        exp, act = {}, {}
        for key, value in expected.items():
            if key in actual:
                exp[key], act[key] = strip_error_messages(value, actual[key])
            else:
                exp[key] = value
        for key, value in actual.items():
            if key not in expected:
                act[key] = value
        if isinstance(expected.get("error"), dict) and isinstance(actual.get("error"), dict):
            exp["error"] = {k: v for k, v in exp["error"].items() if k != "message"}
            act["error"] = {k: v for k, v in act["error"].items() if k != "message"}
        return exp, act
    if isinstance(expected, list) and isinstance(actual, list):
        pairs = [strip_error_messages(e, a) for e, a in zip(expected, actual)]
        exp = [p[0] for p in pairs] + expected[len(pairs):]
        act = [p[1] for p in pairs] + actual[len(pairs):]
        return exp, act
    return expected, actual


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return f"{path}.{key}" if path else key
    return f"{path}[{json.dumps(key)}]"


@dataclass
class Difference:
    path: str
    expected: Any
    actual: Any
    note: str = ""

    def describe(self, width: int = 120) -> str:
        def show(value: Any) -> str:
            if value is MISSING:
                return "(missing)"
            text = json.dumps(value)
            return text if len(text) <= width else text[: width - 3] + "..."

        where = self.path or "(whole answer)"
        text = f"{where}: expected {show(self.expected)}, got {show(self.actual)}"
        return f"{text} ({self.note})" if self.note else text


def first_difference(expected: Any, actual: Any, path: str = "") -> Difference | None:
    """The first place where `actual` differs from `expected` (members in the expectation's order, then
    extra members), or None. Numbers compare by value; booleans are not numbers."""
    ek, ak = _kind(expected), _kind(actual)
    if ek != ak:
        return Difference(path, expected, actual)
    if ek == "object":
        for key, value in expected.items():
            if key not in actual:
                return Difference(_join(path, key), value, MISSING)
            found = first_difference(value, actual[key], _join(path, key))
            if found:
                return found
        for key, value in actual.items():
            if key not in expected:
                return Difference(_join(path, key), MISSING, value)
        return None
    if ek == "array":
        for index, (e, a) in enumerate(zip(expected, actual)):
            found = first_difference(e, a, _join(path, index))
            if found:
                return found
        if len(expected) != len(actual):
            index = min(len(expected), len(actual))
            return Difference(
                _join(path, index),
                expected[index] if index < len(expected) else MISSING,
                actual[index] if index < len(actual) else MISSING,
                f"{len(expected)} elements expected, {len(actual)} received",
            )
        return None
    if expected != actual:
        return Difference(path, expected, actual)
    return None


def shape_difference(example: Any, actual: Any, path: str = "") -> Difference | None:
    """Where `actual` does not have the shape of the recorded `example` (the speconly check): a different
    JSON kind, a member of an example object missing, or an array element unlike the example's first
    element. Values, extra members and array lengths are not compared. A null in the example accepts any
    value (the schema's optional fields are often recorded as null). An object whose keys are all data (0x-hex)
    or decimal numbers is a map: its keys are not required, and each of its values is checked against the
    example's value under the same key (the same sender or nonce) when it has one, else against its first value, as
    array elements are."""
    if example is None:
        return None
    ek, ak = _kind(example), _kind(actual)
    if ek != ak:
        return Difference(path, example, actual, f"a {ek} expected, a {ak} received")
    if ek == "object" and _is_map(example):
        first = next(iter(example.values()))
        for key, value in actual.items():
            found = shape_difference(example.get(key, first), value, _join(path, key))
            if found:
                return found
    elif ek == "object":
        for key, value in example.items():
            if key not in actual:
                return Difference(_join(path, key), value, MISSING, "member missing")
            found = shape_difference(value, actual[key], _join(path, key))
            if found:
                return found
    elif ek == "array" and example:
        for index, element in enumerate(actual):
            found = shape_difference(example[0], element, _join(path, index))
            if found:
                return found
    return None


def _is_map(example: dict[str, Any]) -> bool:
    """An object used as a map rather than a record: every key is data (0x-hex, such as an address) or a decimal
    number (such as a nonce), as in txpool_content's sender -> nonce -> transaction. Its keys are the chain's
    data, not the schema's, so the shape check compares values only."""
    return bool(example) and all(re.fullmatch(r"0x[0-9a-fA-F]*|[0-9]+", key) for key in example)


def compare_response(expected: Any, actual: Any, speconly: bool) -> Difference | None:
    """Hive's verdict on one answer: None when it passes."""
    if speconly and isinstance(expected, dict) and "result" in expected:
        if not isinstance(actual, dict) or "result" not in actual:
            return Difference("result", expected["result"], MISSING, "a result expected, got " + json.dumps(actual)[:200])
        return shape_difference(expected["result"], actual["result"], "result")
    exp, act = strip_error_messages(expected, actual)
    if isinstance(exp, dict) and isinstance(act, dict) and "result" in exp and "result" not in act and "error" in act:
        return Difference("result", exp["result"], MISSING, "an error came back: " + json.dumps(actual["error"])[:200])
    return first_difference(exp, act)


# ---------------------------------------------------------------------------------------------------
# Running


def shared_dir() -> Path:
    """CARCHAIN_SHARED_DIR, else ../shared (or ../../shared from a worktree), as the Makefile finds it."""
    env = os.environ.get("CARCHAIN_SHARED_DIR")
    if env:
        return Path(env)
    for candidate in (ROOT.parent / "shared", ROOT.parent.parent / "shared"):
        if candidate.is_dir():
            return candidate
    return ROOT.parent / "shared"


def test_files(directory: Path, filters: list[str]) -> list[Path]:
    files = sorted(p for p in directory.glob("*/*.io") if p.is_file())
    rel = lambda p: p.relative_to(directory).as_posix()  # noqa: E731
    if filters:
        files = [p for p in files if any(f in rel(p) for f in filters)]
    return files


class NodeError(RuntimeError):
    pass


class Node:
    """`carchain node` on the suite's chain, on a free port; stopped by `stop` (always called)."""

    def __init__(self, binary: Path, directory: Path, verbose: bool):
        self.binary, self.directory, self.verbose = binary, directory, verbose
        self.process: subprocess.Popen[bytes] | None = None
        self.stderr = tempfile.TemporaryFile()
        self.url = ""

    def start(self, timeout: float) -> str:
        command = [
            str(self.binary), "node", "--genesis", str(self.directory / "genesis.json"),
            "--import", str(self.directory / "chain.rlp"), "--finalized", "latest", "--no-mining",
            "--ephemeral", "--port", "0",
        ]
        if self.verbose:
            print("rpc-compat: " + " ".join(command), file=sys.stderr)
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.stderr)
        lines: queue.Queue[bytes | None] = queue.Queue()

        def drain() -> None:
            assert self.process and self.process.stdout
            for raw in self.process.stdout:
                lines.put(raw)
            lines.put(None)

        threading.Thread(target=drain, daemon=True).start()
        deadline = time.monotonic() + timeout
        while not self.url:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise NodeError(f"the node printed no URL within {timeout:.0f} s{self._stderr_tail()}")
            try:
                raw = lines.get(timeout=remaining)
            except queue.Empty:
                continue
            if raw is None:
                self.process.wait()
                raise NodeError(f"the node exited with status {self.process.returncode}{self._stderr_tail()}")
            match = re.search(rb"listening on (http://\S+)", raw)
            if match:
                self.url = match.group(1).decode().rstrip("/") + "/"
        while time.monotonic() < deadline:
            try:
                post(self.url, '{"jsonrpc":"2.0","id":0,"method":"eth_blockNumber"}', 5)
                return self.url
            except (OSError, ValueError):
                if self.process.poll() is not None:
                    raise NodeError(f"the node exited with status {self.process.returncode}{self._stderr_tail()}") from None
                time.sleep(0.1)
        raise NodeError(f"the node at {self.url} did not answer within {timeout:.0f} s")

    def _stderr_tail(self) -> str:
        self.stderr.seek(0)
        text = self.stderr.read().decode(errors="replace").strip()
        return f": {text[-800:]}" if text else ""

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def post(url: str, body: str, timeout: float) -> Any:
    request = urllib.request.Request(url, data=body.encode(), headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = response.read()
    except urllib.error.HTTPError as error:  # a JSON-RPC error may come with a non-200 status
        data = error.read()
    return json.loads(data)


@dataclass
class Outcome:
    path: str
    passed: bool
    speconly: bool
    failure: str = ""
    exchange: int = 0

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.path, "pass": self.passed, "speconly": self.speconly}
        if not self.passed:
            out["exchange"] = self.exchange
            out["failure"] = self.failure
        return out


def run_file(url: str, path: Path, directory: Path, timeout: float) -> Outcome:
    rel = path.relative_to(directory).as_posix()
    try:
        test = parse_io(path.read_text(), rel)
    except (IoFormatError, OSError, UnicodeDecodeError) as error:
        return Outcome(rel, False, False, f"unreadable: {error}")
    for index, exchange in enumerate(test.exchanges, start=1):
        try:
            actual = post(url, exchange.request, timeout)
        except (OSError, ValueError) as error:
            return Outcome(rel, False, test.speconly, f"request of line {exchange.line}: no JSON answer ({error})", index)
        difference = compare_response(exchange.expected, actual, test.speconly)
        if difference:
            return Outcome(rel, False, test.speconly, f"request of line {exchange.line}: {difference.describe()}", index)
    return Outcome(rel, True, test.speconly)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="rpc_compat.py",
        description=(
            "Run the execution-apis rpc-compat tests against `carchain node`, comparing answers as hive does: full "
            "JSON match, numbers by value, error.message dropped where both sides hold an error. Speconly files: "
            "hive validates the result against the OpenRPC schema, which this runner does not have; it checks the "
            "result's shape against the recorded example instead (same JSON kinds, the example's object members "
            "present, array elements like the example's first element; objects keyed by 0x-data or decimal numbers are maps, "
            "their values checked like array elements)."
        ),
        epilog=(
            "examples:\n"
            "  python3 tools/rpc_compat.py                       # every file, the release binary\n"
            "  python3 tools/rpc_compat.py --filter eth_getProof --verbose\n"
            "  python3 tools/rpc_compat.py --min-pass-rate 95 --json > report.json\n"
            "  python3 tools/rpc_compat.py --rpc http://127.0.0.1:8545/   # a node you started yourself"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--dir", type=Path, help="the suite (default $CARCHAIN_SHARED_DIR/rpc-compat)")
    parser.add_argument("--carchain", type=Path, default=Path(os.environ.get("CARCHAIN_BIN", ROOT / ".build/release/carchain")),
                        help="the carchain binary (default $CARCHAIN_BIN, else .build/release/carchain)")
    parser.add_argument("--rpc", help="use the node already serving this URL (on the suite's chain) instead of starting one")
    parser.add_argument("--filter", action="append", default=[], metavar="SUBSTR",
                        help="run only files whose path (method/name.io) contains SUBSTR; repeatable")
    parser.add_argument("--min-pass-rate", type=float, metavar="PCT",
                        help="pass when at least PCT%% of the files pass (0-100; default: every file must pass)")
    parser.add_argument("--json", action="store_true", help="print a JSON report on stdout instead of text")
    parser.add_argument("--verbose", action="store_true", help="print every file's verdict, not only failures")
    parser.add_argument("--timeout", type=float, default=60, help="seconds for the node to start and per request (default 60)")
    args = parser.parse_args(argv)
    if args.min_pass_rate is not None and not 0 <= args.min_pass_rate <= 100:
        parser.error(f"--min-pass-rate must be 0 to 100, got {args.min_pass_rate}")
    if not args.timeout > 0:
        parser.error("--timeout must be positive")
    return args


def _interrupt(signum: int, frame: Any) -> None:
    """SIGTERM ends the run like Ctrl-C, so the node is stopped on the way out."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    directory = args.dir or shared_dir() / "rpc-compat"
    if not (directory / "genesis.json").is_file():
        message = f"rpc-compat: SKIPPED: the suite was not found at {directory} (set CARCHAIN_SHARED_DIR or --dir)"
        if os.environ.get("CARCHAIN_STRICT") == "1":
            print(message.replace("SKIPPED", "missing under CARCHAIN_STRICT=1"), file=sys.stderr)
            return 1
        print(message)
        return 0
    files = test_files(directory, args.filter)
    if not files:
        print(f"rpc-compat: no test file matches {args.filter}", file=sys.stderr)
        return 1
    node = None if args.rpc else Node(args.carchain, directory, args.verbose)
    outcomes: list[Outcome] = []
    previous = signal.getsignal(signal.SIGTERM)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        if node:
            if not args.carchain.is_file():
                print(f"rpc-compat: no carchain binary at {args.carchain} (build it: swift build -c release --product carchain)",
                      file=sys.stderr)
                return 1
            url = node.start(args.timeout)
        else:
            url = args.rpc
        for path in files:
            outcome = run_file(url, path, directory, args.timeout)
            outcomes.append(outcome)
            if not args.json and (args.verbose or not outcome.passed):
                print(f"{'PASS' if outcome.passed else 'FAIL'} {outcome.path}" + ("" if outcome.passed else f": {outcome.failure}"))
    except NodeError as error:
        print(f"rpc-compat: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rpc-compat: interrupted", file=sys.stderr)
        return 130
    finally:
        if node:
            node.stop()
        signal.signal(signal.SIGTERM, previous)
    passed = sum(o.passed for o in outcomes)
    failed = len(outcomes) - passed
    rate = 100.0 * passed / len(outcomes)
    ok = failed == 0 if args.min_pass_rate is None else rate >= args.min_pass_rate
    if args.json:
        json.dump({"passed": passed, "failed": failed, "passRate": round(rate, 2), "minPassRate": args.min_pass_rate,
                   "ok": ok, "files": [o.json() for o in outcomes]}, sys.stdout, indent=1)
        print()
    else:
        print(f"rpc-compat: {passed} passed, {failed} failed ({rate:.1f}%)")
        if not ok and args.min_pass_rate is not None:
            print(f"rpc-compat: below the {args.min_pass_rate:g}% gate", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
