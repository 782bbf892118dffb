import EthereumPrimitives

/// The answer of `eth_feeHistory`: base fees, gas-used ratios and tip percentiles of recent blocks.
public struct FeeHistory: Sendable, Hashable {
    /// Number of the first block covered.
    public var oldestBlock: UInt64
    /// Base fee of each block covered, plus one more: the next block's.
    public var baseFeePerGas: [UInt256]
    /// gasUsed / gasLimit of each block covered.
    public var gasUsedRatio: [Double]
    /// For each block, the tips at the requested percentiles (empty when none were requested).
    public var reward: [[UInt256]]

    /// The base fee of the block after the newest covered one, if the node reported it.
    public var nextBaseFee: UInt256? { baseFeePerGas.last }

    /// Reads a fee history object.
    public init(json: JSONValue, path: String = "feeHistory") throws(WireError) {
        let o = try json.wireObject(path)
        oldestBlock = try o.uint64("oldestBlock")
        var fees: [UInt256] = []
        for (i, fee) in (try o.optional("baseFeePerGas")?.wireArray(o.name("baseFeePerGas")) ?? []).enumerated() {
            fees.append(try fee.wireUInt256(o.name("baseFeePerGas[\(i)]")))
        }
        baseFeePerGas = fees
        var ratios: [Double] = []
        for (i, ratio) in (try o.required("gasUsedRatio").wireArray(o.name("gasUsedRatio"))).enumerated() {
            guard case .number(let text) = ratio, let value = Double(text) else {
                throw WireError("\(o.name("gasUsedRatio[\(i)]")): expected a number")
            }
            ratios.append(value)
        }
        gasUsedRatio = ratios
        var reward: [[UInt256]] = []
        for (i, row) in (try o.optional("reward")?.wireArray(o.name("reward")) ?? []).enumerated() {
            var tips: [UInt256] = []
            for (j, tip) in try row.wireArray(o.name("reward[\(i)]")).enumerated() {
                tips.append(try tip.wireUInt256(o.name("reward[\(i)][\(j)]")))
            }
            reward.append(tips)
        }
        self.reward = reward
    }
}
