import EVM
import EthereumPrimitives

/// The checks a header must pass against its parent before any of its block runs, per fork: which
/// fields the fork's header has, number, timestamp, extra data, gas limit bounds, gas used, the EIP-1559
/// base fee, the proof-of-stake constants (EIP-3675), and the EIP-4844 blob gas fields (with EIP-7691's
/// schedule and, from Osaka, EIP-7918's bound). Proof-of-work difficulty and seals are not checked.
public enum HeaderValidation {
    /// EIP-1559 / Yellow Paper: the gas limit moves by less than parent / 1024 per block.
    public static let gasLimitBoundDivisor: UInt64 = 1024
    /// The smallest gas limit (Yellow Paper).
    public static let minGasLimit: UInt64 = 5000
    /// The largest gas limit (2^63 − 1, geth's bound).
    public static let maxGasLimit: UInt64 = UInt64(Int64.max)
    /// EIP-7934's MAX_RLP_BLOCK_SIZE: 10 MiB less a 2 MiB margin for the beacon block (Osaka).
    public static let maxRLPBlockSize = 10_485_760 - 2_097_152

    /// Checks `header` against `parent` (whose hash is `parentHash`) under `fork`, with `blobSchedule` the
    /// blob parameters in force for the header (nil before Cancun) and `initialBaseFee` the base fee of the
    /// first London block.
    public static func validate(
        _ header: BlockHeader, parent: BlockHeader, parentHash: Bytes32, fork: Hardfork, blobSchedule: BlobSchedule?,
        initialBaseFee: UInt256 = UInt256(1_000_000_000 as UInt64)
    ) throws(BlockValidationError) {
        try checkFormat(header, fork: fork)
        if header.parentHash != parentHash { throw .unknownParent(expected: parentHash, got: header.parentHash) }
        if parent.number == UInt64.max || header.number != parent.number + 1 {
            throw .invalidNumber(parent: parent.number, got: header.number)
        }
        if header.timestamp <= parent.timestamp {
            throw .timestampNotAfterParent(parent: parent.timestamp, got: header.timestamp)
        }
        if header.extraData.count > 32 { throw .extraDataTooLong(header.extraData.count) }
        if header.gasUsed > header.gasLimit { throw .gasUsedAboveLimit(used: header.gasUsed, limit: header.gasLimit) }
        try checkGasLimit(header.gasLimit, parent: parent, fork: fork)
        if let baseFee = header.baseFeePerGas {
            let expected = FeeMarket.nextBaseFee(parent: parent, initialBaseFee: initialBaseFee)
            if baseFee != expected { throw .invalidBaseFee(expected: expected, got: baseFee) }
        }
        if fork >= .paris {
            if !header.difficulty.isZero { throw .proofOfWorkFieldAfterMerge("difficulty") }
            if header.nonce != 0 { throw .proofOfWorkFieldAfterMerge("nonce") }
            if header.ommersHash != BlockHeader.emptyOmmersHash { throw .proofOfWorkFieldAfterMerge("ommers") }
        }
        if let blobGasUsed = header.blobGasUsed, let excessBlobGas = header.excessBlobGas {
            let schedule = blobSchedule ?? .cancun
            let (maxBlobGas, overflow) = schedule.max.multipliedReportingOverflow(by: BlobGas.perBlob)
            if (!overflow && blobGasUsed > maxBlobGas) || blobGasUsed % BlobGas.perBlob != 0 {
                throw .blobGasUsedAboveLimit(used: blobGasUsed, max: overflow ? UInt64.max : maxBlobGas)
            }
            let expected = FeeMarket.nextExcessBlobGas(parent: parent, schedule: schedule, fork: fork)
            if excessBlobGas != expected { throw .invalidExcessBlobGas(expected: expected, got: excessBlobGas) }
        }
    }

    /// The header has exactly the fields of its fork: the base fee from London, the withdrawals root from
    /// Shanghai, the blob gas fields and parent beacon block root from Cancun, the requests hash from Prague.
    static func checkFormat(_ header: BlockHeader, fork: Hardfork) throws(BlockValidationError) {
        func expect(_ present: Bool, _ field: String, _ from: Hardfork) throws(BlockValidationError) {
            let wanted = fork >= from
            if present != wanted {
                throw .incorrectFormat(wanted ? "\(fork) header without \(field)" : "\(fork) header with \(field) (from \(from))")
            }
        }
        try expect(header.baseFeePerGas != nil, "baseFeePerGas", .london)
        try expect(header.withdrawalsRoot != nil, "withdrawalsRoot", .shanghai)
        try expect(header.blobGasUsed != nil, "blobGasUsed", .cancun)
        try expect(header.excessBlobGas != nil, "excessBlobGas", .cancun)
        try expect(header.parentBeaconBlockRoot != nil, "parentBeaconBlockRoot", .cancun)
        try expect(header.requestsHash != nil, "requestsHash", .prague)
    }

    /// The gas limit stays within ±parent/1024 of the parent's (doubled at the first London block, EIP-1559's
    /// elasticity), at least 5,000 and at most 2^63 − 1.
    static func checkGasLimit(_ gasLimit: UInt64, parent: BlockHeader, fork: Hardfork) throws(BlockValidationError) {
        var parentLimit = parent.gasLimit
        if fork >= .london && parent.baseFeePerGas == nil {
            parentLimit = parentLimit.multipliedReportingOverflow(by: FeeMarket.elasticityMultiplier).partialValue
        }
        let bound = parentLimit / gasLimitBoundDivisor
        let difference = gasLimit > parentLimit ? gasLimit - parentLimit : parentLimit - gasLimit
        if difference >= bound || gasLimit < minGasLimit || gasLimit > maxGasLimit {
            throw .invalidGasLimit(parent: parent.gasLimit, got: gasLimit)
        }
    }
}
