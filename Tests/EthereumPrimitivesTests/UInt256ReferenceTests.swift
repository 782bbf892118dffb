// Shared machinery for the UInt256 property tests: a seeded generator, a biased value generator, and
// conversions to attaswift/BigInt, which serves as the reference ("oracle") implementation.

import TestSupport
import BigInt
import EthereumPrimitives
import Foundation
import Testing

/// Generates UInt256 values biased towards the edges where limb arithmetic goes wrong.
struct ValueGenerator {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    /// Limb values that exercise carries, borrows and Algorithm D's estimate corrections.
    private static let edgeLimbs: [UInt64] = [
        0, 1, 2, .max, .max - 1, 1 << 63, (1 << 63) - 1, (1 << 63) + 1, 1 << 32, (1 << 32) - 1,
    ]

    mutating func limb() -> UInt64 {
        switch rng.next() % 4 {
        case 0: return Self.edgeLimbs[Int(rng.next() % UInt64(Self.edgeLimbs.count))]
        default: return rng.next()
        }
    }

    /// A value from one of several families, each chosen with roughly equal probability.
    mutating func next() -> UInt256 {
        switch rng.next() % 10 {
        case 0:
            let specials: [UInt256] = [
                .zero, .one, 2, 3, 10, .max, .max - 1, UInt256.one << 255, (UInt256.one << 255) - 1,
                (UInt256.one << 255) + 1,
            ]
            return specials[Int(rng.next() % UInt64(specials.count))]
        case 1:
            // A power of two, plus or minus one.
            let p = UInt256.one << Int(rng.next() % 256)
            switch rng.next() % 3 {
            case 0: return p
            case 1: return p &- 1
            default: return p &+ 1
            }
        case 2:
            // Near 2^64, 2^128 or 2^192.
            let base = UInt256.one << (64 * Int(1 + rng.next() % 3))
            let delta = UInt256(rng.next() % 8)
            return rng.next() % 2 == 0 ? base &+ delta : base &- delta
        case 3:
            // Fits in one limb.
            return UInt256(rng.next() >> (rng.next() % 64))
        case 4:
            // Negative small number (two's complement), for signed operations.
            return UInt256(rng.next() >> (rng.next() % 64)).negated
        case 5, 6:
            // Limbs from the edge set or random, some zeroed.
            var l = (limb(), limb(), limb(), limb())
            if rng.next() % 3 == 0 { l.3 = 0 }
            if rng.next() % 4 == 0 { l.2 = 0 }
            if rng.next() % 4 == 0 { l.1 = 0 }
            return UInt256(limbs: l)
        case 7:
            // A random value of random bit length.
            let v = UInt256(limbs: (rng.next(), rng.next(), rng.next(), rng.next()))
            return v >> Int(rng.next() % 256)
        default:
            return UInt256(limbs: (rng.next(), rng.next(), rng.next(), rng.next()))
        }
    }

    /// A shift count or byte index: mostly small, sometimes huge.
    mutating func smallOrHuge(below limit: UInt64) -> UInt256 {
        switch rng.next() % 8 {
        case 0: return next()
        case 1: return UInt256(limit + rng.next() % 8)
        default: return UInt256(rng.next() % limit)
        }
    }
}

// MARK: - BigInt oracle

let twoTo256 = BigUInt(1) << 256

extension UInt256 {
    /// The value as a BigUInt.
    var big: BigUInt {
        BigUInt(words: [UInt(limbs.0), UInt(limbs.1), UInt(limbs.2), UInt(limbs.3)])
    }

    /// The value read as two's complement.
    var signedBig: BigInt {
        isNegative ? BigInt(big) - BigInt(twoTo256) : BigInt(big)
    }

    /// `value` modulo 2^256, built limb by limb (not through UInt256's own conversions).
    init(reference value: BigUInt) {
        let reduced = value % twoTo256
        let w = Array(reduced.words)
        func word(_ i: Int) -> UInt64 { i < w.count ? UInt64(w[i]) : 0 }
        self.init(limbs: (word(0), word(1), word(2), word(3)))
    }

    /// A signed `value` modulo 2^256 (two's complement).
    init(reference value: BigInt) {
        let m = BigInt(twoTo256)
        let r = ((value % m) + m) % m
        self.init(reference: r.magnitude)
    }

    /// Short hex for failure messages.
    var h: String { hexString }
}

/// Counts property failures and records the first few as issues, so one bug does not print
/// thousands of lines.
struct PropertyCheck {
    let name: String
    var cases = 0
    var failures = 0

    init(_ name: String) { self.name = name }

    mutating func expect(
        _ ok: Bool, _ message: @autoclosure () -> String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        cases += 1
        guard !ok else { return }
        failures += 1
        if failures <= 5 {
            Issue.record(Comment(rawValue: "\(name): \(message())"), sourceLocation: sourceLocation)
        }
    }

    func finish(sourceLocation: SourceLocation = #_sourceLocation) {
        if failures > 5 {
            Issue.record(Comment(rawValue: "\(name): \(failures) of \(cases) cases failed"), sourceLocation: sourceLocation)
        }
    }
}

/// Number of random cases per operation: 3000, or `UINT256_PROPERTY_CASES` from the environment for a
/// longer soak (for example 100000 in a release build).
let propertyCases = ProcessInfo.processInfo.environment["UINT256_PROPERTY_CASES"].flatMap { Int($0) } ?? 3000

// MARK: - Self-tests of the machinery

@Suite struct UInt256ReferenceTests {
    @Test func splitMixIsDeterministic() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        for _ in 0..<100 { #expect(a.next() == b.next()) }
        // First output for seed 0 from the published reference implementation.
        var z = SplitMix64(seed: 0)
        #expect(z.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func bigIntConversionRoundTrips() {
        var gen = ValueGenerator(seed: 1)
        var check = PropertyCheck("BigUInt round trip")
        for _ in 0..<propertyCases {
            let x = gen.next()
            check.expect(UInt256(reference: x.big) == x, x.h)
            check.expect(UInt256(reference: x.signedBig) == x, x.h)
        }
        check.finish()
        #expect(UInt256(reference: BigInt(-1)) == .max)
        #expect(UInt256.max.big == twoTo256 - 1)
    }

    @Test func generatorCoversTheFamilies() {
        var gen = ValueGenerator(seed: 7)
        var zero = 0, small = 0, large = 0, negative = 0
        for _ in 0..<propertyCases {
            let x = gen.next()
            if x.isZero { zero += 1 }
            if x.fitsInUInt64 { small += 1 }
            if x.limbs.3 != 0 { large += 1 }
            if x.isNegative { negative += 1 }
        }
        #expect(zero > 0 && small > propertyCases / 10 && large > propertyCases / 4 && negative > propertyCases / 10)
    }
}
