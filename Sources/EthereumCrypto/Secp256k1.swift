import CSecp256k1
import EthereumPrimitives

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ECDSA over secp256k1 as Ethereum uses it: recoverable signatures over 32-byte message hashes, RFC 6979
/// deterministic nonces, low-s (EIP-2) signatures, public-key recovery.
///
/// All operations share one libsecp256k1 context, created and randomized (side-channel blinding) once on
/// first use. After that the context is only read, which libsecp256k1 documents as safe from any thread.
public enum Secp256k1 {
    /// The curve order n.
    public static let curveOrder = Bytes32(words: (0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFE, 0xBAAE_DCE6_AF48_A03B, 0xBFD2_5E8C_D036_4141))
    /// n / 2: signatures with s above this are "high-s" and invalid for Ethereum transactions since Homestead (EIP-2).
    public static let halfCurveOrder = Bytes32(words: (0x7FFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_FFFF, 0x5D57_6E73_57A4_501D, 0xDFE9_2F46_681B_20A0))

    static let context = SharedContext()

    /// Owns the process-wide context. Immutable after `init`, hence safe to share.
    final class SharedContext: @unchecked Sendable {
        let pointer: OpaquePointer

        init() {
            // SECP256K1_CONTEXT_NONE is a macro Swift cannot import; its value is SECP256K1_FLAGS_TYPE_CONTEXT (1).
            guard let ctx = secp256k1_context_create(UInt32(SECP256K1_FLAGS_TYPE_CONTEXT)) else {
                preconditionFailure("libsecp256k1: secp256k1_context_create failed (out of memory?)")
            }
            var seed = [UInt8](repeating: 0, count: 32)
            var generator = SystemRandomNumberGenerator()
            for i in 0..<32 { seed[i] = generator.next() }
            // Randomization only adds blinding; a failure here would leave the context usable but unblinded,
            // which libsecp256k1 only reports for the static context. Treat it as a broken library.
            precondition(secp256k1_context_randomize(ctx, seed) == 1, "libsecp256k1: context randomization failed")
            pointer = ctx
        }

        deinit { secp256k1_context_destroy(pointer) }
    }

    /// Signs a 32-byte hash with RFC 6979 nonces. The result is always low-s (libsecp256k1 normalizes).
    public static func sign(hash: Bytes32, with key: PrivateKey) -> Signature {
        var recoverable = secp256k1_ecdsa_recoverable_signature()
        let ok = hash.withUnsafeBytes { msg in
            key.withUnsafeBytes { seckey in
                secp256k1_ecdsa_sign_recoverable(
                    context.pointer, &recoverable,
                    msg.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    seckey.baseAddress!.assumingMemoryBound(to: UInt8.self),
                    nil, nil)
            }
        }
        // A valid private key (checked when PrivateKey was built) cannot fail to sign with the default nonce function.
        precondition(ok == 1, "libsecp256k1 refused to sign with a validated key")
        // r ‖ s into a stack buffer, then straight into the two words-based values: no heap allocation.
        var compact: (Bytes32, Bytes32) = (.zero, .zero)
        var recid: Int32 = 0
        return withUnsafeMutableBytes(of: &compact) { raw in
            _ = secp256k1_ecdsa_recoverable_signature_serialize_compact(
                context.pointer, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), &recid, &recoverable)
            return Signature(
                r: Bytes32(unsafeBytes: UnsafeRawBufferPointer(rebasing: raw[0..<32])),
                s: Bytes32(unsafeBytes: UnsafeRawBufferPointer(rebasing: raw[32..<64])),
                recoveryID: UInt8(recid))
        }
    }

    /// Recovers the public key that produced `signature` over `hash`.
    ///
    /// High-s signatures are rejected unless `allowHighS` is true (the ECRECOVER precompile and Frontier
    /// transactions accept them; EIP-2 forbids them in transactions since Homestead).
    public static func recover(hash: Bytes32, signature: Signature, allowHighS: Bool = false) throws(Secp256k1.Error) -> PublicKey {
        guard signature.recoveryID <= 3 else { throw .invalidRecoveryID(signature.recoveryID) }
        guard allowHighS || signature.isLowS else { throw .highS }
        var compact = signature.compactWords
        var recoverable = secp256k1_ecdsa_recoverable_signature()
        let parsed = withUnsafeBytes(of: &compact) { raw in
            secp256k1_ecdsa_recoverable_signature_parse_compact(
                context.pointer, &recoverable, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(signature.recoveryID))
        }
        guard parsed == 1 else { throw .invalidSignature }
        var pubkey = secp256k1_pubkey()
        let ok = hash.withUnsafeBytes { msg in
            secp256k1_ecdsa_recover(context.pointer, &pubkey, &recoverable, msg.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard ok == 1 else { throw .recoveryFailed }
        return PublicKey(libsecp256k1: pubkey)
    }

    /// Verifies a signature against a public key. High-s signatures never verify (libsecp256k1's rule, and EIP-2's).
    public static func verify(hash: Bytes32, signature: Signature, publicKey: PublicKey) -> Bool {
        var compact = signature.compactWords
        var sig = secp256k1_ecdsa_signature()
        let parsed = withUnsafeBytes(of: &compact) { raw in
            secp256k1_ecdsa_signature_parse_compact(context.pointer, &sig, raw.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
        guard parsed == 1 else { return false }
        var pubkey = publicKey.libsecp256k1Value
        let ok = hash.withUnsafeBytes { msg in
            secp256k1_ecdsa_verify(context.pointer, &sig, msg.baseAddress!.assumingMemoryBound(to: UInt8.self), &pubkey)
        }
        return ok == 1
    }

    /// Errors from key parsing, recovery and verification.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        case invalidPrivateKey(String)
        case invalidPublicKey(String)
        case invalidRecoveryID(UInt8)
        case invalidSignature
        case invalidSignatureLength(Int)
        case highS
        case recoveryFailed

        public var description: String {
            switch self {
            case .invalidPrivateKey(let why): return "invalid private key: \(why)"
            case .invalidPublicKey(let why): return "invalid public key: \(why)"
            case .invalidRecoveryID(let v): return "invalid signature recovery id \(v) (expected 0 or 1)"
            case .invalidSignature: return "invalid signature: r or s is zero or not below the curve order"
            case .invalidSignatureLength(let n): return "a signature has 65 bytes (r ‖ s ‖ v), got \(n)"
            case .highS: return "invalid signature: s is in the upper half of the curve order (EIP-2 requires low s)"
            case .recoveryFailed: return "signature does not recover to any public key"
            }
        }
    }
}
