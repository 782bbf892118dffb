import EthereumPrimitives

/// How fees are set: a legacy gas price, EIP-1559 fee caps, or whichever the node's blocks call for.
public enum FeeMode: String, Sendable, Equatable, CaseIterable {
    /// Type-0 transaction with `gasPrice` (`eth_gasPrice` unless given).
    case legacy
    /// Type-2 transaction (EIP-1559) with `maxFeePerGas` = 2 × base fee + tip unless given.
    case eip1559
    /// EIP-1559 when the newest block has a base fee, else legacy.
    case auto

    /// The default for a chain: legacy on chain 4 (the seed app's Rinkeby set-up), auto elsewhere.
    public static func defaultMode(chainID: UInt64) -> FeeMode { chainID == 4 ? .legacy : .auto }
}

/// The gas limit of a transaction: estimated by the node with a safety margin, or given.
public enum GasLimitChoice: Sendable, Equatable {
    /// `eth_estimateGas` × margin, rounded up.
    case estimate(margin: Double)
    /// Exactly this limit.
    case fixed(UInt64)
}

/// Settings of a ``TransactionSender``.
public struct SendOptions: Sendable, Equatable {
    /// The chain id the node must report; the sender refuses to sign otherwise.
    public var expectedChainID: UInt64
    public var gasLimit: GasLimitChoice
    /// Nil: ``FeeMode/defaultMode(chainID:)``.
    public var feeMode: FeeMode?
    /// Legacy gas price to use instead of `eth_gasPrice`.
    public var gasPrice: UInt256?
    /// EIP-1559 fee cap to use instead of 2 × base fee + tip.
    public var maxFeePerGas: UInt256?
    /// EIP-1559 tip to use instead of `eth_maxPriorityFeePerGas`.
    public var maxPriorityFeePerGas: UInt256?
    /// When set and neither fee is given, EIP-1559 fees come from `eth_feeHistory` under this policy
    /// (``RPCClient/suggestFees(_:)``: the median of recent blocks' tips at a percentile, base fee × 2 + tip); nil:
    /// the tip is `eth_maxPriorityFeePerGas` and the cap 2 × the latest block's base fee + tip.
    public var feeSuggestion: FeeSuggestionPolicy?
    /// Seconds to wait for a receipt (and the confirmations) before giving up, 0 to ``maxReceiptTimeout``.
    public var receiptTimeout: Double
    /// Blocks that must hold the transaction, its own included (1: mined).
    public var confirmations: UInt64
    /// First receipt poll delay, its growth factor and its cap, in seconds.
    public var pollInterval: (initial: Double, multiplier: Double, max: Double)
    /// When set, a gas estimate that reverts does not stop the send: this limit is used and the chain
    /// decides (for seeing a revert on chain; normally a revert found by the estimate is reported unsent).
    public var gasLimitWhenEstimateReverts: UInt64?

    /// The longest wait for a receipt, in seconds (a week); longer ones are cut to it.
    public static let maxReceiptTimeout = 604_800.0
    /// The most confirmations waited for (a week of 12-second blocks is about 50,400); more are cut to it.
    public static let maxConfirmations: UInt64 = 100_000

    /// Options; the defaults: chain id 4, estimate × 1.2, the chain's default fee mode, 120 s for the receipt.
    /// Time limits and confirmations are kept in their ranges (a NaN time limit is 0), so no later arithmetic
    /// on them can overflow.
    public init(
        expectedChainID: UInt64 = 4, gasLimit: GasLimitChoice = .estimate(margin: 1.2), feeMode: FeeMode? = nil,
        gasPrice: UInt256? = nil, maxFeePerGas: UInt256? = nil, maxPriorityFeePerGas: UInt256? = nil,
        receiptTimeout: Double = 120, confirmations: UInt64 = 1,
        pollInterval: (initial: Double, multiplier: Double, max: Double) = (0.05, 1.5, 1),
        gasLimitWhenEstimateReverts: UInt64? = nil, feeSuggestion: FeeSuggestionPolicy? = nil
    ) {
        self.expectedChainID = expectedChainID
        self.gasLimit = gasLimit
        self.feeMode = feeMode
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.receiptTimeout = receiptTimeout > 0 ? min(receiptTimeout, Self.maxReceiptTimeout) : 0
        self.confirmations = min(max(1, confirmations), Self.maxConfirmations)
        self.pollInterval = pollInterval
        self.gasLimitWhenEstimateReverts = gasLimitWhenEstimateReverts
        self.feeSuggestion = feeSuggestion
    }

    public static func == (a: SendOptions, b: SendOptions) -> Bool {
        a.expectedChainID == b.expectedChainID && a.gasLimit == b.gasLimit && a.feeMode == b.feeMode
            && a.gasPrice == b.gasPrice && a.maxFeePerGas == b.maxFeePerGas && a.maxPriorityFeePerGas == b.maxPriorityFeePerGas
            && a.receiptTimeout == b.receiptTimeout && a.confirmations == b.confirmations
            && a.pollInterval == b.pollInterval && a.gasLimitWhenEstimateReverts == b.gasLimitWhenEstimateReverts
            && a.feeSuggestion == b.feeSuggestion
    }
}

/// What to send: a call (`to` set) or a contract creation (`to` nil, `data` the init code).
public struct TransactionRequest: Sendable, Hashable {
    /// The callee; nil for a contract creation.
    public var to: Address?
    /// Calldata, or init code for a creation.
    public var data: [UInt8]
    /// Wei sent along.
    public var value: UInt256
    /// Overrides the sender's ``SendOptions/gasLimit`` for this transaction.
    public var gasLimit: UInt64?

    /// A call (or, with `to` nil, a creation).
    public init(to: Address?, data: [UInt8] = [], value: UInt256 = .zero, gasLimit: UInt64? = nil) {
        self.to = to
        self.data = data
        self.value = value
        self.gasLimit = gasLimit
    }
}
