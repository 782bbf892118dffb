import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation
import TestSupport
import Testing

/// Replays of blocks mined after dev changes (DevChain+PreBlockChanges.swift): a block is traced on the state it was
/// mined on — its parent's plus the `setBalance`/`setCode`/`setNonce`/`setStorage` made before it — in memory, after the
/// chain is closed and reopened, after a database behind its journal (a kill -9) is opened, and after a revert removed
/// the block. Every expected value is one the test set or the receipt gives, not one a replay computed.
@Suite struct PreBlockDevChangeTests {
    typealias F = ChainFixtures

    /// An account no genesis funds: only the dev changes give it ether and a nonce.
    static let stranger = F.address("0x00000000000000000000000000000000005eed01")
    /// Code set by a dev change: returns storage slot 7 (PUSH1 7 SLOAD PUSH1 0 MSTORE PUSH1 32 PUSH1 0 RETURN).
    static let loader = F.address("0x00000000000000000000000000000000000c0de1")
    static let loaderCode: [UInt8] = [0x60, 0x07, 0x54, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
    /// Code set by a dev change: reverts with the word 42 (PUSH1 42 PUSH1 0 MSTORE PUSH1 32 PUSH1 0 REVERT).
    static let reverter = F.address("0x00000000000000000000000000000000000c0de2")
    static let reverterCode: [UInt8] = [0x60, 0x2a, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xfd]
    static let slotValue = UInt256(0xfeed_beef as UInt64)
    /// The stranger's balance before block 1: the last of three changes (set, set again, add).
    static let funded = F.oneEther * UInt256(3) + UInt256(2)
    static let sent = UInt256(12_345 as UInt64)
    static let gas: UInt64 = 100_000

    /// What the scenario mined.
    struct Mined {
        var load: Bytes32  // block 1: the stranger calls the loader
        var revert: Bytes32  // block 2: the stranger (nonce set to 5) calls the reverter
    }

    /// Block 1 after a balance set twice and added to, code and a slot set, the stranger impersonated; block 2 after
    /// its nonce and balance were set again and the reverter's code set.
    static func mine(_ chain: DevChain) async throws -> Mined {
        try await chain.setBalance(stranger, F.oneEther)
        try await chain.setBalance(stranger, F.oneEther * UInt256(3))
        try await chain.addBalance(stranger, UInt256(2))
        try await chain.setCode(loader, loaderCode)
        try await chain.setStorage(loader, slot: UInt256(7), value: slotValue)
        await chain.impersonate(stranger)
        let load = try await chain.sendTransaction(CallRequest(from: stranger, to: loader, gas: gas, value: sent))
        try await chain.setNonce(stranger, 5)
        try await chain.setBalance(stranger, F.oneEther * UInt256(5))
        try await chain.setCode(reverter, reverterCode)
        let revert = try await chain.sendTransaction(CallRequest(from: stranger, to: reverter, gas: gas))
        #expect(await chain.blockNumber() == 2)
        return Mined(load: load, revert: revert)
    }

    /// Every replay of blocks 1 and 2 and the reads at blocks 0–2, against the values set and the receipts.
    static func verify(_ chain: DevChain, _ mined: Mined, _ label: String) async throws {
        let load = try #require(try await chain.receipt(hash: mined.load), "\(label)")
        let revert = try #require(try await chain.receipt(hash: mined.revert), "\(label)")
        #expect(load.status && load.blockNumber == 1 && !revert.status && revert.blockNumber == 2, "\(label)")

        // callTracer: the funded sender's call, its value, gas, the receipt's gasUsed and the slot the dev change set.
        guard case .callFrame(let frame) = try await chain.trace(transaction: mined.load, tracer: .callTracer(CallTracerOptions()))
        else { Issue.record("\(label): not a call frame"); return }
        #expect(frame.from == stranger && frame.to == loader && frame.value == sent, "\(label)")
        #expect(frame.gas == gas && frame.gasUsed == load.gasUsed && frame.error == nil, "\(label)")
        #expect(frame.output == slotValue.bigEndianBytes, "\(label)")

        // prestateTracer: the stranger's balance is the last one set; the loader has the code and slot set.
        guard case .prestate(.accounts(let pre)) = try await chain.trace(
            transaction: mined.load, tracer: .prestateTracer(PrestateTracerOptions()))
        else { Issue.record("\(label): not a prestate"); return }
        #expect(pre[stranger]?.balance == funded && pre[stranger]?.nonce == 0, "\(label)")
        #expect(pre[loader]?.code == loaderCode && pre[loader]?.storage == [UInt256(7): slotValue], "\(label)")

        // The struct logger's SLOAD sees the slot.
        let steps = try await chain.trace(transaction: mined.load).structLogs
        let sload = try #require(steps.first { $0.op == 0x54 }, "\(label)")
        #expect(sload.storage?[UInt256(7)] == slotValue, "\(label)")

        // Block 2's replay uses block 2's changes: nonce 5 and the balance set before it, not what block 1 left.
        guard case .prestate(.accounts(let pre2)) = try await chain.trace(
            transaction: mined.revert, tracer: .prestateTracer(PrestateTracerOptions(disableCode: true)))
        else { Issue.record("\(label): not a prestate"); return }
        #expect(pre2[stranger]?.balance == F.oneEther * UInt256(5) && pre2[stranger]?.nonce == 5, "\(label)")
        #expect(try await chain.revertData(transaction: mined.revert) == UInt256(42).bigEndianBytes, "\(label)")

        // Block traces give the same answers.
        let block1 = try await chain.traceBlock(.number(1), tracer: .callTracer(CallTracerOptions()))
        #expect(block1.count == 1 && block1.first?.result == .callFrame(frame), "\(label)")
        let block2 = try await chain.traceBlock(.number(2), tracer: .callTracer(CallTracerOptions()))
        guard case .callFrame(let reverted) = block2.first?.result else { Issue.record("\(label): block 2"); return }
        #expect(reverted.error == "execution reverted" && reverted.gasUsed == revert.gasUsed, "\(label)")

        // State at block 0 has none of the changes; at block 1, block 1's and not those made after it; at 2 all.
        let fee1 = load.effectiveGasPrice * UInt256(load.gasUsed)
        let fee2 = revert.effectiveGasPrice * UInt256(revert.gasUsed)
        #expect(try await chain.balance(stranger, at: .number(0)) == .zero, "\(label)")
        #expect(try await chain.code(loader, at: .number(0)) == [], "\(label)")
        #expect(try await chain.storage(loader, slot: UInt256(7), at: .number(0)) == .zero, "\(label)")
        #expect(try await chain.balance(stranger, at: .number(1)) == funded - sent - fee1, "\(label)")
        #expect(try await chain.nonce(stranger, at: .number(1)) == 1, "\(label)")
        #expect(try await chain.code(reverter, at: .number(1)) == [], "\(label)")
        #expect(try await chain.storage(loader, slot: UInt256(7), at: .number(1)) == slotValue, "\(label)")
        #expect(try await chain.balance(stranger, at: .number(2)) == F.oneEther * UInt256(5) - fee2, "\(label)")
        #expect(try await chain.nonce(stranger, at: .number(2)) == 6, "\(label)")
    }

    @Test func inMemoryAndAfterRevert() async throws {
        let chain = try await DevChain(config: .deterministic())
        let mined = try await Self.mine(chain)
        try await Self.verify(chain, mined, "in memory")

        // An RLP export cannot carry the changes: the export names blocks 1 and 2, and another chain's import stops at 1.
        #expect(try await chain.blocksMinedOnDevChanges(from: 0, to: 10) == [1, 2])
        var file: [UInt8] = []
        for block in try await chain.exportBlocks(from: 1, to: 2) { file += block }
        let other = try await DevChain(config: .deterministic())
        do {
            _ = try await other.importBlocks(rlp: file)
            Issue.record("the import of blocks mined on dev changes succeeded")
        } catch {
            guard case .invalidBlock(let number, _, _) = error else { throw error }
            #expect(number == 1)
        }

        // A revert drops block 2 and its changes; the block mined in its place on other changes replays on those.
        let snapshot = try await chain.snapshot()
        try await chain.setNonce(Self.stranger, 9)
        try await chain.setBalance(Self.stranger, F.oneEther * UInt256(7))
        _ = try await chain.sendTransaction(CallRequest(from: Self.stranger, to: Self.reverter, gas: Self.gas))
        #expect(try await chain.revert(to: snapshot))
        #expect(await chain.blockNumber() == 2)
        try await chain.setNonce(Self.stranger, 20)
        try await chain.setBalance(Self.stranger, F.oneEther * UInt256(8))
        let third = try await chain.sendTransaction(CallRequest(from: Self.stranger, to: Self.loader, gas: Self.gas))
        guard case .prestate(.accounts(let pre)) = try await chain.trace(
            transaction: third, tracer: .prestateTracer(PrestateTracerOptions(disableCode: true)))
        else { Issue.record("not a prestate"); return }
        #expect(pre[Self.stranger]?.balance == F.oneEther * UInt256(8) && pre[Self.stranger]?.nonce == 20)
        try await Self.verify(chain, mined, "after a revert")
        #expect(try await chain.blocksMinedOnDevChanges(from: 0, to: 10) == [1, 2, 3])

        // A reset removes every block and their stored changes: a new block 1 without dev changes replays plainly.
        try await chain.reset()
        #expect(try await chain.blocksMinedOnDevChanges(from: 0, to: 10) == [])
        let plain = try await chain.sendTransaction(CallRequest(from: F.address0, to: Self.loader, gas: Self.gas))
        guard case .callFrame(let frame) = try await chain.trace(transaction: plain, tracer: .callTracer(CallTracerOptions()))
        else { Issue.record("not a call frame"); return }
        #expect(frame.output == [] && frame.error == nil)  // no code at the loader any more
    }

    /// A forked chain (Chain/Fork, a remote answered by another chain in this process) replays the same way.
    @Test func onAFork() async throws {
        let source = try await DevChain(config: .deterministic())
        _ = try await source.mine()
        let cache = try await ChainBackedRemote.fork(source, at: 1)
        let fork = try await DevChain(config: .deterministic(), fork: cache)
        let remote = ForkChainTests()
        try await fork.setBalance(Self.stranger, Self.funded)
        try await fork.setCode(Self.loader, Self.loaderCode)
        try await fork.setStorage(Self.loader, slot: UInt256(7), value: Self.slotValue)
        await fork.impersonate(Self.stranger)
        try await fork.setAutomine(false)
        // Everything given, so filling it in reads nothing the fork has not fetched.
        let hash = try await fork.sendTransaction(
            CallRequest(
                from: Self.stranger, to: Self.loader, gas: Self.gas, maxFeePerGas: UInt256(100_000_000_000 as UInt64),
                maxPriorityFeePerGas: F.oneGwei, value: Self.sent, nonce: 0))
        _ = try await remote.settled(cache) { try await fork.mine() }
        let receipt = try #require(try await fork.receipt(hash: hash))
        #expect(receipt.status && receipt.blockNumber == 2)
        let traced = try await remote.settled(cache) { try await fork.trace(transaction: hash, tracer: .callTracer(CallTracerOptions())) }
        guard case .callFrame(let frame) = traced else { Issue.record("not a call frame"); return }
        #expect(frame.from == Self.stranger && frame.value == Self.sent && frame.gasUsed == receipt.gasUsed)
        #expect(frame.output == Self.slotValue.bigEndianBytes && frame.error == nil)
        let prestate = try await remote.settled(cache) {
            try await fork.trace(transaction: hash, tracer: .prestateTracer(PrestateTracerOptions(disableCode: true)))
        }
        guard case .prestate(.accounts(let pre)) = prestate else { Issue.record("not a prestate"); return }
        #expect(pre[Self.stranger]?.balance == Self.funded && pre[Self.loader]?.storage == [UInt256(7): Self.slotValue])
    }

    /// On disk: closed and reopened (the changes read from SQLite), then with the database behind its journal — what a
    /// kill -9 between the journal's write and the database's leaves — so blocks 1 and 2 come from journal records.
    @Test func afterReopenAndFromTheJournal() async throws {
        let directory = F.temporaryDirectory()
        let saved = F.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: directory)
            try? FileManager.default.removeItem(at: saved)
        }
        do {
            let empty = try await DevChain(config: .deterministic(), storage: .directory(directory))
            await empty.close()
        }
        try F.copyDatabase(directory, saved)  // the database at genesis
        let chain = try await DevChain(config: .deterministic(), storage: .directory(directory))
        let mined = try await Self.mine(chain)
        await chain.close()
        let journal = try Data(contentsOf: directory.appendingPathComponent("chain.journal"))

        let reopened = try await DevChain(config: .deterministic(), storage: .directory(directory))
        try await Self.verify(reopened, mined, "reopened")
        await reopened.close()

        // The database at genesis, the journal holding blocks 1 and 2.
        try F.copyDatabase(saved, directory)
        try journal.write(to: directory.appendingPathComponent("chain.journal"))
        let replayed = try await DevChain(config: .deterministic(), storage: .directory(directory))
        #expect(await replayed.blockNumber() == 2)
        try await Self.verify(replayed, mined, "from the journal")
        await replayed.close()

        // `carchain chain export` names the blocks it cannot carry the changes of.
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        let out = directory.appendingPathComponent("out.rlp")
        let export = try TimedProcess.run(
            carchain, ["chain", "export", out.path, "--data-dir", directory.path, "--json"], environment: [:], timeout: 60)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(try JSONValue(parsing: export.stdout)["minedOnDevChanges"] == .array([.number("1"), .number("2")]))
        #expect(export.stderr.hasPrefix("carchain: warning: 2 of the blocks (1, 2) were mined after dev changes"))
    }
}
