import EthereumPrimitives

/// A recoverable ECDSA signature: r, s and the recovery id (0 or 1; 2 and 3 are possible in theory, never
/// produced in practice).
public struct Signature: Sendable, Hashable, CustomStringConvertible {
    public var r: Bytes32
    public var s: Bytes32
    /// 0 or 1: the parity of the nonce point's y coordinate.
    public var recoveryID: UInt8

    public init(r: Bytes32, s: Bytes32, recoveryID: UInt8) {
        self.r = r
        self.s = s
        self.recoveryID = recoveryID
    }

    /// Parses the 65-byte r ‖ s ‖ v form used by `eth_sign` and EIP-191 signatures, where v is 27/28 or 0/1.
    public init<C: Collection>(rsv bytes: C) throws(Secp256k1.Error) where C.Element == UInt8 {
        let b = Array(bytes)
        guard b.count == 65 else { throw .invalidSignatureLength(b.count) }
        let v = b[64]
        let recovery: UInt8
        switch v {
        case 0, 1: recovery = v
        case 27, 28: recovery = v - 27
        default: throw .invalidRecoveryID(v)
        }
        self.init(r: Bytes32(b[0..<32])!, s: Bytes32(b[32..<64])!, recoveryID: recovery)
    }

    /// r ‖ s as eight big-endian words, laid out in memory as the 64-byte compact form libsecp256k1 parses.
    var compactWords: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) {
        (r.words.0.bigEndian, r.words.1.bigEndian, r.words.2.bigEndian, r.words.3.bigEndian,
         s.words.0.bigEndian, s.words.1.bigEndian, s.words.2.bigEndian, s.words.3.bigEndian)
    }

    /// r ‖ s ‖ (27 + recovery id): the form `personal_sign` returns.
    public var rsv: [UInt8] { r.bytes + s.bytes + [27 + recoveryID] }

    /// True when s ≤ n/2 (EIP-2).
    public var isLowS: Bool { s <= Secp256k1.halfCurveOrder }

    /// True when r and s are both in 1 ..< n.
    public var hasValidScalars: Bool {
        r != .zero && s != .zero && r < Secp256k1.curveOrder && s < Secp256k1.curveOrder
    }

    public var description: String { Hex.encode(rsv) }
}
