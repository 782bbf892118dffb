import EthereumCrypto
import EthereumPrimitives

/// The outcome of running a precompiled contract.
public enum PrecompileResult: Sendable, Equatable {
    /// The call succeeded, charging `gasUsed` and returning `output`.
    case success(gasUsed: UInt64, output: [UInt8])
    /// The call failed (invalid input, or its cost exceeds the gas given): it consumes all gas given to it.
    case failure
    /// This implementation cannot run the precompile; the reason says which one and why.
    case unsupported(reason: String)
}

/// The precompiled contracts, keyed by fork: 0x01–0x04 (Frontier), 0x05–0x08 (Byzantium), 0x09
/// (Istanbul), 0x0a (Cancun), 0x0b–0x11 (Prague, EIP-2537) and 0x100 (Osaka, EIP-7951).
public enum Precompiles {
    /// True when `address` holds a precompile in `fork`.
    public static func isPrecompile(_ address: Address, fork: Hardfork) -> Bool {
        guard let id = PrecompileID(address: address) else { return false }
        return id.introduced <= fork
    }

    /// The precompile addresses active in `fork`, in ascending order (warm from the start of every
    /// transaction since Berlin, EIP-2929).
    public static func addresses(for fork: Hardfork) -> [Address] {
        byFork[fork.rawValue]
    }

    /// ``addresses(for:)`` for every fork, computed once (every transaction and call asks).
    private static let byFork: [[Address]] = Hardfork.allCases.map { fork in
        PrecompileID.allCases.filter { $0.introduced <= fork }.map(\.address)
    }

    /// Runs the precompile at `address` on `input` with `gasLimit` gas under `fork`'s rules.
    ///
    /// A cost above `gasLimit` and invalid input give ``PrecompileResult/failure`` (P256VERIFY instead
    /// returns empty output for invalid input, EIP-7951). An address that is not a precompile in `fork`
    /// gives ``PrecompileResult/unsupported(reason:)`` (the caller should not ask).
    public static func run(_ address: Address, input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        guard let id = PrecompileID(address: address), id.introduced <= fork else {
            return .unsupported(reason: "\(address) is not a precompile in \(fork)")
        }
        switch id {
        case .ecrecover: return ECRecover.run(input: input, gasLimit: gasLimit)
        case .sha256: return SHA256Precompile.run(input: input, gasLimit: gasLimit)
        case .ripemd160:
            // RIPEMD160 (0x03): the digest left-padded to 32 bytes; gas 600 + 120 per word.
            let gas = wordGas(base: 600, perWord: 120, length: input.count)
            return gas <= gasLimit ? .success(gasUsed: gas, output: [UInt8](repeating: 0, count: 12) + RIPEMD160.hash(input)) : .failure
        case .identity: return Identity.run(input: input, gasLimit: gasLimit)
        case .modexp: return ModExp.run(input: input, gasLimit: gasLimit, fork: fork)
        case .bn254Add: return BN254Precompiles.add(input: input, gasLimit: gasLimit, fork: fork)
        case .bn254Mul: return BN254Precompiles.mul(input: input, gasLimit: gasLimit, fork: fork)
        case .bn254Pairing: return BN254Precompiles.pairing(input: input, gasLimit: gasLimit, fork: fork)
        case .blake2f: return Blake2F.run(input: input, gasLimit: gasLimit)
        case .pointEvaluation: return PointEvaluation.run(input: input, gasLimit: gasLimit)
        case .bls12G1Add: return BLS12381Precompiles.run(.g1Add, input: input, gasLimit: gasLimit)
        case .bls12G1MSM: return BLS12381Precompiles.run(.g1MSM, input: input, gasLimit: gasLimit)
        case .bls12G2Add: return BLS12381Precompiles.run(.g2Add, input: input, gasLimit: gasLimit)
        case .bls12G2MSM: return BLS12381Precompiles.run(.g2MSM, input: input, gasLimit: gasLimit)
        case .bls12PairingCheck: return BLS12381Precompiles.run(.pairingCheck, input: input, gasLimit: gasLimit)
        case .bls12MapFpToG1: return BLS12381Precompiles.run(.mapFpToG1, input: input, gasLimit: gasLimit)
        case .bls12MapFp2ToG2: return BLS12381Precompiles.run(.mapFp2ToG2, input: input, gasLimit: gasLimit)
        case .p256Verify: return P256Verify.run(input: input, gasLimit: gasLimit)
        }
    }

