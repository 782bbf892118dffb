import AuthEmulator
import Foundation
import Testing

@Suite("accounts:signUp")
struct AuthSignUpTests {
    @Test("creates an account: 28-character uid, lowercased email, one-hour tokens")
    func createsAccount() async throws {
        let emulator = try await makeEmulator()
        let response = try await emulator.signUp(.init(email: "Alice@Example.COM", password: "correct horse"))
        #expect(response.kind == "identitytoolkit#SignupNewUserResponse")
        #expect(response.email == "alice@example.com")
        #expect(response.expiresIn == "3600")
        #expect(response.localId.count == 28)
        #expect(response.localId.utf8.allSatisfy { ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) })
        #expect(response.idToken.split(separator: ".").count == 3)
        #expect(!response.refreshToken.isEmpty)
        #expect(response.displayName == nil)
        let stored = try #require(try await emulator.store.user(email: "alice@example.com"))
        #expect(stored.uid == response.localId)
        #expect(try await emulator.store.userCount() == 1)
    }

    @Test("MISSING_EMAIL and MISSING_PASSWORD")
    func missingFields() async throws {
        let emulator = try await makeEmulator()
        #expect(await serviceError { try await emulator.signUp(.init(email: nil, password: "secret1")) }?.message == "MISSING_EMAIL")
        #expect(await serviceError { try await emulator.signUp(.init(email: "", password: "secret1")) }?.message == "MISSING_EMAIL")
        #expect(await serviceError { try await emulator.signUp(.init(email: "a@example.com", password: nil)) }?.message == "MISSING_PASSWORD")
        #expect(await serviceError { try await emulator.signUp(.init(email: "a@example.com", password: "")) }?.message == "MISSING_PASSWORD")
        #expect(try await emulator.store.userCount() == 0)
    }

    @Test(
        "INVALID_EMAIL",
        arguments: [
            "plainaddress", "@example.com", "alice@", "alice@example", "alice@@example.com", "alice @example.com",
            "alice@exa mple.com", ".alice@example.com", "alice.@example.com", "al..ice@example.com",
            "alice@-example.com", "alice@example-.com", "alice@example..com", "alice@example.123", "älice@example.com",
            "alice@example.com ", String(repeating: "a", count: 65) + "@example.com",
        ])
    func invalidEmail(_ email: String) async throws {
        let emulator = try await makeEmulator()
        let error = await serviceError { try await emulator.signUp(.init(email: email, password: "secret1")) }
        #expect(error?.code == .invalidEmail)
        #expect(error?.httpStatus == 400)
    }

    @Test("EMAIL_EXISTS, also for a differently-cased address")
    func emailExists() async throws {
        let emulator = try await makeEmulator()
        _ = try await emulator.signUp(.init(email: "bob@example.com", password: "secret1"))
        for email in ["bob@example.com", "BOB@Example.com"] {
            let error = await serviceError { try await emulator.signUp(.init(email: email, password: "another1")) }
            #expect(error?.message == "EMAIL_EXISTS")
        }
        #expect(try await emulator.store.userCount() == 1)
    }

    @Test("WEAK_PASSWORD under 6 characters, with Firebase's message")
    func weakPassword() async throws {
        let emulator = try await makeEmulator()
        let error = await serviceError { try await emulator.signUp(.init(email: "c@example.com", password: "12345")) }
        #expect(error?.code == .weakPassword)
        #expect(error?.message == "WEAK_PASSWORD : Password should be at least 6 characters")
        _ = try await emulator.signUp(.init(email: "c@example.com", password: "123456"))
    }

    @Test("accepted addresses", arguments: ["a@b.co", "first.last+tag@sub.example.org", "x_y-z@ex-ample.io", "O'Brien@example.ie"])
    func acceptedEmail(_ email: String) async throws {
        #expect(EmailAddress.isValid(email))
    }

    @Test("concurrent sign-ups for one email create one account")
    func concurrentSignUps() async throws {
        let emulator = try await makeEmulator()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    do throws(AuthServiceError) {
                        _ = try await emulator.signUp(.init(email: "race@example.com", password: "secret1"))
                        return true
                    } catch {
                        #expect(error.code == .emailExists)
                        return false
                    }
                }
            }
            var results: [Bool] = []
            for await outcome in group { results.append(outcome) }
            return results
        }
        #expect(outcomes.filter { $0 }.count == 1)
        #expect(try await emulator.store.userCount() == 1)
    }

    @Test("uids are 28 characters of [A-Za-z0-9] and distinct")
    func uidShape() {
        var seen = Set<String>()
        for _ in 0..<2000 {
            let uid = SecureRandom.uid()
            #expect(uid.count == 28)
            #expect(uid.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
            seen.insert(uid)
        }
        #expect(seen.count == 2000)
    }
}
