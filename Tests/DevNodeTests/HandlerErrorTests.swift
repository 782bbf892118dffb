import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// JSON-RPC envelopes, error codes, limits and hostile bodies at the handler.
@Suite struct HandlerErrorTests {
    func code(_ answer: JSONValue) -> Int? { answer["error"]?["code"].flatMap { Int($0.description) } }

    @Test func envelopeErrors() async throws {
        let h = try await HandlerHarness.make()
        #expect(code(try await h.raw("{not json")) == -32700)
        #expect(code(try await h.raw("")) == -32700)
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chainId\"} trailing")) == -32700)
        #expect(code(try await h.raw([0xff, 0xfe, 0x22])) == -32700)
        #expect(code(try await h.raw("\"just a string\"")) == -32600)
        #expect(code(try await h.raw("42")) == -32600)
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1}")) == -32600)
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":5}")) == -32600)
        #expect(code(try await h.raw("{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"eth_chainId\"}")) == -32600)
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"eth_chainId\"}")) == -32600)
        #expect(code(try await h.raw("[]")) == -32600)
        #expect(try await h.errorCode("eth_noSuchMethod") == -32601)
        #expect(try await h.errorCode("evm_explode", "[1,2]") == -32601)
        // String ids are echoed.
        let answer = try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":\"abc\",\"method\":\"eth_chainId\"}")
        #expect(answer["id"] == .string("abc"))
        #expect(answer["result"] == .string("0x4"))
    }

    @Test func wrongParameterTypes() async throws {
        let h = try await HandlerHarness.make()
        let a0 = HandlerHarness.account0
        let cases: [(String, String)] = [
            ("eth_getBalance", "[42]"), ("eth_getBalance", "[\"0x1234\"]"), ("eth_getBalance", "[\"\(a0)\",true]"),
            ("eth_getBalance", "[\"\(a0)\",\"0xzz\"]"), ("eth_getBalance", "[\"\(a0)\",\"latest\",3]"), ("eth_getBalance", "[]"),
            ("eth_getBalance", "{\"address\":1}"), ("eth_getCode", "[null]"), ("eth_getStorageAt", "[\"\(a0)\",\"0x" + String(repeating: "1", count: 70) + "\"]"),
            ("eth_call", "[\"not an object\"]"), ("eth_call", "[{\"to\":7}]"), ("eth_call", "[{\"gas\":\"0x1ffffffffffffffffff\"}]"),
            ("eth_call", "[{\"value\":\"12\"}]"), ("eth_call", "[{\"data\":\"0x0\"}]"), ("eth_call", "[{\"data\":\"0x00\",\"input\":\"0x01\"}]"),
            ("eth_sendRawTransaction", "[\"deadbeef\"]"), ("eth_sendRawTransaction", "[[1,2]]"),
            ("eth_getBlockByNumber", "[\"0x1\",\"yes\"]"), ("eth_getBlockByNumber", "[{\"foo\":1}]"), ("eth_getBlockByHash", "[\"0x12\",false]"),
            ("eth_getTransactionByHash", "[\"0x1234\"]"), ("eth_getTransactionReceipt", "[17]"),
            ("eth_getLogs", "[{\"topics\":[1]}]"), ("eth_getLogs", "[{\"address\":[\"0x1\"]}]"),
            ("eth_getLogs", "[{\"blockHash\":\"0x\(String(repeating: "0", count: 64))\",\"fromBlock\":\"0x0\"}]"),
            ("eth_feeHistory", "[\"0x1\",\"latest\",[\"50\"]]"), ("eth_feeHistory", "[\"0x0\",\"latest\"]"),
            ("evm_revert", "[\"x\"]"), ("evm_setAutomine", "[\"true\"]"), ("evm_increaseTime", "[-5]"), ("evm_mine", "[\"soon\"]"),
            ("anvil_setBalance", "[\"\(a0)\"]"), ("anvil_setCode", "[\"\(a0)\",\"0x6\"]"), ("anvil_setNonce", "[\"\(a0)\",1.5]"),
            ("anvil_setStorageAt", "[\"\(a0)\",\"0x0\"]"), ("eth_newFilter", "[{\"topics\":[[\"0x1\"]]}]"),
            ("eth_getFilterChanges", "[1]"), ("eth_sign", "[\"\(a0)\"]"), ("web3_sha3", "[\"hello\"]"), ("eth_chainId", "[1]"),
            ("debug_traceTransaction", "[\"0x\"]"), ("eth_getTransactionByBlockNumberAndIndex", "[\"0x0\",\"x\"]"),
        ]
        for (method, params) in cases {
            let got = try await h.errorCode(method, params)
            #expect(got == -32602, "\(method) \(params): expected -32602, got \(got.map(String.init) ?? "a result")")
        }
        // Bad params do not break later requests.
        #expect(try await h.result("eth_chainId") == .string("0x4"))
    }

    @Test func batches() async throws {
        let h = try await HandlerHarness.make()
        let answer = try await h.raw("""
            [{"jsonrpc":"2.0","id":1,"method":"eth_chainId"},{"jsonrpc":"2.0","id":2,"method":"nope"},5,
             {"jsonrpc":"2.0","id":3,"method":"eth_getBalance","params":[1]},{"jsonrpc":"2.0","id":4,"method":"eth_blockNumber","params":[]}]
            """)
        let items = try #require(answer.arrayValue)
        #expect(items.count == 5)
        #expect(items[0]["result"] == .string("0x4"))
        #expect(code(items[1]) == -32601)
        #expect(code(items[2]) == -32600)
        #expect(code(items[3]) == -32602)
        #expect(items[4]["result"] == .string("0x0"))
        #expect(items.map { $0["id"] } == [.number("1"), .number("2"), .null, .number("3"), .number("4")])

        let limited = try await HandlerHarness.make(limits: .init(maxBodyBytes: 5 << 20, maxBatchLength: 10))
        let eleven = "[" + (0..<11).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"eth_chainId\"}" }.joined(separator: ",") + "]"
        #expect(code(try await limited.raw(eleven)) == -32600)
        let ten = "[" + (0..<10).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"eth_chainId\"}" }.joined(separator: ",") + "]"
        #expect(try await limited.raw(ten).arrayValue?.count == 10)
    }

    /// JSON-RPC 2.0 §4.1: a request without an `id` member is a notification — executed, never answered,
    /// not even with an error; a batch answers only its requests.
    @Test func notificationsGetNoAnswer() async throws {
        let h = try await HandlerHarness.make()
        let mined = await h.handler.handle(Array("{\"jsonrpc\":\"2.0\",\"method\":\"evm_mine\",\"params\":[]}".utf8))
        #expect(mined.isEmpty)
        #expect(try await h.result("eth_blockNumber") == .string("0x1"))  // it ran
        #expect(await h.handler.handle(Array("{\"jsonrpc\":\"2.0\",\"method\":\"eth_nope\"}".utf8)).isEmpty)
        #expect(await h.handler.handle(Array("{\"jsonrpc\":\"2.0\",\"method\":\"eth_getBalance\",\"params\":[1]}".utf8)).isEmpty)
        let onlyNotifications = """
            [{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","method":"eth_blockNumber","params":[]}]
            """
        #expect(await h.handler.handle(Array(onlyNotifications.utf8)).isEmpty)
        let mixed = try await h.raw("""
            [{"jsonrpc":"2.0","method":"eth_chainId"},{"jsonrpc":"2.0","id":7,"method":"eth_chainId"},{"jsonrpc":"2.0","id":null,"method":"nope"}]
            """)
        let items = try #require(mixed.arrayValue)
        #expect(items.count == 2)
        #expect(items[0]["id"] == .number("7"))
        #expect(items[0]["result"] == .string("0x4"))
        #expect(items[1]["id"] == .null)  // "id": null is a request, not a notification
        #expect(code(items[1]) == -32601)
        // An envelope too broken to tell is still answered, with a null id.
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\"}")) == -32600)
        #expect(code(try await h.raw("{\"jsonrpc\":\"1.0\",\"method\":\"eth_chainId\"}")) == -32600)
    }

    @Test func hostileBodies() async throws {
        let h = try await HandlerHarness.make()
        // Deep nesting is refused by the parser, not by the stack.
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(code(try await h.raw(deep)) == -32700)
        let deepObject = String(repeating: "{\"a\":", count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        #expect(code(try await h.raw(deepObject)) == -32700)
        let nestedParams = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\"params\":" + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}"
        #expect(code(try await h.raw(nestedParams)) == -32602)
        // Over the size limit.
        let huge = [UInt8](repeating: UInt8(ascii: " "), count: 6 << 20)
        #expect(code(try await h.raw(huge)) == -32600)
        // A huge hex string within the limit: read, refused as a transaction.
        let bigData = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_sendRawTransaction\",\"params\":[\"0x" + String(repeating: "ab", count: 2 << 20) + "\"]}"
        #expect(code(try await h.raw(bigData)) == -32000)
        // Odd strings: escapes, surrogates, control characters.
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_\\ud800\"}")) == -32700)
        // "\u0049" is "I": the escaped name is eth_chainId.
        #expect(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_chain\\u0049d\"}")["result"] == .string("0x4"))
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\u{01}\"}")) == -32700)
        #expect(code(try await h.raw("{\"jsonrpc\":\"2.0\",\"id\":123456789012345678901234567890,\"method\":\"eth_chainId\"}")) == nil)
        #expect(code(try await h.raw("[" + String(repeating: "1,", count: 999) + "1]")) == nil)
        // Random bytes never trap.
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let length = Int.random(in: 0..<64, using: &rng)
            let bytes = (0..<length).map { _ in [UInt8]("{}[]\":,0123456789abcdefx-.etrunl \\".utf8).randomElement(using: &rng) ?? 0 }
            _ = await h.handler.handle(bytes)
        }
        #expect(try await h.result("eth_chainId") == .string("0x4"))
    }
}
