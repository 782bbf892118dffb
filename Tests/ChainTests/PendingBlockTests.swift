import Chain
import EVM
import EthereumPrimitives
import EthereumTransactions
import Testing

/// The pending block (DevChain+Pending.swift): the block the miner mines next, behind every `pending` tag.
@Suite struct PendingBlockTests {
    typealias F = ChainFixtures

    /// A deterministic chain with automine off and three pooled transactions: two of account 0 in nonce order and one
    /// of account 1 with the higher tip (the miner takes it first), and one of account 0 past a nonce gap (left out).
    private func pooled() async throws -> (DevChain, [SignedTransaction]) {
        let chain = try await DevChain(config: .deterministic())
        try await chain.setAutomine(false)
        let t0 = F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: UInt256(1_000))
        let t1 = F.dynamicFee(F.key0, nonce: 1, to: F.address1, value: UInt256(2_000))
        let gap = F.dynamicFee(F.key0, nonce: 5, to: F.address1)
        let u0 = F.dynamicFee(F.key1, nonce: 0, to: F.address0, tip: F.oneGwei * UInt256(3))
        for tx in [t0, t1, gap, u0] { try await chain.sendRawTransaction(tx.encoded) }
        return (chain, [u0, t0, t1])
    }

    @Test func pendingBlockIsTheBlockTheMinerMinesNext() async throws {
        let (chain, order) = try await pooled()
        let pending = try #require(try await chain.block(.pending))
        #expect(pending.number == 1)
        #expect(pending.header.parentHash == (try await chain.block(.latest))?.hash)
        #expect(pending.transactions.map(\.hash) == order.map(\.hash))
        #expect(try await chain.receipts(.pending)?.map(\.transactionHash) == order.map(\.hash))
        #expect(await chain.blockNumber() == 0)
        #expect(await chain.pendingTransactions().count == 4)  // the pool is untouched
        // With the same clock, coinbase and pool the mined block is the pending block, hash and roots included.
        let mined = try #require(try await chain.mine().first)
        #expect(mined.hash == pending.hash)
        #expect(mined.header == pending.header)
        let next = try #require(try await chain.block(.pending))
        #expect(next.number == 2 && next.transactions.isEmpty)  // the gapped nonce still waits
    }

    @Test func stateReadsAtPendingSeeThePendingBlock() async throws {
        let (chain, _) = try await pooled()
        let latest = try await chain.balance(F.address1)
        let atPending = try await chain.balance(F.address1, at: .pending)
        let receipts = try #require(try await chain.receipts(.pending))
        // account 1 receives 3,000 wei from account 0 and pays its own transfer's value (0) and fee.
        let fee = receipts[0].effectiveGasPrice * UInt256(receipts[0].gasUsed)
        #expect(atPending == latest + UInt256(3_000) - fee)
        #expect(try await chain.nonce(F.address0, at: .pending) == 2)  // the pool's nonce, as geth's
        #expect(try await chain.nonce(F.address0) == 0)
        // A call at pending runs in the pending block: NUMBER is the head's + 1 and the state is after its transactions.
        let numberCode: [UInt8] = [0x43, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]  // NUMBER; MSTORE 0; RETURN 32
        let probe = F.address("0x00000000000000000000000000000000000000ca")
        try await chain.setCode(probe, numberCode)
        let atPendingCall = try await chain.call(CallRequest(to: probe), at: .pending)
        #expect(atPendingCall.output == F.word(UInt256(1)))
        #expect(try await chain.call(CallRequest(to: probe), at: .latest).output == F.word(.zero))
        let balanceCode: [UInt8] = [0x73] + F.address1.bytes + [0x31, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3]
        try await chain.setCode(probe, balanceCode)
        #expect(try await chain.call(CallRequest(to: probe), at: .pending).output == F.word(atPending))
    }

    @Test func anEmptyPoolGivesAnEmptyPendingBlockOnTheLiveState() async throws {
        let chain = try await DevChain(config: .deterministic())
        let pending = try #require(try await chain.block(.pending))
        #expect(pending.number == 1 && pending.transactions.isEmpty)
        #expect(try await chain.balance(F.address0, at: .pending) == (try await chain.balance(F.address0)))
        let mined = try #require(try await chain.mine().first)
        #expect(mined.hash == pending.hash)
    }
}
