"""The sign-up and sign-in limits (docs/APP.md) and a burst of concurrent sign-ins. Each limit test speaks from its
own loopback address (127.0.0.x: the server sees the socket's peer address), so the limits one test reaches do not
touch the others; the password-spraying limit is global, so its test uses a password no other test uses."""

from __future__ import annotations

import concurrent.futures
import json
import statistics
import time
import uuid

from conftest import unique_email


def sign_in(node, email, password, source=None):
    return node.client("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True},
                       source=source)


def test_sign_ups_are_limited_per_address(node):
    source = "127.0.0.51"
    for index in range(100):
        response = node.client("signUp", {"email": unique_email(f"burst{index}"), "password": "limit-password",
                                          "returnSecureToken": True}, source=source)
        assert response.status == 200, (index, response.body)
    refused = node.client("signUp", {"email": unique_email(), "password": "limit-password"}, source=source)
    assert refused.status == 400 and refused.error_code == "TOO_MANY_ATTEMPTS_TRY_LATER"
    # Another address is not affected.
    assert node.client("signUp", {"email": unique_email(), "password": "limit-password"},
                       source="127.0.0.52").status == 200


def test_failed_sign_ins_are_limited_per_address(node):
    source = "127.0.0.53"
    victim = node.sign_up(password="victim-password")["email"]
    for index in range(50):
        response = sign_in(node, unique_email(f"guess{index}"), f"guess-{uuid.uuid4().hex}", source=source)
        assert response.error_code == "INVALID_LOGIN_CREDENTIALS", (index, response.body)
    # The address is now refused even with a correct password; from elsewhere the account still works.
    assert sign_in(node, victim, "victim-password", source=source).error_code == "TOO_MANY_ATTEMPTS_TRY_LATER"
    assert sign_in(node, victim, "victim-password", source="127.0.0.54").status == 200


def test_password_spraying_is_throttled(node):
    sprayed = f"Spring{uuid.uuid4().hex[:8]}!"
    for index in range(10):
        response = sign_in(node, unique_email(f"spray{index}"), sprayed, source=f"127.0.1.{index + 1}")
        assert response.error_code == "INVALID_LOGIN_CREDENTIALS", (index, response.body)
    # An eleventh account, from an eleventh address: refused before any password check.
    target = node.sign_up(password=sprayed)["email"]
    assert sign_in(node, target, sprayed, source="127.0.1.50").error_code == "TOO_MANY_ATTEMPTS_TRY_LATER"
    # Other passwords are unaffected.
    other = node.sign_up(password="different-password")["email"]
    assert sign_in(node, other, "different-password", source="127.0.1.51").status == 200


def test_200_concurrent_sign_ins_hold(node):
    """200 users sign in at once, each from its own address (the limits reserve a slot per attempt in flight, so
    a burst from one address or for one email is throttled by design: docs/APP.md)."""
    users = [node.sign_up(password=f"load-password-{i}") for i in range(200)]

    def one(index):
        started = time.perf_counter()
        response = sign_in(node, users[index]["email"], f"load-password-{index}", source=f"127.0.3.{index + 1}")
        return response.status, time.perf_counter() - started, response.json().get("localId")

    def block_number():
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_blockNumber", "params": []}).encode()
        started = time.perf_counter()
        response = node.request("POST", "/", raw=body, headers={"Content-Type": "application/json"})
        return response.status, time.perf_counter() - started

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(max_workers=200) as pool:
        futures = [pool.submit(one, i) for i in range(200)]
        # JSON-RPC on the same port keeps answering while scrypt runs (it runs on its own queue).
        time.sleep(0.5)
        rpc_status, rpc_seconds = block_number()
        results = [future.result() for future in futures]
    elapsed = time.perf_counter() - started
    statuses = [status for status, _, _ in results]
    assert statuses == [200] * 200, [s for s in statuses if s != 200][:5]
    assert all(uid == users[i]["localId"] for i, (_, _, uid) in enumerate(results))
    assert rpc_status == 200 and rpc_seconds < 5
    latencies = sorted(seconds for _, seconds, _ in results)
    print(f"\n200 concurrent sign-ins: all 200 OK in {elapsed:.1f} s ({200 / elapsed:.1f}/s); latency "
          f"min {latencies[0] * 1000:.0f} ms, median {statistics.median(latencies) * 1000:.0f} ms, "
          f"max {latencies[-1] * 1000:.0f} ms; eth_blockNumber during the burst {rpc_seconds * 1000:.0f} ms")
