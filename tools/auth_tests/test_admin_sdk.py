"""The Firebase Admin SDK (firebase-admin, FIREBASE_AUTH_EMULATOR_HOST) against `carchain node`, unchanged: user
management, custom claims, email action links and their flows, revocation, custom tokens, ID token verification
and session cookies."""

from __future__ import annotations

import subprocess
import time
import urllib.parse

import pytest

from conftest import API_KEY, Node, decode_jwt, unique_email
from pytest_support import carchain_binary


def test_create_get_update_delete_user(firebase, node):
    auth = firebase
    email = unique_email("Admin")
    user = auth.create_user(email=email, password="secret-password", display_name="Ada",
                            phone_number="+15555550100", photo_url="https://example.com/ada.png")
    assert len(user.uid) == 28
    assert user.email == email.lower()
    assert user.display_name == "Ada"
    assert user.phone_number == "+15555550100"
    assert user.photo_url == "https://example.com/ada.png"
    assert user.email_verified is False and user.disabled is False
    assert user.user_metadata.creation_timestamp > 0
    assert {p.provider_id for p in user.provider_data} == {"password", "phone"}

    assert auth.get_user(user.uid).email == email.lower()
    assert auth.get_user_by_email(email).uid == user.uid
    assert auth.get_user_by_phone_number("+15555550100").uid == user.uid

    updated = auth.update_user(user.uid, display_name=auth.DELETE_ATTRIBUTE, email_verified=True, disabled=True,
                               photo_url=auth.DELETE_ATTRIBUTE, phone_number=auth.DELETE_ATTRIBUTE)
    assert updated.display_name is None and updated.photo_url is None and updated.phone_number is None
    assert updated.email_verified is True and updated.disabled is True

    # A disabled account cannot sign in; enabling it again restores sign-in.
    signin = node.client("signInWithPassword", {"email": email, "password": "secret-password",
                                                "returnSecureToken": True})
    assert signin.error_code == "USER_DISABLED"
    auth.update_user(user.uid, disabled=False, password="another-password")
    assert node.client("signInWithPassword", {"email": email, "password": "another-password"}).status == 200

    auth.delete_user(user.uid)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(user.uid)
    with pytest.raises(auth.UserNotFoundError):
        auth.delete_user(user.uid)


def test_create_user_with_chosen_uid_and_duplicates(firebase):
    auth = firebase
    uid = "backend-chosen-" + unique_email()[5:17]
    email = unique_email()
    auth.create_user(uid=uid, email=email)
    assert auth.get_user(uid).email == email
    with pytest.raises(auth.UidAlreadyExistsError):
        auth.create_user(uid=uid)
    with pytest.raises(auth.EmailAlreadyExistsError):
        auth.create_user(email=email)
    auth.update_user(uid, phone_number="+15555550111")
    with pytest.raises(auth.PhoneNumberAlreadyExistsError):
        auth.create_user(phone_number="+15555550111")
    auth.delete_user(uid)


def test_get_users_by_identifiers(firebase):
    auth = firebase
    a = auth.create_user(email=unique_email())
    b = auth.create_user(phone_number="+15555550122")
    result = auth.get_users([auth.UidIdentifier(a.uid), auth.PhoneIdentifier("+15555550122"),
                             auth.EmailIdentifier(unique_email())])
    assert {u.uid for u in result.users} == {a.uid, b.uid}
    assert len(result.not_found) == 1
    auth.delete_users([a.uid, b.uid])


def test_list_users_pages_over_1000(firebase, node):
    auth = firebase
    node.emulator("DELETE", "accounts")
    created = {auth.create_user(email=unique_email("list")).uid for _ in range(1050)}
    page = auth.list_users()
    assert len(page.users) == 1000 and page.has_next_page
    second = page.get_next_page()
    assert len(second.users) == 50 and not second.has_next_page
    uids = [u.uid for u in auth.list_users().iterate_all()]
    assert set(uids) == created and len(uids) == 1050
    assert uids == sorted(uids)
    small = auth.list_users(max_results=7)
    assert len(small.users) == 7 and small.next_page_token == small.users[-1].uid

    # delete_users in batches of at most 1000.
    ordered = sorted(created)
    result = auth.delete_users(ordered[:1000])
    assert result.success_count == 1000 and result.failure_count == 0
    auth.delete_users(ordered[1000:])
    assert list(auth.list_users().iterate_all()) == []


