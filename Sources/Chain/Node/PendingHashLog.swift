import EthereumPrimitives

/// The hashes of the transactions the pool accepted, each numbered in order, the newest ``capacity`` kept:
/// a pending-transaction filter (`eth_newPendingTransactionFilter`) remembers the last number it reported and
/// asks for the hashes after it. A filter polled after more than ``capacity`` arrivals misses the oldest ones,
/// as geth's filters drop what a slow reader did not collect.
public struct PendingHashLog: Sendable {
    /// The most hashes kept.
    public static let capacity = 4096
    /// The number of the last hash appended (0: none yet).
    public private(set) var last: UInt64 = 0
    private var ring: [Bytes32] = []

    public init() {}

    mutating func append(_ hash: Bytes32) {
        last += 1
        if ring.count < Self.capacity {
            ring.append(hash)
        } else {
            ring[Int((last - 1) % UInt64(Self.capacity))] = hash
        }
    }

    /// The hashes numbered `range` that are still kept, oldest first.
    public func hashes(_ range: ClosedRange<UInt64>) -> [Bytes32] {
        let oldest = last > UInt64(Self.capacity) ? last - UInt64(Self.capacity) + 1 : 1
        let from = Swift.max(range.lowerBound, oldest)
        let to = Swift.min(range.upperBound, last)
        guard from <= to else { return [] }
        return (from...to).map { ring[Int(($0 - 1) % UInt64(Self.capacity))] }
    }
}
