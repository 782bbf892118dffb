import Crypto
import EthereumPrimitives

/// The point evaluation precompile at 0x0a (EIP-4844): verifies a KZG proof that the polynomial
/// committed to by `commitment` takes the value y at z.
///
/// Input, exactly 192 bytes: versioned_hash ‖ z ‖ y ‖ commitment (48) ‖ proof (48). It succeeds when
/// versioned_hash = 0x01 ‖ sha256(commitment)[1...], z and y are below r, the commitment and proof
/// are valid compressed G1 points in the r-order subgroup, and
/// e(commitment − [y]G1, −G2) · e(proof, [τ]G2 − [z]G2) = 1; it then returns
/// FIELD_ELEMENTS_PER_BLOB (4096) and r as two 32-byte words. Anything else fails, consuming the gas.
package enum PointEvaluation {
    /// POINT_EVALUATION_PRECOMPILE_GAS.
    package static let gas: UInt64 = 50_000
    /// VERSIONED_HASH_VERSION_KZG.
    static let versionedHashVersion: UInt8 = 0x01
    static let fieldElementsPerBlob = UInt256(4096)

    /// EIP-4844's `kzg_to_versioned_hash`: 0x01 ‖ sha256(commitment)[1...].
    package static func versionedHash(_ commitment: [UInt8]) -> [UInt8] {
        var versioned = Array(SHA256.hash(data: commitment))
        versioned[0] = versionedHashVersion
        return versioned
    }

    static func run(input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        guard gasLimit >= gas, input.count == 192 else { return .failure }
        let commitmentBytes = Array(input[96..<144])
        guard versionedHash(commitmentBytes)[...] == input[0..<32] else { return .failure }
        let z = UInt256(truncatingBigEndian: input[32..<64])
        let y = UInt256(truncatingBigEndian: input[64..<96])
        guard z < BLSConstants.groupOrder, y < BLSConstants.groupOrder,
            let commitment = decompressG1(commitmentBytes),
            let proof = decompressG1(Array(input[144..<192])),
            verifyProof(commitment: commitment, z: z, y: y, proof: proof)
        else { return .failure }
        return .success(
            gasUsed: gas, output: fieldElementsPerBlob.bigEndianBytes + BLSConstants.groupOrder.bigEndianBytes)
    }

    /// verify_kzg_proof of the consensus specs: e(C − [y]G1, −G2)·e(π, [τ]₂ − [z]G2) = 1, checked in the
    /// equivalent form e(C − [y]G1 + [z]π, −G2)·e(π, [τ]₂) = 1 (bilinearity: e(π, −[z]G2) =
    /// e([z]π, −G2)). Both G2 points are then fixed, so their Miller-loop lines are prepared once, and
    /// the scalar multiplications stay in G1.
    package static func verifyProof(
        commitment: BLSAffine<BLSFp>, z: UInt256, y: UInt256, proof: BLSAffine<BLSFp>
    ) -> Bool {
        let yG1 = BLSGroupMultiplication.g1(BLSJacobian(BLSConstants.g1), y)
        let zProof = BLSGroupMultiplication.g1(BLSJacobian(proof), z)
        let lhs = BLSJacobian(commitment) + yG1.negated + zProof
        return BLSPairing.productIsOne(prepared: [(lhs.affine, minusG2Lines), (proof, tauG2Lines)])
    }

    /// The Miller-loop lines of −G2 and [τ]₂, computed on first use.
    static let minusG2Lines = BLSPairing.G2Prepared(BLSConstants.g2.negated)
    static let tauG2Lines = BLSPairing.G2Prepared(BLSConstants.tauG2)

    /// A G1 point from its 48-byte compressed (ZCash) encoding: flags in the top three bits of the
    /// first byte (compressed, infinity, sign of y), then x. Nil unless the encoding is canonical and
    /// the point is on the curve and in the r-order subgroup.
    package static func decompressG1(_ bytes: [UInt8]) -> BLSAffine<BLSFp>? {
        guard bytes.count == 48 else { return nil }
        let compressed = bytes[0] & 0x80 != 0
        let infinity = bytes[0] & 0x40 != 0
        let largestY = bytes[0] & 0x20 != 0
        guard compressed else { return nil }
        var xBytes = bytes
        xBytes[0] &= 0x1F
        if infinity {
            guard !largestY, xBytes.allSatisfy({ $0 == 0 }) else { return nil }
            return .infinity
        }
        guard let x = BLSFp(bigEndian: xBytes), var y = (x.squared * x + BLSFp.curveB).squareRoot else {
            return nil
        }
        if y.isLexicographicallyLargest != largestY { y = -y }
        let point = BLSAffine(x: x, y: y)
        guard BLSEndomorphism.isInG1(point) else { return nil }
        return point
    }
}
