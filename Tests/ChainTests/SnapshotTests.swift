import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
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

/// A revert many blocks back (the snapshot's state taken instead of undoing each block) and the one-step send of
/// in-process backends (`DevChain.send(_:signingWith:priceAtBaseFee:)`), against chains that never took the detour.
@Suite struct SnapshotLandingTests {
    typealias F = ChainFixtures

    /// Two chains with the same traffic: one also mines 2,000 blocks and reverts them; then both mine the same
    /// transaction. The reverted chain must be the other one block for block (hashes hold every root), with the
    /// snapshot's pending dev change still pending, and its earlier blocks still readable.
    @Test func aRevertFarBackLandsOnTheSnapshotsState() async throws {
        let detour = try await DevChain(config: .deterministic(), storage: .memory)
        let straight = try await DevChain(config: .deterministic(), storage: .memory)
        for chain in [detour, straight] {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: F.oneEther).encoded)
            try await chain.setBalance(F.address("0x" + String(repeating: "ab", count: 20)), UInt256(7))  // pending at the snapshot
        }
        let id = try await detour.snapshot()
        let before = await detour.currentState()
        for nonce in 1...20 as ClosedRange<UInt64> {
            try await detour.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: .one).encoded)
        }
        try await detour.mine(blocks: 2_000)
        try await detour.setStorage(F.address1, slot: .one, value: UInt256(9))
        #expect(await detour.blockNumber() == 2_021)

        #expect(try await detour.revert(to: id))
        #expect(await detour.blockNumber() == 1)
        #expect(try await detour.block(.number(2)) == nil)
        #expect(await detour.currentState() == before)
        #expect(try await detour.balance(F.address("0x" + String(repeating: "ab", count: 20))) == UInt256(7))
        #expect(try await detour.storage(F.address1, slot: .one) == .zero)
        for chain in [detour, straight] {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: F.address1, value: .one).encoded)
        }
        #expect(await detour.blockNumber() == 2)
        let detourHead = try #require(try await detour.block(.latest))
        let straightHead = try #require(try await straight.block(.latest))
        #expect(detourHead.hash == straightHead.hash)
        #expect(detourHead.header.stateRoot == straightHead.header.stateRoot)
        #expect(try await detour.balance(F.address1, at: .number(1)) == (try await straight.balance(F.address1, at: .number(1))))
        await detour.close()
        await straight.close()
    }

    /// `send` answers with the receipt `receipt(hash:)` gives and, for a failed transaction, the revert data a
    /// re-execution gives (also once the block has left the cache), signed with a dev key or impersonated.
    @Test func sendAnswersWithTheReceiptAndTheRevertData() async throws {
        let chain = try await DevChain(config: .deterministic(), storage: .memory)
        let reverter = F.address("0x" + String(repeating: "5e", count: 20))
        // mstore(0, 42); revert(0, 32)
        try await chain.setCode(reverter, [0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xfd])
        // In a block of its own: a replay starts from the parent block's state, which must hold the code.
        try await chain.mine(blocks: 1)
        let failed = try await chain.send(CallRequest(from: F.address0, to: reverter, gas: 100_000), signingWith: F.key0)
        let receipt = try #require(failed.receipt)
        #expect(!receipt.status)
        #expect(try await chain.receipt(hash: failed.hash) == receipt)
        #expect(failed.revertData == UInt256(42).bigEndianBytes)
        #expect(try await chain.trace(transaction: failed.hash).returnValue == failed.revertData)

        let ok = try await chain.send(CallRequest(from: F.address0, to: F.address1, value: .one), signingWith: F.key0)
        #expect(ok.receipt?.status == true)
        #expect(ok.revertData == nil)
        #expect(try await chain.revertData(transaction: ok.hash) == nil)

        // A key that is not the sender's is refused; an impersonated sender needs none.
        await #expect(throws: ChainError.self) {
            try await chain.send(CallRequest(from: F.address1, to: reverter, gas: 100_000), signingWith: F.key0)
        }
        let stranger = F.address("0x" + String(repeating: "77", count: 20))
        try await chain.setBalance(stranger, F.oneEther)
        await chain.impersonate(stranger)
        let pranked = try await chain.send(CallRequest(from: stranger, to: reverter, gas: 100_000), signingWith: nil, priceAtBaseFee: true)
        #expect(pranked.receipt?.status == false)
        #expect(pranked.receipt?.effectiveGasPrice == (try await chain.block(.latest))?.header.baseFeePerGas)
        #expect(pranked.revertData == UInt256(42).bigEndianBytes)

        // Past the blocks the chain keeps decoded, the revert data comes from re-executing the block.
        try await chain.mine(blocks: 1_034)  // the chain keeps 1,024
        #expect(try await chain.revertData(transaction: failed.hash) == UInt256(42).bigEndianBytes)
        await chain.close()
    }
}
