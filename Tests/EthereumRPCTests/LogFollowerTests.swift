import EthereumPrimitives
import EthereumRPC
import EthereumWire
import Testing

/// The cursor that keeps a logs stream exact across sources that overlap: a replay, pushed logs, the gap after a
/// reconnection read with eth_getLogs, re-orgs; and fee suggestions from fee histories with known tips.
@Suite struct LogFollowerTests {
    static let contract = try! Address("0x5FbDB2315678afecb367f032d93F642f64180aa3")

    static func log(_ block: UInt64, _ index: UInt64, removed: Bool = false, hash: UInt8 = 0) -> RPCLog {
        RPCLog(
            address: contract, topics: [], data: [UInt8(truncatingIfNeeded: block), UInt8(truncatingIfNeeded: index)], blockNumber: block,
            blockHash: Keccak256.hash([hash]), transactionHash: nil, transactionIndex: 0, logIndex: index,
            removed: removed)
    }

    /// A chain's logs by block, answered by block range as eth_getLogs does, counting the requests.
    final class Node: @unchecked Sendable {
        var logs: [RPCLog]
        var requests: [ClosedRange<UInt64>] = []
        init(_ logs: [RPCLog]) { self.logs = logs }

        func getLogs(_ filter: LogFilter) async throws -> [RPCLog] {
            guard case .number(let from)? = filter.fromBlock, case .number(let to)? = filter.toBlock else { throw WireError("no range") }
            requests.append(from...to)
            #expect(filter.addresses == [LogFollowerTests.contract])
            return logs.filter { (from...to).contains($0.blockNumber ?? 0) }.reversed()  // any order: the follower sorts
        }
    }

    func positions(_ logs: [RPCLog]) -> [String] { logs.map { "\($0.blockNumber ?? 0).\($0.logIndex ?? 0)\($0.removed ? "r" : "")" } }

    @Test func replayThenPushedLogsWithOverlapAndAGapAfterAReconnection() async throws {
        let node = Node([Self.log(2, 0), Self.log(2, 1), Self.log(5, 0), Self.log(7, 3)])
        var follower = LogFollower(filter: LogFilter(addresses: [Self.contract]), fromBlock: 2, maxRange: 3)
        var out: [RPCLog] = []
        let filled1 = try await follower.fill(through: 6, getLogs: node.getLogs) { out.append($0); return true }
        #expect(filled1)
        #expect(node.requests == [2...4, 5...6])
        #expect(positions(out) == ["2.0", "2.1", "5.0"])
        #expect(follower.next == LogFollower.Position(block: 7, logIndex: 0))
        // Notifications of blocks the replay read already are dropped; new ones pass once.
        let r1 = follower.offer(Self.log(5, 0))
        #expect(!r1)
        let r2 = follower.offer(Self.log(7, 3))
        #expect(r2)
        let r3 = follower.offer(Self.log(7, 3))
        #expect(!r3)
        let r4 = follower.offer(Self.log(8, 0))
        #expect(r4)
        // The connection drops after block 8's first log; blocks 8 (its second log) to 10 are read back.
        node.logs += [Self.log(8, 0), Self.log(8, 1), Self.log(10, 2)]
        out = []
        let filled2 = try await follower.fill(through: 10, getLogs: node.getLogs) { out.append($0); return true }
        #expect(filled2)
        #expect(positions(out) == ["8.1", "10.2"])
        // Notifications queued meanwhile repeat what the gap read: nothing passes twice.
        let r5 = follower.offer(Self.log(8, 1))
        #expect(!r5)
        let r6 = follower.offer(Self.log(10, 2))
        #expect(!r6)
        let r7 = follower.offer(Self.log(11, 0))
        #expect(r7)
        // The consumer stopping ends a fill early.
        var one: [RPCLog] = []
        var fresh = LogFollower(filter: LogFilter(addresses: [Self.contract]), fromBlock: 0)
        let filled3 = try await fresh.fill(through: 10, getLogs: node.getLogs) { one.append($0); return false }
        #expect(!filled3)
        #expect(positions(one) == ["2.0"])
    }

