import CryptoExtras

/// scrypt (RFC 7914) for the parameter sets swift-crypto's BoringSSL scrypt refuses.
///
/// BoringSSL enforces RFC 7914's recommendation n < 2^(16·r); keystores in the wild (and
/// ethereum/tests' KeyStoreTests) use n = 2^18 with r = 1, which geth, eth-keyfile and pycryptodome
/// all accept. For those, this computes the same function: PBKDF2-HMAC-SHA256 (from swift-crypto)
/// around scryptROMix, whose core is Salsa20/8. Everything else goes to BoringSSL.
package enum Scrypt {
    package static func deriveKey(password: [UInt8], salt: [UInt8], n: Int, r: Int, p: Int, length: Int) throws -> [UInt8] {
        let blockBytes = 128 * r
        let b = try pbkdf2(password: password, salt: salt, length: p * blockBytes)
        var mixed = b
        mixed.withUnsafeMutableBufferPointer { buffer in
            // 32-bit little-endian words; every block is 32·r of them.
            var words = [UInt32](repeating: 0, count: 32 * r)
            var scratch = [UInt32](repeating: 0, count: 32 * r)
            var v = [UInt32](repeating: 0, count: 32 * r * n)
            for i in 0..<p {
                let block = UnsafeMutableBufferPointer(rebasing: buffer[(i * blockBytes)..<((i + 1) * blockBytes)])
                for w in 0..<(32 * r) {
                    words[w] = UInt32(block[4 * w]) | UInt32(block[4 * w + 1]) << 8
                        | UInt32(block[4 * w + 2]) << 16 | UInt32(block[4 * w + 3]) << 24
                }
                roMix(&words, n: n, r: r, v: &v, scratch: &scratch)
                for w in 0..<(32 * r) {
                    let x = words[w]
                    block[4 * w] = UInt8(truncatingIfNeeded: x)
                    block[4 * w + 1] = UInt8(truncatingIfNeeded: x >> 8)
                    block[4 * w + 2] = UInt8(truncatingIfNeeded: x >> 16)
                    block[4 * w + 3] = UInt8(truncatingIfNeeded: x >> 24)
                }
            }
        }
        return try pbkdf2(password: password, salt: mixed, length: length)
    }

    private static func pbkdf2(password: [UInt8], salt: [UInt8], length: Int) throws -> [UInt8] {
        let key = try KDF.Insecure.PBKDF2.deriveKey(
            from: password, salt: salt, using: .sha256, outputByteCount: length, unsafeUncheckedRounds: 1)
        return key.withUnsafeBytes { Array($0) }
    }

    /// scryptROMix (RFC 7914 §5) on one block held as 32·r words.
    private static func roMix(_ x: inout [UInt32], n: Int, r: Int, v: inout [UInt32], scratch: inout [UInt32]) {
        let blockWords = 32 * r
        x.withUnsafeMutableBufferPointer { x in
            v.withUnsafeMutableBufferPointer { v in
                scratch.withUnsafeMutableBufferPointer { y in
                    for i in 0..<n {
                        _ = UnsafeMutableBufferPointer(rebasing: v[(i * blockWords)..<((i + 1) * blockWords)])
                            .update(fromContentsOf: x)
                        blockMix(x, r: r, into: y)
                        _ = x.update(fromContentsOf: y)
                    }
                    for _ in 0..<n {
                        // Integerify: the first word of the last 64-byte sub-block, modulo n (a power of two).
                        let j = Int(x[(2 * r - 1) * 16]) & (n - 1)
                        for w in 0..<blockWords { x[w] ^= v[j * blockWords + w] }
                        blockMix(x, r: r, into: y)
                        _ = x.update(fromContentsOf: y)
                    }
                }
            }
        }
    }

    /// scryptBlockMix (RFC 7914 §4): Salsa20/8 over the 2·r sub-blocks, even outputs first, then odd.
    private static func blockMix(_ b: UnsafeMutableBufferPointer<UInt32>, r: Int, into y: UnsafeMutableBufferPointer<UInt32>) {
        var t = (b[(2 * r - 1) * 16 + 0], b[(2 * r - 1) * 16 + 1], b[(2 * r - 1) * 16 + 2], b[(2 * r - 1) * 16 + 3],
                 b[(2 * r - 1) * 16 + 4], b[(2 * r - 1) * 16 + 5], b[(2 * r - 1) * 16 + 6], b[(2 * r - 1) * 16 + 7],
                 b[(2 * r - 1) * 16 + 8], b[(2 * r - 1) * 16 + 9], b[(2 * r - 1) * 16 + 10], b[(2 * r - 1) * 16 + 11],
                 b[(2 * r - 1) * 16 + 12], b[(2 * r - 1) * 16 + 13], b[(2 * r - 1) * 16 + 14], b[(2 * r - 1) * 16 + 15])
        for i in 0..<(2 * r) {
            withUnsafeMutableBytes(of: &t) { raw in
                let w = raw.bindMemory(to: UInt32.self)
                for k in 0..<16 { w[k] ^= b[i * 16 + k] }
                salsa20_8(w)
                // Even sub-blocks go to the first half of the output, odd ones to the second.
                let out = (i & 1 == 0 ? i / 2 : r + i / 2) * 16
                for k in 0..<16 { y[out + k] = w[k] }
            }
        }
    }

    /// The Salsa20/8 core (RFC 7914 §3), in place on 16 words.
    private static func salsa20_8(_ b: UnsafeMutableBufferPointer<UInt32>) {
        var x0 = b[0], x1 = b[1], x2 = b[2], x3 = b[3], x4 = b[4], x5 = b[5], x6 = b[6], x7 = b[7]
        var x8 = b[8], x9 = b[9], x10 = b[10], x11 = b[11], x12 = b[12], x13 = b[13], x14 = b[14], x15 = b[15]
        @inline(__always) func rotl(_ a: UInt32, _ n: UInt32) -> UInt32 { (a << n) | (a >> (32 - n)) }
        for _ in 0..<4 {
            // Columns.
            x4 ^= rotl(x0 &+ x12, 7); x8 ^= rotl(x4 &+ x0, 9); x12 ^= rotl(x8 &+ x4, 13); x0 ^= rotl(x12 &+ x8, 18)
            x9 ^= rotl(x5 &+ x1, 7); x13 ^= rotl(x9 &+ x5, 9); x1 ^= rotl(x13 &+ x9, 13); x5 ^= rotl(x1 &+ x13, 18)
            x14 ^= rotl(x10 &+ x6, 7); x2 ^= rotl(x14 &+ x10, 9); x6 ^= rotl(x2 &+ x14, 13); x10 ^= rotl(x6 &+ x2, 18)
            x3 ^= rotl(x15 &+ x11, 7); x7 ^= rotl(x3 &+ x15, 9); x11 ^= rotl(x7 &+ x3, 13); x15 ^= rotl(x11 &+ x7, 18)
            // Rows.
            x1 ^= rotl(x0 &+ x3, 7); x2 ^= rotl(x1 &+ x0, 9); x3 ^= rotl(x2 &+ x1, 13); x0 ^= rotl(x3 &+ x2, 18)
            x6 ^= rotl(x5 &+ x4, 7); x7 ^= rotl(x6 &+ x5, 9); x4 ^= rotl(x7 &+ x6, 13); x5 ^= rotl(x4 &+ x7, 18)
            x11 ^= rotl(x10 &+ x9, 7); x8 ^= rotl(x11 &+ x10, 9); x9 ^= rotl(x8 &+ x11, 13); x10 ^= rotl(x9 &+ x8, 18)
            x12 ^= rotl(x15 &+ x14, 7); x13 ^= rotl(x12 &+ x15, 9); x14 ^= rotl(x13 &+ x12, 13); x15 ^= rotl(x14 &+ x13, 18)
        }
        b[0] &+= x0; b[1] &+= x1; b[2] &+= x2; b[3] &+= x3; b[4] &+= x4; b[5] &+= x5; b[6] &+= x6; b[7] &+= x7
        b[8] &+= x8; b[9] &+= x9; b[10] &+= x10; b[11] &+= x11; b[12] &+= x12; b[13] &+= x13; b[14] &+= x14; b[15] &+= x15
    }
}
