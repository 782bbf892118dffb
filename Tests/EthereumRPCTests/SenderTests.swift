import EthereumABI
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import NIOConcurrencyHelpers
import Testing
import TestSupport

/// Sending against tools/pyevm-node.py: chain id check before signing, fees, receipts, the concurrent
/// nonce manager, and reverts found before or after sending.
@Suite(.serialized) struct SenderTests {
    /// The first two accounts of the test mnemonic (m/44'/60'/0'/0/0 and /1), well known from dev nodes.
    static let key0 = try! PrivateKey(hex: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
    static let key1 = try! PrivateKey(hex: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d")

    /// A signer that counts its signatures.
    final class CountingSigner: TransactionSigner {
        let inner: PrivateKeySigner
        let count = NIOLockedValueBox(0)
        init(_ key: PrivateKey) { inner = PrivateKeySigner(key: key) }
        var address: Address { inner.address }
        func sign(_ transaction: Transaction) throws(SendError) -> SignedTransaction {
            count.withLockedValue { $0 += 1 }
            return try inner.sign(transaction)
        }
    }

    static func client(_ node: ProcessPyEVMNode) throws -> RPCClient { try RPCClient(url: node.url, timeout: 30) }

    @Test func wrongChainIDIsRefusedBeforeSigning() async throws {
        guard let node = try ProcessPyEVMNode.start(["--chain-id", "5"], for: "SenderTests (pyevm-node)") else { return }
        defer { node.stop() }
        let signer = CountingSigner(Self.key0)
        let client = try Self.client(node)
        do {
            _ = try await TransactionSender.connect(client: client, signer: signer, options: SendOptions(expectedChainID: 4))
            Issue.record("expected a chain id mismatch")
        } catch {
            #expect(error == .chainIDMismatch(expected: 4, node: 5, endpoint: node.url))
            #expect(error.description.contains("refusing to sign"))
        }
        #expect(signer.count.withLockedValue { $0 } == 0)
    }

    @Test func legacyAndEIP1559TransfersReportReceiptAndFee() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "SenderTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try Self.client(node)
        let to = Self.key1.address
        let legacy = try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: Self.key0))
        let first = try await legacy.sendAndWait(TransactionRequest(to: to, value: UInt256(1000)))
        #expect(first.succeeded)
        #expect(first.receipt.type == 0)
        #expect(first.gasUsed == 21_000)
        #expect(first.sent.nonce == 0)
        #expect(first.feePaid == UInt256(21_000) * (first.sent.signed.transaction.gasPrice ?? .zero))
        #expect(first.feePaid > .zero)

