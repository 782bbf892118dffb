import Chain
import EthereumContracts
import Foundation
import Testing
import TestSupport

/// Against one `carchain node` process: fee suggestions from blocks of known tips, Multicall3 batches, and
/// subscriptions over WebSocket — new heads, pending transactions, a typed event stream — that survive the node
/// being stopped and started again (reconnection, resubscription, the gap filled with `eth_getLogs`: nothing lost,
/// nothing twice).
@Suite(.serialized) struct NodeStreamTests {
    @Test func feesMulticallAndStreamsAcrossANodeRestart() async throws {
        guard let compiled = try await Snekmate.compiled(), let multicall3 = try await RuntimeContracts.multicall3() else { return }
        guard let node = try NodeProcess.start(for: "subscriptions, Multicall3 and fees on carchain node") else { return }
        defer { node.stop() }
        let client = try RPCClient(url: node.url)
        let chainID = try await client.chainID()
        let keys = try (0..<3).map { try DevAccounts.key(index: UInt32($0)) }
        let accounts = keys.map(\.address)
        func sender(_ key: PrivateKey, _ options: SendOptions) async throws -> TransactionSender {
            try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: key), options: options)
        }

        // Fees: three blocks whose only transaction tips 3, 7 and 5 gwei; the median at the 50th percentile is 5.
        let gwei = UInt256(1_000_000_000)
        for tip in [UInt256(3), 7, 5] {
            let fixed = try await sender(keys[2], SendOptions(expectedChainID: chainID, feeMode: .eip1559, maxFeePerGas: 100 * gwei, maxPriorityFeePerGas: tip * gwei))
            _ = try await fixed.sendAndWait(TransactionRequest(to: accounts[1], value: 1))
        }
        let history = try await client.feeHistory(blockCount: 3, rewardPercentiles: [50])
        let suggestion = try #require(await client.suggestFees(FeeSuggestionPolicy(blocks: 3, percentile: 50)))
        #expect(suggestion.maxPriorityFeePerGas == 5 * gwei && suggestion.sampledBlocks == 3)
        #expect(suggestion.baseFee == history.nextBaseFee && suggestion.maxFeePerGas == suggestion.baseFee * 2 + 5 * gwei)
        // One transaction per block: every percentile of a block is its tip, so the median across blocks stays 5; two blocks: 7 and 5 → 5.
        #expect(try await client.suggestFees(FeeSuggestionPolicy(blocks: 3, percentile: 0))?.maxPriorityFeePerGas == 5 * gwei)
        #expect(try await client.suggestFees(FeeSuggestionPolicy(blocks: 1, percentile: 90))?.maxPriorityFeePerGas == 5 * gwei)
        // The sender uses it when no fee is given.
        let suggesting = try await sender(keys[2], SendOptions(expectedChainID: chainID, feeMode: .eip1559, feeSuggestion: FeeSuggestionPolicy(blocks: 3)))
        let expected = try #require(try await client.suggestFees(FeeSuggestionPolicy(blocks: 3)))
        let mined = try await suggesting.sendAndWait(TransactionRequest(to: accounts[1], value: 1))
        let sent = try #require(try await client.transaction(mined.receipt.transactionHash))
        #expect(sent.maxPriorityFeePerGas == expected.maxPriorityFeePerGas && sent.maxFeePerGas == expected.maxFeePerGas, "\(sent)")

        // Multicall3 on the node, the same scenario as in process.
        var backends: [RPCContractBackend] = []
        for key in keys { backends.append(RPCContractBackend(client: client, sender: try await sender(key, SendOptions(expectedChainID: chainID, receiptTimeout: 60)))) }
        try await MulticallScenario.run(
            backend: backends[0], accounts: accounts, tokenBytecode: try #require(compiled.artifacts["ERC20Token"]?.bytecode),
            multicallArtifact: multicall3, ethBalance: { try await client.balance(of: $0) })

        // Subscriptions over WebSocket, reconnecting slowly enough that blocks are mined while they are away.
        let ws = node.url.replacingOccurrences(of: "http://", with: "ws://")
        let subscriptions = RPCSubscriptions.webSocket(url: ws, timeout: 10, reconnect: ReconnectPolicy(maxAttempts: 30, initialDelay: 1.5, maxDelay: 1.5))
        let (token, _) = try await ERC20Token.deploy(
            bytecode: try #require(compiled.artifacts["ERC20Token"]?.bytecode), name: "Snek", symbol: "S", decimals: 18,
            name_eip712: "Snek", version_eip712: "1", backend: backends[0])
        try await token.mint(owner: accounts[1], amount: 1_000)
        let start = try await client.blockNumber() + 1
        let streamed = token.with(backend: backends[1].streaming(over: subscriptions))
        let (events, following) = Streams.collect(streamed.contract.stream(try ERC20Token.Transfer.filter(receiver: accounts[2]), options: .init(fromBlock: start)))
        let (heads, headsTask) = Streams.collect(subscriptions.newHeads())
        let (pending, pendingTask) = Streams.collect(subscriptions.pendingTransactions())
        defer { [following, headsTask, pendingTask].forEach { $0.cancel() } }

        // Until the head and pending-transaction subscriptions are live, each transfer may come before them.
        var receipts: [ContractReceipt] = []
        var amount: UInt256 = 1
        while receipts.count < 30 {
            let headsLive = await !heads.items.isEmpty, pendingLive = await !pending.items.isEmpty
            if headsLive && pendingLive { break }
            receipts.append(try await streamed.transfer(to: accounts[2], amount: amount))
            amount += 1
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(await events.wait(for: receipts.count))
        let sentHashes = Set(receipts.map(\.transactionHash))
        #expect(await pending.items.allSatisfy { sentHashes.contains($0) }, "pending hashes that are no sent transaction")

        try node.restart()
        // Mined while the streams reconnect (they wait 1.5 s between attempts): filled with eth_getLogs and blocks by number.
        for amount in [UInt256(101), 102] { receipts.append(try await streamed.transfer(to: accounts[2], amount: amount)) }
        #expect(await events.wait(for: receipts.count, seconds: 60))
        // And after: notifications again.
        for amount in [UInt256(103), 104] { receipts.append(try await streamed.transfer(to: accounts[2], amount: amount)) }
        #expect(await events.wait(for: receipts.count, seconds: 60))
        try await Task.sleep(for: .milliseconds(300))
        let streamedHashes = await events.items.map(\.transactionHash)
        #expect(streamedHashes == receipts.map { Optional($0.transactionHash) })
        let lastValues = await events.items.map(\.event.value).suffix(4)
        #expect(Array(lastValues) == [101, 102, 103, 104])
        let streamError = await events.error
        #expect(streamError == nil, "\(String(describing: streamError))")

        // New heads: consecutive numbers across the restart, each the node's block by that number.
        let last = try #require(receipts.last).blockNumber
        #expect(await heads.wait(for: 1))
        let first = try #require(await heads.items.first).number
        #expect(await heads.wait(for: Int(last >= first ? last - first + 1 : 1), seconds: 30))
        let seen = await heads.items
        #expect(seen.map(\.number) == Array(first...(first + UInt64(seen.count) - 1)), "\(seen.map(\.number))")
        for head in seen.suffix(6) { #expect(try await client.block(.number(head.number))?.hash == head.hash) }
        #expect(await heads.error == nil)
        #expect(await pending.error == nil)
        #expect(await pending.items.count >= 1)
    }
}
