import AuthEmulator
import Foundation
import Testing

/// Projects and tenants kept apart, imports signing in, TOTP second factors and the legacy routes, in process
/// (`tools/auth_tests` drives the same through the Firebase Admin SDK over HTTP).
@Suite("realms, import, second factors")
struct AuthRealmTests {
    private func call(
        _ emulator: AuthEmulator, _ path: String, _ body: String = "{}", method: String = "POST",
        owner: Bool = false
    ) async throws -> (status: Int, json: JSON) {
        let response = await emulator.handle(
            AuthHTTPRequest(
                method: method, path: path, query: owner ? [:] : ["key": "k"],
                headers: owner ? ["authorization": "Bearer owner"] : [:], body: Array(body.utf8)))
        return (response.status, try JSON.parse(response.body.isEmpty ? Array("{}".utf8) : response.body))
    }

    @Test("two projects and a tenant hold the same email apart")
    func realmsApart() async throws {
        let emulator = try await makeEmulator()
        let body = #"{"email":"same@example.com","password":"secret-pw"}"#
        let first = try await call(emulator, "/identitytoolkit.googleapis.com/v1/projects/p-one/accounts", body, owner: true)
        let second = try await call(emulator, "/identitytoolkit.googleapis.com/v1/projects/p-two/accounts", body, owner: true)
        let tenant = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/tenants/t-1/accounts", body, owner: true)
        let uids = [first, second, tenant].compactMap { $0.json["localId"]?.string }
        #expect(Set(uids).count == 3)
        #expect(try await emulator.realm(AuthRealm(projectId: "p-one")).store.userCount() == 1)
        #expect(try await emulator.realm(AuthRealm(projectId: "demo-carchain", tenantId: "t-1")).store.userCount() == 1)
        #expect(try await emulator.store.userCount() == 0)
        let signIn = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword",
            #"{"email":"same@example.com","password":"secret-pw","tenantId":"t-1"}"#)
        let token = try #require(signIn.json["idToken"]?.string)
        let claims = try await emulator.realm(AuthRealm(projectId: "demo-carchain", tenantId: "t-1")).verifyIDToken(token)
        #expect(claims.firebase.tenant == "t-1" && claims.userId == uids[2])
        let mismatch = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/accounts:lookup", #"{"idToken":"\#(token)","tenantId":"t-2"}"#)
        #expect(mismatch.json["error"]?["message"] == .string("TENANT_ID_MISMATCH"))
    }

