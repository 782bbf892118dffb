"""TOTP second factors over the v2 REST API as the Firebase JS SDK calls it (codes computed here with RFC 6238 over
Python's hmac, independently of the service); the legacy v3 `relyingparty` routes on both their forms; the other
client routes (anonymous, phone, identity providers, createAuthUri, project information); unknown routes."""

from __future__ import annotations

import base64
import hashlib
import hmac
import struct
import time
import uuid

import pytest

from conftest import API_KEY, PROJECT, decode_jwt, unique_email

V2 = "/identitytoolkit.googleapis.com/v2/accounts"
LEGACY_FORMS = ["/www.googleapis.com/identitytoolkit/v3/relyingparty", "/identitytoolkit.googleapis.com/v3/relyingparty"]


def totp(secret_base32: str, at: float | None = None) -> str:
    """RFC 6238: HMAC-SHA1 over the 30-second step, dynamic truncation, 6 digits."""
    secret = base64.b32decode(secret_base32 + "=" * (-len(secret_base32) % 8))
    step = int((time.time() if at is None else at) // 30)
    mac = hmac.new(secret, struct.pack(">Q", step), hashlib.sha1).digest()
    offset = mac[-1] & 0x0F
    value = struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"


def v2(node, operation, body):
    return node.request("POST", f"{V2}/{operation}", body, query={"key": API_KEY})


def test_totp_enrollment_and_sign_in(firebase, node):
    auth = firebase
    email = unique_email("totp")
    auth.create_user(email=email, password="totp-password", email_verified=True)
    session = node.client("signInWithPassword", {"email": email, "password": "totp-password"}).json()
    start = v2(node, "mfaEnrollment:start", {"idToken": session["idToken"], "totpEnrollmentInfo": {}})
    assert start.status == 200, start.body
    info = start.json()["totpSessionInfo"]
    assert info["verificationCodeLength"] == 6 and info["hashingAlgorithm"] == "SHA1" and info["periodSec"] == 30
    wrong = v2(node, "mfaEnrollment:finalize", {
        "idToken": session["idToken"], "totpVerificationInfo": {"sessionInfo": info["sessionInfo"],
                                                                "verificationCode": "000000" if totp(info["sharedSecretKey"]) != "000000" else "111111"}})
    assert wrong.error_code == "INVALID_CODE"
    enrolled = v2(node, "mfaEnrollment:finalize", {
        "idToken": session["idToken"], "displayName": "phone app",
        "totpVerificationInfo": {"sessionInfo": info["sessionInfo"], "verificationCode": totp(info["sharedSecretKey"])}})
    assert enrolled.status == 200, enrolled.body
    enrolled_claims = decode_jwt(enrolled.json()["idToken"])[1]["firebase"]
    assert enrolled_claims["sign_in_second_factor"] == "totp"
    factors = node.client("lookup", {"idToken": enrolled.json()["idToken"]}).json()["users"][0]["mfaInfo"]
    assert factors[0]["displayName"] == "phone app" and factors[0]["totpInfo"] == {}

    # The password alone no longer signs in: a pending credential and the factors instead of tokens.
    first = node.client("signInWithPassword", {"email": email, "password": "totp-password"}).json()
    assert "idToken" not in first and first["mfaPendingCredential"]
    enrollment_id = first["mfaInfo"][0]["mfaEnrollmentId"]
    bad = v2(node, "mfaSignIn:finalize", {"mfaPendingCredential": first["mfaPendingCredential"],
                                          "mfaEnrollmentId": enrollment_id,
                                          "totpVerificationInfo": {"verificationCode": "12345"}})
    assert bad.error_code == "INVALID_CODE"
    done = v2(node, "mfaSignIn:finalize", {"mfaPendingCredential": first["mfaPendingCredential"],
                                           "mfaEnrollmentId": enrollment_id,
                                           "totpVerificationInfo": {"verificationCode": totp(info["sharedSecretKey"])}})
    assert done.status == 200, done.body
    claims = auth.verify_id_token(done.json()["idToken"], check_revoked=True)
    assert claims["firebase"]["sign_in_second_factor"] == "totp"
    assert claims["firebase"]["second_factor_identifier"] == enrollment_id
    again = v2(node, "mfaSignIn:finalize", {"mfaPendingCredential": first["mfaPendingCredential"],
                                            "mfaEnrollmentId": enrollment_id,
                                            "totpVerificationInfo": {"verificationCode": totp(info["sharedSecretKey"])}})
    assert again.error_code == "INVALID_MFA_PENDING_CREDENTIAL"
    assert v2(node, "mfaSignIn:finalize", {}).error_code == "MISSING_CREDENTIAL"
    # An email link is a first factor too: it stops at the same step (as Firebase's emulator answers it).
    assert node.client("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": email,
                                       "continueUrl": "http://localhost"}).status == 200
    link_code = [c for c in node.oob_codes(email) if c["requestType"] == "EMAIL_SIGNIN"][-1]["oobCode"]
    by_link = node.client("signInWithEmailLink", {"email": email, "oobCode": link_code})
    assert by_link.status == 200, by_link.body
    assert "idToken" not in by_link.json() and by_link.json()["isNewUser"] is False
    assert by_link.json()["kind"] == "identitytoolkit#EmailLinkSigninResponse"
    assert [f["mfaEnrollmentId"] for f in by_link.json()["mfaInfo"]] == [enrollment_id]
    linked = v2(node, "mfaSignIn:finalize", {"mfaPendingCredential": by_link.json()["mfaPendingCredential"],
                                             "mfaEnrollmentId": enrollment_id,
                                             "totpVerificationInfo": {"verificationCode": totp(info["sharedSecretKey"])}})
    assert linked.status == 200, linked.body
    linked_claims = auth.verify_id_token(linked.json()["idToken"])
    assert linked_claims["firebase"]["sign_in_second_factor"] == "totp" and linked_claims["uid"] == first["localId"]
    # Withdrawing the factor restores password-only sign-in.
    withdrawn = v2(node, "mfaEnrollment:withdraw", {"idToken": done.json()["idToken"], "mfaEnrollmentId": enrollment_id})
    assert withdrawn.status == 200
    assert "idToken" in node.client("signInWithPassword", {"email": email, "password": "totp-password"}).json()


