import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import Testing

/// A chain in memory keeps its history in `MemoryChainHistory`, a chain on disk in SQLite (`SQLiteChainStore`): two
/// implementations of one store. The same script runs on both — logs over several blocks, a block with two
/// transactions, dev changes before a block, a snapshot reverted and mined past again, and more blocks than the chain
/// caches, so the old ones are read back from the store — and every answer of the two must be equal. SQLite's, with
/// its indexed queries, is the reference.
@Suite struct ChainStoreParityTests {
    typealias F = ChainFixtures

    private static func script(_ storage: ChainStorage) async throws -> DevChain {
        let chain = try await DevChain(config: .deterministic(), storage: storage)
        try await chain.sendRawTransaction(F.legacy(F.key0, nonce: 0, to: nil, data: F.loggerInitCode, gas: 100_000).encoded)
        let logger = ContractAddress.create(sender: F.address0, nonce: 0)
        var nonce: UInt64 = 1
        func log(_ value: UInt64) async throws {
            let data = F.word(UInt256(value)) + [0xbe, 0xef]
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: logger, data: data, gas: 60_000).encoded)
            nonce += 1
        }
        for value in 1...4 as ClosedRange<UInt64> { try await log(value) }
        // Two transactions in one block.
        try await chain.setAutomine(false)
        try await log(5)
        try await chain.sendRawTransaction(F.legacy(F.key1, nonce: 0, to: F.address0, value: F.oneGwei, gas: 21_000).encoded)
        _ = try await chain.mine()
        try await chain.setAutomine(true)
        // Dev changes the next block is mined on.
        try await chain.setBalance(F.address(String(repeating: "ab", count: 20)), F.oneEther)
        try await chain.setStorage(logger, slot: 7, value: 9)
        try await log(6)
        // A snapshot, blocks past it, the revert, and other blocks in their place.
        let id = try await chain.snapshot()
        let revertedFrom = nonce
        try await log(100)
        _ = try await chain.mine(blocks: 3)
        #expect(try await chain.revert(to: id))
        nonce = revertedFrom
        try await log(7)
        // Enough empty blocks that the first ones leave the chain's cache of recent blocks.
        _ = try await chain.mine(blocks: 1_100)
        try await log(8)
        return chain
    }

    @Test func memoryAndSQLiteAnswerAlike() async throws {
        let directory = F.temporaryDirectory("parity")
        defer { try? FileManager.default.removeItem(at: directory) }
        let memory = try await Self.script(.memory)
        let disk = try await Self.script(.directory(directory))
        let head = await memory.blockNumber()
        #expect(head == 1_109)
        #expect(await disk.blockNumber() == head)

        var hashes: [Bytes32] = []
        for number in 0...head {
            let inMemory = try await memory.block(.number(number))
            let onDisk = try await disk.block(.number(number))
            #expect(inMemory == onDisk, "block \(number)")
            guard let block = inMemory else { continue }
            #expect(try await memory.block(.hash(block.hash)) == onDisk, "block \(number) by hash")
            hashes += block.transactions.map(\.hash)
        }
        #expect(hashes.count == 10)
        for hash in hashes {
            #expect(try await memory.receipt(hash: hash) == disk.receipt(hash: hash))
            let (memoryTransaction, memoryLocation) = try #require(try await memory.transaction(hash: hash))
            let (diskTransaction, diskLocation) = try #require(try await disk.transaction(hash: hash))
            #expect(memoryTransaction == diskTransaction && memoryLocation == diskLocation)
        }
        // State at earlier blocks walks the stored reverse diffs (decoded for recent blocks, RLP for older ones in
        // memory; rows on disk).
        let logger = ContractAddress.create(sender: F.address0, nonce: 0)
        let dealt = F.address(String(repeating: "ab", count: 20))
        for number in [0, 1, 5, 6, 7, 8, 9, 500, 1_044, 1_045, 1_108, 1_109] as [UInt64] {
            let at = BlockID.number(number)
            for address in [F.address0, F.address1, logger, dealt] {
                #expect(try await memory.balance(address, at: at) == disk.balance(address, at: at), "balance at \(number)")
                #expect(try await memory.nonce(address, at: at) == disk.nonce(address, at: at), "nonce at \(number)")
            }
            #expect(try await memory.storage(logger, slot: 7, at: at) == disk.storage(logger, slot: 7, at: at), "slot at \(number)")
        }
        #expect(try await memory.storage(logger, slot: 7, at: .number(6)) == 0)
        #expect(try await memory.storage(logger, slot: 7, at: .number(7)) == 9)
        #expect(try await memory.balance(dealt, at: .number(7)) == F.oneEther)
        // The reverted transaction (value 100) is in neither.
        let hundred = UInt256(100).bytes32
        let topic0 = UInt256(0xaa).bytes32
        let filters: [LogFilter] = [
            LogFilter(fromBlock: .earliest, toBlock: .latest),
            LogFilter(fromBlock: .number(2), toBlock: .number(6)),
            LogFilter(fromBlock: .earliest, addresses: [logger]),
            LogFilter(fromBlock: .earliest, addresses: [F.address1]),
            LogFilter(fromBlock: .earliest, topics: [[topic0]]),
            LogFilter(fromBlock: .earliest, topics: [[], [UInt256(2).bytes32, UInt256(7).bytes32, hundred]]),
            LogFilter(fromBlock: .earliest, topics: [[], []]),
            LogFilter(fromBlock: .earliest, topics: [[], [], []]),
            LogFilter(fromBlock: .number(1_000), toBlock: .latest),
        ]
        for filter in filters {
            let inMemory = try await memory.logs(filter)
            #expect(inMemory == (try await disk.logs(filter)), "\(filter)")
        }
        #expect(try await memory.logs(filters[0]).count == 8)
        #expect(try await memory.logs(filters[5]).map(\.topics[1]) == [UInt256(2).bytes32, UInt256(7).bytes32])
        await memory.close()
        await disk.close()
    }
}
