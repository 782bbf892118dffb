import AuthEmulator
import Foundation
import Testing

/// Numbers a request carries (dates in `accounts:update`, `maxResults`, `validDuration`) at and past the ends of
/// their types: each is an `INVALID_ARGUMENT` (or the documented error) with the account left as it was, never a
/// trap. Issue 14: before the range checks, `createdAt` = 2^63 − 1 trapped when the account was saved.
@Suite("auth service: hostile numbers in requests")
struct AuthRequestNumberTests {
    private static let prefix = "/identitytoolkit.googleapis.com/v1/projects/demo-carchain/"

    private func admin(_ emulator: AuthEmulator, _ resource: String, _ json: String) async throws -> (status: Int, json: JSON) {
        let response = await emulator.handle(
            AuthHTTPRequest(
                method: "POST", target: Self.prefix + resource,
                headers: ["content-type": "application/json", "authorization": "Bearer owner"], body: Array(json.utf8)))
        return (response.status, try JSON.parse(response.body))
    }

    @Test("dates in accounts:update past their range are refused; the account is unchanged")
    func datesOutOfRange() async throws {
        let emulator = try await makeEmulator()
        let session = try await emulator.signUp(.init(email: "n@example.com", password: "secret-pw"))
        let uid = session.localId
        let before = try await admin(emulator, "accounts:lookup", #"{"localId":["\#(uid)"]}"#)
        let cases: [(field: String, value: String, message: String)] = [
            ("createdAt", "9223372036854775807", "Invalid value at 'created_at': out of range"),
            ("createdAt", "-1", "Invalid value at 'created_at': out of range"),
            ("createdAt", "253402300800000", "Invalid value at 'created_at': out of range"),
            ("lastLoginAt", "9223372036854775807", "Invalid value at 'last_login_at': out of range"),
            ("lastLoginAt", "-9223372036854775808", "Invalid value at 'last_login_at': out of range"),
            ("validSince", "9223372036854775807", "Invalid value at 'valid_since': out of range"),
            ("validSince", "-1", "Invalid value at 'valid_since': out of range"),
        ]
        for (field, value, message) in cases {
            let answer = try await admin(emulator, "accounts:update", #"{"localId":"\#(uid)","\#(field)":"\#(value)"}"#)
            #expect(answer.status == 400, "\(field)=\(value)")
            #expect(answer.json["error"]?["message"]?.string == message, "\(field)=\(value): \(answer.json)")
        }
        // A number past Int64 is not an int64 at all: a JSON payload error.
        let huge = try await admin(emulator, "accounts:update", #"{"localId":"\#(uid)","createdAt":"9223372036854775808"}"#)
        #expect(huge.status == 400)
        let after = try await admin(emulator, "accounts:lookup", #"{"localId":["\#(uid)"]}"#)
        #expect(after.json == before.json)

        // The last representable values are accepted and read back exactly.
        let edge = try await admin(
            emulator, "accounts:update",
            #"{"localId":"\#(uid)","createdAt":"253402300799999","lastLoginAt":"0","validSince":"253402300799"}"#)
        #expect(edge.status == 200, "\(edge.json)")
        let read = try await admin(emulator, "accounts:lookup", #"{"localId":["\#(uid)"]}"#)
        #expect(read.json["users"]?[0]?["createdAt"]?.string == "253402300799999")
        #expect(read.json["users"]?[0]?["lastLoginAt"]?.string == "0")
        #expect(read.json["users"]?[0]?["validSince"]?.string == "253402300799")
    }

    @Test("maxResults and validDuration at the ends of their types")
    func pagingAndCookieDurations() async throws {
        let emulator = try await makeEmulator()
        let session = try await emulator.signUp(.init(email: "p@example.com", password: "secret-pw"))
        for maxResults in ["9223372036854775807", "-9223372036854775808", "0"] {
            let page = try await emulator.batchGet(maxResults: maxResults, pageToken: nil)
            #expect(page.users?.first?.localId == session.localId, "maxResults=\(maxResults)")
        }
        #expect(await serviceError { try await emulator.batchGet(maxResults: "9223372036854775808", pageToken: nil) }?.code == .invalidArgument)
        for duration: Int64 in [.max, .min, 0, 299, 1_209_601] {
            let request = AuthWire.CreateSessionCookieRequest(idToken: session.idToken, validDuration: WireInt64(duration))
            #expect(await serviceError { try await emulator.createSessionCookie(request) }?.code == .invalidDuration, "\(duration)")
        }
    }
}
