import Chain
import DevNode
import EVM
import EthereumPrimitives
import Foundation
import Testing

/// `debug_traceCall(call, block, traceConfig)`: the same frames as the transaction once mined, on any block's state,
/// with geth's `stateOverrides` and `blockOverrides`, under every tracer, within the node's limits.
@Suite struct TraceCallTests {
    static let F = TracerFixture.self
    static let call = "{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(TracerFixture.main)\",\"data\":\"\(TracerFixture.calldata)\",\"gas\":\"0xf4240\"}"

    static func installed() async throws -> HandlerHarness {
        let h = try await HandlerHarness.make(hardfork: .cancun)
        try await TracerFixture.install(h)
        return h
    }

    @Test func aCallTracesAsTheMinedTransaction() async throws {
        let h = try await Self.installed()
        let config = #"{"tracer":"callTracer","tracerConfig":{"withLog":true}}"#
        let traced = try await h.result("debug_traceCall", "[\(Self.call),\"latest\",\(config)]")
        #expect(traced["calls"] == .array(CallTracerTests.mainCalls(withLogs: true)))
        let hash = try await h.send(to: Self.F.main, data: Self.F.calldata, gas: "0xf4240")
        let mined = try await h.result("debug_traceTransaction", "[\"\(hash)\",\(config)]")
        #expect(traced == mined)
        // On the state before the transaction (block 1), the 4byte counts and the struct logs agree too.
        let fourByte = #"{"tracer":"4byteTracer"}"#
        #expect(try await h.result("debug_traceCall", "[\(Self.call),\"0x1\",\(fourByte)]") == (try await h.result("debug_traceTransaction", "[\"\(hash)\",\(fourByte)]")))
        // The struct logger by default, with the mined transaction's steps.
        let steps = try await h.result("debug_traceCall", "[\(Self.call),\"0x1\"]")
        let minedSteps = try await h.result("debug_traceTransaction", "[\"\(hash)\"]")
        #expect(steps["structLogs"] == minedSteps["structLogs"])
        #expect(steps["gas"] == minedSteps["gas"] && steps["failed"] == .bool(false))
    }

