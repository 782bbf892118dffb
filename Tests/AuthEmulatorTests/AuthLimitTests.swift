import AuthEmulator
import Foundation
import Testing

/// The limits beyond the per-email one (`AuthSignInTests`): sign-ups and failed sign-ins per client address,
/// failed sign-ins per password across emails (spraying), and the sign-up checks' order and cost.
@Suite("limits: per address, per password")
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
}