def test_second_factors_need_a_verified_email(node):
    session = node.sign_up()
    refused = v2(node, "mfaEnrollment:start", {"idToken": session["idToken"], "totpEnrollmentInfo": {}})
    assert refused.error_code == "UNVERIFIED_EMAIL"


@pytest.mark.parametrize("prefix", LEGACY_FORMS)
def test_legacy_relyingparty_routes(firebase, node, prefix):
    auth = firebase
    email = unique_email("legacy")

    def call(method, body, **kwargs):
        return node.request("POST", f"{prefix}/{method}", body, query={"key": API_KEY}, **kwargs)

    created = call("signupNewUser", {"email": email, "password": "legacy-password", "returnSecureToken": True})
    assert created.status == 200 and created.json()["kind"] == "identitytoolkit#SignupNewUserResponse"
    signed = call("verifyPassword", {"email": email, "password": "legacy-password", "returnSecureToken": True})
    assert signed.status == 200
    token = signed.json()["idToken"]
    info = call("getAccountInfo", {"idToken": token}).json()
    assert info["users"][0]["email"] == email
    updated = call("setAccountInfo", {"idToken": token, "displayName": "Legacy", "returnSecureToken": True})
    assert updated.json()["displayName"] == "Legacy"
    custom = auth.create_custom_token("legacy-" + uuid.uuid4().hex[:8], {"legacy": True}).decode()
    via_custom = call("verifyCustomToken", {"token": custom, "returnSecureToken": True})
    assert via_custom.status == 200
    assert auth.verify_id_token(via_custom.json()["idToken"])["legacy"] is True
    reset = call("getOobConfirmationCode", {"requestType": 1, "email": email})
    assert reset.status == 200
    code = [c for c in node.oob_codes(email) if c["requestType"] == "PASSWORD_RESET"][-1]["oobCode"]
    assert call("resetPassword", {"oobCode": code, "newPassword": "legacy-new-password"}).status == 200
    assert call("verifyPassword", {"email": email, "password": "legacy-new-password"}).status == 200
    link = call("getOobConfirmationCode", {"requestType": 6, "email": email, "returnOobLink": True},
                headers={"Authorization": "Bearer owner"})
    assert "mode=signIn" in link.json()["oobLink"]
    via_link = call("emailLinkSignin", {"email": email, "oobCode": link.json()["oobCode"]})
    assert via_link.status == 200 and via_link.json()["kind"] == "identitytoolkit#EmailLinkSigninResponse"
    project = node.request("GET", f"{prefix}/getProjectConfig", query={"key": API_KEY})
    assert project.status == 200 and "authorizedDomains" in project.json()
    download = call("downloadAccount", {"targetProjectId": PROJECT, "maxResults": 2},
                    headers={"Authorization": "Bearer owner"})
    assert download.status == 200 and len(download.json()["users"]) <= 2
    assert call("downloadAccount", {}, headers={"Authorization": "Bearer owner"}).error_code == "INSUFFICIENT_PERMISSION"
    upload = call("uploadAccount", {"targetProjectId": PROJECT, "users": [{"localId": "up-" + uuid.uuid4().hex[:8]}]},
                  headers={"Authorization": "Bearer owner"})
    assert upload.status == 200 and upload.json()["error"] == []
    deleted = call("deleteAccount", {"idToken": via_link.json()["idToken"]})
    assert deleted.json()["kind"] == "identitytoolkit#DeleteAccountResponse"
    assert call("signOutUser", {}).status == 501
    assert node.request("GET", f"{prefix}/publicKeys").status == 200