def test_custom_claims_reach_id_tokens(firebase, node):
    auth = firebase
    email = unique_email()
    signed_up = node.sign_up(email)
    uid = signed_up["localId"]
    auth.set_custom_user_claims(uid, {"role": "manager", "level": 3})
    assert auth.get_user(uid).custom_claims == {"role": "manager", "level": 3}
    # Claims apply to tokens minted after they were set: refresh.
    refreshed = node.refresh(signed_up["refreshToken"]).json()
    claims = auth.verify_id_token(refreshed["id_token"])
    assert claims["role"] == "manager" and claims["level"] == 3
    assert claims["uid"] == uid and claims["email"] == email.lower()
    assert claims["firebase"]["sign_in_provider"] == "password"
    assert claims["firebase"]["identities"] == {"email": [email.lower()]}
    assert claims["auth_time"] <= claims["iat"]
    with pytest.raises(ValueError):
        auth.set_custom_user_claims(uid, {"sub": "x"})  # reserved: the SDK refuses it itself
    auth.set_custom_user_claims(uid, None)
    assert auth.get_user(uid).custom_claims is None


def test_password_reset_link_and_its_flow(firebase, node):
    auth = firebase
    email = unique_email()
    session = node.sign_up(email, "old-password")
    link = auth.generate_password_reset_link(email)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(link).query))
    assert link.startswith(f"http://{node.hostport}/emulator/action?")
    assert query["mode"] == "resetPassword" and query["oobCode"]
    # Following the link as the emulator's page is followed: GET with newPassword.
    parsed = urllib.parse.urlparse(link)
    page = node.request("GET", parsed.path + "?" + parsed.query + "&newPassword=brand-new-pw")
    assert page.status == 200, page.body
    assert page.json()["authEmulator"]["success"].startswith("The password has been successfully updated")
    assert node.client("signInWithPassword", {"email": email, "password": "brand-new-pw"}).status == 200
    assert node.client("signInWithPassword", {"email": email, "password": "old-password"}).error_code == \
        "INVALID_LOGIN_CREDENTIALS"
    # The code is used up; the reset revoked the old session.
    again = node.request("GET", parsed.path + "?" + parsed.query + "&newPassword=other-password")
    assert again.status == 400
    assert node.refresh(session["refreshToken"]).error_code in ("TOKEN_EXPIRED", "INVALID_REFRESH_TOKEN")
    assert auth.get_user_by_email(email).email_verified is True


def test_email_verification_link_and_its_flow(firebase, node):
    auth = firebase
    email = unique_email()
    node.sign_up(email)
    link = auth.generate_email_verification_link(email, auth.ActionCodeSettings(url="https://app.example.com/done"))
    parsed = urllib.parse.urlparse(link)
    query = dict(urllib.parse.parse_qsl(parsed.query))
    assert query["mode"] == "verifyEmail" and query["continueUrl"] == "https://app.example.com/done"
    page = node.request("GET", parsed.path + "?" + parsed.query)
    assert page.status == 303 and page.headers["location"] == "https://app.example.com/done"
    assert auth.get_user_by_email(email).email_verified is True
    with pytest.raises(auth.UserNotFoundError):
        auth.generate_email_verification_link(unique_email())
    with pytest.raises(auth.EmailNotFoundError):
        auth.generate_password_reset_link(unique_email())


def test_sign_in_with_email_link(firebase, node):
    auth = firebase
    email = unique_email()
    link = auth.generate_sign_in_with_email_link(
        email, auth.ActionCodeSettings(url="https://app.example.com/finish", handle_code_in_app=True))
    parsed = urllib.parse.urlparse(link)
    page = node.request("GET", parsed.path + "?" + parsed.query)
    assert page.status == 303
    redirected = dict(urllib.parse.parse_qsl(urllib.parse.urlparse(page.headers["location"]).query))
    assert redirected["mode"] == "signIn"
    response = node.client("signInWithEmailLink", {"email": email, "oobCode": redirected["oobCode"]})
    assert response.status == 200, response.body
    body = response.json()
    assert body["isNewUser"] is True and body["email"] == email.lower()
    claims = auth.verify_id_token(body["idToken"])
    assert claims["email_verified"] is True
    user = auth.get_user(body["localId"])
    assert user.email_verified is True


def test_link_domain_is_refused_as_firebase_refuses_an_unconfigured_one(firebase, node):
    # Firebase takes a linkDomain only when it is a custom domain of the project's Hosting; an emulated project has no
    # Hosting, so every linkDomain gets the answer real Firebase gives for one it does not serve (the Admin SDK maps it).
    auth = firebase
    email = unique_email()
    auth.create_user(email=email)
    settings = auth.ActionCodeSettings("https://app.example.com/finish", handle_code_in_app=True, link_domain="cool.link")
    with pytest.raises(auth.InvalidHostingLinkDomainError) as raised:
        auth.generate_sign_in_with_email_link(email, action_code_settings=settings)
    assert "(INVALID_HOSTING_LINK_DOMAIN)" in str(raised.value)
    assert "This cannot be a default hosting domain (web.app or firebaseapp.com)." in str(raised.value)
    # Without linkDomain the same request makes a link.
    assert auth.generate_sign_in_with_email_link(
        email, auth.ActionCodeSettings("https://app.example.com/finish", handle_code_in_app=True)).startswith("http://")


