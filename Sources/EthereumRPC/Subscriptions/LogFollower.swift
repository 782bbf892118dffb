import EthereumPrimitives
import EthereumWire

/// Follows the logs matching a filter along the chain, each delivered once and in chain order, whatever mix of
/// sources tells of them: `eth_getLogs` over block ranges (a replay, the gap after a reconnection, a poll) and
/// pushed logs (`eth_subscribe("logs")` notifications), which may overlap or come twice.
///
/// It keeps a cursor: the position (block, log index) of the next log it may deliver. A log before the cursor was
/// delivered already (or is older than what was asked for) and is dropped; a log at or after it is delivered and
/// moves the cursor past it; a range read through block `n` moves it to the start of block `n + 1`. A log the node
/// marks `removed` (a re-org took its block away) is delivered as it is, and moves the cursor back to the start of
/// its block, so the logs of the block that replaced it come through. Heads seen with
/// ``head(_:hash:unknownIsNew:)`` detect re-orgs and `evm_revert`s where no `removed` logs come (a block number
/// seen again with another hash).
///
/// Used by ``RPCSubscriptions`` and by any backend that learns of new blocks its own way (the in-process chain's
/// new-heads stream in EthereumContractsLocal).
public struct LogFollower: Sendable {
    /// A log's place in the chain.
    public struct Position: Sendable, Hashable, Comparable {
        public var block: UInt64
        public var logIndex: UInt64

        public init(block: UInt64, logIndex: UInt64) {
            self.block = block
            self.logIndex = logIndex
        }

        public static func < (a: Position, b: Position) -> Bool { (a.block, a.logIndex) < (b.block, b.logIndex) }

        /// The position right after this one (saturating).
        var successor: Position {
            logIndex < UInt64.max ? Position(block: block, logIndex: logIndex + 1) : Position(block: block == .max ? block : block + 1, logIndex: 0)
        }
    }

    /// The logs followed (addresses and topics; its block range is ignored).
    public let filter: LogFilter
    /// Blocks per `eth_getLogs` request: public nodes refuse wider ranges.
    public var maxRange: UInt64
    /// The next position a log may have to be delivered.
    public private(set) var next: Position
    /// Hashes of recent heads by number (the newest ``recentHeads``), to tell a re-org from a repeated notification.
    private var heads: [UInt64: Bytes32] = [:]
    /// How many recent heads are remembered.
    public static let recentHeads = 256

    /// A follower delivering the logs from block `fromBlock` on.
    public init(filter: LogFilter, fromBlock: UInt64, maxRange: UInt64 = 10_000) {
        self.filter = filter
        self.maxRange = Swift.max(1, maxRange)
        next = Position(block: fromBlock, logIndex: 0)
    }

    /// Where a log is; nil for a log without a block number or index (a pending log).
    public static func position(of log: RPCLog) -> Position? {
        guard let block = log.blockNumber, let index = log.logIndex else { return nil }
        return Position(block: block, logIndex: index)
    }

    /// Takes one pushed log: true when it is to be delivered (new, or a removal), false when it was delivered
    /// already or comes before what was asked for.
    public mutating func offer(_ log: RPCLog) -> Bool {
        guard let position = Self.position(of: log) else { return !log.removed }
        if log.removed {
            // Everything of the removed block comes again (as the logs of the block that replaced it).
            next = Swift.min(next, Position(block: position.block, logIndex: 0))
            return true
        }
        guard position >= next else { return false }
        next = position.successor
        return true
    }

    /// Takes a new head: false when it is a block number already covered with the same hash (a repeated
    /// notification) or, unless `unknownIsNew`, one not remembered (a late notification); true otherwise. A covered
    /// number with another hash is a re-org (or a revert of a dev chain): the cursor goes back to the start of that
    /// block. A source that never repeats a head (a chain in this process) passes `unknownIsNew`.
    @discardableResult
    public mutating func head(_ number: UInt64, hash: Bytes32, unknownIsNew: Bool = false) -> Bool {
        defer {
            heads[number] = hash
            if heads.count > Self.recentHeads, let oldest = heads.keys.min() { heads[oldest] = nil }
        }
        guard number < next.block else { return true }
        if let known = heads[number] {
            guard known != hash else { return false }
        } else if !unknownIsNew {
            return false
        }
        // Another block at a number already covered: the chain went back to it.
        for stale in heads.keys where stale > number { heads[stale] = nil }
        next = Position(block: number, logIndex: 0)
        return true
    }

    /// Reads the logs of the blocks from the cursor through `head` (bounded ranges of ``maxRange`` blocks) with
    /// `getLogs` and passes each new one to `deliver` in chain order, until `deliver` returns false (then false).
    /// Afterwards the cursor is at the start of block `head + 1`.
    public mutating func fill(
        through head: UInt64, getLogs: (LogFilter) async throws -> [RPCLog], deliver: (RPCLog) async throws -> Bool
    ) async throws -> Bool {
        while next.block <= head {
            let first = next.block
            let (sum, overflow) = first.addingReportingOverflow(maxRange - 1)
            let last = overflow ? head : Swift.min(sum, head)
            var range = filter
            range.blockHash = nil
            range.fromBlock = .number(first)
            range.toBlock = .number(last)
            let logs = try await getLogs(range).filter { !$0.removed }.sorted {
                ($0.blockNumber ?? 0, $0.logIndex ?? 0) < ($1.blockNumber ?? 0, $1.logIndex ?? 0)
            }
            for log in logs {
                guard let position = Self.position(of: log), position >= next else { continue }
                next = position.successor
                guard try await deliver(log) else { return false }
            }
            guard last < UInt64.max else { return true }
            next = Swift.max(next, Position(block: last + 1, logIndex: 0))
        }
        return true
    }
}
