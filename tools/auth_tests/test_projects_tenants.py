"""Any project id, each with its own accounts; tenants through the Admin SDK's `tenant_mgt`, each with its own
accounts; OIDC and SAML provider configurations (`*_provider_config`) in a project and in a tenant."""

from __future__ import annotations

import uuid

import pytest

from conftest import API_KEY, PROJECT, decode_jwt


@pytest.fixture(scope="module")
def other_app(node, firebase):
    """A second Firebase app for another project id, against the same node."""
    import firebase_admin

    project = "second-" + uuid.uuid4().hex[:8]
    app = firebase_admin.initialize_app(options={"projectId": project}, name=project)
    yield project, app
    firebase_admin.delete_app(app)


def test_a_second_project_keeps_its_users_apart(firebase, node, other_app):
    auth = firebase
    project, app = other_app
    email = f"same-{uuid.uuid4().hex[:8]}@example.com"
    mine = auth.create_user(email=email, password="first-project-pw")
    theirs = auth.create_user(email=email, password="second-project-pw", app=app)
    assert mine.uid != theirs.uid
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(mine.uid, app=app)
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(theirs.uid)
    assert auth.get_user_by_email(email, app=app).uid == theirs.uid
    # The same uid may exist in both.
    auth.create_user(uid=mine.uid, app=app)
    # Custom tokens of the second project sign in there, and its ID tokens name it and verify with its app.
    custom = auth.create_custom_token(theirs.uid, {"tier": 2}, app=app).decode()
    signed = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken",
                          {"token": custom, "returnSecureToken": True, "targetProjectId": project},
                          headers={"Authorization": "Bearer owner"})
    assert signed.status == 200, signed.body
    claims = auth.verify_id_token(signed.json()["idToken"], app=app, check_revoked=True)
    assert claims["aud"] == project and claims["uid"] == theirs.uid and claims["tier"] == 2
    with pytest.raises(auth.InvalidIdTokenError):
        auth.verify_id_token(signed.json()["idToken"])
    # A client's calls (API key, no project in the path) go to the default project.
    first = node.client("signInWithPassword", {"email": email, "password": "first-project-pw"})
    assert first.status == 200 and first.json()["localId"] == mine.uid
    # Each project has its own email action codes.
    auth.generate_password_reset_link(email, app=app)
    codes = node.request("GET", f"/emulator/v1/projects/{project}/oobCodes").json()["oobCodes"]
    assert any(code["email"] == email for code in codes)
    node.request("DELETE", f"/emulator/v1/projects/{project}/accounts")
    assert list(auth.list_users(app=app).iterate_all()) == []
    assert auth.get_user(mine.uid).email == email


@pytest.fixture(scope="module")
def tenant_mgt(firebase, node):
    """firebase_admin.tenant_mgt with its HTTP client pointed at the node. The Python SDK (7.7.0) sends tenant
    management to https://identitytoolkit.googleapis.com/v2 with real credentials even with
    FIREBASE_AUTH_EMULATOR_HOST set (only `auth_for_tenant` follows the emulator host); giving its service the
    emulator's base URL and credential runs the SDK's own request building, parsing and error mapping here."""
    import threading

    import firebase_admin
    from firebase_admin import _http_client, _utils, tenant_mgt as module

    app = firebase_admin.get_app()
    service = module._TenantManagementService.__new__(module._TenantManagementService)
    service.app = app
    service.client = _http_client.JsonHttpClient(
        credential=_utils.EmulatorAdminCredentials(),
        base_url=f"http://{node.hostport}/identitytoolkit.googleapis.com/v2/projects/{PROJECT}",
        headers={"X-Client-Version": "Python/Admin/test"})
    service.tenant_clients = {}
    service.lock = threading.RLock()
    with app._lock:
        app._services[module._TENANT_MGT_ATTRIBUTE] = service
    return module


