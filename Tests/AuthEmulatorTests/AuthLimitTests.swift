import AuthEmulator
import Foundation
import Testing

/// The limits beyond the per-email one (`AuthSignInTests`): sign-ups and failed sign-ins per client address,
/// failed sign-ins per password across emails (spraying), and the sign-up checks' order and cost.
@Suite("limits: per address, per password; sign-up check order")
struct AuthLimitTests {
    private func context(_ address: String) -> AuthCallContext {
        AuthCallContext(privileged: false, clientAddress: address, baseURL: "http://localhost")
    }

    @Test("sign-ups per address: the limit, then TOO_MANY_ATTEMPTS_TRY_LATER; other addresses unaffected; window ends")
    func signUpsPerAddress() async throws {
        let clock = ManualAuthClock()
        var policy = fastPolicy
        policy.addressSignUpLimit = RateLimitPolicy(limit: 3, window: 3600)
        let emulator = try await makeEmulator(clock: clock, policy: policy)
        for index in 0..<3 {
            _ = try await emulator.signUp(.init(email: "s\(index)@example.com", password: "secret-pw"), context: context("10.0.0.1"))
        }
        let refused = await serviceError {
            try await emulator.signUp(.init(email: "s9@example.com", password: "secret-pw"), context: context("10.0.0.1"))
        }
        #expect(refused?.code == .tooManyAttempts)
        _ = try await emulator.signUp(.init(email: "t@example.com", password: "secret-pw"), context: context("10.0.0.2"))
        _ = try await emulator.signUp(.init(email: "u@example.com", password: "secret-pw"))  // in process: no address
        clock.advance(by: 3600)
        _ = try await emulator.signUp(.init(email: "s9@example.com", password: "secret-pw"), context: context("10.0.0.1"))
    }

    @Test("failed sign-ins per address; successes are not counted")
    func failuresPerAddress() async throws {
        var policy = fastPolicy
        policy.addressFailureLimit = RateLimitPolicy(limit: 4, window: 900)
        let emulator = try await makeEmulator(policy: policy)
        _ = try await emulator.signUp(.init(email: "ok@example.com", password: "right-password"))
        for _ in 0..<10 {
            _ = try await emulator.signInWithPassword(.init(email: "ok@example.com", password: "right-password"), context: context("10.0.0.3"))
        }
        for index in 0..<4 {
            let error = await serviceError {
                try await emulator.signInWithPassword(.init(email: "x\(index)@example.com", password: "guess-\(index)"), context: context("10.0.0.3"))
            }
            #expect(error?.code == .invalidLoginCredentials)
        }
        let refused = await serviceError {
            try await emulator.signInWithPassword(.init(email: "ok@example.com", password: "right-password"), context: context("10.0.0.3"))
        }
        #expect(refused?.code == .tooManyAttempts)
        _ = try await emulator.signInWithPassword(.init(email: "ok@example.com", password: "right-password"), context: context("10.0.0.4"))
    }

    @Test("password spraying: one password failing across emails and addresses is throttled (production limit)")
    func spraying() async throws {
        let emulator = try await makeEmulator(policy: AuthPolicy(scrypt: fastPolicy.scrypt))
        _ = try await emulator.signUp(.init(email: "target@example.com", password: "Summer2024!"))
        for index in 0..<RateLimitPolicy.passwordSpraying.limit {
            let error = await serviceError {
                try await emulator.signInWithPassword(.init(email: "v\(index)@example.com", password: "Summer2024!"), context: context("10.1.0.\(index)"))
            }
            #expect(error?.code == .invalidLoginCredentials)
        }
        let refused = await serviceError {
            try await emulator.signInWithPassword(.init(email: "target@example.com", password: "Summer2024!"), context: context("10.2.0.1"))
        }
        #expect(refused?.code == .tooManyAttempts)
        _ = try await emulator.signUp(.init(email: "other@example.com", password: "Winter2024!"))
        _ = try await emulator.signInWithPassword(.init(email: "other@example.com", password: "Winter2024!"))
    }

    @Test("sign-up: WEAK_PASSWORD before EMAIL_EXISTS; a taken email costs the scrypt a new one costs")
    func signUpOrderAndCost() async throws {
        let emulator = try await makeEmulator()
        _ = try await emulator.signUp(.init(email: "taken@example.com", password: "secret-pw"))
        #expect(await serviceError { try await emulator.signUp(.init(email: "taken@example.com", password: "123")) }?.code == .weakPassword)
        #expect(await serviceError { try await emulator.signUp(.init(email: "taken@example.com", password: "secret-pw")) }?.code == .emailExists)
        // Cost: a taken email goes through hashing; the store sees the same work as for a new account. Measured
        // without scheduling noise: scrypt runs before the insert, so the answer cannot come back before it.
        let slow = AuthPolicy(scrypt: ScryptParameters(logN: 14, r: 8, p: 1))
        let timed = try await makeEmulator(policy: slow)
        _ = try await timed.signUp(.init(email: "taken@example.com", password: "secret-pw"))
        let clock = ContinuousClock()
        let hashing = clock.measure { _ = try? PasswordHasher(parameters: slow.scrypt).hash("secret-pw") }
        let taken = await clock.measure {
            _ = await serviceError { try await timed.signUp(.init(email: "taken@example.com", password: "secret-pw")) }
        }
        #expect(taken >= hashing / 2, "EMAIL_EXISTS answered in \(taken), one scrypt takes \(hashing)")
    }
}
