import EthereumPrimitives

/// The BLS12-381 precompiles of EIP-2537 (Prague), addresses 0x0b–0x11, with the final EIP's gas
/// schedule. Any invalid input (length, encoding, point off its curve, or outside its subgroup where
/// the EIP checks it: MSM and pairing, not addition) fails the call, which consumes all its gas.
package enum BLS12381Precompiles {
    package static let g1AddGas: UInt64 = 375
    package static let g2AddGas: UInt64 = 600
    /// The single-multiplication costs the MSM prices scale.
    package static let g1MulGas: UInt64 = 12_000
    package static let g2MulGas: UInt64 = 22_500
    package static let pairingBaseGas: UInt64 = 37_700
    package static let pairingPerPairGas: UInt64 = 32_600
    package static let mapFpToG1Gas: UInt64 = 5_500
    package static let mapFp2ToG2Gas: UInt64 = 23_800

    static let g1MSMPairLength = BLSEncoding.g1Length + BLSEncoding.scalarLength  // 160
    static let g2MSMPairLength = BLSEncoding.g2Length + BLSEncoding.scalarLength  // 288
    static let pairingPairLength = BLSEncoding.g1Length + BLSEncoding.g2Length  // 384

    /// The seven operations, in address order.
    package enum Operation: Sendable, CaseIterable {
        case g1Add, g1MSM, g2Add, g2MSM, pairingCheck, mapFpToG1, mapFp2ToG2
    }

    /// Runs `operation`: its gas (from the input length alone) must fit `gasLimit`, then the input must
    /// decode and the result is returned; any failure consumes the gas given.
    static func run(_ operation: Operation, input: [UInt8], gasLimit: UInt64) -> PrecompileResult {
        guard let cost = gas(operation, inputLength: input.count), cost <= gasLimit,
            let output = try? evaluate(operation, input: input)
        else { return .failure }
        return .success(gasUsed: cost, output: output)
    }

    /// The gas EIP-2537 charges for an input of `length` bytes (nil only on overflow). MSM and pairing
    /// price ⌊length / pair size⌋ pairs, whatever the remainder (the call then fails on the length).
    package static func gas(_ operation: Operation, inputLength length: Int) -> UInt64? {
        switch operation {
        case .g1Add: return g1AddGas
        case .g2Add: return g2AddGas
        case .g1MSM: return msmGas(pairs: length / g1MSMPairLength, multiplicationGas: g1MulGas, discounts: g1Discounts)
        case .g2MSM: return msmGas(pairs: length / g2MSMPairLength, multiplicationGas: g2MulGas, discounts: g2Discounts)
        case .pairingCheck: return pairingGas(pairs: length / pairingPairLength)
        case .mapFpToG1: return mapFpToG1Gas
        case .mapFp2ToG2: return mapFp2ToG2Gas
        }
    }

    /// The output of `operation` on `input`, or why the input is refused.
    package static func evaluate(_ operation: Operation, input: [UInt8]) throws(BLSEncoding.DecodingError) -> [UInt8] {
        switch operation {
        case .g1Add:
            // P + Q for two points on E (no subgroup check).
            try requireLength(input, 2 * BLSEncoding.g1Length)
            let p = try BLSEncoding.g1(input, at: 0, subgroupCheck: false)
            let q = try BLSEncoding.g1(input, at: BLSEncoding.g1Length, subgroupCheck: false)
            return BLSEncoding.encode((BLSJacobian(p) + q).affine)
        case .g2Add:
            try requireLength(input, 2 * BLSEncoding.g2Length)
            let p = try BLSEncoding.g2(input, at: 0, subgroupCheck: false)
            let q = try BLSEncoding.g2(input, at: BLSEncoding.g2Length, subgroupCheck: false)
            return BLSEncoding.encode((BLSJacobian(p) + q).affine)
        case .g1MSM:
            // Σ [kᵢ]Pᵢ over 160-byte (point, scalar) pairs, points checked into G1.
            let (points, scalars) = try msmInput(input, pointLength: BLSEncoding.g1Length) {
                (bytes: [UInt8], offset: Int) throws(BLSEncoding.DecodingError) in
                try BLSEncoding.g1(bytes, at: offset, subgroupCheck: true)
            }
            return BLSEncoding.encode(BLSMSM.multiply(points, scalars).affine)
        case .g2MSM:
            let (points, scalars) = try msmInput(input, pointLength: BLSEncoding.g2Length) {
                (bytes: [UInt8], offset: Int) throws(BLSEncoding.DecodingError) in
                try BLSEncoding.g2(bytes, at: offset, subgroupCheck: true)
            }
            return BLSEncoding.encode(BLSMSM.multiply(points, scalars).affine)
        case .pairingCheck:
            // 32-byte 1 when ∏ e(Pᵢ, Qᵢ) = 1, else 0; all points checked into their subgroups, and pairs
            // with a point at infinity contribute one.
            let k = try pairCount(input, pairingPairLength)
            var pairs: [(BLSAffine<BLSFp>, BLSAffine<BLSFp2>)] = []
            pairs.reserveCapacity(k)
            for i in 0..<k {
                let offset = i * pairingPairLength
                let p = try BLSEncoding.g1(input, at: offset, subgroupCheck: true)
                let q = try BLSEncoding.g2(input, at: offset + BLSEncoding.g1Length, subgroupCheck: true)
                pairs.append((p, q))
            }
            var output = [UInt8](repeating: 0, count: 32)
            if BLSPairing.productIsOne(pairs) { output[31] = 1 }
            return output
        case .mapFpToG1:
            try requireLength(input, BLSEncoding.fpLength)
            return BLSEncoding.encode(BLSMapToCurve.mapToG1(try BLSEncoding.fp(input, at: 0)).affine)
        case .mapFp2ToG2:
            try requireLength(input, BLSEncoding.fp2Length)
            return BLSEncoding.encode(BLSMapToCurve.mapToG2(try BLSEncoding.fp2(input, at: 0)).affine)
        }
    }

    /// The (point, scalar) pairs of an MSM input: whole pairs of `pointLength + 32` bytes, at least one.
    static func msmInput<F>(
        _ input: [UInt8], pointLength: Int,
        point: ([UInt8], Int) throws(BLSEncoding.DecodingError) -> BLSAffine<F>
    ) throws(BLSEncoding.DecodingError) -> ([BLSAffine<F>], [UInt256]) {
        let pairLength = pointLength + BLSEncoding.scalarLength
        let k = try pairCount(input, pairLength)
        var points: [BLSAffine<F>] = []
        var scalars: [UInt256] = []
        points.reserveCapacity(k)
        scalars.reserveCapacity(k)
        for i in 0..<k {
            let offset = i * pairLength
            points.append(try point(input, offset))
            scalars.append(BLSEncoding.scalar(input, at: offset + pointLength))
        }
        return (points, scalars)
    }

    static func requireLength(_ input: [UInt8], _ length: Int) throws(BLSEncoding.DecodingError) {
        guard input.count == length else { throw .invalidLength(input.count) }
    }

    /// The number of pairs in a non-empty input made of whole pairs.
    static func pairCount(_ input: [UInt8], _ pairLength: Int) throws(BLSEncoding.DecodingError) -> Int {
        guard !input.isEmpty, input.count % pairLength == 0 else { throw .invalidLength(input.count) }
        return input.count / pairLength
    }

    /// k·multiplication_cost·discount(k)/1000 (k = 0 costs 0; past the tables' 128 entries the last
    /// discount holds). Nil on overflow.
    package static func msmGas(pairs k: Int, multiplicationGas: UInt64, discounts: [UInt16]) -> UInt64? {
        if k == 0 { return 0 }
        let discount = UInt64(discounts[min(k, discounts.count) - 1])
        let (a, o1) = UInt64(k).multipliedReportingOverflow(by: multiplicationGas)
        let (b, o2) = a.multipliedReportingOverflow(by: discount)
        return o1 || o2 ? nil : b / 1000
    }

    /// 32600·k + 37700. Nil on overflow.
    package static func pairingGas(pairs k: Int) -> UInt64? {
        let (a, o1) = UInt64(k).multipliedReportingOverflow(by: pairingPerPairGas)
        let (b, o2) = a.addingReportingOverflow(pairingBaseGas)
        return o1 || o2 ? nil : b
    }

    /// discount(k) for k = 1…128 of G1 MSM (EIP-2537, final; max_discount 519).
    package static let g1Discounts: [UInt16] = [
        1000, 949, 848, 797, 764, 750, 738, 728, 719, 712, 705, 698, 692, 687, 682, 677, 673, 669, 665, 661,
        658, 654, 651, 648, 645, 642, 640, 637, 635, 632, 630, 627, 625, 623, 621, 619, 617, 615, 613, 611,
        609, 608, 606, 604, 603, 601, 599, 598, 596, 595, 593, 592, 591, 589, 588, 586, 585, 584, 582, 581,
        580, 579, 577, 576, 575, 574, 573, 572, 570, 569, 568, 567, 566, 565, 564, 563, 562, 561, 560, 559,
        558, 557, 556, 555, 554, 553, 552, 551, 550, 549, 548, 547, 547, 546, 545, 544, 543, 542, 541, 540,
        540, 539, 538, 537, 536, 536, 535, 534, 533, 532, 532, 531, 530, 529, 528, 528, 527, 526, 525, 525,
        524, 523, 522, 522, 521, 520, 520, 519,
    ]

    /// discount(k) for k = 1…128 of G2 MSM (EIP-2537, final; max_discount 524).
    package static let g2Discounts: [UInt16] = [
        1000, 1000, 923, 884, 855, 832, 812, 796, 782, 770, 759, 749, 740, 732, 724, 717, 711, 704, 699, 693,
        688, 683, 679, 674, 670, 666, 663, 659, 655, 652, 649, 646, 643, 640, 637, 634, 632, 629, 627, 624,
        622, 620, 618, 615, 613, 611, 609, 607, 606, 604, 602, 600, 598, 597, 595, 593, 592, 590, 589, 587,
        586, 584, 583, 582, 580, 579, 578, 576, 575, 574, 573, 571, 570, 569, 568, 567, 566, 565, 563, 562,
        561, 560, 559, 558, 557, 556, 555, 554, 553, 552, 552, 551, 550, 549, 548, 547, 546, 545, 545, 544,
        543, 542, 541, 541, 540, 539, 538, 537, 537, 536, 535, 535, 534, 533, 532, 532, 531, 530, 530, 529,
        528, 528, 527, 526, 526, 525, 524, 524,
    ]
}