    @Test("an imported SHA256 hash signs in, is replaced by scrypt, and exports empty until then")
    func importThenSignIn() async throws {
        let emulator = try await makeEmulator()
        // sha256("NaCl" + "password"), one round: Python's `hashlib.sha256(b"NaClpassword")`, base64.
        let body = #"""
            {"hashAlgorithm":"SHA256","rounds":1,"users":[{"localId":"imp-1","email":"imp@example.com",
            "salt":"TmFDbA==","passwordHash":"sgq3SqJUn34ToOiGy0RxzC5w/NLOgHXA7mSDq7phMvM="}]}
            """#
        let imported = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/accounts:batchCreate", body, owner: true)
        #expect(imported.json["error"] == .array([]))
        let exported = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/accounts:batchGet", method: "GET", owner: true)
        #expect(exported.json["users"]?[0]?["passwordHash"] == .string(""))
        let wrong = await serviceError {
            try await emulator.signInWithPassword(.init(email: "imp@example.com", password: "Password"))
        }
        #expect(wrong?.code == .invalidLoginCredentials)
        _ = try await emulator.signInWithPassword(.init(email: "imp@example.com", password: "password"))
        let user = try #require(try await emulator.store.user(uid: "imp-1"))
        #expect(user.importedPassword == nil && user.passwordHash != nil)
        let after = try await call(
            emulator, "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/accounts:batchGet", method: "GET", owner: true)
        #expect(after.json["users"]?[0]?["salt"]?.string?.isEmpty == false)
        _ = try await emulator.signInWithPassword(.init(email: "imp@example.com", password: "password"))
    }

    @Test("TOTP: enroll with the secret's code, then sign in with a pending credential and the next code")
    func totp() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        let created = try await emulator.createAccount(
            .init(email: "mfa@example.com", password: "secret-pw", emailVerified: true))
        let session = try await emulator.signInWithPassword(.init(email: "mfa@example.com", password: "secret-pw"))
        let v2 = "/identitytoolkit.googleapis.com/v2/accounts/"
        let start = try await call(
            emulator, v2 + "mfaEnrollment:start", #"{"idToken":"\#(session.idToken)","totpEnrollmentInfo":{}}"#)
        let secretText = try #require(start.json["totpSessionInfo"]?["sharedSecretKey"]?.string)
        let sessionInfo = try #require(start.json["totpSessionInfo"]?["sessionInfo"]?.string)
        let secret = try #require(TOTP.decodeBase32(secretText))
        let now = Int64(clock.now().timeIntervalSince1970)
        let enrolled = try await call(
            emulator, v2 + "mfaEnrollment:finalize",
            #"{"idToken":"\#(session.idToken)","displayName":"app","totpVerificationInfo":{"sessionInfo":"\#(sessionInfo)","verificationCode":"\#(TOTP.code(secret: secret, at: now))"}}"#)
        let enrolledToken = try #require(enrolled.json["idToken"]?.string)
        #expect(try await emulator.verifyIDToken(enrolledToken).firebase.signInSecondFactor == "totp")
        let pending = try await call(
            emulator, FirebaseAuthEndpoint.signInWithPassword.path, #"{"email":"mfa@example.com","password":"secret-pw"}"#)
        #expect(pending.json["idToken"] == nil)
        let credential = try #require(pending.json["mfaPendingCredential"]?.string)
        let enrollment = try #require(pending.json["mfaInfo"]?[0]?["mfaEnrollmentId"]?.string)
        clock.advance(by: 90)
        let later = TOTP.code(secret: secret, at: now + 90)
        let finalize = #"{"mfaPendingCredential":"\#(credential)","mfaEnrollmentId":"\#(enrollment)","totpVerificationInfo":{"verificationCode":"\#(later)"}}"#
        let done = try await call(emulator, v2 + "mfaSignIn:finalize", finalize)
        let claims = try await emulator.verifyIDToken(try #require(done.json["idToken"]?.string))
        #expect(claims.userId == created.localId && claims.firebase.secondFactorIdentifier == enrollment)
        let reused = try await call(emulator, v2 + "mfaSignIn:finalize", finalize)
        #expect(reused.json["error"]?["message"] == .string("INVALID_MFA_PENDING_CREDENTIAL"))
    }

    @Test("legacy v3 routes reach the v1 operations on both hosts; unknown ones are 404")
    func legacyRoutes() async throws {
        let emulator = try await makeEmulator()
        for prefix in ["/www.googleapis.com/identitytoolkit/v3/relyingparty/", "/identitytoolkit.googleapis.com/v3/relyingparty/"] {
            let email = "legacy\(prefix.count)@example.com"
            let created = try await call(emulator, prefix + "signupNewUser", #"{"email":"\#(email)","password":"secret-pw"}"#)
            #expect(created.status == 200)
            let signed = try await call(emulator, prefix + "verifyPassword", #"{"email":"\#(email)","password":"secret-pw"}"#)
            let token = try #require(signed.json["idToken"]?.string)
            let info = try await call(emulator, prefix + "getAccountInfo", #"{"idToken":"\#(token)"}"#)
            #expect(info.json["users"]?[0]?["email"] == .string(email))
            #expect(try await call(emulator, prefix + "noSuchMethod").status == 404)
            #expect(try await call(emulator, prefix + "signOutUser").status == 501)
        }
    }
}

