import EVM
import EthereumPrimitives

/// Base fee (EIP-1559) and blob gas (EIP-4844, EIP-7691) arithmetic between a parent block and its child.
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

    /// The excess blob gas of the block after `parent` (EIP-4844 `calc_excess_blob_gas`).
    public static func nextExcessBlobGas(parent: BlockHeader, fork: Hardfork) -> UInt64 {
        let sum = (parent.excessBlobGas ?? 0) + (parent.blobGasUsed ?? 0)
        let target = targetBlobGas(fork: fork)
        return sum < target ? 0 : sum - target
    }

    /// The blob base fee for an excess blob gas under `fork`.
    public static func blobBaseFee(excessBlobGas: UInt64, fork: Hardfork) -> UInt256 {
        BlobGas.fakeExponential(
            factor: UInt256(BlobGas.minBaseFee), numerator: UInt256(excessBlobGas),
            denominator: UInt256(blobBaseFeeUpdateFraction(fork: fork)))
    }
}
