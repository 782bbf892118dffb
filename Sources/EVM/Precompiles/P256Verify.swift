import Crypto
import EthereumPrimitives
import Foundation

/// P256VERIFY (0x100, EIP-7951, Osaka): ECDSA verification over secp256r1 of a 32-byte message hash.
///
/// Input, exactly 160 bytes: hash ‖ r ‖ s ‖ qx ‖ qy. Output: the 32-byte word 1 when the signature is
/// valid, else nothing. A refusal is not an exception: the call succeeds, charges the full 6900 gas and
/// returns empty output (only gas below 6900 fails the call). The curve arithmetic is BoringSSL's, through
/// swift-crypto's `P256.Signing.PublicKey`; the hash is handed over as a ``Prehash`` (swift-crypto
/// verifies any `Digest` as given, without hashing it again).
///
/// The range checks EIP-7951 lists are made here before the library is asked, so they do not depend on
/// its rules: 0 < r, s < n; qx, qy < p; (qx, qy) ≠ (0, 0). BoringSSL refuses a public key off the curve,
/// computes R' = [h·s⁻¹]G + [r·s⁻¹]Q and accepts when R' is not infinity and R'.x ≡ r (mod n); the
/// tests run EIP-7951's vectors (geth's and the EEST state tests) through this path.
enum P256Verify {
    static let gas: UInt64 = 6_900
    static let inputLength = 160

    /// n, the order of the base point.
    static let order = UInt256(
        limbs: (0xF3B9_CAC2_FC63_2551, 0xBCE6_FAAD_A717_9E84, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_0000_0000))
    /// p, the field modulus.
    static let fieldModulus = UInt256(
        limbs: (0xFFFF_FFFF_FFFF_FFFF, 0x0000_0000_FFFF_FFFF, 0x0000_0000_0000_0000, 0xFFFF_FFFF_0000_0001))
    /// 32-byte 1.
    static let validOutput = [UInt8](repeating: 0, count: 31) + [1]

    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        guard gasLimit >= gas else { return .failure }
        return .success(gasUsed: gas, output: verify(input) ? validOutput : [])
    }

    /// Whether `input` is a valid (hash, r, s, qx, qy) with a signature that verifies.
    static func verify(_ input: [UInt8]) -> Bool {
        guard input.count == inputLength else { return false }
        let r = UInt256(truncatingBigEndian: input[32..<64])
        let s = UInt256(truncatingBigEndian: input[64..<96])
        let qx = UInt256(truncatingBigEndian: input[96..<128])
        let qy = UInt256(truncatingBigEndian: input[128..<160])
        guard !r.isZero, r < order, !s.isZero, s < order, qx < fieldModulus, qy < fieldModulus,
            !(qx.isZero && qy.isZero)
        else { return false }
        // The public key's X9.63 form 04 ‖ qx ‖ qy; BoringSSL refuses a point off the curve.
        guard let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + input[96..<160]),
            let signature = try? P256.Signing.ECDSASignature(rawRepresentation: input[32..<96])
        else { return false }
        return key.isValidSignature(signature, for: Prehash(bytes: Array(input[0..<32])))
    }

    /// A 32-byte message hash as a swift-crypto `Digest`, so it is verified as given (EIP-7951 signs
    /// the hash directly; the curve library must not hash it again).
    struct Prehash: Digest {
        static let byteCount = 32
        let bytes: [UInt8]

        func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
            try bytes.withUnsafeBytes(body)
        }

        func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }

        var description: String { "P256 prehash \(Hex.encode(bytes))" }
    }
}
