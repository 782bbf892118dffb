import EVM
import EthereumPrimitives

/// Base fee (EIP-1559) and blob gas (EIP-4844, EIP-7691, EIP-7918) arithmetic between a parent block and its child.
public enum FeeMarket {
    /// EIP-1559's ELASTICITY_MULTIPLIER: the gas target is half the gas limit.
    public static let elasticityMultiplier: UInt64 = 2
    /// EIP-1559's BASE_FEE_MAX_CHANGE_DENOMINATOR: at most ±12.5% per block.
    public static let baseFeeChangeDenominator: UInt64 = 8

    /// The base fee of the block after `parent` (EIP-1559). `parent.baseFeePerGas` nil means the
    /// child is the first London block, whose base fee is `initialBaseFee`.
    public static func nextBaseFee(parent: BlockHeader, initialBaseFee: UInt256) -> UInt256 {
        guard let parentBaseFee = parent.baseFeePerGas else { return initialBaseFee }
        let target = parent.gasLimit / elasticityMultiplier
        guard target > 0, parent.gasUsed != target else { return parentBaseFee }
        if parent.gasUsed > target {
            let delta = parentBaseFee &* UInt256(parent.gasUsed - target) / UInt256(target)
                / UInt256(baseFeeChangeDenominator)
            return parentBaseFee &+ Swift.max(delta, .one)
        }
        let delta = parentBaseFee &* UInt256(target - parent.gasUsed) / UInt256(target)
            / UInt256(baseFeeChangeDenominator)
        return parentBaseFee &- delta
    }

    /// The fork's blob parameters (``ForkRules/blobSchedule``; Cancun's before Cancun).
    static func blobSchedule(fork: Hardfork) -> BlobSchedule { ForkRules(fork).blobSchedule ?? .cancun }

    /// Blob gas per block the fee market aims for: 3 blobs (Cancun), 6 (Prague, EIP-7691).
    public static func targetBlobGas(fork: Hardfork) -> UInt64 {
        blobSchedule(fork: fork).target * BlobGas.perBlob
    }

    /// The most blob gas a block may use: 6 blobs (Cancun), 9 (Prague).
    public static func maxBlobGas(fork: Hardfork) -> UInt64 {
        blobSchedule(fork: fork).max * BlobGas.perBlob
    }

    /// BLOB_BASE_FEE_UPDATE_FRACTION: 3338477 (Cancun), 5007716 (Prague).
    public static func blobBaseFeeUpdateFraction(fork: Hardfork) -> UInt64 {
        blobSchedule(fork: fork).baseFeeUpdateFraction
    }

    /// The excess blob gas of the block after `parent` under `fork`'s own blob schedule.
    public static func nextExcessBlobGas(parent: BlockHeader, fork: Hardfork) -> UInt64 {
        nextExcessBlobGas(parent: parent, schedule: blobSchedule(fork: fork), fork: fork)
    }

    /// EIP-7918's BLOB_BASE_COST (2^13): from Osaka a blob costs at least this many units of execution
    /// base fee, so the blob fee cannot sink to 1 wei while execution gas is dear.
    public static let blobBaseCost: UInt64 = 8192

    /// The excess blob gas of the block after `parent` (EIP-4844 `calc_excess_blob_gas`) with the blob
    /// parameters in force for the child (`schedule`, EIP-7840; a chain's config may override the fork's).
    /// From Osaka (EIP-7918), while the execution base fee prices a blob above its blob fee
    /// (`BLOB_BASE_COST × base fee > GAS_PER_BLOB × blob base fee`), the excess only grows, by
    /// `used × (max − target) / max`, instead of falling by the target. Header values come from input:
    /// the arithmetic is done in 256 bits and saturates at 2^64 − 1.
    public static func nextExcessBlobGas(parent: BlockHeader, schedule: BlobSchedule, fork: Hardfork) -> UInt64 {
        let excess = UInt256(parent.excessBlobGas ?? 0)
        let used = UInt256(parent.blobGasUsed ?? 0)
        let target = UInt256(schedule.target) &* UInt256(BlobGas.perBlob)
        let sum = excess &+ used
        if sum < target { return 0 }
        if fork >= .osaka, let parentBaseFee = parent.baseFeePerGas {
            let (reserve, overflow) = UInt256(blobBaseCost).multipliedReportingOverflow(by: parentBaseFee)
            let blobFee = UInt256(BlobGas.perBlob) &* blobBaseFee(
                excessBlobGas: parent.excessBlobGas ?? 0, updateFraction: schedule.baseFeeUpdateFraction)
            if overflow || reserve > blobFee {
                let max = UInt256(schedule.max) &* UInt256(BlobGas.perBlob)
                guard !max.isZero, max > target else { return saturating(excess) }
                return saturating(excess &+ used &* (max &- target) / max)
            }
        }
        return saturating(sum &- target)
    }

    private static func saturating(_ value: UInt256) -> UInt64 { value.uint64 ?? UInt64.max }

    /// The blob base fee for an excess blob gas under `fork`.
    public static func blobBaseFee(excessBlobGas: UInt64, fork: Hardfork) -> UInt256 {
        blobBaseFee(excessBlobGas: excessBlobGas, updateFraction: blobBaseFeeUpdateFraction(fork: fork))
    }

    /// The blob base fee for an excess blob gas with an explicit BLOB_BASE_FEE_UPDATE_FRACTION.
    public static func blobBaseFee(excessBlobGas: UInt64, updateFraction: UInt64) -> UInt256 {
        BlobGas.fakeExponential(
            factor: UInt256(BlobGas.minBaseFee), numerator: UInt256(excessBlobGas),
            denominator: UInt256(Swift.max(updateFraction, 1)))
    }
}
