import CarChain
import DevNode
import EthereumPrimitives
import Foundation
import Testing

/// `callTracer` on `debug_traceTransaction` and `debug_traceBlockByNumber`, checked against the frames and gas worked
/// out by hand for ``TracerFixture``'s contracts, in the shape geth's documentation gives (type, from, to, value,
/// gas, gasUsed, input, output, error, revertReason, calls, logs with index and position).
@Suite struct CallTracerTests {
    static let word42 = "0x" + String(repeating: "0", count: 62) + "2a"
    static let topicAA = "0x" + String(repeating: "0", count: 62) + "aa"

    /// A frame as geth writes it (its member order), with the optional members only when given.
    static func frame(
        _ type: String, from: String, to: String?, gas: String, gasUsed: String, input: String = "0x",
        output: String? = nil, error: String? = nil, revertReason: String? = nil, calls: [JSONValue] = [],
        logs: [JSONValue] = [], value: String? = "0x0"
    ) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("from", .string(from)), ("gas", .string(gas)), ("gasUsed", .string(gasUsed)),
        ]
        if let to { members.append(("to", .string(to))) }
        members.append(("input", .string(input)))
        if let output { members.append(("output", .string(output))) }
        if let error { members.append(("error", .string(error))) }
        if let revertReason { members.append(("revertReason", .string(revertReason))) }
        if !calls.isEmpty { members.append(("calls", .array(calls))) }
        if !logs.isEmpty { members.append(("logs", .array(logs))) }
        if let value { members.append(("value", .string(value))) }
        members.append(("type", .string(type)))
        return .object(members)
    }

    static func log(_ address: String, topics: [String], data: String, index: Int, position: Int) -> JSONValue {
        .object([
            ("address", .string(address)), ("topics", .array(topics.map { .string($0) })), ("data", .string(data)),
            ("index", .string("0x" + String(index, radix: 16))), ("position", .string("0x" + String(position, radix: 16))),
        ])
    }

    /// The nine calls `main` makes, as worked out in ``TracerFixture`` (logs only `withLog`).
    static func mainCalls(withLogs: Bool) -> [JSONValue] {
        let F = TracerFixture.self
        return [
            frame(
                "CALL", from: F.main, to: F.logger, gas: "0xffff", gasUsed: "0x403", input: F.calldata,
                logs: withLogs ? [log(F.logger, topics: [topicAA], data: word42, index: 0, position: 0)] : []),
            frame("STATICCALL", from: F.main, to: F.identity, gas: "0xffff", gasUsed: "0x12", input: F.calldata, output: F.calldata, value: nil),
            frame(
                "DELEGATECALL", from: F.main, to: F.logger, gas: "0xffff", gasUsed: "0x403", input: F.calldata,
                logs: withLogs ? [log(F.main, topics: [topicAA], data: word42, index: 1, position: 0)] : []),
            frame(
                "CALL", from: F.main, to: F.reverter, gas: "0xffff", gasUsed: "0x1a7",
                input: F.calldata + String(repeating: "0", count: 64), output: "0x" + F.nopeRevert, error: "execution reverted",
                revertReason: "nope"),
            frame(
                "CALL", from: F.main, to: F.creator, gas: "0xffff", gasUsed: "0x7df3",
                calls: [frame("CREATE", from: F.creator, to: F.created, gas: "0x80dd", gasUsed: "0xda", input: "0x" + F.initCode, output: "0x00")]),
            frame(
                "CALL", from: F.main, to: F.destructor, gas: "0xffff", gasUsed: "0x7f5b",
                calls: [frame("SELFDESTRUCT", from: F.destructor, to: F.beneficiary, gas: "0x0", gasUsed: "0x0", value: "0x64")]),
            frame("CALL", from: F.main, to: F.logger, gas: "0x64", gasUsed: "0x64", input: F.calldata, error: "out of gas"),
            frame(
                "CALLCODE", from: F.main, to: F.logger, gas: "0xffff", gasUsed: "0x403", input: F.calldata,
                logs: withLogs ? [log(F.main, topics: [topicAA], data: word42, index: 2, position: 0)] : []),
            frame(
                "CALL", from: F.main, to: F.creator2, gas: "0xffff", gasUsed: "0x7dfc",
                calls: [frame("CREATE2", from: F.creator2, to: F.created2, gas: "0x80d4", gasUsed: "0xda", input: "0x" + F.initCode, output: "0x00")]),
        ]
    }

    static func trace(_ h: HandlerHarness, _ hash: String, _ config: String) async throws -> JSONValue {
        try await h.result("debug_traceTransaction", "[\"\(hash)\",\(config)]")
    }

    static func gasUsed(_ h: HandlerHarness, _ hash: String) async throws -> String {
        try #require(try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")["gasUsed"]?.stringValue)
    }

    @Test func everyKindOfFrameWithLogs() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let trace = try await Self.trace(h, hash, #"{"tracer":"callTracer","tracerConfig":{"withLog":true}}"#)
        let expected = Self.frame(
            "CALL", from: HandlerHarness.account0, to: TracerFixture.main, gas: "0xf4240", gasUsed: try await Self.gasUsed(h, hash),
            input: TracerFixture.calldata, calls: Self.mainCalls(withLogs: true),
            // The reverted call's log took index 2 and gave it back: the CALLCODE's log gets it; main's own comes
            // after its 9 calls.
            logs: [Self.log(TracerFixture.main, topics: [], data: "0x", index: 3, position: 9)])
        #expect(trace == expected)
        for (call, want) in zip(trace["calls"]?.arrayValue ?? [], expected["calls"]?.arrayValue ?? []) {
            #expect(call == want)
        }
    }

    @Test func withoutLogsAndTopCallOnly() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let gasUsed = try await Self.gasUsed(h, hash)
        let plain = try await Self.trace(h, hash, #"{"tracer":"callTracer"}"#)
        #expect(
            plain
                == Self.frame(
                    "CALL", from: HandlerHarness.account0, to: TracerFixture.main, gas: "0xf4240", gasUsed: gasUsed,
                    input: TracerFixture.calldata, calls: Self.mainCalls(withLogs: false)))
        // onlyTopCall: no calls; with logs, only the outermost frame's, positioned among the (unrecorded) calls: 0.
        let top = try await Self.trace(h, hash, #"{"tracer":"callTracer","tracerConfig":{"onlyTopCall":true,"withLog":true}}"#)
        #expect(
            top
                == Self.frame(
                    "CALL", from: HandlerHarness.account0, to: TracerFixture.main, gas: "0xf4240", gasUsed: gasUsed,
                    input: TracerFixture.calldata, logs: [Self.log(TracerFixture.main, topics: [], data: "0x", index: 3, position: 0)]))
    }

    @Test func aRevertedTransactionKeepsItsReasonAndLosesItsLogs() async throws {
        let (h, _) = try await TracerFixture.traced()
        let hash = try await h.send(to: TracerFixture.reverter, gas: "0x30d40")
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["status"] == .string("0x0"))
        let trace = try await Self.trace(h, hash, #"{"tracer":"callTracer","tracerConfig":{"withLog":true}}"#)
        #expect(
            trace
                == Self.frame(
                    "CALL", from: HandlerHarness.account0, to: TracerFixture.reverter, gas: "0x30d40",
                    gasUsed: try #require(receipt["gasUsed"]?.stringValue), output: "0x" + TracerFixture.nopeRevert,
                    error: "execution reverted", revertReason: "nope"))
        // 21,000 intrinsic and the 423 the reverter uses.
        #expect(receipt["gasUsed"] == .string("0x" + String(21_000 + 423, radix: 16)))
    }

    @Test func aBlockTraceGivesEachTransactionsFrames() async throws {
        let (h, hash) = try await TracerFixture.traced()
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        let block = try #require(receipt["blockNumber"]?.stringValue)
        let traces = try await h.result("debug_traceBlockByNumber", "[\"\(block)\",{\"tracer\":\"callTracer\"}]")
        #expect(traces.arrayValue?.count == 1)
        #expect(traces.arrayValue?.first?["txHash"] == .string(hash))
        #expect(traces.arrayValue?.first?["result"] == (try await Self.trace(h, hash, #"{"tracer":"callTracer"}"#)))
        let byHash = try await h.result(
            "debug_traceBlockByHash", "[\"\(try #require(receipt["blockHash"]?.stringValue))\",{\"tracer\":\"callTracer\"}]")
        #expect(byHash == traces)
    }

    /// CarChain's `rentCar` (a Vyper contract, compiled): the outermost frame's gasUsed is the receipt's.
    @Test func carChainRentalGasUsedIsTheReceipts() async throws {
        let h = try await HandlerHarness.make()
        let contract = try await HandlerMethodTests.deployCarChain(h)
        for operation: CarChainOperation in [
            .registerNewCar(plate: "CAR1"), .registerNewUser(userId: "u1"), .addCredit(userId: "u1", credit: 10),
        ] {
            _ = try await h.send(to: contract, data: Hex.encode(operation.calldata))
        }
        let calldata = Hex.encode(CarChainOperation.rentCar(plate: "CAR1", userId: "u1").calldata)
        let hash = try await h.send(to: contract, data: calldata)
        let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
        #expect(receipt["status"] == .string("0x1"))
        let trace = try await Self.trace(h, hash, #"{"tracer":"callTracer","tracerConfig":{"withLog":true}}"#)
        #expect(trace["gasUsed"] == receipt["gasUsed"])
        #expect(trace["type"] == .string("CALL"))
        #expect(trace["to"] == .string(contract))
        #expect(trace["input"] == .string(calldata))
        #expect(trace["error"] == nil)
        // The CarRented log, as the receipt has it.
        let logs = try #require(trace["logs"]?.arrayValue)
        let receiptLogs = try #require(receipt["logs"]?.arrayValue)
        #expect(logs.count == receiptLogs.count)
        for (traced, mined) in zip(logs, receiptLogs) {
            #expect(traced["topics"] == mined["topics"])
            #expect(traced["data"] == mined["data"])
            #expect(traced["index"] == mined["logIndex"])
        }
    }
}