def test_tenant_management_and_tenant_users(firebase, node, tenant_mgt):
    auth = firebase
    tenant = tenant_mgt.create_tenant(display_name="Acme", allow_password_sign_up=True,
                                      enable_email_link_sign_in=False)
    assert tenant.display_name == "Acme" and tenant.allow_password_sign_up and not tenant.enable_email_link_sign_in
    assert tenant_mgt.get_tenant(tenant.tenant_id).display_name == "Acme"
    updated = tenant_mgt.update_tenant(tenant.tenant_id, display_name="Acme2", enable_email_link_sign_in=True)
    assert updated.display_name == "Acme2" and updated.enable_email_link_sign_in
    assert tenant.tenant_id in {t.tenant_id for t in tenant_mgt.list_tenants().iterate_all()}

    client = tenant_mgt.auth_for_tenant(tenant.tenant_id)
    email = f"tenant-{uuid.uuid4().hex[:8]}@example.com"
    inside = client.create_user(email=email, password="tenant-password")
    assert inside.tenant_id == tenant.tenant_id
    with pytest.raises(auth.UserNotFoundError):
        auth.get_user(inside.uid)
    outside = auth.create_user(email=email, password="project-password")
    assert client.get_user_by_email(email).uid == inside.uid
    # A tenant's client signs in with tenantId in the body; its ID token names the tenant.
    signed = node.client("signInWithPassword", {"email": email, "password": "tenant-password",
                                                "tenantId": tenant.tenant_id})
    assert signed.status == 200
    token = signed.json()["idToken"]
    assert decode_jwt(token)[1]["firebase"]["tenant"] == tenant.tenant_id
    claims = client.verify_id_token(token, check_revoked=True)
    assert claims["uid"] == inside.uid
    assert node.client("signInWithPassword", {"email": email, "password": "tenant-password"}).status == 400
    # A token of the tenant used with another tenant's path is refused.
    mismatch = node.request(
        "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/tenants/other-tenant/accounts:lookup",
        {"idToken": token}, headers={"Authorization": "Bearer owner"})
    assert mismatch.error_code == "TENANT_ID_MISMATCH"
    custom = client.create_custom_token(inside.uid).decode()
    assert node.client("signInWithCustomToken", {"token": custom, "tenantId": tenant.tenant_id}).status == 200
    wrong = node.client("signInWithCustomToken", {"token": custom, "tenantId": "another-tenant"})
    assert wrong.error_code == "TENANT_ID_MISMATCH"
    # The Python SDK has no tenant-scoped session cookies; the REST route is the one the Node SDK calls.
    cookie = node.request(
        "POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}/tenants/{tenant.tenant_id}:createSessionCookie",
        {"idToken": token, "validDuration": 3600}, headers={"Authorization": "Bearer owner"}).json()["sessionCookie"]
    cookie_claims = auth.verify_session_cookie(cookie)
    assert cookie_claims["uid"] == inside.uid and cookie_claims["firebase"]["tenant"] == tenant.tenant_id
    # A tenant that does not allow password sign-up refuses it.
    closed = tenant_mgt.create_tenant(display_name="Closed")
    refused = node.client("signUp", {"email": email, "password": "secret-pw", "tenantId": closed.tenant_id})
    assert refused.error_code == "OPERATION_NOT_ALLOWED"
    tenant_mgt.delete_tenant(closed.tenant_id)
    tenant_mgt.delete_tenant(tenant.tenant_id)
    with pytest.raises(tenant_mgt.TenantNotFoundError):
        tenant_mgt.delete_tenant(tenant.tenant_id)
    assert auth.get_user(outside.uid).email == email


def test_oidc_and_saml_provider_configs(firebase, node, tenant_mgt):
    auth = firebase
    oidc = auth.create_oidc_provider_config(
        "oidc.example", client_id="client-1", issuer="https://issuer.example.com", display_name="Example",
        enabled=True, client_secret="shh", code_response_type=True, id_token_response_type=False)
    assert (oidc.provider_id, oidc.client_id, oidc.issuer, oidc.enabled) == (
        "oidc.example", "client-1", "https://issuer.example.com", True)
    assert oidc.code_response_type is True and oidc.client_secret == "shh"
    assert auth.get_oidc_provider_config("oidc.example").display_name == "Example"
    updated = auth.update_oidc_provider_config("oidc.example", display_name="Renamed", enabled=False)
    assert updated.display_name == "Renamed" and updated.enabled is False and updated.client_id == "client-1"
    assert "oidc.example" in {c.provider_id for c in auth.list_oidc_provider_configs().iterate_all()}
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.missing")
    duplicate = node.request(
        "POST", f"/identitytoolkit.googleapis.com/v2/projects/{PROJECT}/oauthIdpConfigs?oauthIdpConfigId=oidc.example",
        {"clientId": "c", "issuer": "https://i.example.com"}, headers={"Authorization": "Bearer owner"})
    assert duplicate.status == 409 and duplicate.error_code == "CONFIGURATION_EXISTS"

    saml = auth.create_saml_provider_config(
        "saml.example", idp_entity_id="idp-entity", sso_url="https://idp.example.com/sso",
        x509_certificates=["-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"],
        rp_entity_id="rp-entity", callback_url="https://app.example.com/__/auth/handler", display_name="SAML",
        enabled=True)
    assert (saml.idp_entity_id, saml.sso_url, saml.rp_entity_id) == (
        "idp-entity", "https://idp.example.com/sso", "rp-entity")
    assert auth.update_saml_provider_config("saml.example", display_name="SAML2").display_name == "SAML2"
    assert [c.provider_id for c in auth.list_saml_provider_configs().iterate_all()] == ["saml.example"]
    auth.delete_saml_provider_config("saml.example")
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_saml_provider_config("saml.example")
    with pytest.raises(ValueError):
        auth.create_saml_provider_config("not-saml", idp_entity_id="x", sso_url="https://x.example.com",
                                         x509_certificates=["c"], rp_entity_id="r", callback_url="https://c.example.com")

    # A tenant has its own configurations.
    tenant = tenant_mgt.create_tenant(display_name="WithIdPs")
    client = tenant_mgt.auth_for_tenant(tenant.tenant_id)
    client.create_oidc_provider_config("oidc.tenant", client_id="t", issuer="https://t.example.com")
    assert [c.provider_id for c in client.list_oidc_provider_configs().iterate_all()] == ["oidc.tenant"]
    with pytest.raises(auth.ConfigurationNotFoundError):
        auth.get_oidc_provider_config("oidc.tenant")
    auth.delete_oidc_provider_config("oidc.example")
    tenant_mgt.delete_tenant(tenant.tenant_id)
