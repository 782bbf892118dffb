/// RIPEMD-160 (Dobbertin, Bosselaers and Preneel, 1996): two parallel lines of five rounds of sixteen
/// steps over 512-bit blocks of little-endian words, combined into a 160-bit digest. Used by the EVM's
/// precompile 0x03 and by BIP-32 key fingerprints (hash160 = RIPEMD-160(SHA-256(public key))).
public struct RIPEMD160: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)

    // Word order, rotation amounts and round constants of the left and right lines.
    private static let leftWord: [Int] = [
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
        7, 4, 13, 1, 10, 6, 15, 3, 12, 0, 9, 5, 2, 14, 11, 8,
        3, 10, 14, 4, 9, 15, 8, 1, 2, 7, 0, 6, 13, 11, 5, 12,
        1, 9, 11, 10, 0, 8, 12, 4, 13, 3, 7, 15, 14, 5, 6, 2,
        4, 0, 5, 9, 7, 12, 2, 10, 14, 1, 3, 8, 11, 6, 15, 13,
    ]
    private static let rightWord: [Int] = [
        5, 14, 7, 0, 9, 2, 11, 4, 13, 6, 15, 8, 1, 10, 3, 12,
        6, 11, 3, 7, 0, 13, 5, 10, 14, 15, 8, 12, 4, 9, 1, 2,
        15, 5, 1, 3, 7, 14, 6, 9, 11, 8, 12, 2, 10, 0, 4, 13,
        8, 6, 4, 1, 3, 11, 15, 0, 5, 12, 2, 13, 9, 7, 10, 14,
        12, 15, 10, 4, 1, 5, 8, 7, 6, 2, 13, 14, 0, 3, 9, 11,
    ]
    private static let leftRotation: [UInt32] = [
        11, 14, 15, 12, 5, 8, 7, 9, 11, 13, 14, 15, 6, 7, 9, 8,
        7, 6, 8, 13, 11, 9, 7, 15, 7, 12, 15, 9, 11, 7, 13, 12,
        11, 13, 6, 7, 14, 9, 13, 15, 14, 8, 13, 6, 5, 12, 7, 5,
        11, 12, 14, 15, 14, 15, 9, 8, 9, 14, 5, 6, 8, 6, 5, 12,
        9, 15, 5, 11, 6, 8, 13, 12, 5, 12, 13, 14, 11, 8, 5, 6,
    ]
    private static let rightRotation: [UInt32] = [
        8, 9, 9, 11, 13, 15, 15, 5, 7, 7, 8, 11, 14, 14, 12, 6,
        9, 13, 15, 7, 12, 8, 9, 11, 7, 7, 12, 7, 6, 15, 13, 11,
        9, 7, 15, 11, 8, 6, 6, 14, 12, 13, 5, 14, 13, 13, 7, 5,
        15, 5, 8, 11, 14, 14, 6, 14, 6, 9, 12, 9, 12, 5, 15, 8,
        8, 5, 12, 9, 12, 5, 14, 6, 8, 13, 6, 5, 15, 13, 11, 11,
    ]
    private static let leftConstant: [UInt32] = [0x0000_0000, 0x5A82_7999, 0x6ED9_EBA1, 0x8F1B_BCDC, 0xA953_FD4E]
    private static let rightConstant: [UInt32] = [0x50A2_8BE6, 0x5C4D_D124, 0x6D70_3EF3, 0x7A6D_76E9, 0x0000_0000]

    /// The 20-byte digest of `message`.
    public static func hash(_ message: [UInt8]) -> [UInt8] {
        var hasher = RIPEMD160()
        // Padding: 0x80, zeros to 56 mod 64, then the bit length as a little-endian 64-bit integer.
        var padded = message
        padded.append(0x80)
        while padded.count % 64 != 56 { padded.append(0) }
        let bitLength = UInt64(message.count) &* 8
        for i in 0..<8 { padded.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
        var words = [UInt32](repeating: 0, count: 16)
        for block in stride(from: 0, to: padded.count, by: 64) {
            for i in 0..<16 {
                let o = block + 4 * i
                words[i] = UInt32(padded[o]) | UInt32(padded[o + 1]) << 8 | UInt32(padded[o + 2]) << 16 | UInt32(padded[o + 3]) << 24
            }
            hasher.compress(words)
        }
        var digest = [UInt8]()
        digest.reserveCapacity(20)
        for word in [hasher.state.0, hasher.state.1, hasher.state.2, hasher.state.3, hasher.state.4] {
            for i in 0..<4 { digest.append(UInt8(truncatingIfNeeded: word >> (8 * UInt32(i)))) }
        }
        return digest
    }

    /// The round function of step `j` (0–79).
    @inline(__always)
    private static func f(_ j: Int, _ x: UInt32, _ y: UInt32, _ z: UInt32) -> UInt32 {
        switch j >> 4 {
        case 0: return x ^ y ^ z
        case 1: return (x & y) | (~x & z)
        case 2: return (x | ~y) ^ z
        case 3: return (x & z) | (y & ~z)
        default: return x ^ (y | ~z)
        }
    }

    @inline(__always)
    private static func rotl(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }

    private mutating func compress(_ x: [UInt32]) {
        var (a, b, c, d, e) = state
        var (a2, b2, c2, d2, e2) = state
        for j in 0..<80 {
            var t = Self.rotl(
                a &+ Self.f(j, b, c, d) &+ x[Self.leftWord[j]] &+ Self.leftConstant[j >> 4], Self.leftRotation[j]) &+ e
            a = e; e = d; d = Self.rotl(c, 10); c = b; b = t
            t = Self.rotl(
                a2 &+ Self.f(79 - j, b2, c2, d2) &+ x[Self.rightWord[j]] &+ Self.rightConstant[j >> 4],
                Self.rightRotation[j]) &+ e2
            a2 = e2; e2 = d2; d2 = Self.rotl(c2, 10); c2 = b2; b2 = t
        }
        let t = state.1 &+ c &+ d2
        state.1 = state.2 &+ d &+ e2
        state.2 = state.3 &+ e &+ a2
        state.3 = state.4 &+ a &+ b2
        state.4 = state.0 &+ b &+ c2
        state.0 = t
    }
}