    /// Gas for a base cost plus a cost per 32-byte word of input, saturating.
    static func wordGas(base: UInt64, perWord: UInt64, length: Int) -> UInt64 {
        let words = UInt64(length / 32 + (length % 32 == 0 ? 0 : 1))
        let (product, overflow) = words.multipliedReportingOverflow(by: perWord)
        if overflow { return .max }
        let (sum, overflow2) = product.addingReportingOverflow(base)
        return overflow2 ? .max : sum
    }
}

/// The precompiled contracts by address, with the fork that introduced each.
enum PrecompileID: UInt16, CaseIterable, CustomStringConvertible {
    case ecrecover = 0x01, sha256, ripemd160, identity
    /// Byzantium: EIP-198 and EIP-196/197.
    case modexp = 0x05, bn254Add, bn254Mul, bn254Pairing
    /// Istanbul: EIP-152.
    case blake2f = 0x09
    /// Cancun: EIP-4844.
    case pointEvaluation = 0x0A
    /// Prague: EIP-2537 (BLS12-381).
    case bls12G1Add = 0x0B, bls12G1MSM, bls12G2Add, bls12G2MSM, bls12PairingCheck, bls12MapFpToG1, bls12MapFp2ToG2
    /// Osaka: EIP-7951 (secp256r1 signature verification).
    case p256Verify = 0x100

    var introduced: Hardfork {
        switch self {
        case .ecrecover, .sha256, .ripemd160, .identity: return .frontier
        case .modexp, .bn254Add, .bn254Mul, .bn254Pairing: return .byzantium
        case .blake2f: return .istanbul
        case .pointEvaluation: return .cancun
        case .bls12G1Add, .bls12G1MSM, .bls12G2Add, .bls12G2MSM, .bls12PairingCheck, .bls12MapFpToG1,
            .bls12MapFp2ToG2:
            return .prague
        case .p256Verify: return .osaka
        }
    }

    /// The precompile's address: its number as a big-endian 20-byte value.
    var address: Address {
        Address(uint32: UInt32(rawValue))
    }

    /// The precompile at `address`, if any (any fork).
    init?(address: Address) {
        guard let value = address.uint32Value, value <= 0xFFFF else { return nil }
        self.init(rawValue: UInt16(value))
    }

    var description: String {
        switch self {
        case .ecrecover: return "ECRECOVER (0x01)"
        case .sha256: return "SHA256 (0x02)"
        case .ripemd160: return "RIPEMD160 (0x03)"
        case .identity: return "IDENTITY (0x04)"
        case .modexp: return "MODEXP (0x05)"
        case .bn254Add: return "BN254_ADD (0x06)"
        case .bn254Mul: return "BN254_MUL (0x07)"
        case .bn254Pairing: return "BN254_PAIRING (0x08)"
        case .blake2f: return "BLAKE2F (0x09)"
        case .pointEvaluation: return "POINT_EVALUATION (0x0a)"
        case .bls12G1Add: return "BLS12_G1ADD (0x0b)"
        case .bls12G1MSM: return "BLS12_G1MSM (0x0c)"
        case .bls12G2Add: return "BLS12_G2ADD (0x0d)"
        case .bls12G2MSM: return "BLS12_G2MSM (0x0e)"
        case .bls12PairingCheck: return "BLS12_PAIRING_CHECK (0x0f)"
        case .bls12MapFpToG1: return "BLS12_MAP_FP_TO_G1 (0x10)"
        case .bls12MapFp2ToG2: return "BLS12_MAP_FP2_TO_G2 (0x11)"
        case .p256Verify: return "P256VERIFY (0x100)"
        }
    }
}

/// Reading precompile input, which is implicitly zero-padded on the right to any length read.
enum PrecompileInput {
    /// `count` bytes of `input` from `offset`, zero-padded past the end.
    static func bytes(_ input: [UInt8], at offset: Int, count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        if offset < input.count {
            let available = min(count, input.count - offset)
            for i in 0..<available { out[i] = input[offset + i] }
        }
        return out
    }

    /// The 32-byte word at `offset` as an integer, zero-padded past the end.
    static func word(_ input: [UInt8], at offset: Int) -> UInt256 {
        UInt256(truncatingBigEndian: bytes(input, at: offset, count: 32))
    }
}
