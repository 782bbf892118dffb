import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumTrie
import Testing

@Suite struct MiningTests {
    typealias F = ChainFixtures

    @Test func automineMinesOneBlockPerTransactionWithReceipt() async throws {
        let chain = try await DevChain(config: .deterministic())
        let tx = F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: F.oneEther)
        let hash = try await chain.sendRawTransaction(tx.encoded)
        #expect(hash == tx.hash)
        #expect(await chain.blockNumber() == 1)
        let block = try #require(try await chain.block(.latest))
        #expect(block.transactions.map(\.hash) == [hash])
        #expect(block.senders == [F.address0])
        #expect(block.header.gasUsed == 21_000)
        #expect(block.header.timestamp == 1_700_000_001)
        #expect(block.header.parentHash == (try #require(try await chain.block(.earliest))).hash)
        #expect(block.header.transactionsRoot == MerklePatriciaTrie.root(ofList: [tx.encoded]))

        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(receipt.status)
        #expect(receipt.type == .dynamicFee)
        #expect(receipt.gasUsed == 21_000 && receipt.cumulativeGasUsed == 21_000)
        // Base fee 1 gwei (genesis) → 0.875 gwei in block 1; tip 1 gwei.
        let baseFee = try #require(block.header.baseFeePerGas)
        #expect(baseFee == UInt256(875_000_000 as UInt64))
        #expect(receipt.effectiveGasPrice == baseFee + F.oneGwei)
        #expect(receipt.from == F.address0 && receipt.to == F.address1 && receipt.contractAddress == nil)
        #expect(receipt.blockHash == block.hash && receipt.blockNumber == 1 && receipt.transactionIndex == 0)
        #expect(receipt.logs.isEmpty && receipt.logsBloom == .empty)
        #expect(block.header.receiptsRoot == MerklePatriciaTrie.root(ofList: [receipt.consensusEncoding]))