    @Test func reorgsByRemovedLogsAndByHeadsSeenAgainWithAnotherHash() async throws {
        var follower = LogFollower(filter: LogFilter(addresses: [Self.contract]), fromBlock: 1)
        let r8 = follower.offer(Self.log(3, 0))
        #expect(r8)
        let r9 = follower.offer(Self.log(3, 1))
        #expect(r9)
        // The node removes block 3's logs (geth's `removed: true`) and sends the replacing block's.
        let r10 = follower.offer(Self.log(3, 0, removed: true))
        #expect(r10)
        #expect(follower.next == LogFollower.Position(block: 3, logIndex: 0))
        let r11 = follower.offer(Self.log(3, 0, hash: 1))
        #expect(r11)
        // Heads: one seen again with the same hash is a repeat; unknown covered ones are late (ignored) unless the
        // source never repeats; another hash for a covered number rewinds to it.
        follower.head(4, hash: Keccak256.hash([4]))
        var node = Node([Self.log(4, 0)])
        let filled4 = try await follower.fill(through: 4, getLogs: node.getLogs) { _ in true }
        #expect(filled4)
        let r12 = follower.head(4, hash: Keccak256.hash([4]))
        #expect(!r12)
        let r13 = follower.head(2, hash: Keccak256.hash([2]))
        #expect(!r13)
        #expect(follower.next == LogFollower.Position(block: 5, logIndex: 0))
        let r14 = follower.head(4, hash: Keccak256.hash([9]))
        #expect(r14)
        #expect(follower.next == LogFollower.Position(block: 4, logIndex: 0))
        node = Node([Self.log(4, 0, hash: 9), Self.log(4, 1, hash: 9)])
        var out: [RPCLog] = []
        let filled5 = try await follower.fill(through: 4, getLogs: node.getLogs) { out.append($0); return true }
        #expect(filled5)
        #expect(positions(out) == ["4.0", "4.1"])
        let r15 = follower.head(3, hash: Keccak256.hash([3]), unknownIsNew: true)
        #expect(r15)
        #expect(follower.next == LogFollower.Position(block: 3, logIndex: 0))
    }

    @Test func feeSuggestionsTakeTheMedianTipOfBlocksWithTransactions() throws {
        let gwei = UInt256(1_000_000_000)
        func history(_ rewards: [[UInt256]], used: [Double], baseFees: [UInt256]) throws -> FeeHistory {
            let json = JSONValue.object([
                ("oldestBlock", .string("0x10")),
                ("baseFeePerGas", .array(baseFees.map { .string(Quantity.encode($0)) })),
                ("gasUsedRatio", .array(used.map { .number(String($0)) })),
                ("reward", .array(rewards.map { .array($0.map { .string(Quantity.encode($0)) }) })),
            ])
            return try FeeHistory(json: json)
        }
        // Tips 3, 9, 5 gwei and an empty block (0): the median of the three blocks with transactions is 5.
        let h = try history([[3 * gwei], [0], [9 * gwei], [5 * gwei]], used: [0.5, 0, 0.2, 0.9], baseFees: [10, 11, 12, 13, 14].map { $0 * gwei })
        let s = try #require(try FeeSuggestion.from(h, policy: .default, fallbackTip: 1))
        #expect(s.baseFee == 14 * gwei && s.maxPriorityFeePerGas == 5 * gwei && s.maxFeePerGas == 33 * gwei && s.sampledBlocks == 3)
        let triple = try #require(try FeeSuggestion.from(h, policy: FeeSuggestionPolicy(baseFeeMultiplier: 3), fallbackTip: 1))
        #expect(triple.maxFeePerGas == 47 * gwei)
        // Only empty blocks: the fallback tip.
        let idle = try #require(try FeeSuggestion.from(try history([[0], [0]], used: [0, 0], baseFees: [7, 7, 7]), policy: .default, fallbackTip: 2))
        #expect(idle.maxPriorityFeePerGas == 2 && idle.maxFeePerGas == 16 && idle.sampledBlocks == 0)
        // No base fee (a chain before London): no suggestion. A cap past 2^256: an error, not a wrapped number.
        #expect(try FeeSuggestion.from(try history([[1]], used: [1], baseFees: []), policy: .default, fallbackTip: 1) == nil)
        #expect(throws: WireError.self) { try FeeSuggestion.from(try history([[1]], used: [1], baseFees: [.max, .max]), policy: .default, fallbackTip: 1) }
        // Policies keep their ranges.
        #expect(FeeSuggestionPolicy(blocks: 0, percentile: .nan, baseFeeMultiplier: 0) == FeeSuggestionPolicy(blocks: 1, percentile: 50, baseFeeMultiplier: 1))
        #expect(FeeSuggestionPolicy(blocks: 5_000, percentile: 250).blocks == 1_024)
    }
}
