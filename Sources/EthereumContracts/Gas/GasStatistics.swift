/// The statistics of a function's gas figures in forge's `--gas-report` columns: min, avg (the integer mean, rounded
/// down), median (the middle value; for an even count the integer mean of the two middle values), max, and the total.
/// `carchain gas-report` (CarChainKit's `GasReport`) and EthereumTesting's gas report both compute them here.
public struct GasStatistics: Sendable, Hashable {
    /// How many figures.
    public var count: Int
    /// The least.
    public var min: UInt64
    /// The integer mean, rounded down.
    public var avg: UInt64
    /// The median (even counts: the integer mean of the two middle values).
    public var median: UInt64
    /// The most.
    public var max: UInt64
    /// The sum.
    public var total: UInt64

    /// The statistics of `gas` (in any order); nil for none.
    public init?(_ gas: [UInt64]) {
        let sorted = gas.sorted()
        guard let first = sorted.first, let last = sorted.last else { return nil }
        // Sums of UInt64 gas figures: 2^64 gas is out of reach of any run (a block holds 30M).
        let total = sorted.reduce(0, &+)
        let middle = sorted.count / 2
        count = sorted.count
        min = first
        max = last
        self.total = total
        avg = total / UInt64(sorted.count)
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] &+ sorted[middle]) / 2
    }
}
