"""Plain REST calls shaped exactly like the Firebase JS SDK's (packages/auth/src/api in firebase-js-sdk): JSON
POSTs to /identitytoolkit.googleapis.com/v1/accounts:<op>?key=<apiKey> with `returnSecureToken` and
`clientType`, and the form-encoded Secure Token refresh. Each test follows one user-facing flow."""

from __future__ import annotations

import urllib.parse

from conftest import API_KEY, decode_jwt, unique_email

WEB = {"clientType": "CLIENT_TYPE_WEB"}


def test_sign_up_sign_in_reload_refresh(node):
    email = unique_email("Js")
    # createUserWithEmailAndPassword
    response = node.client("signUp", {"returnSecureToken": True, "email": email, "password": "js-password", **WEB})
    assert response.status == 200
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"kind", "idToken", "email", "refreshToken", "expiresIn", "localId"}
    assert body["kind"] == "identitytoolkit#SignupNewUserResponse" and body["expiresIn"] == "3600"
    assert body["email"] == email.lower()
    # signInWithEmailAndPassword
    signin = node.client("signInWithPassword",
                         {"returnSecureToken": True, "email": email, "password": "js-password", **WEB}).json()
    assert signin["registered"] is True and signin["localId"] == body["localId"]
    assert signin["kind"] == "identitytoolkit#VerifyPasswordResponse"
    # user.reload()
    lookup = node.client("lookup", {"idToken": signin["idToken"]}).json()
    user = lookup["users"][0]
    assert user["localId"] == body["localId"] and user["email"] == email.lower()
    assert user["providerUserInfo"][0]["providerId"] == "password"
    assert isinstance(user["passwordUpdatedAt"], int) and isinstance(user["createdAt"], str)
    # getIdToken(true): the refresh token rotates; the used one is gone.
    refreshed = node.refresh(signin["refreshToken"])
    assert refreshed.status == 200
    token = refreshed.json()
    assert set(token) == {"access_token", "expires_in", "token_type", "refresh_token", "id_token", "user_id",
                          "project_id"}
    assert token["refresh_token"] != signin["refreshToken"] and token["user_id"] == body["localId"]
    assert decode_jwt(token["id_token"])[1]["auth_time"] == decode_jwt(signin["idToken"])[1]["auth_time"]
    assert node.refresh(token["refresh_token"]).status == 200


def test_refresh_token_reuse_revokes_the_session(node):
    session = node.sign_up()
    first = node.refresh(session["refreshToken"]).json()
    # Someone replays the used token: refused, and the whole session (including the token that replaced it) ends.
    assert node.refresh(session["refreshToken"]).error_code == "INVALID_REFRESH_TOKEN"
    assert node.refresh(first["refresh_token"]).error_code == "INVALID_REFRESH_TOKEN"
    # Other sessions of the account are untouched.
    other = node.client("signInWithPassword", {"email": decode_jwt(session["idToken"])[1]["email"],
                                               "password": "secret-password", "returnSecureToken": True}).json()
    assert node.refresh(other["refreshToken"]).status == 200


def test_update_profile_email_password(node):
    session = node.sign_up(password="first-password")
    # updateProfile({displayName, photoURL})
    profile = node.client("update", {"idToken": session["idToken"], "displayName": "Grace",
                                     "photoUrl": "https://example.com/g.png", "returnSecureToken": True}).json()
    assert profile["displayName"] == "Grace" and profile["photoUrl"] == "https://example.com/g.png"
    assert "idToken" not in profile  # nothing was revoked
    # updateProfile({displayName: null}) sends deleteAttribute
    cleared = node.client("update", {"idToken": session["idToken"], "deleteAttribute": ["DISPLAY_NAME"],
                                     "returnSecureToken": True}).json()
    assert "displayName" not in cleared and cleared["photoUrl"] == "https://example.com/g.png"
    # updatePassword: fresh tokens come back; other sessions and the old ID token are revoked.
    other = node.client("signInWithPassword", {"email": profile["email"], "password": "first-password"}).json()
    changed = node.client("update", {"idToken": session["idToken"], "password": "second-password",
                                     "returnSecureToken": True})
    assert changed.status == 200, changed.body
    changed = changed.json()
    assert changed["idToken"] and changed["refreshToken"] and changed["expiresIn"] == "3600"
    assert node.refresh(other["refreshToken"]).error_code == "TOKEN_EXPIRED"
    assert node.refresh(changed["refreshToken"]).status == 200
    assert node.client("signInWithPassword", {"email": profile["email"], "password": "second-password"}).status == 200
    # updateEmail
    new_email = unique_email("Moved")
    moved = node.client("update", {"idToken": changed["idToken"], "email": new_email, "returnSecureToken": True}).json()
    assert moved["email"] == new_email.lower() and moved["emailVerified"] is False
    assert node.client("lookup", {"idToken": moved["idToken"]}).json()["users"][0]["email"] == new_email.lower()


