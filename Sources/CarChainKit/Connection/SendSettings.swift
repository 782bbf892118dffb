import EthereumPrimitives
import EthereumRPC

/// How transactions are sent, before the chain id is known: gas, fees, receipts, and whether the checks that
/// can refuse a CarChain operation without gas run first. ``sendOptions(chainID:)`` turns it into the
/// sender's ``SendOptions``.
public struct SendSettings: Sendable {
    /// A fixed gas limit; nil: the node's estimate × 1.2.
    public var gasLimit: UInt64?
    /// Legacy, EIP-1559 or automatic; nil: legacy on chain 4, automatic elsewhere.
    public var feeMode: FeeMode?
    /// A legacy gas price; nil: `eth_gasPrice`.
    public var gasPrice: UInt256?
    /// An EIP-1559 fee cap; nil: 2 × base fee + tip.
    public var maxFeePerGas: UInt256?
    /// An EIP-1559 tip; nil: `eth_maxPriorityFeePerGas`.
    public var maxPriorityFeePerGas: UInt256?
    /// Blocks that must hold the transaction, its own included.
    public var confirmations: UInt64
    /// Seconds to wait for the receipt.
    public var receiptTimeout: Double
    /// Run the checks made before sending (``CarChainPrecheck``); without them a refusal happens on chain.
    public var precheck: Bool

    public init(
        gasLimit: UInt64? = nil, feeMode: FeeMode? = nil, gasPrice: UInt256? = nil, maxFeePerGas: UInt256? = nil,
        maxPriorityFeePerGas: UInt256? = nil, confirmations: UInt64 = 1, receiptTimeout: Double = 120, precheck: Bool = true
    ) {
        self.gasLimit = gasLimit
        self.feeMode = feeMode
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.confirmations = confirmations
        self.receiptTimeout = receiptTimeout
        self.precheck = precheck
    }

    /// The sender's options for a node that must be on `chainID`.
    public func sendOptions(chainID: UInt64) -> SendOptions {
        SendOptions(
            expectedChainID: chainID,
            gasLimit: gasLimit.map { .fixed($0) } ?? .estimate(margin: 1.2),
            feeMode: feeMode,
            gasPrice: gasPrice,
            maxFeePerGas: maxFeePerGas,
            maxPriorityFeePerGas: maxPriorityFeePerGas,
            receiptTimeout: receiptTimeout,
            confirmations: confirmations,
            // Without the checks, a call the estimate finds reverting is still sent, so the chain refuses it.
            gasLimitWhenEstimateReverts: precheck ? nil : (gasLimit ?? 500_000)
        )
    }
}
