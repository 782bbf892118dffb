import Chain
import DevNode
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import EthereumWire
import Testing

/// The eth methods of issue 31 through the JSON-RPC handler, against geth's answers (internal/ethapi): headers, raw
/// transactions, by sender and nonce, fill and sign (`{raw, tx}`), the EIP-7966 synchronous sends, `net_peerCount`,
/// the pending block, the topic rule of log filters, and receipts with exactly their type's members.
@Suite struct EthMethodTests {
    static let a0 = HandlerHarness.account0
    static let a1 = HandlerHarness.account1
    static let unknownHash = "0x" + String(repeating: "de", count: 32)

    // MARK: Decoding

    @Test func everyMethodDecodes() throws {
        func decode(_ method: String, _ params: String) throws -> RPCRequest {
            try RPCRequest.decode(method: method, params: try JSONValue(parsing: Array(params.utf8)))
        }
        let hash = try Bytes32(hex: String(repeating: "de", count: 32))
        let a0 = try Address(Self.a0)
        #expect(try decode("eth_getHeaderByNumber", "[\"pending\"]") == .eth(.header(.pending)))
        #expect(try decode("eth_getHeaderByHash", "[\"\(Self.unknownHash)\"]") == .eth(.header(.hash(hash))))
        #expect(try decode("eth_getRawTransactionByHash", "[\"\(Self.unknownHash)\"]") == .rawTransaction(hash))
        #expect(try decode("eth_getRawTransactionByBlockNumberAndIndex", "[\"0x2\",\"0x1\"]") == .eth(.rawTransactionByBlockAndIndex(.number(2), 1)))
        #expect(try decode("eth_getRawTransactionByBlockHashAndIndex", "[\"\(Self.unknownHash)\",\"0x0\"]") == .eth(.rawTransactionByBlockAndIndex(.hash(hash), 0)))
        #expect(try decode("eth_getTransactionBySenderAndNonce", "[\"\(Self.a0)\",\"0x3\"]") == .eth(.transactionBySenderAndNonce(a0, 3)))
        #expect(try decode("eth_fillTransaction", "[{\"from\":\"\(Self.a0)\"}]") == .eth(.fillTransaction(CallRequest(from: a0))))
        #expect(try decode("eth_sendTransactionSync", "[{\"from\":\"\(Self.a0)\"}]") == .eth(.sendTransactionSync(CallRequest(from: a0), timeoutMilliseconds: nil)))
        #expect(try decode("eth_sendRawTransactionSync", "[\"0x01\",500]") == .eth(.sendRawTransactionSync([1], timeoutMilliseconds: 500)))
        #expect(try decode("eth_sendRawTransactionSync", "[\"0x01\",\"0x1f4\"]") == .eth(.sendRawTransactionSync([1], timeoutMilliseconds: 500)))
        #expect(try decode("eth_sendRawTransactionSync", "[\"0x01\",null]") == .eth(.sendRawTransactionSync([1], timeoutMilliseconds: nil)))
        #expect(try decode("net_peerCount", "[]") == .eth(.peerCount))
        for (method, params) in [
            ("eth_getHeaderByHash", "[\"0x12\"]"), ("eth_getRawTransactionByBlockNumberAndIndex", "[\"0x1\"]"),
            ("eth_getTransactionBySenderAndNonce", "[\"\(Self.a0)\",-1]"), ("eth_fillTransaction", "[]"),
            ("eth_sendRawTransactionSync", "[\"0x01\",\"soon\"]"), ("net_peerCount", "[1]"),
        ] {
            #expect(throws: JSONRPCErrorObject.self, "\(method) \(params)") { try decode(method, params) }
        }
    }

    // MARK: Headers and raw transactions