def test_project_id_option_names_the_project_of_api_key_calls(firebase, node):
    # `--project-id` is what `firebase emulators:start --project` is: the project an API-key call (no project in its
    # path) signs in to, so an Admin SDK app initialised for that project verifies the ID tokens.
    import firebase_admin

    other = Node(carchain_binary(), "--project-id", "carchain-it", "--no-app")
    try:
        app = firebase_admin.initialize_app(options={"projectId": "carchain-it"}, name="carchain-it")
        try:
            token = firebase.create_custom_token("it-user", app=app).decode()
            response = other.client("signInWithCustomToken", {"token": token, "returnSecureToken": True})
            assert response.status == 200, response.body
            id_token = response.json()["idToken"]
            _, payload = decode_jwt(id_token)
            assert payload["aud"] == "carchain-it"
            assert payload["iss"] == "https://securetoken.google.com/carchain-it"
            assert firebase.verify_id_token(id_token, app=app)["uid"] == "it-user"
            with pytest.raises(firebase.InvalidIdTokenError):
                firebase.verify_id_token(id_token)  # the default app is demo-carchain's
        finally:
            firebase_admin.delete_app(app)
    finally:
        other.stop()
    bad = subprocess.run([str(carchain_binary()), "node", "--ephemeral", "--port", "0", "--project-id", "no/slash"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode != 0 and "--project-id" in bad.stderr and bad.stdout == ""


def test_revoke_refresh_tokens_and_check_revoked(firebase, node):
    auth = firebase
    session = node.sign_up()
    uid = session["localId"]
    claims = auth.verify_id_token(session["idToken"], check_revoked=True)
    assert claims["uid"] == uid
    time.sleep(1.1)  # validSince has one-second resolution: revoke strictly after the token's iat
    auth.revoke_refresh_tokens(uid)
    assert auth.get_user(uid).tokens_valid_after_timestamp > claims["iat"] * 1000
    assert auth.verify_id_token(session["idToken"])["uid"] == uid  # not checking revocation: still valid
    with pytest.raises(auth.RevokedIdTokenError):
        auth.verify_id_token(session["idToken"], check_revoked=True)
    assert node.refresh(session["refreshToken"]).error_code == "TOKEN_EXPIRED"
    assert node.client("lookup", {"idToken": session["idToken"]}).error_code == "TOKEN_EXPIRED"
    # Disabled accounts fail check_revoked too.
    fresh = node.sign_up()
    auth.update_user(fresh["localId"], disabled=True)
    with pytest.raises(auth.UserDisabledError):
        auth.verify_id_token(fresh["idToken"], check_revoked=True)


def test_custom_token_sign_in(firebase, node):
    auth = firebase
    uid = "custom-" + unique_email()[5:17]
    token = auth.create_custom_token(uid, {"plan": "gold"})
    header, payload = decode_jwt(token.decode())
    assert header["alg"] == "none"  # what the Admin SDK mints in emulator mode
    response = node.client("signInWithCustomToken", {"token": token.decode(), "returnSecureToken": True})
    assert response.status == 200, response.body
    body = response.json()
    assert body["isNewUser"] is True
    claims = auth.verify_id_token(body["idToken"], check_revoked=True)
    assert claims["uid"] == uid and claims["plan"] == "gold"
    assert claims["firebase"]["sign_in_provider"] == "custom"
    # The developer claims survive a refresh; a second sign-in is not a new user.
    refreshed = node.refresh(body["refreshToken"]).json()
    assert auth.verify_id_token(refreshed["id_token"])["plan"] == "gold"
    again = node.client("signInWithCustomToken", {"token": token.decode()}).json()
    assert again["isNewUser"] is False
    assert auth.get_user(uid).uid == uid


def test_session_cookie(firebase, node):
    auth = firebase
    session = node.sign_up()
    cookie = auth.create_session_cookie(session["idToken"], expires_in=3600)
    claims = auth.verify_session_cookie(cookie, check_revoked=True)
    assert claims["uid"] == session["localId"]
    header, payload = decode_jwt(cookie)
    assert payload["iss"] == "https://session.firebase.google.com/demo-carchain"
    assert payload["exp"] - payload["iat"] == 3600
    assert header["alg"] == "RS256"


def test_verify_id_token_rejects_other_projects_and_custom_tokens(firebase, node):
    auth = firebase
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(auth.create_custom_token("someone"))
    session = node.sign_up()
    claims = auth.verify_id_token(session["idToken"])
    assert claims["aud"] == "demo-carchain" and claims["iss"] == "https://securetoken.google.com/demo-carchain"
    assert claims["sub"] == session["localId"] and claims["exp"] - claims["iat"] == 3600
