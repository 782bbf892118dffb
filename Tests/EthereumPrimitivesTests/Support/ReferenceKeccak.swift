/// A deliberately plain Keccak written from the FIPS 202 pseudo-code (arrays, loops, constants
/// computed rather than tabulated), to check the optimised implementation against.
enum ReferenceKeccak {
    /// rc(t) from FIPS 202 algorithm 5: an LFSR over GF(2) with polynomial x^8 + x^6 + x^5 + x^4 + 1.
    static func rcBit(_ t: Int) -> UInt64 {
        if t % 255 == 0 { return 1 }
        var r: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        for _ in 1...(t % 255) {
            r.insert(0, at: 0)
            r[0] ^= r[8]
            r[4] ^= r[8]
            r[5] ^= r[8]
            r[6] ^= r[8]
            r.removeLast()
        }
        return UInt64(r[0])
    }

    /// The 24 iota constants, computed with rc(t).
    static let roundConstants: [UInt64] = (0..<24).map { round in
        var rc: UInt64 = 0
        for j in 0...6 where rcBit(j + 7 * round) == 1 {
            rc |= 1 << ((1 << j) - 1)
        }
        return rc
    }

    /// Rotation offsets r[x][y] from FIPS 202 algorithm 2.
    static let rotations: [[Int]] = {
        var r = [[Int]](repeating: [Int](repeating: 0, count: 5), count: 5)
        var (x, y) = (1, 0)
        for t in 0..<24 {
            r[x][y] = ((t + 1) * (t + 2) / 2) % 64
            (x, y) = (y, (2 * x + 3 * y) % 5)
        }
        return r
    }()

    static func rotl(_ v: UInt64, _ n: Int) -> UInt64 {
        n == 0 ? v : (v << UInt64(n)) | (v >> UInt64(64 - n))
    }

    /// Keccak-f[1600] on a[x + 5y].
    static func permute(_ a: inout [UInt64]) {
        for round in 0..<24 {
            // theta
            var c = [UInt64](repeating: 0, count: 5)
            for x in 0..<5 { for y in 0..<5 { c[x] ^= a[x + 5 * y] } }
            for x in 0..<5 {
                let d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1)
                for y in 0..<5 { a[x + 5 * y] ^= d }
            }
            // rho and pi
            var b = [UInt64](repeating: 0, count: 25)
            for x in 0..<5 {
                for y in 0..<5 {
                    b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], rotations[x][y])
                }
            }
            // chi
            for x in 0..<5 {
                for y in 0..<5 {
                    a[x + 5 * y] = b[x + 5 * y] ^ (~b[(x + 1) % 5 + 5 * y] & b[(x + 2) % 5 + 5 * y])
                }
            }
            // iota
            a[0] ^= roundConstants[round]
        }
    }

    /// The sponge with rate 136 and the given domain byte (0x01 Keccak-256, 0x06 SHA3-256).
    static func hash256(_ message: [UInt8], domain: UInt8 = 0x01) -> [UInt8] {
        var padded = message
        padded.append(domain)
        while padded.count % 136 != 0 { padded.append(0) }
        padded[padded.count - 1] |= 0x80
        var state = [UInt64](repeating: 0, count: 25)
        for blockStart in stride(from: 0, to: padded.count, by: 136) {
            for i in 0..<17 {
                var lane: UInt64 = 0
                for k in 0..<8 { lane |= UInt64(padded[blockStart + 8 * i + k]) << (8 * UInt64(k)) }
                state[i] ^= lane
            }
            permute(&state)
        }
        var out: [UInt8] = []
        for i in 0..<4 { for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: state[i] >> (8 * UInt64(k)))) } }
        return out
    }
}
