import EthereumPrimitives

/// EIP-2537's encodings: an Fp element is 64 big-endian bytes whose top 16 are zero and whose value is
/// below p; an Fp2 element is c0 ‖ c1 (128 bytes); a point is x ‖ y, and all-zero bytes are the point at
/// infinity (the pair (0, 0) is on neither curve). A scalar is 32 big-endian bytes, any value.
package enum BLSEncoding {
    static let fpLength = 64
    static let fp2Length = 128
    static let g1Length = 128
    static let g2Length = 256
    static let scalarLength = 32

    /// Why an input is refused (every refusal fails the precompile and consumes its gas).
    package enum DecodingError: Error, Equatable, CustomStringConvertible {
        case invalidLength(Int)
        case nonZeroPadding
        case notInField
        case notOnCurve
        case notInG1
        case notInG2

        package var description: String {
            switch self {
            case .invalidLength(let n): return "invalid input length \(n)"
            case .nonZeroPadding: return "field element's top 16 bytes are not zero"
            case .notInField: return "field element is not below p"
            case .notOnCurve: return "point is not on the curve"
            case .notInG1: return "point is not in G1 (the r-order subgroup of E)"
            case .notInG2: return "point is not in G2 (the r-order subgroup of E')"
            }
        }
    }

    /// The Fp element at `input[offset..<offset + 64]`.
    package static func fp(_ input: [UInt8], at offset: Int) throws(DecodingError) -> BLSFp {
        for i in offset..<(offset + 16) where input[i] != 0 { throw .nonZeroPadding }
        guard let value = BLSFp(bigEndian: input, at: offset + 16) else { throw .notInField }
        return value
    }

    package static func fp2(_ input: [UInt8], at offset: Int) throws(DecodingError) -> BLSFp2 {
        BLSFp2(try fp(input, at: offset), try fp(input, at: offset + fpLength))
    }

    /// A G1 point (on E; in G1 when `subgroupCheck`).
    package static func g1(_ input: [UInt8], at offset: Int, subgroupCheck: Bool) throws(DecodingError) -> BLSAffine<BLSFp> {
        let x = try fp(input, at: offset)
        let y = try fp(input, at: offset + fpLength)
        if x.isZero && y.isZero { return .infinity }
        let point = BLSAffine(x: x, y: y)
        guard point.isOnCurve else { throw .notOnCurve }
        if subgroupCheck, !BLSEndomorphism.isInG1(point) { throw .notInG1 }
        return point
    }

    /// A G2 point (on E'; in G2 when `subgroupCheck`).
    package static func g2(_ input: [UInt8], at offset: Int, subgroupCheck: Bool) throws(DecodingError) -> BLSAffine<BLSFp2> {
        let x = try fp2(input, at: offset)
        let y = try fp2(input, at: offset + fp2Length)
        if x.isZero && y.isZero { return .infinity }
        let point = BLSAffine(x: x, y: y)
        guard point.isOnCurve else { throw .notOnCurve }
        if subgroupCheck, !BLSEndomorphism.isInG2(point) { throw .notInG2 }
        return point
    }

    package static func scalar(_ input: [UInt8], at offset: Int) -> UInt256 {
        UInt256(truncatingBigEndian: input[offset..<(offset + scalarLength)])
    }

    /// 64-byte padded Fp.
    static func append(_ value: BLSFp, to out: inout [UInt8]) {
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: fpLength))
        value.write(into: &out, at: start + 16)
    }

    /// x ‖ y of an affine G1 point, or 128 zero bytes for infinity.
    package static func encode(_ p: BLSAffine<BLSFp>) -> [UInt8] {
        if p.isInfinity { return [UInt8](repeating: 0, count: g1Length) }
        var out: [UInt8] = []
        out.reserveCapacity(g1Length)
        append(p.x, to: &out)
        append(p.y, to: &out)
        return out
    }

    /// x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1 of an affine G2 point, or 256 zero bytes for infinity.
    package static func encode(_ p: BLSAffine<BLSFp2>) -> [UInt8] {
        if p.isInfinity { return [UInt8](repeating: 0, count: g2Length) }
        var out: [UInt8] = []
        out.reserveCapacity(g2Length)
        append(p.x.c0, to: &out)
        append(p.x.c1, to: &out)
        append(p.y.c0, to: &out)
        append(p.y.c1, to: &out)
        return out
    }
}
