/// BLAKE2F (0x09, EIP-152): the BLAKE2b compression function F with a caller-chosen number of rounds.
/// Input is exactly 213 bytes: rounds (4 bytes, big-endian), state h (8 little-endian words), message m
/// (16 words), offset counter t (2 words), final-block flag f (0 or 1). Gas: one per round.
enum Blake2F {
    static let inputLength = 213

    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        guard input.count == inputLength else { return .failure }
        let rounds = UInt32(input[0]) << 24 | UInt32(input[1]) << 16 | UInt32(input[2]) << 8 | UInt32(input[3])
        guard UInt64(rounds) <= gasLimit else { return .failure }
        let flag = input[212]
        guard flag <= 1 else { return .failure }
        func word(_ offset: Int) -> UInt64 {
            var w: UInt64 = 0
            for i in 0..<8 { w |= UInt64(input[offset + i]) << (8 * UInt64(i)) }
            return w
        }
        var h = (0..<8).map { word(4 + 8 * $0) }
        let m = (0..<16).map { word(68 + 8 * $0) }
        compress(&h, m, t0: word(196), t1: word(204), isFinal: flag == 1, rounds: rounds)
        var output = [UInt8]()
        output.reserveCapacity(64)
        for w in h {
            for i in 0..<8 { output.append(UInt8(truncatingIfNeeded: w >> (8 * UInt64(i)))) }
        }
        return .success(gasUsed: UInt64(rounds), output: output)
    }

    /// The BLAKE2b initialization vector (RFC 7693), the fractional parts of the square roots of the
    /// first eight primes.
    static let iv: [UInt64] = [
        0x6A09_E667_F3BC_C908, 0xBB67_AE85_84CA_A73B, 0x3C6E_F372_FE94_F82B, 0xA54F_F53A_5F1D_36F1,
        0x510E_527F_ADE6_82D1, 0x9B05_688C_2B3E_6C1F, 0x1F83_D9AB_FB41_BD6B, 0x5BE0_CD19_137E_2179,
    ]

    /// The sixteen working words of F as stored properties (kept in registers once inlined, where an array's elements
    /// would be reloaded after every store).
    struct Work {
        var v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15: UInt64

        @inline(__always)
        static func g(_ a: inout UInt64, _ b: inout UInt64, _ c: inout UInt64, _ d: inout UInt64, _ x: UInt64, _ y: UInt64) {
            a = a &+ b &+ x
            d = (d ^ a).rotatedRight(32)
            c = c &+ d
            b = (b ^ c).rotatedRight(24)
            a = a &+ b &+ y
            d = (d ^ a).rotatedRight(16)
            c = c &+ d
            b = (b ^ c).rotatedRight(63)
        }

        /// One round, with the message words in the order a row of RFC 7693's SIGMA gives.
        @inline(__always)
        mutating func round(
            _ s0: UInt64, _ s1: UInt64, _ s2: UInt64, _ s3: UInt64, _ s4: UInt64, _ s5: UInt64, _ s6: UInt64, _ s7: UInt64,
            _ s8: UInt64, _ s9: UInt64, _ s10: UInt64, _ s11: UInt64, _ s12: UInt64, _ s13: UInt64, _ s14: UInt64, _ s15: UInt64
        ) {
            Self.g(&v0, &v4, &v8, &v12, s0, s1)
            Self.g(&v1, &v5, &v9, &v13, s2, s3)
            Self.g(&v2, &v6, &v10, &v14, s4, s5)
            Self.g(&v3, &v7, &v11, &v15, s6, s7)
            Self.g(&v0, &v5, &v10, &v15, s8, s9)
            Self.g(&v1, &v6, &v11, &v12, s10, s11)
            Self.g(&v2, &v7, &v8, &v13, s12, s13)
            Self.g(&v3, &v4, &v9, &v14, s14, s15)
        }
    }

    /// The message words, named so each round's schedule is written out with fixed positions.
    struct Message {
        let m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15: UInt64

        /// Round `i` (0..<10) of the schedule's ten-round period on `w`.
        @inline(__always)
        func round(_ i: UInt32, _ w: inout Work) {
            switch i {
            case 0: w.round(m0, m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15)
            case 1: w.round(m14, m10, m4, m8, m9, m15, m13, m6, m1, m12, m0, m2, m11, m7, m5, m3)
            case 2: w.round(m11, m8, m12, m0, m5, m2, m15, m13, m10, m14, m3, m6, m7, m1, m9, m4)
            case 3: w.round(m7, m9, m3, m1, m13, m12, m11, m14, m2, m6, m5, m10, m4, m0, m15, m8)
            case 4: w.round(m9, m0, m5, m7, m2, m4, m10, m15, m14, m1, m11, m12, m6, m8, m3, m13)
            case 5: w.round(m2, m12, m6, m10, m0, m11, m8, m3, m4, m13, m7, m5, m15, m14, m1, m9)
            case 6: w.round(m12, m5, m1, m15, m14, m13, m4, m10, m0, m7, m6, m3, m9, m2, m8, m11)
            case 7: w.round(m13, m11, m7, m14, m12, m1, m3, m9, m5, m0, m15, m4, m8, m6, m2, m10)
            case 8: w.round(m6, m15, m14, m9, m11, m3, m0, m8, m12, m2, m13, m7, m1, m4, m10, m5)
            default: w.round(m10, m2, m8, m4, m7, m6, m1, m5, m15, m11, m9, m14, m3, m12, m13, m0)
            }
        }
    }

    /// F (RFC 7693, section 3.2) with `rounds` rounds instead of twelve. The rounds run in blocks of ten, the
    /// period of the message schedule, so each round reads its message words at fixed positions; with the working
    /// words in registers this is about 1.4 times as fast as indexing an array per word (docs/EVM.md, "CI time").
    static func compress(_ h: inout [UInt64], _ m: [UInt64], t0: UInt64, t1: UInt64, isFinal: Bool, rounds: UInt32) {
        var w = Work(
            v0: h[0], v1: h[1], v2: h[2], v3: h[3], v4: h[4], v5: h[5], v6: h[6], v7: h[7],
            v8: iv[0], v9: iv[1], v10: iv[2], v11: iv[3],
            v12: iv[4] ^ t0, v13: iv[5] ^ t1, v14: isFinal ? ~iv[6] : iv[6], v15: iv[7])
        let s = Message(
            m0: m[0], m1: m[1], m2: m[2], m3: m[3], m4: m[4], m5: m[5], m6: m[6], m7: m[7],
            m8: m[8], m9: m[9], m10: m[10], m11: m[11], m12: m[12], m13: m[13], m14: m[14], m15: m[15])
        var left = rounds
        while left >= 10 {
            s.round(0, &w); s.round(1, &w); s.round(2, &w); s.round(3, &w); s.round(4, &w)
            s.round(5, &w); s.round(6, &w); s.round(7, &w); s.round(8, &w); s.round(9, &w)
            left -= 10
        }
        for i in 0..<left { s.round(i, &w) }
        h[0] ^= w.v0 ^ w.v8
        h[1] ^= w.v1 ^ w.v9
        h[2] ^= w.v2 ^ w.v10
        h[3] ^= w.v3 ^ w.v11
        h[4] ^= w.v4 ^ w.v12
        h[5] ^= w.v5 ^ w.v13
        h[6] ^= w.v6 ^ w.v14
        h[7] ^= w.v7 ^ w.v15
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedRight(_ n: UInt64) -> UInt64 { (self >> n) | (self << (64 - n)) }
}
