import EthereumCrypto
import EthereumPrimitives

/// ECRECOVER (0x01): the address that signed a hash. Input (zero-padded to 128 bytes): hash, v, r, s as
/// 32-byte words. v must be 27 or 28 and r, s in 1 ..< n; high s is accepted (EIP-2 applies to
/// transactions only). An invalid signature is not an error: the call succeeds with empty output.
enum ECRecover {
    static let gas: UInt64 = 3000

    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        guard gas <= gasLimit else { return .failure }
        let padded = PrecompileInput.bytes(input, at: 0, count: 128)
        guard padded[32..<63].allSatisfy({ $0 == 0 }), padded[63] == 27 || padded[63] == 28,
            let hash = Bytes32(padded[0..<32]), let r = Bytes32(padded[64..<96]), let s = Bytes32(padded[96..<128])
        else { return .success(gasUsed: gas, output: []) }
        let signature = Signature(r: r, s: s, recoveryID: padded[63] - 27)
        guard signature.hasValidScalars,
            let publicKey = try? Secp256k1.recover(hash: hash, signature: signature, allowHighS: true)
        else { return .success(gasUsed: gas, output: []) }
        return .success(gasUsed: gas, output: [UInt8](repeating: 0, count: 12) + publicKey.address.bytes)
    }
}
