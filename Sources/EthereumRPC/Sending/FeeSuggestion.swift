import EthereumPrimitives
import EthereumWire

/// How EIP-1559 fees are suggested from `eth_feeHistory`: the tip is the median, over the last `blocks` blocks that
/// held transactions, of the tip paid at `percentile` in each block; the fee cap is `baseFeeMultiplier` × the next
/// block's base fee + the tip (2×: six full blocks of 12.5% base-fee increases before the cap is too low).
public struct FeeSuggestionPolicy: Sendable, Hashable {
    /// Blocks of history read (1 to 1,024; nodes cap it, geth at 1,024).
    public var blocks: UInt64
    /// Which tip within each block, 0 to 100 (50: the median tip of the block's transactions, weighted by gas).
    public var percentile: Double
    /// The fee cap's multiple of the next block's base fee (1 to 100).
    public var baseFeeMultiplier: UInt64

    /// A policy; the values are kept in their ranges (NaN percentile: 50).
    public init(blocks: UInt64 = 10, percentile: Double = 50, baseFeeMultiplier: UInt64 = 2) {
        self.blocks = Swift.min(Swift.max(1, blocks), 1_024)
        self.percentile = percentile.isNaN ? 50 : Swift.min(Swift.max(0, percentile), 100)
        self.baseFeeMultiplier = Swift.min(Swift.max(1, baseFeeMultiplier), 100)
    }

    /// 10 blocks, the median tip, 2 × base fee + tip.
    public static let `default` = FeeSuggestionPolicy()
}

/// Suggested EIP-1559 fees and what they came from.
public struct FeeSuggestion: Sendable, Hashable, CustomStringConvertible {
    /// The next block's base fee, as the node reported it.
    public var baseFee: UInt256
    /// The tip (`maxPriorityFeePerGas`).
    public var maxPriorityFeePerGas: UInt256
    /// The fee cap (`maxFeePerGas`): multiplier × base fee + tip.
    public var maxFeePerGas: UInt256
    /// The blocks whose tips were read (those of the history that held transactions); 0 when none did and the tip
    /// is the node's `eth_maxPriorityFeePerGas`.
    public var sampledBlocks: Int

    public init(baseFee: UInt256, maxPriorityFeePerGas: UInt256, maxFeePerGas: UInt256, sampledBlocks: Int) {
        self.baseFee = baseFee
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.maxFeePerGas = maxFeePerGas
        self.sampledBlocks = sampledBlocks
    }

    public var description: String {
        "maxFeePerGas \(maxFeePerGas) wei, maxPriorityFeePerGas \(maxPriorityFeePerGas) wei (next base fee \(baseFee) wei, "
            + (sampledBlocks == 0 ? "the node's suggested tip)" : "tips of \(sampledBlocks) block\(sampledBlocks == 1 ? "" : "s"))")
    }

    /// The suggestion a fee history gives under `policy`; `fallbackTip` is used when no block of the history held
    /// transactions. Nil when the history has no base fee (a chain without EIP-1559); an error when the numbers
    /// overflow 2^256 (a broken or hostile node).
    public static func from(_ history: FeeHistory, policy: FeeSuggestionPolicy, fallbackTip: UInt256) throws(WireError) -> FeeSuggestion? {
        guard let baseFee = history.nextBaseFee else { return nil }
        // Empty blocks report a zero tip at every percentile: they say nothing about what it takes to be included.
        var tips: [UInt256] = []
        for (i, row) in history.reward.enumerated() {
            let used = i < history.gasUsedRatio.count ? history.gasUsedRatio[i] : 0
            if used > 0, let tip = row.first { tips.append(tip) }
        }
        tips.sort()
        let tip = tips.isEmpty ? fallbackTip : tips[(tips.count - 1) / 2]
        let (multiple, o1) = baseFee.multipliedReportingOverflow(by: UInt256(policy.baseFeeMultiplier))
        let (cap, o2) = multiple.addingReportingOverflow(tip)
        guard !o1, !o2 else { throw WireError("base fee \(baseFee) and tip \(tip) give a fee cap past 2^256 wei") }
        return FeeSuggestion(baseFee: baseFee, maxPriorityFeePerGas: tip, maxFeePerGas: cap, sampledBlocks: tips.count)
    }
}

extension RPCClient {
    /// EIP-1559 fees for the next block from `eth_feeHistory` (see ``FeeSuggestionPolicy``); nil when the chain
    /// has no base fee. When no recent block held transactions the tip is the node's `eth_maxPriorityFeePerGas`
    /// (one gwei if it has no such method).
    public func suggestFees(_ policy: FeeSuggestionPolicy = .default) async throws(RPCError) -> FeeSuggestion? {
        let history = try await feeHistory(blockCount: policy.blocks, newest: .latest, rewardPercentiles: [policy.percentile])
        var fallback = UInt256(1_000_000_000)
        if !history.gasUsedRatio.contains(where: { $0 > 0 }) {
            do {
                fallback = try await maxPriorityFeePerGas()
            } catch {
                guard case .jsonRPC(JSONRPCErrorCode.methodNotFound, _, _, _) = error else { throw error }
            }
        }
        do throws(WireError) {
            return try FeeSuggestion.from(history, policy: policy, fallbackTip: fallback)
        } catch {
            throw .decoding(method: "eth_feeHistory", what: error.what)
        }
    }
}