def test_anonymous_phone_idp_and_sign_in_methods(firebase, node):
    auth = firebase
    anonymous = node.client("signUp", {"returnSecureToken": True})
    assert anonymous.status == 200 and "email" not in anonymous.json()
    claims = decode_jwt(anonymous.json()["idToken"])[1]
    assert claims["provider_id"] == "anonymous" and claims["firebase"]["sign_in_provider"] == "anonymous"
    # The anonymous account becomes an email/password one, keeping its uid.
    email = unique_email("upgrade")
    upgraded = node.client("signUp", {"idToken": anonymous.json()["idToken"], "email": email,
                                      "password": "upgrade-password"})
    assert upgraded.status == 200 and upgraded.json()["localId"] == anonymous.json()["localId"]

    phone = "+1555" + str(uuid.uuid4().int)[:7]
    sent = node.client("sendVerificationCode", {"phoneNumber": phone})
    assert sent.status == 200
    codes = node.request("GET", f"/emulator/v1/projects/{PROJECT}/verificationCodes").json()["verificationCodes"]
    code = next(c["code"] for c in codes if c["sessionInfo"] == sent.json()["sessionInfo"])
    assert node.client("signInWithPhoneNumber", {"sessionInfo": sent.json()["sessionInfo"],
                                                 "code": "x" + code[1:]}).error_code == "INVALID_CODE"
    by_phone = node.client("signInWithPhoneNumber", {"sessionInfo": sent.json()["sessionInfo"], "code": code})
    assert by_phone.status == 200 and by_phone.json()["isNewUser"] is True
    assert auth.get_user_by_phone_number(phone).uid == by_phone.json()["localId"]

    sub = "google-" + uuid.uuid4().hex[:8]
    idp_email = unique_email("idp")
    idp = node.client("signInWithIdp", {
        "requestUri": "http://localhost", "returnSecureToken": True,
        "postBody": f'providerId=google.com&id_token={{"sub":"{sub}","email":"{idp_email}","email_verified":true,"name":"G User"}}'})
    assert idp.status == 200 and idp.json()["isNewUser"] is True and idp.json()["federatedId"].endswith(sub)
    user = auth.get_user(idp.json()["localId"])
    assert user.email == idp_email and user.display_name == "G User"
    assert [p.provider_id for p in user.provider_data] == ["google.com"]

    node.emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}})
    try:
        methods = node.client("createAuthUri", {"identifier": email, "continueUri": "http://localhost"}).json()
        assert methods["registered"] is True and methods["signinMethods"] == ["password"]
    finally:
        node.emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
    hidden = node.client("createAuthUri", {"identifier": email, "continueUri": "http://localhost"}).json()
    assert "registered" not in hidden and hidden["sessionId"]

    assert node.request("GET", "/identitytoolkit.googleapis.com/v1/projects", query={"key": API_KEY}).status == 200
    assert node.request("GET", "/identitytoolkit.googleapis.com/v1/recaptchaParams", query={"key": API_KEY}).status == 200
    config = node.request("GET", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/config",
                          headers={"Authorization": "Bearer owner"}).json()
    assert config["signIn"]["hashConfig"]["algorithm"] == "STANDARD_SCRYPT"
    assert config["mfa"]["providerConfigs"][0]["totpProviderConfig"]["adjacentIntervals"] == 5


