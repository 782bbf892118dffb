import Chain
import EthereumPrimitives

/// The installed `eth_newFilter` / `eth_newBlockFilter` filters: each remembers the last block it
/// reported, so `eth_getFilterChanges` returns only what is new.
///
/// Bounded like geth's filter system, so a client that never uninstalls cannot grow the node without end:
/// a filter not polled for ``idleTimeout`` (geth: 5 minutes) is removed, and at most ``capacity`` live
/// at once (installing one more removes the one polled least recently). Ids are 128 random bits in hex,
/// as geth's `rpc.NewID`, so no client can read or uninstall another's filter by guessing its id.
public actor FilterRegistry {
    public enum Kind: Sendable {
        case logs(LogFilter)
        case blocks
        /// `eth_newPendingTransactionFilter`: ``Filter/lastBlock`` holds the number of the last pool arrival
        /// reported (``DevChain/pendingSequence()``), not a block number.
        case pendingTransactions
    }

    public struct Filter: Sendable {
        public var kind: Kind
        /// The last block whose changes were reported.
        public var lastBlock: UInt64
        /// When it was installed or last polled.
        public var lastUsed: ContinuousClock.Instant
    }

    /// The most filters installed at once.
    public let capacity: Int
    /// How long a filter lives without being polled.
    public let idleTimeout: Duration
    /// The time (injected by tests).
    public let now: @Sendable () -> ContinuousClock.Instant
    private var filters: [String: Filter] = [:]
    private var lastSweep: ContinuousClock.Instant

    public init(
        capacity: Int = 10_000, idleTimeout: Duration = .seconds(300),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.capacity = Swift.max(1, capacity)
        self.idleTimeout = idleTimeout
        self.now = now
        self.lastSweep = now()
    }

    /// How many filters are installed (after removing the idle ones).
    public var count: Int {
        sweep(now: now())
        return filters.count
    }

    /// Installs a filter that reports changes after `head`; returns its id.
    public func install(_ kind: Kind, head: UInt64) -> String {
        let now = now()
        if now - lastSweep >= .seconds(1) || filters.count >= capacity { sweep(now: now) }
        if filters.count >= capacity, let stalest = filters.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key {
            filters[stalest] = nil
        }
        var id = Self.newID()
        while filters[id] != nil { id = Self.newID() }
        filters[id] = Filter(kind: kind, lastBlock: head, lastUsed: now)
        return id
    }

    /// The filter `id`, nil when unknown or idle too long; a lookup counts as a poll.
    public func filter(_ id: String) -> Filter? {
        let now = now()
        guard var filter = filters[id] else { return nil }
        if now - filter.lastUsed > idleTimeout {
            filters[id] = nil
            return nil
        }
        filter.lastUsed = now
        filters[id] = filter
        return filter
    }

    /// Marks blocks up to `head` as reported; returns the block range not reported yet (nil if none).
    public func advance(_ id: String, to head: UInt64) -> ClosedRange<UInt64>? {
        guard var filter = filters[id] else { return nil }
        // After evm_revert the head can be below the last report: start over from the new head.
        let (from, overflow) = filter.lastBlock.addingReportingOverflow(1)
        filter.lastBlock = head
        filters[id] = filter
        return !overflow && from <= head ? from...head : nil
    }

    public func uninstall(_ id: String) -> Bool {
        filters.removeValue(forKey: id) != nil
    }

    /// Removes the filters idle longer than ``idleTimeout``.
    private func sweep(now: ContinuousClock.Instant) {
        lastSweep = now
        let timeout = idleTimeout
        filters = filters.filter { now - $0.value.lastUsed <= timeout }
    }

    /// 128 random bits (the system's cryptographic generator) as a quantity-style hex id, leading zeros
    /// dropped, as geth's `rpc.NewID` writes them.
    public static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        var hex = Hex.encode(bytes, prefix: false)
        while hex.hasPrefix("0") && hex.count > 1 { hex.removeFirst() }
        return "0x" + hex
    }
}
