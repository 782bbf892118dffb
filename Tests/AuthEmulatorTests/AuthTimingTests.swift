import AuthEmulator
import Foundation
import Testing

/// Sign-in timing, in a suite of its own: `make test` runs the *TimingTests suites in a separate, quiet run,
/// because on a 2-core machine the main run's CPU-bound suites keep async tasks waiting for a thread and
/// wall-clock ratios measured there are noise.
@Suite struct AuthTimingTests {
    @Test("an unknown email costs the same scrypt work as a wrong password")
    func comparableTiming() async throws {
        // N = 2^14 makes each check take milliseconds; skipping scrypt for unknown emails would make that path
        // hundreds of times faster. Minimum of several runs resists noise from other processes.
        let policy = AuthPolicy(
            scrypt: ScryptParameters(logN: 14, r: 8, p: 1), rateLimit: RateLimitPolicy(maxFailures: 100, window: 60))
        let emulator = try await makeEmulator(policy: policy)
        _ = try await emulator.signUp(.init(email: "fay@example.com", password: "right-password"))
        let clock = ContinuousClock()
        var known: [Duration] = []
        var unknown: [Duration] = []
        for round in 0..<5 {
            known.append(
                await clock.measure {
                    _ = await serviceError {
                        try await emulator.signInWithPassword(.init(email: "fay@example.com", password: "wrong-\(round)"))
                    }
                })
            unknown.append(
                await clock.measure {
                    _ = await serviceError {
                        try await emulator.signInWithPassword(.init(email: "ghost\(round)@example.com", password: "wrong"))
                    }
                })
        }
        let knownMin = try #require(known.min())
        let unknownMin = try #require(unknown.min())
        let ratio = (unknownMin / knownMin)
        print("AuthSignInTests: wrong password min \(knownMin), unknown email min \(unknownMin), ratio \(ratio)")
        #expect(ratio > 0.33 && ratio < 3, "unknown-email sign-in took \(unknownMin), wrong password \(knownMin)")

        // The decisive, noise-free checks: the stand-in hash for unknown emails has the real hashes' parameters
        // and sizes, and verifying against it costs what verifying against a real hash costs, measured on one
        // thread without any scheduling in between.
        let hasher = try PasswordHasher(parameters: policy.scrypt)
        let real = try hasher.hash("right-password")
        let standIn = hasher.unmatchableHash()
        #expect(standIn.parameters == real.parameters)
        #expect(standIn.salt.count == real.salt.count && standIn.hash.count == real.hash.count)
        var realTimes: [Duration] = []
        var standInTimes: [Duration] = []
        for _ in 0..<5 {
            var matched: [Bool] = []
            realTimes.append(clock.measure { matched.append((try? hasher.verify("wrong", against: real)) ?? true) })
            standInTimes.append(clock.measure { matched.append((try? hasher.verify("wrong", against: standIn)) ?? true) })
            #expect(matched == [false, false])
        }
        let direct = try #require(standInTimes.min()) / (try #require(realTimes.min()))
        print("AuthSignInTests: direct scrypt verify ratio (stand-in / real) \(direct)")
        #expect(direct > 0.5 && direct < 2, "stand-in verify \(standInTimes), real verify \(realTimes)")
    }

    @Test("sign-up: WEAK_PASSWORD before EMAIL_EXISTS; a taken email costs the scrypt a new one costs")
    func signUpOrderAndCost() async throws {
        let emulator = try await makeEmulator()
        _ = try await emulator.signUp(.init(email: "taken@example.com", password: "secret-pw"))
        #expect(await serviceError { try await emulator.signUp(.init(email: "taken@example.com", password: "123")) }?.code == .weakPassword)
        #expect(await serviceError { try await emulator.signUp(.init(email: "taken@example.com", password: "secret-pw")) }?.code == .emailExists)
        // Cost: a taken email goes through hashing like a new one (scrypt runs before the insert), so the answer
        // cannot come back sooner than about one scrypt.
        let slow = AuthPolicy(scrypt: ScryptParameters(logN: 14, r: 8, p: 1))
        let timed = try await makeEmulator(policy: slow)
        _ = try await timed.signUp(.init(email: "taken@example.com", password: "secret-pw"))
        let clock = ContinuousClock()
        let hasher = try PasswordHasher(parameters: slow.scrypt)
        let hashing = try #require((0..<3).map { _ in clock.measure { _ = try? hasher.hash("secret-pw") } }.min())
        let taken = await clock.measure {
            _ = await serviceError { try await timed.signUp(.init(email: "taken@example.com", password: "secret-pw")) }
        }
        #expect(taken >= hashing / 2, "EMAIL_EXISTS answered in \(taken), one scrypt takes \(hashing)")
    }
}