    @Test func headersAreBlocksWithoutBodies() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.send(to: Self.a1, value: "0x1")
        let block = try await h.result("eth_getBlockByNumber", "[\"latest\", false]")
        let header = try await h.result("eth_getHeaderByNumber", "[\"latest\"]")
        guard case .object(let blockMembers) = block, case .object(let headerMembers) = header else {
            Issue.record("expected objects: \(block) \(header)")
            return
        }
        let body: Set<String> = ["transactions", "uncles", "withdrawals", "size"]
        #expect(headerMembers.map(\.key) == blockMembers.map(\.key).filter { !body.contains($0) })
        #expect(try await h.result("eth_getHeaderByHash", "[\"\(try #require(block["hash"]?.stringValue))\"]") == header)
        #expect(try await h.result("eth_getHeaderByHash", "[\"\(Self.unknownHash)\"]") == .null)
        #expect(try await h.result("eth_getHeaderByNumber", "[\"0x99\"]") == .null)
    }

    @Test func rawTransactionsByHashAndPosition() async throws {
        let h = try await HandlerHarness.make()
        let hash = try await h.send(to: Self.a1, value: "0x1")
        let raw = try #require(try await h.result("eth_getRawTransactionByHash", "[\"\(hash)\"]").stringValue)
        #expect(Keccak256.hash(try Hex.decode(raw)).hexString == hash)
        #expect(try await h.result("eth_getRawTransactionByBlockNumberAndIndex", "[\"latest\",\"0x0\"]").stringValue == raw)
        let blockHash = try #require(try await h.result("eth_getBlockByNumber", "[\"latest\", false]")["hash"]?.stringValue)
        #expect(try await h.result("eth_getRawTransactionByBlockHashAndIndex", "[\"\(blockHash)\",\"0x0\"]").stringValue == raw)
        // geth: null for an unknown hash; empty bytes for an unknown block or an index past its transactions.
        #expect(try await h.result("eth_getRawTransactionByHash", "[\"\(Self.unknownHash)\"]") == .null)
        #expect(try await h.result("eth_getRawTransactionByBlockNumberAndIndex", "[\"latest\",\"0x1\"]") == .string("0x"))
        #expect(try await h.result("eth_getRawTransactionByBlockHashAndIndex", "[\"\(Self.unknownHash)\",\"0x0\"]") == .string("0x"))
        #expect(try await h.result("net_peerCount") == .string("0x0"))
    }

    // MARK: By sender and nonce

    @Test func transactionBySenderAndNonceFindsMinedAndPooledOnes() async throws {
        let h = try await HandlerHarness.make()
        var hashes: [String] = []
        for _ in 0..<5 { hashes.append(try await h.send(to: Self.a1, value: "0x1")) }
        _ = try await h.result("evm_mine")  // an empty block between
        hashes.append(try await h.send(to: Self.a1, value: "0x1"))
        _ = try await h.result("evm_setAutomine", "[false]")
        let pooled = try await h.send(to: Self.a1, value: "0x1")
        for (nonce, hash) in hashes.enumerated() {
            let tx = try await h.result("eth_getTransactionBySenderAndNonce", "[\"\(Self.a0)\",\"0x\(String(nonce, radix: 16))\"]")
            let byHash = try await h.result("eth_getTransactionByHash", "[\"\(hash)\"]")
            #expect(tx["hash"]?.stringValue == hash && tx == byHash)
        }
        let pending = try await h.result("eth_getTransactionBySenderAndNonce", "[\"\(Self.a0)\",6]")
        #expect(pending["hash"]?.stringValue == pooled && pending["blockHash"] == .null)
        #expect(try await h.result("eth_getTransactionBySenderAndNonce", "[\"\(Self.a0)\",7]") == .null)
        #expect(try await h.result("eth_getTransactionBySenderAndNonce", "[\"\(Self.a1)\",0]") == .null)
    }

    // MARK: Fill and sign

    @Test func fillTransactionGivesTheUnsignedTransaction() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.send(to: Self.a1, value: "0x1")
        let filled = try await h.result("eth_fillTransaction", "[{\"from\":\"\(Self.a0)\",\"to\":\"\(Self.a1)\",\"value\":\"0x7\"}]")
        let raw = try Hex.decode(try #require(filled["raw"]?.stringValue))
        let tx = try #require(filled["tx"])
        #expect(tx["type"] == .string("0x2") && tx["nonce"] == .string("0x1") && tx["gas"] == .string("0x5208"))
        #expect(tx["value"] == .string("0x7") && tx["to"]?.stringValue == Self.a1 && tx["gasPrice"] == .null)
        #expect(tx["v"] == .string("0x0") && tx["r"] == .string("0x0") && tx["s"] == .string("0x0"))
        #expect(tx["hash"]?.stringValue == Keccak256.hash(raw).hexString)
        // Nothing was sent.
        #expect(try await h.result("eth_getTransactionCount", "[\"\(Self.a0)\",\"pending\"]") == .string("0x1"))
    }

    @Test func signTransactionAnswersRawAndTx() async throws {
        let h = try await HandlerHarness.make()
        for fees in ["\"gasPrice\":\"0xb2d05e00\"", "\"maxFeePerGas\":\"0x77359400\",\"maxPriorityFeePerGas\":\"0x3b9aca00\""] {
            let signed = try await h.result(
                "eth_signTransaction", "[{\"from\":\"\(Self.a0)\",\"to\":\"\(Self.a1)\",\"value\":\"0x1\",\"gas\":\"0x5208\",\"nonce\":\"0x0\",\(fees)}]")
            let raw = try Hex.decode(try #require(signed["raw"]?.stringValue))
            let decoded = try SignedTransaction.decode(raw)
            #expect(try decoded.sender() == (try Address(Self.a0)))
            let tx = try #require(signed["tx"])
            #expect(tx["hash"]?.stringValue == decoded.hash.hexString)
            #expect(tx["from"] == nil)  // geth's transaction JSON, not the RPC transaction
            if decoded.transaction.type == .legacy {
                #expect(tx["gasPrice"] == .string("0xb2d05e00") && tx["maxFeePerGas"] == .null && tx["chainId"] == .string("0x4"))
                #expect(tx["yParity"] == nil)
            } else {
                #expect(tx["gasPrice"] == .null && tx["maxFeePerGas"] == .string("0x77359400") && tx["yParity"] != nil)
            }
        }
        #expect(try await h.result("eth_blockNumber") == .string("0x0"))
    }

    // MARK: Synchronous sends (EIP-7966)

    @Test func syncSendsAnswerTheReceipt() async throws {
        let h = try await HandlerHarness.make()
        let receipt = try await h.result("eth_sendTransactionSync", "[{\"from\":\"\(Self.a0)\",\"to\":\"\(Self.a1)\",\"value\":\"0x1\"}]")
        let hash = try #require(receipt["transactionHash"]?.stringValue)
        #expect(receipt == (try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")))
        let signed = F.dynamicFee(nonce: 1)
        let raw = try await h.result("eth_sendRawTransactionSync", "[\"\(Hex.encode(signed.encoded))\"]")
        #expect(raw["transactionHash"]?.stringValue == signed.hash.hexString && raw["status"] == .string("0x1"))
    }

    @Test func syncSendTimesOutWithCode4AndWaitsForTheBlock() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.result("evm_setAutomine", "[false]")
        let signed = F.dynamicFee(nonce: 0)
        let answer = try await h.answer("eth_sendRawTransactionSync", "[\"\(Hex.encode(signed.encoded))\",50]")
        #expect(answer["error"]?["code"] == .number("4"))
        #expect(answer["error"]?["data"]?.stringValue == signed.hash.hexString)
        #expect(answer["error"]?["message"]?.stringValue == "The transaction was added to the transaction pool but wasn't processed in 0.05s")
        // The transaction stayed pooled; a wait that a block ends answers its receipt.
        let second = F.dynamicFee(nonce: 1)
        async let receipt = h.result("eth_sendRawTransactionSync", "[\"\(Hex.encode(second.encoded))\",\"0x2710\"]")
        // Mine once the send has pooled the transaction (however long a loaded machine takes to start it).
        var polls = 0
        while try await h.result("eth_getTransactionByHash", "[\"\(second.hash.hexString)\"]") == .null, polls < 500 {
            polls += 1
            try await Task.sleep(for: .milliseconds(10))
        }
        _ = try await h.result("evm_mine")
        #expect(try await receipt["transactionHash"]?.stringValue == second.hash.hexString)
    }

    // MARK: The pending block

    @Test func pendingBlockAsGethAnswersIt() async throws {
        let h = try await HandlerHarness.make()
        _ = try await h.send(to: Self.a1, value: "0x1")
        _ = try await h.result("evm_setAutomine", "[false]")
        let first = try await h.send(to: Self.a1, value: "0x2")
        let second = try await h.send(to: Self.a1, value: "0x3")
        let block = try await h.result("eth_getBlockByNumber", "[\"pending\", true]")
        #expect(block["number"] == .string("0x2"))
        #expect(block["hash"] == .null && block["nonce"] == .null && block["miner"] == .null)
        #expect(block["transactions"]?.arrayValue?.compactMap { $0["hash"]?.stringValue } == [first, second])
        let header = try await h.result("eth_getHeaderByNumber", "[\"pending\"]")
        #expect(header["hash"] == .null && header["number"] == .string("0x2") && header["stateRoot"] == block["stateRoot"])
        #expect(try await h.result("eth_getBlockTransactionCountByNumber", "[\"pending\"]") == .string("0x2"))
        #expect(try await h.result("eth_getTransactionByBlockNumberAndIndex", "[\"pending\",\"0x1\"]")["hash"]?.stringValue == second)
        #expect(try await h.result("eth_getBlockReceipts", "[\"pending\"]").arrayValue?.count == 2)
        func balance(_ tag: String) async throws -> UInt256 {
            try UInt256(hex: try #require(try await h.result("eth_getBalance", "[\"\(Self.a1)\",\"\(tag)\"]").stringValue))
        }
        #expect(try await balance("pending") == (try await balance("latest")) + UInt256(5))
        // The mined block is the pending one.
        _ = try await h.result("evm_mine")
        let mined = try await h.result("eth_getBlockByNumber", "[\"latest\", true]")
        #expect(mined["stateRoot"] == block["stateRoot"] && mined["transactionsRoot"] == block["transactionsRoot"])
    }

    // MARK: Log filters and receipts

    @Test func filtersNeedAsManyTopicsAsPositions() async throws {
        let h = try await HandlerHarness.make()
        // LOG2 with topics 0xaa and 0xbb: PUSH1 0xbb PUSH1 0xaa PUSH1 0 PUSH1 0 LOG2 STOP.
        let emitter = "0x00000000000000000000000000000000000000e1"
        _ = try await h.result("anvil_setCode", "[\"\(emitter)\",\"0x60bb60aa60006000a200\"]")
        let filterTwo = try #require(try await h.result("eth_newFilter", "[{\"topics\":[null,null]}]").stringValue)
        let filterThree = try #require(try await h.result("eth_newFilter", "[{\"topics\":[null,null,null]}]").stringValue)
        _ = try await h.send(to: emitter, gas: "0x186a0")
        let two = try await h.result("eth_getLogs", "[{\"topics\":[null,null]}]")
        #expect(two.arrayValue?.count == 1)
        #expect(try await h.result("eth_getLogs", "[{\"topics\":[null,null,null]}]") == .array([]))
        #expect(try await h.result("eth_getLogs", "[{\"topics\":[\"0x\(String(repeating: "00", count: 31))aa\",null,null]}]") == .array([]))
        #expect(try await h.result("eth_getFilterChanges", "[\"\(filterTwo)\"]") == two)
        #expect(try await h.result("eth_getFilterChanges", "[\"\(filterThree)\"]") == .array([]))
        #expect(try await h.result("eth_getFilterLogs", "[\"\(filterThree)\"]") == .array([]))
    }

    @Test func receiptsCarryExactlyTheirTypesMembers() async throws {
        let h = try await HandlerHarness.make()
        let common: Set<String> = [
            "blockHash", "blockNumber", "contractAddress", "cumulativeGasUsed", "effectiveGasPrice", "from", "gasUsed",
            "logs", "logsBloom", "status", "to", "transactionHash", "transactionIndex", "type",
        ]
        let legacy = try await h.result("eth_sendTransactionSync", "[{\"from\":\"\(Self.a0)\",\"to\":\"\(Self.a1)\",\"gasPrice\":\"0x77359400\"}]")
        let dynamic = try await h.result("eth_sendTransactionSync", "[{\"from\":\"\(Self.a0)\",\"to\":\"\(Self.a1)\"}]")
        let delegate = try Address("0x00000000000000000000000000000000000000e1")
        let auth = Authorization(chainId: UInt256(4), address: delegate, nonce: 0).sign(with: F.key1)
        let setCode = Transaction.setCode(
            SetCodeTransaction(
                chainId: 4, nonce: 2, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: 100_000, to: try Address(Self.a1),
                value: .zero, data: [], accessList: [], authorizationList: [auth])
        ).sign(with: F.key0)
        let typeFour = try await h.result("eth_sendRawTransactionSync", "[\"\(Hex.encode(setCode.encoded))\"]")
        for receipt in [legacy, dynamic, typeFour] {
            #expect(Set(receipt.objectValue?.map(\.key) ?? []) == common, "\(receipt)")
        }
        #expect(typeFour["type"] == .string("0x4") && typeFour["status"] == .string("0x1"))
    }

    /// Signed transactions from dev account 0 for the raw sends.
    enum F {
        static var key0: PrivateKey { DevAccounts.standard[0].privateKey! }
        static var key1: PrivateKey { DevAccounts.standard[1].privateKey! }
        static func dynamicFee(nonce: UInt64) -> SignedTransaction {
            Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainId: 4, nonce: nonce, maxPriorityFeePerGas: UInt256(1_000_000_000 as UInt64),
                    maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: 21_000,
                    to: try? Address(EthMethodTests.a1), value: .one, data: [])
            ).sign(with: key0)
        }
    }
}
