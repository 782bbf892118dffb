import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// `debug_traceTransaction`'s struct-logger options, checked against geth's documentation of the struct
/// logger (debug namespace, "structLogger" / TraceConfig): stack and storage recorded by default, memory
/// (`enableMemory`) and return data (`enableReturnData`) only on request, `disableStack`, `disableStorage`,
/// `limit` (steps recorded at most), memory as 32-byte words and storage slots as 0x and 64 hex digits
/// (as geth writes them today); plus the node's own size limit.
@Suite struct TraceOptionTests {
    /// SSTORE 42 at slot 1; SLOAD slot 1; MSTORE it at 0; STATICCALL the identity precompile on those 32
    /// bytes (its return data, 42, is the frame's return data afterwards); POP; RETURN memory[0..32].
    static let code = "0x602a600155" + "600154" + "600052" + "60006000602060006004" + "5afa" + "50" + "60206000f3"
    static let contract = "0x00000000000000000000000000000000000200aa"
    /// A 32-byte word as geth's struct logger writes memory words, storage slots and the return value (0x and 64
    /// hex digits; execution-apis' rpc-compat traces show the format).
    static let word42 = "0x" + String(repeating: "0", count: 62) + "2a"
    static let slot1 = "0x" + String(repeating: "0", count: 63) + "1"

    static func traced(_ limits: NodeRPCHandler.Limits = .init()) async throws -> (HandlerHarness, String) {
        let h = try await HandlerHarness.make(limits: limits)
        _ = try await h.result("anvil_setCode", "[\"\(contract)\",\"\(code)\"]")
        _ = try await h.result("evm_mine", "[]")  // the code in a block of its own, before the traced one
        let hash = try await h.send(to: contract, gas: "0x30d40")
        return (h, hash)
    }

    func steps(_ h: HandlerHarness, _ hash: String, _ options: String? = nil) async throws -> [JSONValue] {
        let params = options.map { "[\"\(hash)\",\($0)]" } ?? "[\"\(hash)\"]"
        let trace = try await h.result("debug_traceTransaction", params)
        #expect(trace["failed"] == .bool(false))
        return trace["structLogs"]?.arrayValue ?? []
    }

    func step(_ steps: [JSONValue], op: String) -> JSONValue? { steps.first { $0["op"] == .string(op) } }

    @Test func defaultsRecordStackAndStorageOnly() async throws {
        let (h, hash) = try await Self.traced()
        let logs = try await steps(h, hash)
        #expect(logs.count == 18)
        #expect(logs.allSatisfy { $0["stack"] != nil })
        #expect(logs.allSatisfy { $0["memory"] == nil && $0["returnData"] == nil })
        // Storage appears on SSTORE and SLOAD steps only: the slots of this contract seen so far.
        let expected = JSONValue.object([(key: Self.slot1, value: .string(Self.word42))])
        #expect(step(logs, op: "SSTORE")?["storage"] == expected)
        #expect(step(logs, op: "SLOAD")?["storage"] == expected)
        #expect(logs.filter { $0["storage"] != nil }.count == 2)
        // Stack items are quantities, bottom first: SSTORE sees [42, 1].
        #expect(step(logs, op: "SSTORE")?["stack"] == .array([.string("0x2a"), .string("0x1")]))
    }

    @Test func disableStackAndStorage() async throws {
        let (h, hash) = try await Self.traced()
        let logs = try await steps(h, hash, "{\"disableStack\":true,\"disableStorage\":true}")
        #expect(logs.count == 18)
        #expect(logs.allSatisfy { $0["stack"] == nil && $0["storage"] == nil })
    }

    @Test func enableMemoryAndReturnData() async throws {
        let (h, hash) = try await Self.traced()
        let logs = try await steps(h, hash, "{\"enableMemory\":true,\"enableReturnData\":true}")
        // Before MSTORE memory is empty (and left out, as geth does); from the step after it, one 32-byte word
        // holding 42.
        let mstore = try #require(logs.firstIndex { $0["op"] == .string("MSTORE") })
        #expect(logs[mstore]["memory"] == nil)
        #expect(logs[mstore + 1]["memory"] == .array([.string(Self.word42)]))
        // Return data shows after the STATICCALL returned 42, as 0x data.
        let call = try #require(logs.firstIndex { $0["op"] == .string("STATICCALL") })
        #expect(logs[call]["returnData"] == nil)
        #expect(logs[call + 1]["returnData"] == .string(Self.word42))
    }

    @Test func limitRecordsTheFirstSteps() async throws {
        let (h, hash) = try await Self.traced()
        let logs = try await steps(h, hash, "{\"limit\":5}")
        #expect(logs.map { $0["op"]?.stringValue ?? "" } == ["PUSH1", "PUSH1", "SSTORE", "PUSH1", "SLOAD"])
        let trace = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"limit\":5}]")
        // The transaction ran to its end: the gas and return value are the whole transaction's.
        #expect(trace["returnValue"] == .string(Self.word42))
    }

    @Test func aTraceOverTheSizeLimitIsAClearError() async throws {
        let (h, hash) = try await Self.traced(NodeRPCHandler.Limits(trace: TraceLimits(maxBytes: 1_000)))
        let answer = try await h.answer("debug_traceTransaction", "[\"\(hash)\"]")
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("trace too large: the struct logs passed 1000 bytes"))
        #expect(message.contains("limit"))
        // Asking for less fits.
        let small = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"limit\":3,\"disableStack\":true}]")
        #expect(small["structLogs"]?.arrayValue?.count == 3)
    }

    @Test func unsupportedTracersAndBadOptionsAreRefused() async throws {
        let (h, hash) = try await Self.traced()
        #expect(try await h.errorCode("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"jsTracer\"}]") == -32602)
        #expect(try await h.errorCode("debug_traceTransaction", "[\"\(hash)\",{\"enableMemory\":\"yes\"}]") == -32602)
        #expect(try await h.errorCode("debug_traceTransaction", "[\"\(hash)\",{\"timeout\":\"forever\"}]") == -32602)
        #expect(try await h.errorCode("debug_traceTransaction", "[\"\(hash)\",{\"limit\":-1}]") == -32602)
        _ = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"timeout\":\"10s\"}]")
    }

    @Test func aTraceIsBoundByTheTimeLimit() async throws {
        // Cancun: a 25,000,000-gas transaction is above Osaka's EIP-7825 cap.
        let h = try await HandlerHarness.make(
            limits: NodeRPCHandler.Limits(calls: CallLimits(gasCap: 0, timeout: .seconds(30))), hardfork: .cancun)
        // A loop that runs 25,000,000 gas when mined; traced with a 100 ms timeout, it is aborted.
        _ = try await h.result("anvil_setCode", "[\"\(CallLimitTimingTests.loopAddress)\",\"\(CallLimitTimingTests.loop)\"]")
        _ = try await h.result("evm_mine", "[]")
        let hash = try await h.send(to: CallLimitTimingTests.loopAddress, gas: "0x17d7840")
        let answer = try await h.answer("debug_traceTransaction", "[\"\(hash)\",{\"timeout\":\"100ms\",\"disableStack\":true}]")
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message == "execution aborted (timeout = 100ms)" || message.hasPrefix("trace too large"))
    }
}
