import AuthEmulator
import Foundation
import Testing

/// The administrator API the Admin SDKs call (`/v1/projects/{p}/…` with `Authorization: Bearer owner`), through
/// `handle(_:)` so routing and the access rules are exercised with the operations.
@Suite("administrator API: Bearer owner, accounts, paging, claims")
struct AuthAdminTests {
    private static let prefix = "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/"

    private func admin(
        _ emulator: AuthEmulator, _ resource: String, _ json: String = "{}", method: String = "POST",
        authorization: String? = "Bearer owner"
    ) async throws -> (status: Int, json: JSON) {
        var headers = ["content-type": "application/json"]
        if let authorization { headers["authorization"] = authorization }
        let response = await emulator.handle(
            AuthHTTPRequest(method: method, target: Self.prefix + resource, headers: headers, body: Array(json.utf8)))
        return (response.status, try JSON.parse(response.body))
    }

    @Test("create, look up by uid, email and phone, update, delete")
    func accountLifecycle() async throws {
        let emulator = try await makeEmulator()
        let created = try await admin(
            emulator, "accounts",
            #"{"email":"Ann@Example.com","password":"secret-pw","displayName":"Ann","phoneNumber":"+15550001","emailVerified":true}"#)
        #expect(created.status == 200)
        #expect(created.json.keys == ["kind", "localId", "email", "displayName"])
        let uid = try #require(created.json["localId"]?.string)
        for query in [#"{"localId":["\#(uid)"]}"#, #"{"email":["ann@example.com"]}"#, #"{"phoneNumber":["+15550001"]}"#] {
            let found = try await admin(emulator, "accounts:lookup", query)
            #expect(found.json["users"]?[0]?["localId"] == .string(uid), "\(query)")
            #expect(found.json["users"]?[0]?["emailVerified"] == .bool(true))
        }
        let none = try await admin(emulator, "accounts:lookup", #"{"localId":["nobody"]}"#)
        #expect(none.status == 200 && none.json.keys == ["kind"])

        let updated = try await admin(
            emulator, "accounts:update",
            #"{"localId":"\#(uid)","deleteAttribute":["DISPLAY_NAME"],"disableUser":true,"customAttributes":"{\"role\":\"manager\"}"}"#)
        #expect(updated.status == 200)
        let user = try #require(try await emulator.store.user(uid: uid))
        #expect(user.displayName == nil && user.disabled && user.customAttributes == #"{"role":"manager"}"#)

        let deleted = try await admin(emulator, "accounts:delete", #"{"localId":"\#(uid)"}"#)
        #expect(deleted.json == .object(["kind": .string("identitytoolkit#DeleteAccountResponse")]))
        #expect(try await admin(emulator, "accounts:delete", #"{"localId":"\#(uid)"}"#).json["error"]?["message"] == .string("USER_NOT_FOUND"))
    }

    @Test("accounts without email or password; chosen uids; duplicates")
    func variousAccounts() async throws {
        let emulator = try await makeEmulator()
        #expect(try await admin(emulator, "accounts", #"{"localId":"my-uid"}"#).status == 200)
        #expect(try await admin(emulator, "accounts", #"{"localId":"my-uid"}"#).json["error"]?["message"] == .string("DUPLICATE_LOCAL_ID"))
        let long = String(repeating: "u", count: 129)
        #expect(try await admin(emulator, "accounts", #"{"localId":"\#(long)"}"#).json["error"]?["message"]?.string?.hasPrefix("INVALID_LOCAL_ID") == true)
        #expect(try await admin(emulator, "accounts", #"{"phoneNumber":"+1555"}"#).status == 200)
        #expect(try await admin(emulator, "accounts", #"{"phoneNumber":"+1555"}"#).json["error"]?["message"] == .string("PHONE_NUMBER_EXISTS"))
        #expect(try await admin(emulator, "accounts", #"{"phoneNumber":"5550"}"#).json["error"]?["message"] == .string("INVALID_PHONE_NUMBER : Invalid format."))
        #expect(try await admin(emulator, "accounts", #"{"email":"x@example.com","password":"123"}"#).json["error"]?["message"]?.string?.hasPrefix("WEAK_PASSWORD") == true)
        let user = try #require(try await emulator.store.user(uid: "my-uid"))
        #expect(user.email == nil && user.passwordHash == nil && user.lastLoginAt == nil)
    }

    @Test("batchGet pages in uid order; nextPageToken only when more follow")
    func paging() async throws {
        let emulator = try await makeEmulator()
        var uids: [String] = []
        for index in 0..<45 {
            let created = try await emulator.createAccount(.init(email: "p\(index)@example.com", password: nil))
            uids.append(created.localId)
        }
        var seen: [String] = []
        var token: String?
        var pages = 0
        repeat {
            let page = try await emulator.batchGet(maxResults: "20", pageToken: token)
            seen += (page.users ?? []).map(\.localId)
            token = page.nextPageToken
            pages += 1
        } while token != nil
        #expect(pages == 3)
        #expect(seen == uids.sorted())
        #expect(try await emulator.batchGet(maxResults: nil, pageToken: nil).users?.count == 20)
        #expect(try await emulator.batchGet(maxResults: "5000", pageToken: nil).users?.count == 45)
        #expect(await serviceError { try await emulator.batchGet(maxResults: "many", pageToken: nil) }?.code == .invalidArgument)
        let last = try await emulator.batchGet(maxResults: "45", pageToken: nil)
        #expect(last.nextPageToken == nil)
    }

    @Test("batchDelete: NOT_DISABLED without force, unknown uids count as deleted, 1…1000 uids")
    func batchDelete() async throws {
        let emulator = try await makeEmulator()
        let enabled = try await emulator.createAccount(.init(email: "e@example.com", password: nil)).localId
        let disabled = try await emulator.createAccount(.init(email: "d@example.com", password: nil, disabled: true)).localId
        let result = try await emulator.batchDelete(.init(localIds: [enabled, "ghost", disabled], force: nil))
        #expect(result.errors == [.init(index: 0, localId: enabled, message: "NOT_DISABLED : Disable the account before batch deletion.")])
        #expect(try await emulator.store.user(uid: disabled) == nil)
        #expect(try await emulator.batchDelete(.init(localIds: [enabled], force: true)).errors == nil)
        #expect(await serviceError { try await emulator.batchDelete(.init(localIds: [], force: true)) }?.code == .localIDListExceedsLimit)
        let tooMany = (0...1000).map { "u\($0)" }
        #expect(await serviceError { try await emulator.batchDelete(.init(localIds: tooMany, force: true)) }?.code == .localIDListExceedsLimit)
    }

    @Test("access: Bearer owner is the administrator; other credentials 401; no key 403; other projects refused")
    func access() async throws {
        let emulator = try await makeEmulator()
        let wrong = try await admin(emulator, "accounts", authorization: "Bearer someone")
        #expect(wrong.status == 401)
        #expect(wrong.json["error"]?["status"] == .string("UNAUTHENTICATED"))
        #expect(wrong.json["error"]?["errors"]?[0]?["reason"] == .string("authError"))
        #expect(try await admin(emulator, "accounts", authorization: "Basic b3duZXI=").status == 401)
        #expect(try await admin(emulator, "accounts", authorization: "bearer OWNER").status == 200)
        let anonymous = try await admin(emulator, "accounts:batchGet", method: "GET", authorization: nil)
        #expect(anonymous.status == 401)
        #expect(anonymous.json["error"]?["errors"]?[0]?["reason"] == .string("required"))
        let noKey = try await admin(emulator, "accounts:lookup", #"{"localId":["x"]}"#, authorization: nil)
        #expect(noKey.status == 403)
        // A client with an API key may call lookup, but only for its own ID token.
        let keyOnly = await emulator.handle(
            AuthHTTPRequest(target: Self.prefix + "accounts:lookup?key=k", body: Array(#"{"localId":["x"]}"#.utf8)))
        #expect(try JSON.parse(keyOnly.body)["error"]?["message"] == .string("MISSING_ID_TOKEN"))
        // Any project id is served, with its own accounts; a malformed one is not a project.
        let other = await emulator.handle(
            AuthHTTPRequest(
                target: "/identitytoolkit.googleapis.com/v1/projects/other/accounts", headers: ["authorization": "Bearer owner"],
                body: Array(#"{"localId":"in-other"}"#.utf8)))
        #expect(other.status == 200)
        #expect(try await emulator.realm(AuthRealm(projectId: "other")).store.user(uid: "in-other") != nil)
        #expect(try await emulator.store.user(uid: "in-other") == nil)
        let malformed = await emulator.handle(
            AuthHTTPRequest(
                target: "/identitytoolkit.googleapis.com/v1/projects/bad%20id/accounts",
                headers: ["authorization": "Bearer owner"], body: Array("{}".utf8)))
        #expect(try JSON.parse(malformed.body)["error"]?["message"]?.string?.hasPrefix("PROJECT_NOT_FOUND") == true)
    }

    @Test("custom claims: set, validated, carried by the next ID token, cleared with {}")
    func customClaims() async throws {
        let emulator = try await makeEmulator()
        let session = try await emulator.signUp(.init(email: "cc@example.com", password: "secret-pw"))
        var update = AuthWire.UpdateRequest(localId: session.localId)
        update.customAttributes = #"{"role":"manager","tier":2}"#
        _ = try await emulator.update(update, context: .administrator)
        let refreshed = try await emulator.refresh(.init(refreshToken: session.refreshToken))
        let claims = try await emulator.verifyIDToken(refreshed.idToken)
        #expect(claims.custom == ["role": .string("manager"), "tier": .integer(2)])

        for (text, code) in [
            ("[1]", AuthErrorCode.invalidClaims), ("not json", .invalidClaims), (#"{"iss":"x"}"#, .forbiddenClaim),
            (#"{"k":"\#(String(repeating: "v", count: 1000))"}"#, .claimsTooLarge),
        ] {
            update.customAttributes = text
            #expect(await serviceError { try await emulator.update(update, context: .administrator) }?.code == code, "\(text)")
        }
        update.customAttributes = "{}"
        _ = try await emulator.update(update, context: .administrator)
        #expect(try await emulator.store.user(uid: session.localId)?.customAttributes == nil)
        // A client may not set claims.
        var own = AuthWire.UpdateRequest(idToken: refreshed.idToken)
        own.customAttributes = #"{"role":"manager"}"#
        #expect(await serviceError { try await emulator.update(own) }?.code == .insufficientPermission)
    }

    @Test("clear accounts, list codes and config on the emulator's own endpoints, without credentials")
    func emulatorEndpoints() async throws {
        let emulator = try await makeEmulator()
        _ = try await emulator.signUp(.init(email: "z@example.com", password: "secret-pw"))
        let clear = await emulator.handle(AuthHTTPRequest(method: "DELETE", path: "/emulator/v1/projects/demo-carchain/accounts"))
        #expect(clear.status == 200 && String(decoding: clear.body, as: UTF8.self) == "{}")
        #expect(try await emulator.store.userCount() == 0)
        let config = await emulator.handle(AuthHTTPRequest(method: "GET", path: "/emulator/v1/projects/demo-carchain/config"))
        #expect(String(decoding: config.body, as: UTF8.self) == #"{"emailPrivacyConfig":{"enableImprovedEmailPrivacy":true},"signIn":{"allowDuplicateEmails":false}}"#)
        let codes = await emulator.handle(AuthHTTPRequest(method: "GET", path: "/emulator/v1/projects/demo-carchain/oobCodes"))
        #expect(String(decoding: codes.body, as: UTF8.self) == #"{"oobCodes":[]}"#)
    }
}
