"""One test per error code the auth service answers (docs/APP.md lists them), each checking the HTTP status, the
code (the first word of error.message, what every Firebase SDK reads) and Google's error envelope. EXPIRED_OOB_CODE
and an expired refresh token need a clock the test controls: Tests/AuthEmulatorTests covers them."""

from __future__ import annotations

import base64
import json

import pytest

from conftest import API_KEY, PROJECT, unique_email


def custom_token(payload: dict) -> str:
    def part(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()
    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(payload)}."


AUDIENCE = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"


def check(response, status: int, code: str):
    assert response.status == status, response.body
    error = response.json()["error"]
    assert error["code"] == status
    assert response.error_code == code, error["message"]
    assert error["errors"][0]["message"] and error["errors"][0]["domain"] == "global"


def revoked_session(node):
    import time
    session = node.sign_up()
    time.sleep(1.1)
    node.admin("POST", "accounts:update", {"localId": session["localId"], "validSince": int(time.time())})
    return session


def disabled_user(node, password="disabled-pw"):
    email = unique_email()
    created = node.admin("POST", "accounts", {"email": email, "password": password, "disabled": True}).json()
    return email, created["localId"]


CASES = {
    # accounts:signUp
    "MISSING_EMAIL": lambda n: (n.client("signUp", {"password": "secret-pw"}), 400),
    "MISSING_PASSWORD": lambda n: (n.client("signUp", {"email": unique_email()}), 400),
    "INVALID_EMAIL": lambda n: (n.client("signUp", {"email": "not-an-email", "password": "secret-pw"}), 400),
    "WEAK_PASSWORD": lambda n: (n.client("signUp", {"email": unique_email(), "password": "12345"}), 400),
    "EMAIL_EXISTS": lambda n: (n.client("signUp", {"email": n.sign_up()["email"], "password": "secret-pw"}), 400),
    "UNEXPECTED_PARAMETER": lambda n: (n.client("signUp", {"email": unique_email(), "password": "secret-pw",
                                                           "localId": "chosen"}), 400),
    # accounts:signInWithPassword
    "INVALID_LOGIN_CREDENTIALS": lambda n: (n.client("signInWithPassword", {"email": n.sign_up()["email"],
                                                                            "password": "wrong-pw-1"}), 400),
    "USER_DISABLED": lambda n: (n.client("signInWithPassword", {"email": disabled_user(n)[0],
                                                                "password": "disabled-pw"}), 400),
    # accounts:lookup and every call that presents an ID token
    "MISSING_ID_TOKEN": lambda n: (n.client("lookup", {}), 400),
    "INVALID_ID_TOKEN": lambda n: (n.client("lookup", {"idToken": "not.a.jwt"}), 400),
    "TOKEN_EXPIRED": lambda n: (n.client("lookup", {"idToken": revoked_session(n)["idToken"]}), 400),
    "USER_NOT_FOUND": lambda n: (n.admin("POST", "accounts:delete", {"localId": "no-such-user"}), 400),
    # accounts:update
    "INVALID_REQ_TYPE": lambda n: (n.client("update", {"localId": "someone", "displayName": "x"}), 400),
    "INSUFFICIENT_PERMISSION": lambda n: (n.client("update", {"idToken": n.sign_up()["idToken"],
                                                              "customAttributes": "{}"}), 400),
    "OPERATION_NOT_ALLOWED": lambda n: (n.client("update", {"idToken": n.sign_up()["idToken"],
                                                            "disableUser": True}), 400),
    "MISSING_LOCAL_ID": lambda n: (n.admin("POST", "accounts:update", {"displayName": "x"}), 400),
    "CLAIMS_TOO_LARGE": lambda n: (n.admin("POST", "accounts:update", {
        "localId": n.sign_up()["localId"], "customAttributes": json.dumps({"k": "v" * 1000})}), 400),
    "INVALID_CLAIMS": lambda n: (n.admin("POST", "accounts:update", {"localId": n.sign_up()["localId"],
                                                                     "customAttributes": "[1, 2]"}), 400),
    "FORBIDDEN_CLAIM": lambda n: (n.admin("POST", "accounts:update", {"localId": n.sign_up()["localId"],
                                                                      "customAttributes": '{"firebase": 1}'}), 400),
    # Admin create
    "DUPLICATE_LOCAL_ID": lambda n: (n.admin("POST", "accounts", {"localId": n.sign_up()["localId"]}), 400),
    "INVALID_LOCAL_ID": lambda n: (n.admin("POST", "accounts", {"localId": "x" * 129}), 400),
    "INVALID_PHONE_NUMBER": lambda n: (n.admin("POST", "accounts", {"phoneNumber": "555-0100"}), 400),
    "PHONE_NUMBER_EXISTS": lambda n: (
        n.admin("POST", "accounts", {"phoneNumber": "+15555550199"}) and
        n.admin("POST", "accounts", {"phoneNumber": "+15555550199"}), 400),
    # accounts:sendOobCode, resetPassword, signInWithEmailLink
    "MISSING_REQ_TYPE": lambda n: (n.client("sendOobCode", {"email": unique_email()}), 400),
    "INVALID_CONTINUE_URI": lambda n: (n.client("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": unique_email(),
                                                                "continueUrl": "not a url"}), 400),
    "EMAIL_NOT_FOUND": lambda n: (n.admin("POST", "accounts:sendOobCode", {
        "requestType": "PASSWORD_RESET", "email": unique_email(), "returnOobLink": True}), 400),
    "MISSING_OOB_CODE": lambda n: (n.client("resetPassword", {"newPassword": "new-secret"}), 400),
    "INVALID_OOB_CODE": lambda n: (n.client("resetPassword", {"oobCode": "nope", "newPassword": "new-secret"}), 400),
    # accounts:signInWithCustomToken
    "MISSING_CUSTOM_TOKEN": lambda n: (n.client("signInWithCustomToken", {}), 400),
    "INVALID_CUSTOM_TOKEN": lambda n: (n.client("signInWithCustomToken", {
        "token": custom_token({"aud": "https://example.com", "uid": "u"})}), 400),
    "MISSING_IDENTIFIER": lambda n: (n.client("signInWithCustomToken", {"token": custom_token({"aud": AUDIENCE})}), 400),
    # securetoken token
    "MISSING_GRANT_TYPE": lambda n: (n.request("POST", "/securetoken.googleapis.com/v1/token", form={"refresh_token": "x"},
                                               query={"key": API_KEY}), 400),
    "INVALID_GRANT_TYPE": lambda n: (n.request("POST", "/securetoken.googleapis.com/v1/token",
                                               form={"grant_type": "password", "refresh_token": "x"},
                                               query={"key": API_KEY}), 400),
    "MISSING_REFRESH_TOKEN": lambda n: (n.request("POST", "/securetoken.googleapis.com/v1/token",
                                                  form={"grant_type": "refresh_token"}, query={"key": API_KEY}), 400),
    "INVALID_REFRESH_TOKEN": lambda n: (n.refresh("not-a-refresh-token"), 400),
    # Admin batch operations, session cookies, projects
    "LOCAL_ID_LIST_EXCEEDS_LIMIT": lambda n: (n.admin("POST", "accounts:batchDelete", {"localIds": []}), 400),
    "INVALID_DURATION": lambda n: (n.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}:createSessionCookie",
                                             {"idToken": n.sign_up()["idToken"], "validDuration": 60},
                                             headers={"Authorization": "Bearer owner"}), 400),
    "PROJECT_NOT_FOUND": lambda n: (n.request("POST", "/identitytoolkit.googleapis.com/v1/projects/bad%20id/accounts",
                                              {}, headers={"Authorization": "Bearer owner"}), 400),
    # Request-level errors from Google's front end
    "PERMISSION_DENIED": lambda n: (n.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp",
                                              {"email": unique_email(), "password": "secret-pw"}), 403),
    "UNAUTHENTICATED": lambda n: (n.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts",
                                            {}, headers={"Authorization": "Bearer not-the-owner"}), 401),
    "NOT_FOUND": lambda n: (n.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:noSuchThing",
                                      {}, query={"key": API_KEY}), 404),
}