def test_unknown_routes_and_unimplemented_methods(node):
    for path in ["/identitytoolkit.googleapis.com/v1/accounts:noSuchThing",
                 "/identitytoolkit.googleapis.com/v2/noSuchThing",
                 "/www.googleapis.com/identitytoolkit/v3/relyingparty/noSuchMethod"]:
        missing = node.request("POST", path, {}, query={"key": API_KEY})
        assert missing.status == 404
        assert missing.json()["error"] == {"code": 404, "message": "Not Found", "status": "NOT_FOUND",
                                           "errors": [{"message": "Not Found", "domain": "global",
                                                       "reason": "notFound"}]}
    unimplemented = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithGameCenter", {},
                                 query={"key": API_KEY})
    assert unimplemented.status == 501 and unimplemented.json()["error"]["status"] == "NOT_IMPLEMENTED"


def test_verify_before_update_email_and_recover_email(node):
    """The JS SDK's `verifyBeforeUpdateEmail` (`VERIFY_AND_CHANGE_EMAIL`) and the `RECOVER_EMAIL` link Firebase mails
    the old address after an email change."""
    session = node.sign_up()
    new_email = unique_email("changed")
    sent = node.client("sendOobCode", {"requestType": "VERIFY_AND_CHANGE_EMAIL", "idToken": session["idToken"],
                                       "newEmail": new_email})
    assert sent.status == 200
    code = next(c for c in node.oob_codes(session["email"]) if c["requestType"] == "VERIFY_AND_CHANGE_EMAIL")
    assert code["newEmail"] == new_email and "mode=verifyAndChangeEmail" in code["oobLink"]
    checked = node.client("resetPassword", {"oobCode": code["oobCode"]}).json()
    assert checked["requestType"] == "VERIFY_AND_CHANGE_EMAIL" and checked["newEmail"] == new_email
    applied = node.client("update", {"oobCode": code["oobCode"]}).json()
    assert applied["email"] == new_email and applied["newEmail"] == new_email and applied["emailVerified"] is True
    # A direct change by ID token mails the previous address a link that undoes it.
    signed = node.client("signInWithPassword", {"email": new_email, "password": "secret-password"}).json()
    third = unique_email("third")
    node.client("update", {"idToken": signed["idToken"], "email": third, "returnSecureToken": True})
    recover = next(c for c in node.oob_codes(session["email"]) if c["requestType"] == "RECOVER_EMAIL")
    page = node.request("GET", "/emulator/action", query={
        "mode": "recoverEmail", "oobCode": recover["oobCode"], "apiKey": API_KEY})
    assert page.status == 200 and page.json()["authEmulator"]["email"] == session["email"]
    assert node.client("signInWithPassword", {"email": session["email"], "password": "secret-password"}).status == 200