def test_password_reset_by_email(node):
    email = unique_email()
    node.sign_up(email, "forgotten-pw")
    # sendPasswordResetEmail
    sent = node.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": email, **WEB})
    assert sent.status == 200 and sent.json() == {"kind": "identitytoolkit#GetOobConfirmationCodeResponse",
                                                  "email": email.lower()}
    (code,) = node.oob_codes(email)
    assert code["requestType"] == "PASSWORD_RESET"
    # verifyPasswordResetCode, then confirmPasswordReset
    check = node.client("resetPassword", {"oobCode": code["oobCode"]}).json()
    assert check == {"kind": "identitytoolkit#ResetPasswordResponse", "requestType": "PASSWORD_RESET",
                     "email": email.lower()}
    done = node.client("resetPassword", {"oobCode": code["oobCode"], "newPassword": "remembered-pw"})
    assert done.status == 200 and done.json()["email"] == email.lower()
    assert node.client("signInWithPassword", {"email": email, "password": "remembered-pw"}).status == 200
    assert node.client("resetPassword", {"oobCode": code["oobCode"], "newPassword": "x" * 8}).error_code == \
        "INVALID_OOB_CODE"
    assert node.oob_codes(email) == []
    # Email enumeration protection (on by default): an unknown email gets the same answer and no code.
    ghost = unique_email()
    unknown = node.client("sendOobCode", {"requestType": "PASSWORD_RESET", "email": ghost})
    assert unknown.status == 200 and unknown.json()["email"] == ghost.lower() and node.oob_codes(ghost) == []


def test_email_verification(node):
    session = node.sign_up()
    # sendEmailVerification
    sent = node.client("sendOobCode", {"requestType": "VERIFY_EMAIL", "idToken": session["idToken"], **WEB})
    assert sent.status == 200
    (code,) = node.oob_codes(session["email"])
    assert "mode=verifyEmail" in code["oobLink"]
    # applyActionCode
    applied = node.client("update", {"oobCode": code["oobCode"]}).json()
    assert applied["emailVerified"] is True and applied["email"] == session["email"]
    lookup = node.client("lookup", {"idToken": session["idToken"]}).json()["users"][0]
    assert lookup["emailVerified"] is True


def test_email_link_sign_in(node):
    email = unique_email()
    # sendSignInLinkToEmail
    sent = node.client("sendOobCode", {"requestType": "EMAIL_SIGNIN", "email": email, "canHandleCodeInApp": True,
                                       "continueUrl": "https://app.example.com/finish", **WEB})
    assert sent.status == 200
    (code,) = node.oob_codes(email)
    link = urllib.parse.urlparse(code["oobLink"])
    query = dict(urllib.parse.parse_qsl(link.query))
    assert query["mode"] == "signIn" and query["continueUrl"] == "https://app.example.com/finish"
    # checkActionCode does not reveal an email-link code's email.
    assert "email" not in node.client("resetPassword", {"oobCode": query["oobCode"]}).json()
    # signInWithEmailLink
    signin = node.client("signInWithEmailLink", {"email": email, "oobCode": query["oobCode"]})
    assert signin.status == 200
    body = signin.json()
    assert body["kind"] == "identitytoolkit#EmailLinkSigninResponse" and body["isNewUser"] is True
    user = node.client("lookup", {"idToken": body["idToken"]}).json()["users"][0]
    assert user["emailVerified"] is True and user["emailLinkSignin"] is True and "passwordHash" not in user


def test_delete_account(node):
    session = node.sign_up()
    # user.delete()
    deleted = node.client("delete", {"idToken": session["idToken"]})
    assert deleted.status == 200 and deleted.json() == {"kind": "identitytoolkit#DeleteAccountResponse"}
    assert node.client("lookup", {"idToken": session["idToken"]}).error_code == "USER_NOT_FOUND"
    assert node.refresh(session["refreshToken"]).error_code == "INVALID_REFRESH_TOKEN"


def test_sign_out_revokes_the_refresh_token(node):
    session = node.sign_up()
    out = node.client("revokeToken", {"providerId": "password", "tokenType": "REFRESH_TOKEN",
                                      "token": session["refreshToken"], "idToken": session["idToken"]})
    assert out.status == 200 and out.json() == {}
    assert node.refresh(session["refreshToken"]).error_code == "TOKEN_EXPIRED"


def test_api_key_in_header_and_cors(node):
    email = unique_email()
    response = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signUp",
                            {"email": email, "password": "header-key-pw", "returnSecureToken": True},
                            headers={"X-Goog-Api-Key": API_KEY, "Origin": "http://localhost:5173"})
    assert response.status == 200
    # Every origin by default, as anvil and Hardhat answer (carchain node --allow-origin restricts it).
    assert response.headers["access-control-allow-origin"] == "*"
    preflight = node.request("OPTIONS", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                             headers={"Origin": "http://localhost:5173",
                                      "Access-Control-Request-Method": "POST",
                                      "Access-Control-Request-Headers": "content-type,x-client-version"})
    assert preflight.status == 204
    assert preflight.headers["access-control-allow-origin"] == "*"
    assert "POST" in preflight.headers["access-control-allow-methods"]
    assert preflight.headers["access-control-allow-headers"] == "content-type,x-client-version"
