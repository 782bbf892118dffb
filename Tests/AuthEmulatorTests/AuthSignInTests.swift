import AuthEmulator
import Foundation
import Testing

@Suite("accounts:signInWithPassword")
struct AuthSignInTests {
    @Test("signs in with the right password")
    func signsIn() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "dora@example.com", password: "hunter22"))
        let response = try await emulator.signInWithPassword(.init(email: "DORA@example.com", password: "hunter22"))
        #expect(response.kind == "identitytoolkit#VerifyPasswordResponse")
        #expect(response.localId == created.localId)
        #expect(response.email == "dora@example.com")
        #expect(response.registered)
        #expect(response.displayName == "")
        #expect(response.expiresIn == "3600")
        #expect(response.refreshToken != created.refreshToken)
    }

    @Test("MISSING_EMAIL, INVALID_EMAIL, MISSING_PASSWORD")
    func validation() async throws {
        let emulator = try await makeEmulator()
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: nil, password: "x")) }?.message == "MISSING_EMAIL")
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: "nope", password: "x")) }?.message == "INVALID_EMAIL")
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: "a@example.com", password: nil)) }?.message == "MISSING_PASSWORD")
        #expect(await serviceError { try await emulator.signInWithPassword(.init(email: "a@example.com", password: "")) }?.message == "MISSING_PASSWORD")
    }

    @Test("unknown email and wrong password answer byte-identical INVALID_LOGIN_CREDENTIALS")
    func nonEnumeration() async throws {
        let emulator = try await makeEmulator()
        _ = try await emulator.signUp(.init(email: "erin@example.com", password: "right-password"))
        let wrongPassword = await post(
            emulator, .signInWithPassword, json: #"{"email":"erin@example.com","password":"wrong-password","returnSecureToken":true}"#)
        let unknownEmail = await post(
            emulator, .signInWithPassword, json: #"{"email":"nobody@example.com","password":"wrong-password","returnSecureToken":true}"#)
        #expect(wrongPassword.status == 400)
        #expect(wrongPassword == unknownEmail)
        let expected = #"{"error":{"code":400,"errors":[{"domain":"global","message":"INVALID_LOGIN_CREDENTIALS","reason":"invalid"}],"message":"INVALID_LOGIN_CREDENTIALS"}}"#
        #expect(String(decoding: wrongPassword.body, as: UTF8.self) == expected)
    }

    @Test("5 failures lock the email; the lock lasts for the window, and applies to unknown emails alike")
    func rateLimit() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        _ = try await emulator.signUp(.init(email: "gus@example.com", password: "right-password"))

        for attempt in 1...5 {
            let known = await serviceError {
                try await emulator.signInWithPassword(.init(email: "gus@example.com", password: "wrong\(attempt)"))
            }
            #expect(known?.code == .invalidLoginCredentials, "attempt \(attempt)")
            let unknown = await serviceError {
                try await emulator.signInWithPassword(.init(email: "ghost@example.com", password: "wrong\(attempt)"))
            }
            #expect(unknown?.code == .invalidLoginCredentials, "attempt \(attempt)")
            clock.advance(by: 10)
        }
        // The sixth attempt is refused even with the right password; the unknown email gets the same body.
        let locked = await post(emulator, .signInWithPassword, json: #"{"email":"gus@example.com","password":"right-password"}"#)
        let lockedUnknown = await post(emulator, .signInWithPassword, json: #"{"email":"ghost@example.com","password":"right-password"}"#)
        #expect(locked.status == 400)
        #expect(locked == lockedUnknown)
        let message = try JSON.parse(locked.body)["error"]?["message"]?.string
        #expect(message == "TOO_MANY_ATTEMPTS_TRY_LATER : Too many unsuccessful login attempts. Please try again later.")

        // Another email is unaffected.
        _ = try await emulator.signUp(.init(email: "hal@example.com", password: "right-password"))
        _ = try await emulator.signInWithPassword(.init(email: "hal@example.com", password: "right-password"))

        // Just before the window (opened by the first failure, 15 minutes) ends: still locked.
        clock.advance(by: 15 * 60 - 50 - 1)
        let stillLocked = await serviceError {
            try await emulator.signInWithPassword(.init(email: "gus@example.com", password: "right-password"))
        }
        #expect(stillLocked?.code == .tooManyAttempts)
        clock.advance(by: 1)
        _ = try await emulator.signInWithPassword(.init(email: "gus@example.com", password: "right-password"))
        #expect(try await emulator.store.loginFailures(email: "gus@example.com") == 0)
    }

    @Test("a success clears the failure count; failures in an elapsed window are forgotten")
    func rateLimitWindow() async throws {
        let clock = ManualAuthClock()
        let emulator = try await makeEmulator(clock: clock)
        _ = try await emulator.signUp(.init(email: "ivy@example.com", password: "right-password"))
        func fail() async -> AuthErrorCode? {
            await serviceError { try await emulator.signInWithPassword(.init(email: "ivy@example.com", password: "nope-nope")) }?.code
        }
        for _ in 0..<4 { #expect(await fail() == .invalidLoginCredentials) }
        _ = try await emulator.signInWithPassword(.init(email: "ivy@example.com", password: "right-password"))
        for _ in 0..<4 { #expect(await fail() == .invalidLoginCredentials) }
        #expect(try await emulator.store.loginFailures(email: "ivy@example.com") == 4)
        clock.advance(by: 15 * 60)
        for _ in 0..<5 { #expect(await fail() == .invalidLoginCredentials) }
        #expect(await fail() == .tooManyAttempts)
    }

    @Test("USER_DISABLED for a disabled account with the right password")
    func disabled() async throws {
        let emulator = try await makeEmulator()
        let created = try await emulator.signUp(.init(email: "jo@example.com", password: "right-password"))
        try await emulator.store.setDisabled(uid: created.localId, true)
        let error = await serviceError {
            try await emulator.signInWithPassword(.init(email: "jo@example.com", password: "right-password"))
        }
        #expect(error?.code == .userDisabled)
    }
}
