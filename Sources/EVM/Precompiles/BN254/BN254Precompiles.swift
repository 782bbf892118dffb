import EthereumPrimitives

/// BN254_ADD (0x06), BN254_MUL (0x07) and BN254_PAIRING (0x08): EIP-196 and EIP-197, repriced by
/// EIP-1108 from Istanbul. Coordinates are 32-byte big-endian integers that must be below p; points must
/// be on their curve (G2 points also in the order-r subgroup); (0, 0) encodes the point at infinity.
/// Any invalid input fails the call. Short input is zero-padded; input beyond what is read is ignored
/// (except for the pairing, whose length must be a multiple of 192).
enum BN254Precompiles {
    static func add(input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        let gas: UInt64 = fork >= .istanbul ? 150 : 500
        guard gas <= gasLimit else { return .failure }
        guard let p = g1(input, at: 0), let q = g1(input, at: 64) else { return .failure }
        return .success(gasUsed: gas, output: encode(p + q))
    }

    static func mul(input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        let gas: UInt64 = fork >= .istanbul ? 6_000 : 40_000
        guard gas <= gasLimit else { return .failure }
        guard let p = g1(input, at: 0) else { return .failure }
        let scalar = PrecompileInput.word(input, at: 64)
        return .success(gasUsed: gas, output: encode(p.multiplied(by: scalar)))
    }

    static func pairing(input: [UInt8], gasLimit: UInt64, fork: Hardfork) -> PrecompileResult {
        guard input.count % 192 == 0 else { return .failure }
        let k = UInt64(input.count / 192)
        let (base, perPair): (UInt64, UInt64) = fork >= .istanbul ? (45_000, 34_000) : (100_000, 80_000)
        let (product, overflow) = perPair.multipliedReportingOverflow(by: k)
        let (gas, overflow2) = base.addingReportingOverflow(product)
        guard !overflow, !overflow2, gas <= gasLimit else { return .failure }
        var pairs: [(BN254G1, BN254G2)] = []
        for i in 0..<Int(k) {
            guard let p = g1(input, at: 192 * i), let q = g2(input, at: 192 * i + 64) else { return .failure }
            pairs.append((p, q))
        }
        var output = [UInt8](repeating: 0, count: 32)
        if BN254Pairing.product(pairs).isOne { output[31] = 1 }
        return .success(gasUsed: gas, output: output)
    }

    /// The field element at `offset`, or nil when it is not below p.
    static func fp(_ input: [UInt8], at offset: Int) -> BN254Fp? {
        BN254Fp(PrecompileInput.word(input, at: offset))
    }

    /// A G1 point (x, y) at `offset`: nil when a coordinate is ≥ p or the point is not on the curve.
    static func g1(_ input: [UInt8], at offset: Int) -> BN254G1? {
        guard let x = fp(input, at: offset), let y = fp(input, at: offset + 32) else { return nil }
        if x.isZero && y.isZero { return .infinity }
        guard BN254G1.isOnCurve(x: x, y: y) else { return nil }
        return BN254G1(affineX: x, y: y)
    }

    /// A G2 point at `offset`, each F_p² coordinate written imaginary part first (x = x1·u + x0 is
    /// x1 ‖ x0): nil when a coordinate is ≥ p, the point is off the twist or outside the subgroup.
    static func g2(_ input: [UInt8], at offset: Int) -> BN254G2? {
        guard let x1 = fp(input, at: offset), let x0 = fp(input, at: offset + 32),
            let y1 = fp(input, at: offset + 64), let y0 = fp(input, at: offset + 96)
        else { return nil }
        let x = BN254Fp2(x0, x1), y = BN254Fp2(y0, y1)
        if x.isZero && y.isZero { return .infinity }
        guard BN254G2.isOnCurve(x: x, y: y) else { return nil }
        let point = BN254G2(affineX: x, y: y)
        guard point.isInSubgroup else { return nil }
        return point
    }

    /// The 64-byte encoding of a G1 point: affine x ‖ y, or zeros for infinity.
    static func encode(_ point: BN254G1) -> [UInt8] {
        guard let (x, y) = point.affine else { return [UInt8](repeating: 0, count: 64) }
        return x.value.bigEndianBytes + y.value.bigEndianBytes
    }
}