    @Test func anEarlierBlocksState() async throws {
        let h = try await Self.installed()
        // Before the contracts were set, `main` has no code: a plain 21,064-gas call.
        let trace = try await h.result("debug_traceCall", "[\(Self.call),\"0x0\",{\"tracer\":\"callTracer\"}]")
        #expect(
            trace
                == CallTracerTests.frame(
                    "CALL", from: HandlerHarness.account0, to: Self.F.main, gas: "0xf4240", gasUsed: "0x5248",
                    input: Self.F.calldata))
        let prestate = try await h.result("debug_traceCall", "[\(Self.call),\"0x0\",{\"tracer\":\"prestateTracer\"}]")
        #expect(prestate[Self.F.main] == nil)
    }

    @Test func stateOverridesAreThePreState() async throws {
        let h = try await Self.installed()
        // `main` runs the logger's code instead: 21,064 + 1,027 gas, the log from `main`.
        let overrides = "\"stateOverrides\":{\"\(Self.F.main)\":{\"code\":\"\(Self.F.loggerCode)\",\"stateDiff\":{\"\(PrestateTracerTests.word(1))\":\"\(PrestateTracerTests.word(9))\"}}}"
        let trace = try await h.result(
            "debug_traceCall", "[\(Self.call),\"latest\",{\"tracer\":\"callTracer\",\"tracerConfig\":{\"withLog\":true},\(overrides)}]")
        #expect(
            trace
                == CallTracerTests.frame(
                    "CALL", from: HandlerHarness.account0, to: Self.F.main, gas: "0xf4240", gasUsed: "0x564b",
                    input: Self.F.calldata,
                    logs: [CallTracerTests.log(Self.F.main, topics: [CallTracerTests.topicAA], data: CallTracerTests.word42, index: 0, position: 0)]))
        // The prestate is the overridden state (geth applies the overrides first).
        let prestate = try await h.result("debug_traceCall", "[\(Self.call),\"latest\",{\"tracer\":\"prestateTracer\",\(overrides)}]")
        #expect(prestate[Self.F.main]?["code"] == .string(Self.F.loggerCode))
        // The live state is untouched.
        #expect(try await h.result("eth_getCode", "[\"\(Self.F.main)\",\"latest\"]") == .string(Self.F.mainCode))
    }

    @Test func blockOverridesReachTheCall() async throws {
        let h = try await Self.installed()
        // NUMBER, TIMESTAMP, COINBASE, BASEFEE as four words.
        let probe = "0x436000524260205241604052486060526080" + "6000f3"
        let coffee = "0x0000000000000000000000000000000000c0ffee"
        let config = """
            {"tracer":"callTracer","stateOverrides":{"\(Self.F.main)":{"code":"\(probe)"}},\
            "blockOverrides":{"number":"0x1234","time":"0x5678","feeRecipient":"\(coffee)","baseFeePerGas":"0x7"}}
            """
        // A call that pays a price keeps the base fee (a free one sees zero, as geth lowers it).
        let paying = "{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.F.main)\",\"gas\":\"0x30d40\",\"gasPrice\":\"0x7\"}"
        let trace = try await h.result("debug_traceCall", "[\(paying),\"latest\",\(config)]")
        let words = [0x1234, 0x5678].map { String(repeating: "0", count: 60) + String(format: "%04x", $0) }
        let expected = "0x" + words.joined() + String(repeating: "0", count: 24) + coffee.dropFirst(2) + String(repeating: "0", count: 63) + "7"
        #expect(trace["output"] == .string(expected))
        // geth refuses the two overrides that shape a block rather than a call.
        for refused in [#""beaconRoot":"0x\#(String(repeating: "1", count: 64))""#, #""withdrawals":[]"#] {
            #expect(try await h.errorCode("debug_traceCall", "[\(Self.call),\"latest\",{\"blockOverrides\":{\(refused)}}]") == -32602)
        }
    }

    @Test func creationsAndTheirFailures() async throws {
        let h = try await Self.installed()
        let nonce = try #require(try await h.result("eth_getTransactionCount", "[\"\(HandlerHarness.account0)\",\"latest\"]").quantity)
        let created = ContractAddress.create(sender: TracerFixture.address(HandlerHarness.account0), nonce: nonce).lowercasedHex
        let create = "{\"from\":\"\(HandlerHarness.account0)\",\"data\":\"0x\(Self.F.initCode)\",\"gas\":\"0x30d40\"}"
        // 53,000 + calldata (3 zero bytes, 7 others: 124) + one word of init code (2) + 18 run + 200 deposit.
        #expect(
            try await h.result("debug_traceCall", "[\(create),\"latest\",{\"tracer\":\"callTracer\"}]")
                == CallTracerTests.frame(
                    "CREATE", from: HandlerHarness.account0, to: created, gas: "0x30d40", gasUsed: "0xd060",
                    input: "0x" + Self.F.initCode, output: "0x00"))
        // The struct logger's return value is the deployed code, as geth's.
        #expect(try await h.result("debug_traceCall", "[\(create),\"latest\"]")["returnValue"] == .string("0x00"))
        // REVERT(0, 0) in the init code: no address. 53,000 + 56 calldata + 2 init code word + 6.
        let failing = "{\"from\":\"\(HandlerHarness.account0)\",\"data\":\"0x60006000fd\",\"gas\":\"0x30d40\"}"
        #expect(
            try await h.result("debug_traceCall", "[\(failing),\"latest\",{\"tracer\":\"callTracer\"}]")
                == CallTracerTests.frame(
                    "CREATE", from: HandlerHarness.account0, to: nil, gas: "0x30d40", gasUsed: "0xcf48",
                    input: "0x60006000fd", error: "execution reverted"))
    }

    @Test func everyTracerHonoursTheTimeout() async throws {
        let h = try await HandlerHarness.make(
            limits: NodeRPCHandler.Limits(calls: CallLimits(gasCap: 0, timeout: .seconds(30))), hardfork: .cancun)
        _ = try await h.result("anvil_setCode", "[\"\(CallLimitTimingTests.loopAddress)\",\"\(CallLimitTimingTests.loop)\"]")
        let loop = "{\"to\":\"\(CallLimitTimingTests.loopAddress)\"}"
        for tracer in ["", "callTracer", "prestateTracer", "4byteTracer", "noopTracer"] {
            let answer = try await h.answer(
                "debug_traceCall", "[\(loop),\"latest\",{\"tracer\":\"\(tracer)\",\"timeout\":\"1ms\",\"disableStack\":true}]")
            #expect(answer["error"]?["message"] == .string("execution aborted (timeout = 1ms)"), "\(tracer): \(answer)")
        }
    }

    @Test func aCallOverTheTraceSizeLimitIsAClearError() async throws {
        let h = try await HandlerHarness.make(limits: NodeRPCHandler.Limits(trace: TraceLimits(maxBytes: 1_000)), hardfork: .cancun)
        try await TracerFixture.install(h)
        let answer = try await h.answer("debug_traceCall", "[\(Self.call),\"latest\",{\"tracer\":\"callTracer\"}]")
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("trace too large: the call frames passed 1000 bytes"), "\(answer)")
        #expect(message.contains("onlyTopCall"))
        // Asking for less fits.
        let top = try await h.result("debug_traceCall", "[\(Self.call),\"latest\",{\"tracer\":\"callTracer\",\"tracerConfig\":{\"onlyTopCall\":true}}]")
        #expect(top["calls"] == nil && top["type"] == .string("CALL"))
    }
}
