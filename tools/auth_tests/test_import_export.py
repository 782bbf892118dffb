"""`import_users` with every hash algorithm Firebase imports, then a password sign-in with the original password (the
hashes computed here by Python's hashlib/hmac and pyca's bcrypt, independently of the service); export with hash and
salt (`list_users`), and an export re-imported into another project as STANDARD_SCRYPT; providers in an import;
batch delete; `accounts:query`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import uuid

import pytest

from conftest import API_KEY, PROJECT


def sign_in(node, email, password, project_path=None):
    return node.client("signInWithPassword", {"email": email, "password": password, "returnSecureToken": True})


def md5_rounds(salt: bytes, password: bytes, rounds: int) -> bytes:
    x = hashlib.md5(salt + password).digest()
    for _ in range(rounds):
        x = hashlib.md5(x + password).digest()
    return x.hex().encode()


def digest_rounds(name: str, salt: bytes, password: bytes, rounds: int) -> bytes:
    x = hashlib.new(name, salt + password).digest()
    for _ in range(1, max(rounds, 1)):
        x = hashlib.new(name, x).digest()
    return x


def algorithms(auth):
    """(name, UserImportHash, hash function of (password, salt)) for every algorithm; slow ones kept small."""
    hashes = auth.UserImportHash
    key = b"signer-key-" + os.urandom(8)
    import bcrypt
    return [
        ("MD5", hashes.md5(rounds=2), lambda p, s: md5_rounds(s, p, 2)),
        ("SHA1", hashes.sha1(rounds=1), lambda p, s: digest_rounds("sha1", s, p, 1)),
        ("SHA256", hashes.sha256(rounds=3), lambda p, s: digest_rounds("sha256", s, p, 3)),
        ("SHA512", hashes.sha512(rounds=5), lambda p, s: digest_rounds("sha512", s, p, 5)),
        ("HMAC_MD5", hashes.hmac_md5(key), lambda p, s: hmac.new(key, p + s, "md5").digest()),
        ("HMAC_SHA1", hashes.hmac_sha1(key), lambda p, s: hmac.new(key, p + s, "sha1").digest()),
        ("HMAC_SHA256", hashes.hmac_sha256(key), lambda p, s: hmac.new(key, p + s, "sha256").digest()),
        ("HMAC_SHA512", hashes.hmac_sha512(key), lambda p, s: hmac.new(key, p + s, "sha512").digest()),
        ("PBKDF_SHA1", hashes.pbkdf_sha1(rounds=1000), lambda p, s: hashlib.pbkdf2_hmac("sha1", p, s, 1000, 20)),
        ("PBKDF2_SHA256", hashes.pbkdf2_sha256(rounds=1000),
         lambda p, s: hashlib.pbkdf2_hmac("sha256", p, s, 1000, 32)),
        ("STANDARD_SCRYPT", hashes.standard_scrypt(memory_cost=1024, parallelization=1, block_size=8,
                                                   derived_key_length=32),
         lambda p, s: hashlib.scrypt(p, salt=s, n=1024, r=8, p=1, dklen=32)),
        ("BCRYPT", hashes.bcrypt(), lambda p, s: bcrypt.hashpw(p, bcrypt.gensalt(rounds=4))),
    ]


def test_import_each_algorithm_then_sign_in_with_the_original_password(firebase, node):
    auth = firebase
    for name, import_hash, compute in algorithms(auth):
        uid = f"imported-{name.lower()}-{uuid.uuid4().hex[:8]}"
        email = f"{uid}@example.com"
        password = f"pw-{name}-{uuid.uuid4().hex[:6]}".encode()
        salt = os.urandom(8)
        record = auth.ImportUserRecord(uid=uid, email=email, password_hash=compute(password, salt), password_salt=salt,
                                       display_name=name)
        result = auth.import_users([record], hash_alg=import_hash)
        assert (result.success_count, result.failure_count) == (1, 0), (name, [e.reason for e in result.errors])
        wrong = sign_in(node, email, f"wrong-{uuid.uuid4().hex[:8]}")
        assert wrong.error_code == "INVALID_LOGIN_CREDENTIALS", name
        signed = sign_in(node, email, password.decode())
        assert signed.status == 200, (name, signed.body)
        assert signed.json()["localId"] == uid
        # The first sign-in rehashed the password with the service's scrypt; it still works afterwards.
        assert sign_in(node, email, password.decode()).status == 200, name


def test_firebase_scrypt_import_with_the_published_vector(firebase, node):
    """Firebase's own modified scrypt, with the signer key, salt separator, rounds and memory cost of the vector in
    github.com/firebase/scrypt (and firebase-admin-node's import test)."""
    auth = firebase
    key = base64.b64decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")
    uid = "scrypt-" + uuid.uuid4().hex[:10]
    record = auth.ImportUserRecord(
        uid=uid, email=f"{uid}@example.com", password_salt=b"NaCl",
        password_hash=base64.b64decode("V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw=="))
    result = auth.import_users([record], hash_alg=auth.UserImportHash.scrypt(
        key=key, rounds=8, memory_cost=14, salt_separator=base64.b64decode("Bw==")))
    assert result.success_count == 1
    assert sign_in(node, f"{uid}@example.com", "password").status == 200


def test_import_with_providers_claims_and_per_user_errors(firebase, node):
    auth = firebase
    uid = "federated-" + uuid.uuid4().hex[:10]
    email = f"{uid}@example.com"
    records = [
        auth.ImportUserRecord(
            uid=uid, email=email, email_verified=True, display_name="Fed User", phone_number=None,
            custom_claims={"plan": "gold"},
            provider_data=[auth.UserProvider(uid=f"g-{uid}", provider_id="google.com", email=email,
                                             display_name="Google Fed"),
                           auth.UserProvider(uid=f"t-{uid}", provider_id="twitter.com", display_name="Tw")]),
    ]
    result = auth.import_users(records)
    assert result.success_count == 1 and result.failure_count == 0
    # Per-account errors (the SDK refuses reserved claims itself, so this one goes over REST) leave the rest.
    mixed = node.admin("POST", "accounts:batchCreate", {"users": [
        {"localId": "ok-" + uid}, {"localId": "bad-" + uid, "customAttributes": '{"sub":"x"}'},
        {"localId": "mail-" + uid, "email": "not-an-email"}]}).json()
    assert mixed["error"] == [{"index": 1, "message": "Custom claims provided include a reserved claim."},
                              {"index": 2, "message": "email is invalid"}]
    user = auth.get_user(uid)
    assert {p.provider_id for p in user.provider_data} == {"google.com", "twitter.com"}
    assert user.custom_claims == {"plan": "gold"}
    found = node.admin("POST", "accounts:lookup",
                       {"federatedUserId": [{"providerId": "google.com", "rawId": f"g-{uid}"}]}).json()
    assert found["users"][0]["localId"] == uid
    # A fake Google credential for the imported identity signs in to the imported account.
    idp = node.client("signInWithIdp", {
        "requestUri": "http://localhost", "returnSecureToken": True,
        "postBody": f'providerId=google.com&id_token={{"sub":"g-{uid}","email":"{email}","email_verified":true}}'})
    assert idp.status == 200 and idp.json()["localId"] == uid and idp.json()["isNewUser"] is False
    # Overwriting needs allowOverwrite; a uid listed twice is refused up front.
    again = node.admin("POST", "accounts:batchCreate", {"users": [{"localId": uid}]}).json()
    assert again["error"][0]["message"] == "localId belongs to an existing account - can not overwrite."
    twice = node.admin("POST", "accounts:batchCreate", {"users": [{"localId": "x1"}, {"localId": "x1"}]})
    assert twice.error_code == "DUPLICATE_LOCAL_ID"
    missing = node.admin("POST", "accounts:batchCreate", {"users": [{"localId": "h", "passwordHash": "aGFzaA=="}]})
    assert missing.error_code == "MISSING_HASH_ALGORITHM"
    bad_rounds = node.admin("POST", "accounts:batchCreate", {
        "hashAlgorithm": "SHA256", "rounds": 9000, "users": [{"localId": "h", "passwordHash": "aGFzaA=="}]})
    assert bad_rounds.error_code == "INVALID_HASH_ROUNDS"


def test_export_with_hash_and_salt_and_reimport_elsewhere(firebase, node):
    """`list_users` gives an administrator the scrypt hash and salt (Firebase's export); re-imported into another
    project as STANDARD_SCRYPT with the service's parameters (N = 2^15, r = 8, p = 1, 32 bytes) the user signs in
    there with the same password."""
    auth = firebase
    email = f"export-{uuid.uuid4().hex[:10]}@example.com"
    created = auth.create_user(email=email, password="export-password")
    exported = next(user for user in auth.list_users().iterate_all() if user.uid == created.uid)
    assert exported.password_hash and exported.password_salt
    salt = base64.b64decode(exported.password_salt)
    expected = hashlib.scrypt(b"export-password", salt=salt, n=1 << 15, r=8, p=1, dklen=32, maxmem=64 << 20)
    assert base64.b64decode(exported.password_hash) == expected
    # A client's lookup stays redacted, as production answers.
    token = sign_in(node, email, "export-password").json()["idToken"]
    assert node.client("lookup", {"idToken": token}).json()["users"][0]["passwordHash"] == "UkVEQUNURUQ="
    other = f"/identitytoolkit.googleapis.com/v1/projects/export-target-{uuid.uuid4().hex[:6]}"
    body = {"hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1 << 15, "blockSize": 8, "parallelization": 1,
            "dkLen": 32, "users": [{"localId": created.uid, "email": email, "passwordHash": exported.password_hash,
                                    "salt": exported.password_salt}]}
    imported = node.request("POST", f"{other}/accounts:batchCreate", body, headers={"Authorization": "Bearer owner"})
    assert imported.status == 200 and imported.json()["error"] == []
    # Before any sign-in, Firebase exports an imported foreign hash as "" (nothing to export in its own scheme).
    listed = node.request("GET", f"{other}/accounts:batchGet", headers={"Authorization": "Bearer owner"}).json()
    assert listed["users"][0]["passwordHash"] == ""
    # The same password signs in there (an administrator names the project with targetProjectId).
    signed = node.request("POST", "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
                          {"email": email, "password": "export-password", "targetProjectId": other.rsplit("/", 1)[1]},
                          headers={"Authorization": "Bearer owner"})
    assert signed.status == 200 and signed.json()["localId"] == created.uid


def test_batch_delete_and_query(firebase, node):
    auth = firebase
    uids = [auth.create_user(email=f"q-{uuid.uuid4().hex[:10]}@example.com").uid for _ in range(3)]
    auth.update_user(uids[0], disabled=True)
    result = auth.delete_users(uids[:2])
    assert result.success_count == 2 and result.failure_count == 0
    count = node.admin("POST", "accounts:query", {"returnUserInfo": False}).json()
    assert int(count["recordsCount"]) >= 1
    queried = node.admin("POST", "accounts:query", {"expression": [{"userId": uids[2]}]}).json()
    assert queried["recordsCount"] == "1" and queried["userInfo"][0]["localId"] == uids[2]
    descending = node.admin("POST", "accounts:query", {"sortBy": "USER_ID", "order": "DESC", "limit": 2}).json()
    ids = [user["localId"] for user in descending["userInfo"]]
    assert ids == sorted(ids, reverse=True) and len(ids) == 2
    legacy = node.request("POST", f"/identitytoolkit.googleapis.com/v1/projects/{PROJECT}:queryAccounts",
                          {"returnUserInfo": False}, headers={"Authorization": "Bearer owner"})
    assert legacy.status == 200


def test_import_refuses_hashes_it_could_not_check(node):
    """A bcrypt cost above 16 or a hash longer than 1024 bytes (whose check would take minutes) is a per-account error
    at import, not an account that can never sign in; the other accounts of the request are imported."""
    import bcrypt
    uid = "unchecked-" + uuid.uuid4().hex[:8]

    def b64(data: bytes) -> str:
        return base64.b64encode(data).decode()

    costly = bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)).replace(b"$04$", b"$17$", 1)
    result = node.admin("POST", "accounts:batchCreate", {"hashAlgorithm": "BCRYPT", "users": [
        {"localId": uid + "-a", "passwordHash": b64(costly)},
        {"localId": uid + "-b", "passwordHash": b64(bcrypt.hashpw(b"pw", bcrypt.gensalt(rounds=4)))}]}).json()
    assert [e["index"] for e in result["error"]] == [0] and "BCRYPT" in result["error"][0]["message"]
    long = node.admin("POST", "accounts:batchCreate", {"hashAlgorithm": "PBKDF2_SHA256", "rounds": 1000, "users": [
        {"localId": uid + "-c", "passwordHash": b64(os.urandom(1025)), "salt": b64(b"salt")},
        {"localId": uid + "-d", "passwordHash": b64(os.urandom(32)), "salt": b64(b"salt")}]}).json()
    assert [e["index"] for e in long["error"]] == [0] and "1-1024 bytes" in long["error"][0]["message"]
    found = node.admin("POST", "accounts:lookup", {"localId": [uid + "-b", uid + "-d", uid + "-a"]}).json()
    assert sorted(u["localId"] for u in found["users"]) == [uid + "-b", uid + "-d"]
