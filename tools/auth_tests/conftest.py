"""Fixtures for the auth service tests: a real `carchain node` on a free loopback port, driven by the real
Firebase Admin SDK (firebase-admin, with FIREBASE_AUTH_EMULATOR_HOST) and by plain HTTP shaped like the Firebase
JS SDK's requests.

The node binary is CARCHAIN_BIN, else .build/release/carchain, else .build/debug/carchain. When it or
firebase-admin is missing the tests skip with the reason; with CARCHAIN_STRICT=1 they fail instead.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import sys
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from pytest_support import NodeProcess, carchain_binary, missing  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "demo-carchain"
API_KEY = "fake-api-key"


@dataclass
class Response:
    status: int
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body) if self.body else None

    @property
    def error_code(self) -> str | None:
        """The Firebase code: the first word of error.message (`WEAK_PASSWORD : …` → WEAK_PASSWORD), or Google's
        `status` (PERMISSION_DENIED, INVALID_ARGUMENT, …) when the message is a sentence."""
        try:
            error = self.json()["error"]
        except (ValueError, KeyError, TypeError):
            return None
        word = error["message"].split(" : ")[0].split(":")[0].strip()
        if re.fullmatch(r"[A-Z0-9_]+", word):
            return word
        return error.get("status")


class Node(NodeProcess):
    """A `carchain node --ephemeral --port 0` process and an HTTP client for it."""

    def __init__(self, binary: Path, *options: str):
        super().__init__([str(binary), "node", "--ephemeral", "--port", "0", "--host", "127.0.0.1", *options])

    def request(self, method: str, path: str, body=None, *, headers=None, query=None, form=None, raw=None,
                source: str | None = None, timeout: float = 300) -> Response:
        """One HTTP request; `body` is sent as JSON, `form` as application/x-www-form-urlencoded. `source` binds
        the client socket to another loopback address (127.0.0.x), which the server sees as another client."""
        if query:
            path += "?" + urllib.parse.urlencode(query)
        all_headers = dict(headers or {})
        payload = None
        if raw is not None:
            payload = raw
        elif form is not None:
            payload = urllib.parse.urlencode(form).encode()
            all_headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        elif body is not None:
            payload = json.dumps(body).encode()
            all_headers.setdefault("Content-Type", "application/json")
        connection = http.client.HTTPConnection(
            self.host, self.port, timeout=timeout, source_address=(source, 0) if source else None)
        try:
            connection.request(method, path, body=payload, headers=all_headers)
            response = connection.getresponse()
            return Response(response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
        finally:
            connection.close()

    # Requests shaped like the Firebase JS SDK's (packages/auth/src/api): POST JSON to
    # /identitytoolkit.googleapis.com/v1/accounts:<op>?key=<apiKey>, form-encoded token refresh.
    def client(self, operation: str, body: dict, **kwargs) -> Response:
        headers = {"X-Client-Version": "Chrome/JsCore/10.12.0/FirebaseCore-web"}
        return self.request("POST", f"/identitytoolkit.googleapis.com/v1/accounts:{operation}", body,
                            headers=headers, query={"key": API_KEY}, **kwargs)

    def refresh(self, refresh_token: str, **kwargs) -> Response:
        return self.request("POST", "/securetoken.googleapis.com/v1/token",
                            form={"grant_type": "refresh_token", "refresh_token": refresh_token},
                            query={"key": API_KEY}, **kwargs)

    def admin(self, method: str, resource: str, body=None, **kwargs) -> Response:
        """The Admin REST API with the emulator's credential, `Authorization: Bearer owner`."""
        return self.request(method, f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/{resource}", body,
                            headers={"Authorization": "Bearer owner"}, **kwargs)

    def emulator(self, method: str, resource: str, body=None) -> Response:
        return self.request(method, f"/emulator/v1/projects/{PROJECT}/{resource}", body)

    sign_ups = 0

    def sign_up(self, email: str | None = None, password: str = "secret-password", **kwargs) -> dict:
        """A new account and its session. Sign-ups come from rotating loopback addresses (127.0.2.x) so that the
        per-address sign-up limit only bites the test that is about it."""
        email = email or unique_email()
        Node.sign_ups += 1
        kwargs.setdefault("source", f"127.0.2.{Node.sign_ups % 250 + 1}")
        response = self.client("signUp", {"email": email, "password": password, "returnSecureToken": True,
                                          "clientType": "CLIENT_TYPE_WEB"}, **kwargs)
        assert response.status == 200, response.body
        return response.json()

    def oob_codes(self, email: str) -> list[dict]:
        codes = self.emulator("GET", "oobCodes").json()["oobCodes"]
        return [code for code in codes if code["email"] == email.lower()]


def unique_email(prefix: str = "user") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}@example.com"


@pytest.fixture(scope="session")
def node():
    binary = carchain_binary()
    if binary is None or not binary.exists():
        missing("no carchain binary (run `swift build -c release --product carchain` or set CARCHAIN_BIN)")
    server = Node(binary)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def firebase(node):
    """The firebase_admin.auth module, with the default app pointed at the node's emulator routes."""
    try:
        import firebase_admin
        from firebase_admin import auth
    except ImportError:
        missing("firebase-admin is not installed (make venv)")
    os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = node.hostport
    os.environ["GOOGLE_CLOUD_PROJECT"] = PROJECT
    if not firebase_admin._apps:
        firebase_admin.initialize_app(options={"projectId": PROJECT})
    return auth


def decode_jwt(token: str) -> tuple[dict, dict]:
    """The header and payload of a JWT, unverified."""
    import base64

    def part(text):
        return json.loads(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))

    header, payload, _ = token.split(".")
    return part(header), part(payload)
