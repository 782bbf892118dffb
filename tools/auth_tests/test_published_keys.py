"""A backend that verifies ID tokens the production way — RS256 signatures against the public keys Firebase
publishes — accepts ours: the securetoken x509 metadata document and the JWK set served by the node.

firebase-admin in emulator mode skips signature checks (it trusts the emulator), so this runs its production
verifier (firebase_admin._token_gen.TokenVerifier → google.oauth2.id_token.verify_token) with the certificate URL
pointed at the node, and checks the certificates with `cryptography`."""

from __future__ import annotations

import base64
import json

import pytest

from conftest import PROJECT, decode_jwt

X509_PATH = "/www.googleapis.com/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
JWKS_PATH = "/www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com"
COOKIE_KEYS_PATH = "/www.googleapis.com/identitytoolkit/v3/relyingparty/publicKeys"


def b64int(text: str) -> int:
    return int.from_bytes(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)), "big")


@pytest.fixture
def production_verifier(node, firebase, monkeypatch):
    """firebase-admin's own verifier, out of emulator mode, reading certificates from the node."""
    import firebase_admin
    import google.auth.credentials
    from firebase_admin import _token_gen, credentials

    class NoCredential(credentials.Base):
        def get_credential(self):
            return google.auth.credentials.AnonymousCredentials()

    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST")
    monkeypatch.setattr(_token_gen, "ID_TOKEN_CERT_URI", f"http://{node.hostport}{X509_PATH}")
    monkeypatch.setattr(_token_gen, "COOKIE_CERT_URI", f"http://{node.hostport}{COOKIE_KEYS_PATH}")
    app = firebase_admin.initialize_app(NoCredential(), {"projectId": PROJECT}, name=f"production-{id(monkeypatch)}")
    yield app
    firebase_admin.delete_app(app)


def test_certificates_and_jwks_describe_the_signing_key(node):
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import padding

    document = node.request("GET", X509_PATH)
    assert document.status == 200
    assert "max-age" in document.headers["cache-control"]
    certificates = document.json()
    jwks = node.request("GET", JWKS_PATH).json()["keys"]
    assert len(certificates) == 1 and len(jwks) == 1
    kid, pem = next(iter(certificates.items()))
    certificate = x509.load_pem_x509_certificate(pem.encode())
    # Self-signed: the certificate's signature verifies with its own key.
    certificate.public_key().verify(certificate.signature, certificate.tbs_certificate_bytes, padding.PKCS1v15(),
                                    certificate.signature_hash_algorithm)
    numbers = certificate.public_key().public_numbers()
    key = jwks[0]
    assert key["kid"] == kid and key["kty"] == "RSA" and key["alg"] == "RS256" and key["use"] == "sig"
    assert b64int(key["n"]) == numbers.n and b64int(key["e"]) == numbers.e
    assert numbers.n.bit_length() == 2048
    session = node.sign_up()
    assert decode_jwt(session["idToken"])[0] == {"alg": "RS256", "kid": kid, "typ": "JWT"}
    assert node.request("GET", COOKIE_KEYS_PATH).json() == certificates


def test_production_verifier_accepts_our_tokens(node, firebase, production_verifier):
    from firebase_admin import auth

    session = node.sign_up()
    claims = auth.verify_id_token(session["idToken"], app=production_verifier)
    assert claims["uid"] == session["localId"]
    assert claims["firebase"]["sign_in_provider"] == "password"


def test_production_verifier_rejects_tampered_and_foreign_tokens(node, firebase, production_verifier):
    from firebase_admin import auth

    session = node.sign_up()
    header, payload, signature = session["idToken"].split(".")
    claims = decode_jwt(session["idToken"])[1]
    claims["user_id"] = claims["sub"] = "someone-else"
    forged_payload = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(f"{header}.{forged_payload}.{signature}", app=production_verifier)
    # An unsigned token (what the Firebase emulator issues) is refused out of emulator mode.
    unsigned = base64.urlsafe_b64encode(b'{"alg":"none","typ":"JWT"}').rstrip(b"=").decode()
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(f"{unsigned}.{payload}.", app=production_verifier)


def test_production_verifier_accepts_session_cookies(node, firebase, production_verifier):
    from firebase_admin import auth

    session = node.sign_up()
    response = node.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}:createSessionCookie",
                            {"idToken": session["idToken"], "validDuration": 600},
                            headers={"Authorization": "Bearer owner"})
    assert response.status == 200, response.body
    cookie = response.json()["sessionCookie"]
    claims = auth.verify_session_cookie(cookie, app=production_verifier)
    assert claims["uid"] == session["localId"]
