import EthereumPrimitives

/// An estimate of what a rollup charges to post a transaction to L1, next to the L2 execution fee (the
/// L2 columns of hardhat-gas-reporter). The transaction is counted as signed, byte for byte:
///
/// - `calldata`: L1 gas = 16 × non-zero bytes + 4 × zero bytes (EIP-2028 calldata pricing);
///   fee = L1 gas × L1 base fee.
/// - `blob`: blob gas = ⌈bytes / 31⌉ × 32 (a blob carries 31 usable bytes per 32-byte field element,
///   EIP-4844, one blob gas per blob byte); fee = blob gas × blob base fee.
///
/// Compression and a rollup's own scalars are left out on purpose: the figure is the upper bound a team
/// can reproduce from the formula, the same under every rollup.
public struct L2DataFee: Sendable, Hashable {
    /// How the rollup posts its data.
    public enum Mode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        case calldata
        case blob
        public var description: String { rawValue }
    }

    /// Calldata or blobs.
    public var mode: Mode
    /// Wei per L1 gas (calldata) or per blob gas (blob).
    public var price: UInt256

    /// Creates an estimator.
    public init(mode: Mode, price: UInt256) {
        self.mode = mode
        self.price = price
    }

    /// The formula, for `--help` and the report's footer.
    public var formula: String {
        switch mode {
        case .calldata: return "L1 data fee = (16 × non-zero + 4 × zero bytes of the signed transaction) × L1 base fee"
        case .blob: return "L1 data fee = ⌈signed transaction bytes / 31⌉ × 32 blob gas × blob base fee"
        }
    }

    /// The L1 gas (calldata) or blob gas (blob) of `bytes`.
    public func dataGas(_ bytes: TransactionBytes) -> UInt64 {
        switch mode {
        case .calldata: return bytes.nonZeros &* 16 &+ bytes.zeros &* 4
        case .blob: return (bytes.count &+ 30) / 31 &* 32
        }
    }

    /// The fee for `bytes`, in wei.
    public func feeWei(_ bytes: TransactionBytes) -> UInt256 { UInt256(dataGas(bytes)) &* price }

    /// The mean fee of `calls` transactions whose bytes add up to `bytes`, in ETH.
    public func meanFeeEth(_ bytes: TransactionBytes, calls: Int) -> String {
        let total = feeWei(bytes)
        return Units.format(calls > 1 ? total / UInt256(UInt64(calls)) : total, as: .ether)
    }

    /// The price in gwei, exactly.
    public var priceGwei: String { Units.format(price, as: .gwei) }
}
