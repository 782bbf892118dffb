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

    /// The message word schedule (RFC 7693, section 2.7), row-major; round i uses row i mod 10.
    static let sigma: [UInt8] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3,
        11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4,
        7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8,
        9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13,
        2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9,
        12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11,
        13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10,
        6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5,
        10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0,
    ]

    /// F (RFC 7693, section 3.2) with `rounds` rounds instead of twelve.
    static func compress(_ h: inout [UInt64], _ m: [UInt64], t0: UInt64, t1: UInt64, isFinal: Bool, rounds: UInt32) {
        var v = h + iv
        v[12] ^= t0
        v[13] ^= t1
        if isFinal { v[14] = ~v[14] }
        v.withUnsafeMutableBufferPointer { v in
            m.withUnsafeBufferPointer { m in
                sigma.withUnsafeBufferPointer { sigma in
                    @inline(__always)
                    func mix(_ a: Int, _ b: Int, _ c: Int, _ d: Int, _ x: UInt64, _ y: UInt64) {
                        var va = v[a], vb = v[b], vc = v[c], vd = v[d]
                        va = va &+ vb &+ x
                        vd = (vd ^ va).rotatedRight(32)
                        vc = vc &+ vd
                        vb = (vb ^ vc).rotatedRight(24)
                        va = va &+ vb &+ y
                        vd = (vd ^ va).rotatedRight(16)
                        vc = vc &+ vd
                        vb = (vb ^ vc).rotatedRight(63)
                        v[a] = va
                        v[b] = vb
                        v[c] = vc
                        v[d] = vd
                    }
                    var row = 0
                    for _ in 0..<rounds {
                        @inline(__always) func word(_ i: Int) -> UInt64 { m[Int(sigma[row + i])] }
                        mix(0, 4, 8, 12, word(0), word(1))
                        mix(1, 5, 9, 13, word(2), word(3))
                        mix(2, 6, 10, 14, word(4), word(5))
                        mix(3, 7, 11, 15, word(6), word(7))
                        mix(0, 5, 10, 15, word(8), word(9))
                        mix(1, 6, 11, 12, word(10), word(11))
                        mix(2, 7, 8, 13, word(12), word(13))
                        mix(3, 4, 9, 14, word(14), word(15))
                        row = row == 144 ? 0 : row + 16
                    }
                }
            }
        }
        for i in 0..<8 { h[i] ^= v[i] ^ v[i + 8] }
    }
}

extension UInt64 {
    @inline(__always)
    fileprivate func rotatedRight(_ n: UInt64) -> UInt64 { (self >> n) | (self << (64 - n)) }
}
