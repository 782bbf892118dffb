import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

@Suite struct LogsTests {
    typealias F = ChainFixtures

    /// Deploys the logger and sends calls whose first word becomes topic1.
    private func setUp(storage: ChainStorage = .memory) async throws -> (DevChain, Address) {
        let chain = try await DevChain(config: .deterministic(), storage: storage)
        try await chain.sendRawTransaction(F.legacy(F.key0, nonce: 0, to: nil, data: F.loggerInitCode, gas: 100_000).encoded)
        let logger = ContractAddress.create(sender: F.address0, nonce: 0)
        for i in 1...3 as ClosedRange<UInt64> {
            let data = F.word(UInt256(i)) + [0xde, 0xad]
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: i, to: logger, data: data, gas: 60_000).encoded)
        }
        return (chain, logger)
    }

    @Test func receiptsCarryLogsAndBlooms() async throws {
        let (chain, logger) = try await setUp()
        let block = try #require(try await chain.block(.number(2)))
        let receipt = try #require(try await chain.receipt(hash: block.transactions[0].hash))
        #expect(receipt.logs.count == 1)
        let log = receipt.logs[0]
        #expect(log.address == logger)
        #expect(log.topics == [UInt256(0xaa).bytes32, UInt256(1).bytes32])
        #expect(log.data == F.word(.one) + [0xde, 0xad])
        #expect(log.blockNumber == 2 && log.blockHash == block.hash && log.transactionIndex == 0 && log.logIndex == 0)
        #expect(log.transactionHash == block.transactions[0].hash)
        #expect(receipt.logsBloom.mayContain(logger.bytes))
        #expect(receipt.logsBloom.mayContain(UInt256(0xaa).bytes32.bytes))
        #expect(block.header.logsBloom == receipt.logsBloom)
        #expect(!block.header.logsBloom.mayContain(F.address1.bytes) || true)  // a bloom may have false positives
        var expected = Bloom()
        expected.add(Log(address: logger, topics: log.topics, data: log.data))
        #expect(receipt.logsBloom == expected)
    }

    @Test(arguments: [false, true])
    func getLogsFilters(onDisk: Bool) async throws {
        let directory = F.temporaryDirectory("getLogs\(onDisk)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (chain, logger) = try await setUp(storage: onDisk ? .directory(directory) : .memory)
        defer { Task { await chain.close() } }
        let all = try await chain.logs(LogFilter(fromBlock: .earliest, toBlock: .latest))
        #expect(all.map(\.blockNumber) == [2, 3, 4])
        #expect(try await chain.logs(LogFilter()).map(\.blockNumber) == [4])  // default: latest only
        #expect(try await chain.logs(LogFilter(fromBlock: .number(3), toBlock: .number(3))).count == 1)
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, addresses: [logger])).count == 3)
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, addresses: [F.address1])).isEmpty)
        let topic0 = UInt256(0xaa).bytes32
        let two = UInt256(2).bytes32
        let three = UInt256(3).bytes32
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[topic0]])).count == 3)
        // OR-list in position 1, wildcard in position 0.
        let some = try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[], [two, three]]))
        #expect(some.map(\.blockNumber) == [3, 4])
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[topic0], [two]])).map(\.blockNumber) == [3])
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[two]])).isEmpty)
        // A third position no log has.
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[], [], [two]])).isEmpty)
        let b3 = try #require(try await chain.block(.number(3)))
        let byHash = try await chain.logs(LogFilter(blockHash: b3.hash))
        #expect(byHash.count == 1 && byHash[0].blockHash == b3.hash && byHash[0].topics[1] == two)
        #expect(try await chain.logs(LogFilter(blockHash: b3.hash, addresses: [F.address1])).isEmpty)
        await #expect(throws: ChainError.self) {
            try await chain.logs(LogFilter(fromBlock: .number(4), toBlock: .number(2)))
        }
        // A log matches only with at least as many topics as the filter has positions, wildcards included (geth's
        // filterLogs): these logs have two topics.
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[], []])).count == 3)
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[], [], []])).isEmpty)
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest, topics: [[topic0], [], []])).isEmpty)
        let twoTopics = Log(address: logger, topics: [topic0, two], data: [])
        #expect(LogFilter(topics: [[], []]).matches(twoTopics))
        #expect(!LogFilter(topics: [[], [], []]).matches(twoTopics))
        #expect(!LogFilter(topics: [[topic0], [], [], []]).matches(twoTopics))
        // Every result passes the filter's own predicate.
        let filter = LogFilter(fromBlock: .earliest, addresses: [logger], topics: [[topic0], [two, three]])
        #expect(try await chain.logs(filter).allSatisfy { filter.matches($0.log) })
    }
}