        let dynamic = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: Self.key0), options: SendOptions(feeMode: .eip1559))
        let second = try await dynamic.sendAndWait(TransactionRequest(to: to, value: UInt256(1)))
        #expect(second.receipt.type == 2)
        #expect(second.sent.nonce == 1)
        #expect(second.blockNumber == first.blockNumber + 1)

        let auto = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: Self.key0), options: SendOptions(gasLimit: .fixed(30_000), feeMode: .auto))
        let third = try await auto.sendAndWait(TransactionRequest(to: to, value: UInt256(1)))
        #expect(third.receipt.type == 2)  // the node's blocks have a base fee
        #expect(third.sent.signed.transaction.gasLimit == 30_000)
        #expect(try await client.balance(of: to) == (try Units.parse("10000 ether")) + UInt256(1002))
    }

    @Test func fiftyConcurrentSendsGetConsecutiveNonces() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "SenderTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try Self.client(node)
        let sender = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: Self.key0), options: SendOptions(receiptTimeout: 240))
        let count = 50
        let outcomes = try await withThrowingTaskGroup(of: MinedTransaction.self) { group in
            for i in 0..<count {
                group.addTask { try await sender.sendAndWait(TransactionRequest(to: Self.key1.address, value: UInt256(UInt64(i + 1)))) }
            }
            var all: [MinedTransaction] = []
            for try await outcome in group { all.append(outcome) }
            return all
        }
        #expect(outcomes.count == count)
        #expect(outcomes.allSatisfy { $0.succeeded })
        #expect(outcomes.map(\.sent.nonce).sorted() == Array(0..<UInt64(count)))
        // Each landed with the nonce it was signed with, in a distinct block.
        for outcome in outcomes {
            let mined = try #require(try await client.transaction(outcome.hash))
            #expect(mined.nonce == outcome.sent.nonce)
        }
        #expect(Set(outcomes.map(\.blockNumber)).count == count)
        #expect(try await client.transactionCount(of: Self.key0.address, at: .latest) == UInt64(count))
    }

    @Test func revertFoundByTheEstimateIsNotSentAndOnChainRevertIsDecoded() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "SenderTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try Self.client(node)
        let sender = try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: Self.key0))
        let deployed = try await sender.sendAndWait(TransactionRequest(to: nil, data: try Self.carChainBytecode()))
        #expect(deployed.succeeded)
        let contract = try #require(deployed.contractAddress)
        let rent = Self.calldata(selector: [0xec, 0x73, 0xaf, 0xef], strings: ["6789BBB", "alice"])  // rentCar(string,string)

        // A successful call's log is found by eth_getLogs, by address and by topic.
        let register = Self.calldata(selector: [0x99, 0x5a, 0xc4, 0xfd], strings: ["alice"])  // registerNewUser(string)
        let registered = try await sender.sendAndWait(TransactionRequest(to: contract, data: register))
        #expect(registered.receipt.logs.count == 1)
        let topic = try #require(registered.receipt.logs.first?.topics.first)
        let logs = try await client.logs(LogFilter(fromBlock: .earliest, addresses: [contract], topics: [[topic]]))
        #expect(logs.count == 1)
        #expect(logs.first?.transactionHash == registered.hash)
        #expect(logs.first?.blockNumber == registered.blockNumber)
        #expect(try await client.logs(LogFilter(fromBlock: .earliest, topics: [[.zero]])).isEmpty)

        do {
            _ = try await sender.send(TransactionRequest(to: contract, data: rent))
            Issue.record("expected the estimate to revert")
        } catch {
            let revert = try #require(error.revert)
            #expect(revert.reason == .error("car not registered"))
            #expect(revert.method == "eth_estimateGas")
        }
        #expect(try await client.transactionCount(of: Self.key0.address, at: .pending) == 2)  // nothing sent

        let careless = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: Self.key0), options: SendOptions(gasLimitWhenEstimateReverts: 200_000))
        let failed = try await careless.sendAndWait(TransactionRequest(to: contract, data: rent))
        #expect(!failed.succeeded)
        #expect(failed.gasUsed > 21_000)
        let reason = await careless.revertReason(of: failed)
        #expect(reason?.reason == .error("car not registered"))
    }

    @Test func receiptTimeoutForATransactionThatNeverLands() async throws {
        guard let node = try ProcessPyEVMNode.start(for: "SenderTests (pyevm-node)") else { return }
        defer { node.stop() }
        let client = try Self.client(node)
        // A nonce far ahead waits in the node's pool for the gap to fill, so no receipt comes.
        let nonces = NonceManager { _ throws(RPCError) in 7 }
        let sender = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: Self.key0), options: SendOptions(receiptTimeout: 0.5), nonces: nonces)
        let sent = try await sender.send(TransactionRequest(to: Self.key1.address, value: UInt256(1)))
        let start = ContinuousClock.now
        await #expect(throws: SendError.receiptTimeout(hash: sent.hash, seconds: 0.5)) { _ = try await sender.waitForReceipt(sent) }
        // The bound only has to tell the 0.5 s setting from the 120 s default, even on a loaded CI machine.
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(try await client.transaction(sent.hash)?.blockNumber == nil)  // known to the node, pending
    }

    // Helpers

    static func carChainBytecode() throws -> [UInt8] {
        let url = TestPaths.packageRoot.appendingPathComponent("contracts/CarChain.json")
        let json = try JSONValue(parsing: [UInt8](Data(contentsOf: url)))
        return try Hex.decode(try #require(json["bytecode"]?.stringValue))
    }

    /// selector ‖ ABI encoding of string arguments (head of offsets, then length-prefixed padded bytes).
    static func calldata(selector: [UInt8], strings: [String]) -> [UInt8] {
        var head: [UInt8] = []
        var tail: [UInt8] = []
        for s in strings {
            head += UInt256(UInt64(32 * strings.count + tail.count)).bigEndianBytes
            let bytes = Array(s.utf8)
            tail += UInt256(UInt64(bytes.count)).bigEndianBytes + bytes + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        }
        return selector + head + tail
    }
}

/// The nonce manager without a node: one read for concurrent first reservations, then counting; reset re-reads.
@Suite struct NonceManagerTests {
    @Test func concurrentReservationsShareOneReadAndCountUp() async throws {
        let reads = NIOLockedValueBox(0)
        let manager = NonceManager { _ throws(RPCError) in
            reads.withLockedValue { $0 += 1 }
            try? await Task.sleep(for: .milliseconds(50))
            return 10
        }
        let address = Address.zero
        let nonces = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for _ in 0..<20 { group.addTask { try await manager.reserve(address) } }
            var all: [UInt64] = []
            for try await n in group { all.append(n) }
            return all
        }
        #expect(nonces.sorted() == Array(10..<30))
        #expect(reads.withLockedValue { $0 } == 1)
        await manager.reset(address)
        #expect(try await manager.reserve(address) == 10)
        #expect(reads.withLockedValue { $0 } == 2)
    }

    @Test func failedReadIsReportedAndRetriedNextTime() async throws {
        let calls = NIOLockedValueBox(0)
        let manager = NonceManager { _ throws(RPCError) in
            let n = calls.withLockedValue { $0 += 1; return $0 }
            if n == 1 { throw RPCError.transport(.unreachable("connection refused"), method: "eth_getTransactionCount", endpoint: "x") }
            return 3
        }
        await #expect(throws: RPCError.self) { _ = try await manager.reserve(.zero) }
        #expect(try await manager.reserve(.zero) == 3)
    }
}
