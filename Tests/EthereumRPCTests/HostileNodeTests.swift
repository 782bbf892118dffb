import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// The client and sender against a node that answers hostile values (issue 14): each must end in a clear error
/// (or a correct result) — never an arithmetic trap, a wrapped number or a wait without end.
@Suite struct HostileNodeTests {
    static let key = try! PrivateKey(hex: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
    static let to = try! Address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
    static let transfer = TransactionRequest(to: to, value: UInt256(1))

    static func sender(_ server: ScriptedHTTPServer, _ options: SendOptions = SendOptions()) async throws -> TransactionSender {
        try await TransactionSender.connect(
            client: try RPCClient(url: server.url, timeout: 5, retryPolicy: .none), signer: PrivateKeySigner(key: key), options: options)
    }

    /// The decoding failure `error` carries, or nil (recording an issue) when it is something else.
    static func decodingFailure(_ error: SendError, sourceLocation: SourceLocation = #_sourceLocation) -> (method: String, what: String)? {
        guard case .rpc(.decoding(let method, let what)) = error else {
            Issue.record("expected a decoding error, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
        return (method, what)
    }

    static func sendError(_ body: () async throws(SendError) -> Void, sourceLocation: SourceLocation = #_sourceLocation) async -> SendError? {
        do {
            try await body()
            Issue.record("expected a SendError", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func nonceAtTheLimitIsAnErrorNotATrap() async throws {
        let server = try await CannedNode.start(["eth_getTransactionCount": #""0xffffffffffffffff""#])
        defer { Task { await server.stop() } }
        let sender = try await Self.sender(server)
        let error = await Self.sendError { () async throws(SendError) in _ = try await sender.send(Self.transfer) }
        let failure = error.flatMap { Self.decodingFailure($0) }
        #expect(failure?.method == "eth_getTransactionCount")
        #expect(failure?.what.contains("next nonce is 18446744073709551615") == true)
        #expect(error?.description.contains("EIP-2681") == true)
        // Nothing was sent.
        #expect(!server.requests.contains { $0.contains("eth_sendRawTransaction") })
    }

    @Test func lastNonceIsUsedOnceThenRefused() async throws {
        let server = try await CannedNode.start(["eth_getTransactionCount": #""0xfffffffffffffffe""#])
        defer { Task { await server.stop() } }
        let sender = try await Self.sender(server)
        let mined = try await sender.sendAndWait(Self.transfer)
        #expect(mined.sent.nonce == UInt64.max - 1)
        let error = await Self.sendError { () async throws(SendError) in _ = try await sender.send(Self.transfer) }
        #expect(error.flatMap { Self.decodingFailure($0) }?.method == "eth_getTransactionCount")
    }

    @Test func confirmationsCountedWithoutOverflowAtTheLastBlocks() async throws {
        // Mined in block 2^64 − 2, the head is 2^64 − 1: two blocks hold it.
        let nearEnd = try await CannedNode.start([
            "eth_blockNumber": #""0xffffffffffffffff""#,
            "eth_getTransactionReceipt": CannedNode.receipt(blockNumber: "0xfffffffffffffffe"),
        ])
        defer { Task { await nearEnd.stop() } }
        let two = try await Self.sender(nearEnd, SendOptions(confirmations: 2))
        #expect(try await two.sendAndWait(Self.transfer).blockNumber == UInt64.max - 1)
        let three = try await Self.sender(nearEnd, SendOptions(receiptTimeout: 0.3, confirmations: 3))
        let error = await Self.sendError { () async throws(SendError) in _ = try await three.sendAndWait(Self.transfer) }
        guard case .receiptTimeout = error else { Issue.record("expected a receipt timeout, got \(String(describing: error))"); return }

        // A receipt in block 2^64 − 1 while the head says 0: never enough confirmations, and no trap.
        let behind = try await CannedNode.start([
            "eth_blockNumber": #""0x0""#, "eth_getTransactionReceipt": CannedNode.receipt(blockNumber: "0xffffffffffffffff"),
        ])
        defer { Task { await behind.stop() } }
        let waiting = try await Self.sender(behind, SendOptions(receiptTimeout: 0.3, confirmations: 10_000))
        let timeout = await Self.sendError { () async throws(SendError) in _ = try await waiting.sendAndWait(Self.transfer) }
        guard case .receiptTimeout = timeout else { Issue.record("expected a receipt timeout, got \(String(describing: timeout))"); return }
    }

    @Test func absurdReceiptsAreRefused() async throws {
        let max256 = "0x" + String(repeating: "f", count: 64)
        let cases: [(receipt: String, expected: String)] = [
            // The gas limit is the estimate (21000) × 1.2 = 25200.
            (CannedNode.receipt(gasUsed: "0x6271", cumulativeGasUsed: "0x6271"), "used 25201 gas, more than its gas limit 25200"),
            (CannedNode.receipt(gasUsed: "0xffffffffffffffff", cumulativeGasUsed: "0xffffffffffffffff"), "more than its gas limit"),
            (CannedNode.receipt(cumulativeGasUsed: "0x1"), "cumulativeGasUsed 1 is below its gasUsed 21000"),
            (CannedNode.receipt(status: "0x2"), "receipt.status: expected 0x0 or 0x1, got 2"),
            (CannedNode.receipt(status: "0xffffffffffffffffff"), "does not fit in 64 bits"),
            (CannedNode.receipt(blockNumber: "0x10000000000000000"), "receipt.blockNumber: quantity 0x10000000000000000 does not fit in 64 bits"),
            (CannedNode.receipt(effectiveGasPrice: max256), "is a fee past 2^256 wei"),
            (CannedNode.receipt(hash: "0x" + String(repeating: "1", count: 64)), "the receipt is for transaction 0x1111"),
            (
                CannedNode.receipt(logs: #"[{"address":"0x0000000000000000000000000000000000000002","topics":[],"data":"0x","logIndex":"0x1ffffffffffffffff"}]"#),
                "logIndex: quantity 0x1ffffffffffffffff does not fit in 64 bits"
            ),
        ]
        for (receipt, expected) in cases {
            let server = try await CannedNode.start(["eth_getTransactionReceipt": receipt])
            defer { Task { await server.stop() } }
            let sender = try await Self.sender(server)
            let error = await Self.sendError { () async throws(SendError) in _ = try await sender.sendAndWait(Self.transfer) }
            let failure = error.flatMap { Self.decodingFailure($0) }
            #expect(failure?.method == "eth_getTransactionReceipt", "\(expected)")
            #expect(failure?.what.contains(expected) == true, "\(failure?.what ?? "") lacks \(expected)")
        }
    }

    @Test func feesWhoseSumsOrProductsOverflow() async throws {
        // 2 × base fee + tip past 2^256 (EIP-1559 default fee cap).
        let half = "0x8" + String(repeating: "0", count: 63)
        let overflowing = try await CannedNode.start(["eth_getBlockByNumber": CannedNode.block(baseFee: half)])
        defer { Task { await overflowing.stop() } }
        let dynamic = try await Self.sender(overflowing, SendOptions(feeMode: .eip1559))
        let error = await Self.sendError { () async throws(SendError) in _ = try await dynamic.send(Self.transfer) }
        #expect(error.flatMap { Self.decodingFailure($0) }?.what.contains("fee cap past 2^256 wei") == true)

        // A legacy gas price of 2^256 − 1 and a receipt without effectiveGasPrice: the fee saturates, no trap.
        let max256 = "0x" + String(repeating: "f", count: 64)
        let priceless = try await CannedNode.start([
            "eth_gasPrice": #""\#(max256)""#, "eth_getTransactionReceipt": CannedNode.receipt(effectiveGasPrice: nil),
        ])
        defer { Task { await priceless.stop() } }
        let legacy = try await Self.sender(priceless)
        let mined = try await legacy.sendAndWait(Self.transfer)
        #expect(mined.sent.signed.transaction.gasPrice == .max)
        #expect(mined.feePaid == .max)

        // An estimate past the EVM's 2^63 − 1 gas.
        let estimating = try await CannedNode.start(["eth_estimateGas": #""0xffffffffffffffff""#])
        defer { Task { await estimating.stop() } }
        let estimated = try await Self.sender(estimating)
        let estimateError = await Self.sendError { () async throws(SendError) in _ = try await estimated.send(Self.transfer) }
        let failure = estimateError.flatMap { Self.decodingFailure($0) }
        #expect(failure?.method == "eth_estimateGas")
        #expect(failure?.what.contains("more gas than any transaction can have") == true)
    }

    @Test func hugeChainIDs() async throws {
        let maxed = try await CannedNode.start(["eth_chainId": #""0xffffffffffffffff""#])
        defer { Task { await maxed.stop() } }
        let client = try RPCClient(url: maxed.url, timeout: 5, retryPolicy: .none)
        let error = await Self.sendError { () async throws(SendError) in
            _ = try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: Self.key))
        }
        #expect(error == .chainIDMismatch(expected: 4, node: .max, endpoint: maxed.url))
        // The same chain id expected: signing with v = chainId·2 + 35 (256-bit) works.
        let sender = try await Self.sender(maxed, SendOptions(expectedChainID: .max))
        let mined = try await sender.sendAndWait(Self.transfer)
        #expect(mined.sent.signed.transaction.chainId == UInt64.max)
        #expect(try mined.sent.signed.sender() == Self.key.address)

        let past = try await CannedNode.start(["eth_chainId": #""0x10000000000000000""#])
        defer { Task { await past.stop() } }
        let pastClient = try RPCClient(url: past.url, timeout: 5)
        do throws(RPCError) {
            _ = try await pastClient.chainID()
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding("eth_chainId", let what) = error else { Issue.record("got \(error)"); return }
            #expect(what.contains("does not fit in 64 bits"))
        }
    }

    @Test func deeplyNestedAnswersAreADecodingError() async throws {
        let depth = 100_000
        let nested = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        for body in [Wire.result(id: 1, nested), nested, #"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x","data":\#(nested)}}"#] {
            let server = try await ScriptedHTTPServer.start { _, _ in .json(body) }
            defer { Task { await server.stop() } }
            // The answer is refused by its shape, not by time: the limit only guards against a hang. The server answers on
            // the test process's pool, which the main phase shares with ~900 tests; there one request has taken over 40 s.
            let client = try RPCClient(url: server.url, timeout: 600)
            do throws(RPCError) {
                _ = try await client.chainID()
                Issue.record("expected an error")
            } catch {
                guard case .decoding("eth_chainId", _) = error else { Issue.record("got \(error)"); return }
            }
        }
    }

    @Test func timeLimitsOutOfRangeAreRefused() throws {
        for timeout in [1e10, 1e16, .infinity, .nan, 0, -1, 86_400.5] {
            #expect(throws: HTTPTransport.InvalidURL.self, "\(timeout)") { _ = try RPCClient(url: "http://127.0.0.1:1", timeout: timeout) }
        }
        #expect(try RPCClient(url: "http://127.0.0.1:1", timeout: HTTPTransport.maxTimeout).endpoint == "http://127.0.0.1:1")
        // Send options keep the receipt wait and the confirmations in range.
        let options = SendOptions(receiptTimeout: 1e16, confirmations: .max)
        #expect(options.receiptTimeout == SendOptions.maxReceiptTimeout)
        #expect(options.confirmations == SendOptions.maxConfirmations)
        #expect(SendOptions(receiptTimeout: .nan).receiptTimeout == 0)
    }

    @Test func receiptTimeoutSetPastTheRangeDoesNotTrap() async throws {
        let server = try await CannedNode.start([:])
        defer { Task { await server.stop() } }
        var options = SendOptions()
        options.receiptTimeout = 1e16
        options.pollInterval = (initial: .nan, multiplier: .infinity, max: 1e300)
        let sender = try await Self.sender(server, options)
        #expect(try await sender.sendAndWait(Self.transfer).succeeded)
    }
}