        let (found, location) = try #require(try await chain.transaction(hash: hash))
        #expect(found == tx)
        #expect(
            location
                == TransactionLocation(
                    sender: F.address0, blockHash: block.hash, blockNumber: 1, index: 0, blockTimestamp: block.header.timestamp))

        let paid = UInt256(21_000) * receipt.effectiveGasPrice + F.oneEther
        #expect(try await chain.balance(F.address0) == DevAccounts.defaultBalance - paid)
        #expect(try await chain.balance(F.address1) == DevAccounts.defaultBalance + F.oneEther)
        #expect(try await chain.nonce(F.address0) == 1)
        #expect(await chain.currentState().stateRoot == block.header.stateRoot)
    }

    @Test func contractCreationReceiptHasTheAddress() async throws {
        let chain = try await DevChain(config: .deterministic())
        let tx = F.legacy(F.key0, nonce: 0, to: nil, data: F.loggerInitCode, gas: 100_000)
        let hash = try await chain.sendRawTransaction(tx.encoded)
        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(receipt.status && receipt.type == .legacy)
        let created = ContractAddress.create(sender: F.address0, nonce: 0)
        #expect(receipt.contractAddress == created)
        #expect(try await chain.code(created).count == 16)
        #expect(receipt.effectiveGasPrice == UInt256(10_000_000_000 as UInt64))
    }

    /// EIP-1559: 12.5% down per empty-ish block, up when a block is over the target, unchanged at it.
    @Test func baseFeeFollowsEIP1559() async throws {
        var config = ChainConfig.deterministic()
        config.gasLimit = 100_000  // target 50,000
        let chain = try await DevChain(config: config)
        var expected = F.oneGwei
        // Empty blocks: −12.5% each.
        for _ in 0..<3 {
            let block = try #require(try await chain.mine().first)
            expected = expected - expected * UInt256(50_000) / UInt256(50_000) / UInt256(8)
            #expect(block.header.baseFeePerGas == expected)
        }
        // A 21,000-gas block: gasUsed below target → decrease by (target − used)/target/8.
        _ = try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1).encoded)
        let parentFee = expected
        expected = parentFee - parentFee * UInt256(50_000) / UInt256(50_000) / UInt256(8)  // block 4 fee from empty block 3
        let b4 = try #require(try await chain.block(.latest))
        #expect(b4.header.baseFeePerGas == expected)
        // Over target: two transfers and a 60,000-gas block … use one 90,000-gas creation instead.
        try await chain.setAutomine(false)
        _ = try await chain.sendRawTransaction(
            F.dynamicFee(F.key0, nonce: 1, to: nil, data: [UInt8](repeating: 1, count: 1000) + [0x00], gas: 90_000).encoded)
        let b5 = try #require(try await chain.mine().first)
        let fee4 = try #require(b4.header.baseFeePerGas)
        let used4 = b4.header.gasUsed
        #expect(b5.header.baseFeePerGas == fee4 - fee4 * UInt256(50_000 - used4) / UInt256(50_000) / UInt256(8))
        #expect(b5.header.gasUsed > 50_000)
        let b6 = try #require(try await chain.mine().first)
        let fee5 = try #require(b5.header.baseFeePerGas)
        let delta = fee5 * UInt256(b5.header.gasUsed - 50_000) / UInt256(50_000) / UInt256(8)
        #expect(b6.header.baseFeePerGas == fee5 + max(delta, .one))
        #expect(await chain.pendingBaseFee() == FeeMarket.nextBaseFee(parent: b6.header, initialBaseFee: F.oneGwei))
    }

    @Test func wrongChainIdIsRejected() async throws {
        let chain = try await DevChain(config: .deterministic())
        let typed = F.dynamicFee(F.key0, nonce: 0, to: F.address1, chainId: 1)
        await #expect(throws: ChainError.wrongChainId(expected: 4, got: 1)) {
            try await chain.sendRawTransaction(typed.encoded)
        }
        let legacy = F.legacy(F.key0, nonce: 0, to: F.address1, chainId: 1337)
        do {
            try await chain.sendRawTransaction(legacy.encoded)
            Issue.record("a legacy transaction for chain 1337 was accepted")
        } catch {
            #expect(error == .wrongChainId(expected: 4, got: 1337))
            #expect(error.description.contains("chain 1337") && error.description.contains("id is 4"))
            #expect(error.rpcCode == -32000)
        }
        #expect(await chain.blockNumber() == 0)
    }

    @Test func invalidTransactionsAreRejectedWithGethMessages() async throws {
        // Cancun: in Osaka the 31M-gas transaction below meets EIP-7825's cap before the block limit (as in geth).
        var config = ChainConfig.deterministic()
        config.hardfork = .cancun
        let chain = try await DevChain(config: config)
        _ = try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1).encoded)
        await #expect(throws: ChainError.self) { try await chain.sendRawTransaction([0x02, 0xc0]) }
        do {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1, value: .one).encoded)
            Issue.record("nonce too low accepted")
        } catch { #expect(error.description.hasPrefix("nonce too low")) }
        do {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: F.address1, gas: 20_000).encoded)
            Issue.record("intrinsic gas too low accepted")
        } catch { #expect(error.description.contains("intrinsic gas too low")) }
        do {
            try await chain.sendRawTransaction(
                F.dynamicFee(F.key0, nonce: 1, to: F.address1, value: DevAccounts.defaultBalance).encoded)
            Issue.record("insufficient funds accepted")
        } catch { #expect(error.description.hasPrefix("insufficient funds for gas * price + value")) }
        do {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: F.address1, maxFee: .one, tip: .one).encoded)
            Issue.record("fee cap below base fee accepted")
        } catch { #expect(error.description.hasPrefix("max fee per gas less than block base fee")) }
        do {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 1, to: F.address1, gas: 31_000_000).encoded)
            Issue.record("gas above block limit accepted")
        } catch { #expect(error.description.hasPrefix("exceeds block gas limit")) }
        #expect(await chain.blockNumber() == 1)
    }

    @Test func poolWithoutAutomineAndNonceGaps() async throws {
        let chain = try await DevChain(config: .deterministic())
        try await chain.setAutomine(false)
        let t0 = F.dynamicFee(F.key0, nonce: 0, to: F.address1)
        let t2 = F.dynamicFee(F.key0, nonce: 2, to: F.address1)
        let t1 = F.dynamicFee(F.key0, nonce: 1, to: F.address1)
        let u0 = F.dynamicFee(F.key1, nonce: 0, to: F.address0, tip: F.oneGwei * UInt256(3))
        for tx in [t0, t2, u0] { try await chain.sendRawTransaction(tx.encoded) }
        #expect(await chain.blockNumber() == 0)
        #expect(try await chain.nonce(F.address0, at: .pending) == 1)
        let pending = try #require(try await chain.transaction(hash: t2.hash))
        #expect(pending.1.isPending)
        await #expect(throws: ChainError.alreadyKnown(t0.hash)) { try await chain.sendRawTransaction(t0.encoded) }
        let first = try #require(try await chain.mine().first)
        // The higher tip first; t2 waits for t1.
        #expect(first.transactions.map(\.hash) == [u0.hash, t0.hash])
        // Mined now: the same bytes are still "already known", not "nonce too low".
        await #expect(throws: ChainError.alreadyKnown(t0.hash)) { try await chain.sendRawTransaction(t0.encoded) }
        try await chain.sendRawTransaction(t1.encoded)
        #expect(try await chain.nonce(F.address0, at: .pending) == 3)
        try await chain.setAutomine(true)  // mines what is ready: t1, then t2, one block each
        #expect(await chain.blockNumber() == 3)
        #expect(try await chain.nonce(F.address0) == 3)
        #expect(await chain.pendingTransactions().isEmpty)
        let empty = try await chain.mine(blocks: 3)
        #expect(empty.count == 3 && empty.allSatisfy { $0.transactions.isEmpty })
        #expect(await chain.blockNumber() == 6)
    }

    @Test func sendTransactionSignsForDevAccounts() async throws {
        let chain = try await DevChain(config: .deterministic())
        let hash = try await chain.sendTransaction(CallRequest(from: F.address0, to: F.address1, value: F.oneEther))
        let receipt = try #require(try await chain.receipt(hash: hash))
        #expect(receipt.status && receipt.gasUsed == 21_000 && receipt.type == .dynamicFee)
        let legacyHash = try await chain.sendTransaction(
            CallRequest(from: F.address0, to: F.address1, gasPrice: F.oneGwei * UInt256(5)))
        #expect(try #require(try await chain.receipt(hash: legacyHash)).type == .legacy)
        await #expect(throws: ChainError.unknownAccount(F.address("0x00000000000000000000000000000000000000aa"))) {
            try await chain.sendTransaction(
                CallRequest(from: F.address("0x00000000000000000000000000000000000000aa"), to: F.address1))
        }
        #expect(chain.accounts.count == 10)
    }

    /// The same transactions with the same deterministic configuration give the same blocks.
    @Test func blockHashesAreDeterministic() async throws {
        func run() async throws -> [Bytes32] {
            let chain = try await DevChain(config: .deterministic())
            for nonce in 0..<5 as Range<UInt64> {
                try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: .one).encoded)
            }
            try await chain.sendRawTransaction(F.legacy(F.key1, nonce: 0, to: nil, data: F.loggerInitCode, gas: 100_000).encoded)
            _ = try await chain.mine(blocks: 2)
            var hashes: [Bytes32] = []
            for n in 0...(await chain.blockNumber()) { hashes.append(try #require(try await chain.block(.number(n))).hash) }
            return hashes
        }
        let a = try await run()
        let b = try await run()
        #expect(a.count == 9)
        #expect(a == b)
    }

    @Test func timeControls() async throws {
        let chain = try await DevChain(config: .deterministic(genesisTimestamp: 1_000, blockInterval: 12))
        #expect(try #require(try await chain.mine().first).header.timestamp == 1_012)
        #expect(try await chain.increaseTime(100) == 100)
        #expect(try #require(try await chain.mine().first).header.timestamp == 1_124)
        try await chain.setNextBlockTimestamp(5_000)
        #expect(try #require(try await chain.mine().first).header.timestamp == 5_000)
        await #expect(throws: ChainError.timestampTooLow(requested: 5_000, head: 5_000)) {
            try await chain.setNextBlockTimestamp(5_000)
        }
        #expect(try #require(try await chain.mine(blocks: 1, timestamp: 6_000).first).header.timestamp == 6_000)
        #expect(try #require(try await chain.mine().first).header.timestamp == 6_012)
    }

    @Test func intervalMiningMinesOnItsOwn() async throws {
        let chain = try await DevChain(config: .deterministic())
        try await chain.setIntervalMining(0.05)
        #expect(await chain.isAutomining == false)
        try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: F.address1).encoded)
        let receipt = await chain.waitForTransaction(hash: F.dynamicFee(F.key0, nonce: 0, to: F.address1).hash)
        #expect(receipt?.status == true)
        try await chain.setIntervalMining(nil)
        #expect(await chain.blockNumber() >= 1)
        await chain.close()
    }

    @Test func devControlsChangeStateWithoutBlocks() async throws {
        let chain = try await DevChain(config: .deterministic())
        let target = F.address("0x00000000000000000000000000000000000000bb")
        try await chain.setBalance(target, UInt256(12345))
        try await chain.setNonce(target, 7)
        try await chain.setCode(target, [0x60, 0x00])
        try await chain.setStorage(target, slot: UInt256(1), value: UInt256(99))
        #expect(try await chain.balance(target) == UInt256(12345))
        #expect(try await chain.nonce(target) == 7)
        #expect(try await chain.code(target) == [0x60, 0x00])
        #expect(try await chain.storage(target, slot: UInt256(1)) == UInt256(99))
        #expect(await chain.blockNumber() == 0)
        // Storage on an otherwise empty account stays (no EIP-161 removal for dev changes).
        let empty = F.address("0x00000000000000000000000000000000000000cc")
        try await chain.setStorage(empty, slot: .one, value: UInt256(5))
        #expect(try await chain.storage(empty, slot: .one) == UInt256(5))
        let block = try #require(try await chain.mine().first)
        #expect(await chain.currentState().stateRoot == block.header.stateRoot)
        // At genesis none of it existed.
        #expect(try await chain.balance(target, at: .earliest) == .zero)
        #expect(try await chain.storage(target, slot: UInt256(1), at: .number(0)) == .zero)
        #expect(try await chain.code(target, at: .number(0)).isEmpty)
        #expect(try await chain.storage(target, slot: UInt256(1), at: .number(1)) == UInt256(99))
    }

    @Test func historicalReads() async throws {
        let chain = try await DevChain(config: .deterministic())
        for nonce in 0..<4 as Range<UInt64> {
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: nonce, to: F.address1, value: F.oneEther).encoded)
        }
        for n in 0...4 as ClosedRange<UInt64> {
            #expect(try await chain.balance(F.address1, at: .number(n)) == DevAccounts.defaultBalance + UInt256(n) * F.oneEther)
            #expect(try await chain.nonce(F.address0, at: .number(n)) == n)
        }
        let b2 = try #require(try await chain.block(.number(2)))
        #expect(try await chain.nonce(F.address0, at: .hash(b2.hash)) == 2)
        await #expect(throws: ChainError.self) { try await chain.balance(F.address0, at: .number(99)) }
        try await chain.setBalance(F.address1, .one)  // pending dev change: history unaffected
        #expect(try await chain.balance(F.address1, at: .number(4)) == .one)
        #expect(try await chain.balance(F.address1, at: .number(3)) == DevAccounts.defaultBalance + UInt256(3) * F.oneEther)
    }
    /// An automined block whose only transaction fails at inclusion is abandoned: the system calls it began with
    /// (EIP-4788 and EIP-2935 writes) are undone, so the chain goes on exactly as if the transaction had never been
    /// sent — with no dev change pending (undone from the journal) and with one (which the next block must carry).
    @Test(arguments: [false, true])
    func anAbandonedBlockLeavesNoTrace(devChangePending: Bool) async throws {
        typealias F = ChainFixtures
        let spender = try PrivateKey(bytes: [UInt8](repeating: 0x5a, count: 32))
        let other = F.address("0x00000000000000000000000000000000000a11ce")
        let value = UInt256(600_000_000_000_000_000 as UInt64)
        func run(sendRejected: Bool) async throws -> (Bytes32?, Int) {
            let chain = try await DevChain(config: .deterministic())
            #expect(chain.hardfork >= .prague)
            try await chain.sendRawTransaction(F.dynamicFee(F.key0, nonce: 0, to: spender.address, value: F.oneEther).encoded)
            try await chain.setAutomine(false)
            if devChangePending {
                // Affordable when sent; not after the dev change, which is pending when its block is built.
                if sendRejected { try await chain.sendRawTransaction(F.dynamicFee(spender, nonce: 0, to: other, value: value).encoded) }
                try await chain.setBalance(spender.address, F.oneGwei)
            } else {
                // Each affordable alone, the second not after the first: rejected when its block is built.
                try await chain.sendRawTransaction(F.dynamicFee(spender, nonce: 0, to: other, value: value).encoded)
                if sendRejected { try await chain.sendRawTransaction(F.dynamicFee(spender, nonce: 1, to: other, value: value).encoded) }
            }
            try await chain.setAutomine(true)
            // The next block at another time than the abandoned one's: a leftover EIP-4788 write would stay in its slot.
            let next = try #require(try await chain.block(.latest)).header.timestamp + 100
            try await chain.setNextBlockTimestamp(next)
            _ = try await chain.mine()
            if devChangePending { #expect(try await chain.balance(spender.address) == F.oneGwei) }
            return (try await chain.block(.latest)?.hash, await chain.pendingTransactions().count)
        }
        let (withRejected, pooled) = try await run(sendRejected: true)
        let (without, _) = try await run(sendRejected: false)
        #expect(pooled == 0)
        #expect(withRejected != nil && withRejected == without)
    }
}
