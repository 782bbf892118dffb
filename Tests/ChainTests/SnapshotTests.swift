import Chain
import EVM
import EthereumPrimitives
import Foundation
import Testing

@Suite struct SnapshotTests {
    typealias F = ChainFixtures

    @Test(arguments: [false, true])
    func revertRestoresBlocksStateAndPool(onDisk: Bool) async throws {
        let directory = F.temporaryDirectory("snapshot\(onDisk)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let storage: ChainStorage = onDisk ? .directory(directory) : .memory
        let chain = try await DevChain(config: .deterministic(), storage: storage)
        try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: F.oneEther).encoded)
        let block1 = try #require(try await chain.block(.latest))
        let balanceAt1 = try await chain.balance(F.address1)

        let first = try await chain.snapshot()
        for nonce in 1...3 as ClosedRange<UInt64> {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: F.oneEther).encoded)
        }
        let later = try await chain.snapshot()
        try await chain.setBalance(F.address1, .one)
        #expect(await chain.blockNumber() == 4)

        #expect(try await chain.revert(to: first))
        #expect(await chain.blockNumber() == 1)
        #expect(try #require(try await chain.block(.latest)).hash == block1.hash)
        #expect(try await chain.balance(F.address1) == balanceAt1)
        #expect(try await chain.nonce(F.address0) == 1)
        #expect(try await chain.block(.number(2)) == nil)
        #expect(await chain.currentState().stateRoot == block1.header.stateRoot)
        // The reverted snapshot and later ones are gone.
        #expect(try await chain.revert(to: later) == false)
        #expect(try await chain.revert(to: first) == false)

        // The chain continues from block 1; block 2 is a new block.
        try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: F.address1, value: .one).encoded)
        let newBlock2 = try #require(try await chain.block(.latest))
        #expect(newBlock2.number == 2 && newBlock2.header.parentHash == block1.hash)
        #expect(try await chain.logs(LogFilter(fromBlock: .earliest)).isEmpty)

        if onDisk {
            await chain.close()
            let reopened = try await DevChain(config: .deterministic(), storage: storage)
            #expect(await reopened.blockNumber() == 2)
            #expect(try #require(try await reopened.block(.latest)).hash == newBlock2.hash)
            #expect(try await reopened.balance(F.address1) == balanceAt1 + .one)
            await reopened.close()
        }
    }

    @Test func revertUndoesDevChangesWithoutBlocks() async throws {
        // Cancun: from Prague every block's system calls write the history contract, so an empty block no longer
        // keeps the genesis state root, which is what this test compares against.
        var config = ChainConfig.deterministic()
        config.hardfork = .cancun
        let chain = try await DevChain(config: config)
        let id = try await chain.snapshot()
        try await chain.setBalance(F.address0, .one)
        try await chain.setStorage(F.address1, slot: .one, value: .one)
        #expect(try await chain.revert(to: id))
        #expect(try await chain.balance(F.address0) == DevAccounts.defaultBalance)
        #expect(try await chain.storage(F.address1, slot: .one) == .zero)
        let block = try #require(try await chain.mine().first)
        #expect(await chain.currentState().stateRoot == block.header.stateRoot)
        #expect(block.header.stateRoot == (try #require(try await chain.block(.earliest))).header.stateRoot)
    }

    @Test func snapshotsAreBoundedAndARevertFreesThem() async throws {
        var config = ChainConfig.deterministic()
        config.maxSnapshots = 3
        let chain = try await DevChain(config: config)
        let first = try await chain.snapshot()
        _ = try await chain.snapshot()
        let third = try await chain.snapshot()
        await #expect(throws: ChainError.tooManySnapshots(limit: 3)) { try await chain.snapshot() }
        // Reverting to the third frees it (and nothing earlier): one more fits, then the limit again.
        #expect(try await chain.revert(to: third))
        _ = try await chain.snapshot()
        await #expect(throws: ChainError.tooManySnapshots(limit: 3)) { try await chain.snapshot() }
        // Reverting to the first frees all three.
        #expect(try await chain.revert(to: first))
        for _ in 0..<3 { _ = try await chain.snapshot() }
        #expect(ChainError.tooManySnapshots(limit: 3).rpcCode == -32000)
    }
}