@pytest.mark.parametrize("code", sorted(CASES))
def test_error_code(node, code):
    response, status = CASES[code](node)
    check(response, status, code)
    if status in (401, 403, 404):
        assert response.json()["error"]["status"] == code


def test_invalid_argument_for_a_body_that_is_not_json(node):
    response = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp", query={"key": API_KEY},
                            raw=b"{not json", headers={"Content-Type": "application/json"})
    check(response, 400, "INVALID_ARGUMENT")
    assert response.json()["error"]["status"] == "INVALID_ARGUMENT"
    assert response.json()["error"]["message"].startswith("Invalid JSON payload received.")
    typed = node.client("signUp", {"email": ["a list"], "password": "secret-pw"})
    check(typed, 400, "INVALID_ARGUMENT")


def test_error_shapes_match_the_firebase_emulator(node):
    """The 401 carries the location fields the emulator sends; a 400 has no `status`."""
    unauthenticated = node.request("GET", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/accounts:batchGet")
    check(unauthenticated, 401, "UNAUTHENTICATED")
    item = unauthenticated.json()["error"]["errors"][0]
    assert item["reason"] == "required" and item["location"] == "Authorization" and item["locationType"] == "header"
    weak = node.client("signUp", {"email": unique_email(), "password": "123"})
    assert weak.json()["error"] == {
        "code": 400, "message": "WEAK_PASSWORD : Password should be at least 6 characters",
        "errors": [{"message": "WEAK_PASSWORD : Password should be at least 6 characters", "domain": "global",
                    "reason": "invalid"}]}


def test_weak_password_is_checked_before_email_exists(node):
    taken = node.sign_up()["email"]
    check(node.client("signUp", {"email": taken, "password": "123"}), 400, "WEAK_PASSWORD")


def test_email_not_found_and_invalid_password_without_enumeration_protection(node):
    config = node.emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": False}})
    assert config.json()["emailPrivacyConfig"] == {"enableImprovedEmailPrivacy": False}
    try:
        check(node.client("signInWithPassword", {"email": unique_email(), "password": "whatever-1"}), 400,
              "EMAIL_NOT_FOUND")
        check(node.client("signInWithPassword", {"email": node.sign_up()["email"], "password": "whatever-2"}), 400,
              "INVALID_PASSWORD")
        check(node.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": unique_email()}), 400,
              "EMAIL_NOT_FOUND")
    finally:
        node.emulator("PATCH", "config", {"emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}})
    assert node.emulator("GET", "config").json() == {
        "signIn": {"allowDuplicateEmails": False}, "emailPrivacyConfig": {"enableImprovedEmailPrivacy": True}}
    check(node.emulator("PATCH", "config", {"signIn": {"allowDuplicateEmails": True}}), 400, "OPERATION_NOT_ALLOWED")


def test_not_disabled_in_batch_delete(node):
    uid = node.sign_up()["localId"]
    result = node.admin("POST", "accounts:batchDelete", {"localIds": [uid, "unknown-uid"]}).json()
    assert result == {"errors": [{"index": 0, "localId": uid,
                                  "message": "NOT_DISABLED : Disable the account before batch deletion."}]}
    assert node.admin("POST", "accounts:batchDelete", {"localIds": [uid], "force": True}).json() == {}


def test_too_many_attempts_per_email(node):
    email = node.sign_up()["email"]
    for attempt in range(5):
        check(node.client("signInWithPassword", {"email": email, "password": f"guess-{attempt}-{email}"}), 400,
              "INVALID_LOGIN_CREDENTIALS")
    check(node.client("signInWithPassword", {"email": email, "password": "secret-password"}), 400,
          "TOO_MANY_ATTEMPTS_TRY_LATER")
