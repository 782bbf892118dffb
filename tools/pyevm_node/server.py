"""HTTP transport, JSON-RPC 2.0 envelopes and batches, and the command line of the node.

The server is threaded (each connection on its own thread, HTTP/1.1 keep-alive), quiet (no access
log), and answers every request with a JSON-RPC response: malformed JSON is -32700, an invalid envelope
-32600, an unknown method -32601, and an unexpected failure inside a handler -32603 with its message,
so a client always sees what went wrong and the server keeps running.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from .chain import DevChain
from .methods import METHODS
from .rpc_types import INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, PARSE_ERROR, RPCError

MAX_BODY = 16 * 1024 * 1024
MAX_BATCH = 1000


def error_response(request_id: Any, error: RPCError) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "error": error.as_json()}


def handle_one(chain: DevChain, request: Any) -> dict[str, Any] | None:
    """One JSON-RPC request object to its response (None for a notification)."""
    if not isinstance(request, dict):
        return error_response(None, RPCError(INVALID_REQUEST, "invalid request: expected a JSON object"))
    request_id = request.get("id")
    is_notification = "id" not in request
    if request.get("jsonrpc") != "2.0" or not isinstance(request.get("method"), str):
        return error_response(request_id, RPCError(INVALID_REQUEST, 'invalid request: needs "jsonrpc": "2.0" and a method name'))
    if isinstance(request_id, (dict, list, bool)):
        return error_response(None, RPCError(INVALID_REQUEST, "invalid request: id must be a string, a number or null"))
    method = METHODS.get(request["method"])
    try:
        if method is None:
            raise RPCError(METHOD_NOT_FOUND, f"the method {request['method']} does not exist/is not available")
        with chain.lock:
            result = method(chain, request.get("params"))
        response: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "result": result}
    except RPCError as error:
        response = error_response(request_id, error)
    except Exception as error:  # a bug or an unexpected state: report it, keep serving
        response = error_response(request_id, RPCError(INTERNAL_ERROR, f"internal error: {type(error).__name__}: {error}"))
    return None if is_notification else response


def handle_body(chain: DevChain, body: bytes) -> Any:
    """A request body (one request or a batch) to the response document, or None when nothing is due."""
    try:
        document = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        return error_response(None, RPCError(PARSE_ERROR, f"parse error: {error}"))
    if isinstance(document, list):
        if not document:
            return error_response(None, RPCError(INVALID_REQUEST, "invalid request: empty batch"))
        if len(document) > MAX_BATCH:
            return error_response(None, RPCError(INVALID_REQUEST, f"invalid request: batch larger than {MAX_BATCH}"))
        responses = [r for r in (handle_one(chain, item) for item in document) if r is not None]
        return responses or None
    return handle_one(chain, document)


class Handler(BaseHTTPRequestHandler):
    """POST / with a JSON-RPC body; keep-alive; no logging."""

    protocol_version = "HTTP/1.1"
    server: "NodeServer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        pass

    def _reply(self, status: int, body: bytes, content_type: str = "application/json") -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        self._reply(405, b"use POST with a JSON-RPC body\n", "text/plain")

    def do_POST(self) -> None:  # noqa: N802
        length_header = self.headers.get("Content-Length")
        if length_header is None or not length_header.isdigit():
            self._reply(411, b"Content-Length required\n", "text/plain")
            return
        length = int(length_header)
        if length > MAX_BODY:
            self.close_connection = True
            self._reply(413, b"request body too large\n", "text/plain")
            return
        body = self.rfile.read(length)
        if self.server.hang:
            # Simulates a node that accepts the request and never answers.
            self.server.stopping.wait()
            self.close_connection = True
            return
        response = handle_body(self.server.chain, body)
        if response is None:
            self.send_response(204)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self._reply(200, json.dumps(response, separators=(",", ":")).encode())


class NodeServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address: tuple[str, int], chain: DevChain, hang: bool) -> None:
        super().__init__(address, Handler)
        self.chain = chain
        self.hang = hang
        self.stopping = threading.Event()


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="pyevm-node.py",
        description="A JSON-RPC node for tests: eth-tester + py-evm, chain id 4, automine, "
        "10 funded accounts of the test mnemonic (m/44'/60'/0'/0/i).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8545, help="port; 0 picks a free one (default 8545)")
    parser.add_argument("--chain-id", type=int, default=4, help="chain id the node runs and enforces (default 4)")
    parser.add_argument("--accounts", type=int, default=10, help="funded dev accounts (default 10)")
    parser.add_argument("--hang", action="store_true", help="accept requests and never answer (for timeout tests)")
    parser.add_argument(
        "--exit-with-parent", action="store_true", help="exit when the process that started the node exits"
    )
    parser.add_argument("--lifetime", type=float, default=0, help="exit after this many seconds (0: never)")
    return parser.parse_args(argv)


def watch(server: NodeServer, parent: int, lifetime: float) -> None:
    """Stops the server when its parent goes away or its lifetime ends, so a crashed test run leaves no node."""
    started = time.monotonic()
    while not server.stopping.is_set():
        if parent and os.getppid() != parent:
            break
        if lifetime and time.monotonic() - started > lifetime:
            break
        time.sleep(0.2)
    stop(server)


def stop(server: NodeServer) -> None:
    if not server.stopping.is_set():
        server.stopping.set()
        threading.Thread(target=server.shutdown, daemon=True).start()


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        chain = DevChain(chain_id=args.chain_id, accounts=args.accounts)
        server = NodeServer((args.host, args.port), chain, args.hang)
    except OSError as error:
        print(f"pyevm-node: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr)
        return 1
    # The first line of stdout is the bound port, so a caller that asked for port 0 can read it.
    print(server.server_address[1], flush=True)
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda *_: stop(server))
    if args.exit_with_parent or args.lifetime:
        parent = os.getppid() if args.exit_with_parent else 0
        threading.Thread(target=watch, args=(server, parent, args.lifetime), daemon=True).start()
    try:
        server.serve_forever(poll_interval=0.2)
    finally:
        server.stopping.set()
        server.server_close()
    return 0
