import EthereumCrypto
import EthereumPrimitives

/// The signature fields of a transaction as they appear on the wire.
///
/// For a legacy transaction `v` is 27/28 (unprotected) or `chainId * 2 + 35/36` (EIP-155); for a typed
/// transaction it is the y parity (0 or 1). A decoded transaction keeps whatever `v`, `r` and `s` it carried,
/// so that validation can say which rule they break.
public struct TransactionSignature: Sendable, Hashable {
    /// v (legacy) or the y parity (typed).
    public var v: UInt256
    /// The signature's r.
    public var r: UInt256
    /// The signature's s.
    public var s: UInt256

    /// Creates a signature from its wire fields.
    public init(v: UInt256, r: UInt256, s: UInt256) {
        self.v = v
        self.r = r
        self.s = s
    }

    /// r and s as a secp256k1 signature with the given recovery id.
    func secp256k1(recoveryID: UInt8) -> Signature {
        Signature(r: r.bytes32, s: s.bytes32, recoveryID: recoveryID)
    }

    /// Checks r and s are in 1 ..< n and, unless `allowHighS`, s ≤ n/2 (EIP-2).
    func checkScalars(allowHighS: Bool) throws(TransactionError) {
        let signature = secp256k1(recoveryID: 0)
        guard signature.hasValidScalars else { throw .invalidSignatureScalars }
        guard allowHighS || signature.isLowS else { throw .highS }
    }
}

extension Secp256k1 {
    /// Recovers the address that signed `hash`, mapping failures to transaction errors.
    static func recoverAddress(
        hash: Bytes32, signature: TransactionSignature, recoveryID: UInt8, allowHighS: Bool
    ) throws(TransactionError) -> Address {
        try signature.checkScalars(allowHighS: allowHighS)
        do {
            return try recover(hash: hash, signature: signature.secp256k1(recoveryID: recoveryID), allowHighS: allowHighS).address
        } catch {
            switch error {
            case .highS: throw .highS
            case .invalidSignature: throw .invalidSignatureScalars
            default: throw .recoveryFailed
            }
        }
    }
}
