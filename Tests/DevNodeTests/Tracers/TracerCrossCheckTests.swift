import DevNode
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// The tracers against other implementations where they overlap (tools/xcheck/trace_xcheck.py): ``TracerFixture``'s
/// call, a top-level revert and a contract creation run on this node and, from the same accounts, on py-evm and on
/// revm (pyrevm 0.3.7). Every `callTracer` frame must match py-evm's message computation in kind, addresses, value,
/// gas given, gas used, input, output and failure (py-evm has no SELFDESTRUCT frames: those are left out); every
/// struct-logger step must match revm's EIP-3155 step in pc, opcode, gas and depth, and in gas cost where the step
/// did not fail (implementations report a failing step's cost differently).
@Suite struct TracerCrossCheckTests {
    static let suite = "Tracers vs py-evm and revm"
    static let devKey0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"

    @Test func callFramesAndStepsAgreeWithPyEVMAndRevm() async throws {
        guard let python = PythonVenv.python(for: Self.suite) else { return }
        let F = TracerFixture.self
        let (h, first) = try await F.traced()
        let second = try await h.send(to: F.reverter, gas: "0x30d40")
        let third = try await h.send(data: "0x" + F.initCode, gas: "0x30d40")
        let word = { (n: Int) in "0x" + String(n, radix: 16) }
        let request: JSONValue = .object([
            ("fork", .string("Cancun")), ("key", .string(Self.devKey0)),
            ("accounts", .object([
                (F.main, .object([("code", .string(F.mainCode)), ("storage", .object([("0x1", .string(word(7))), ("0x2", .string(word(5)))]))])),
                (F.logger, .object([("code", .string(F.loggerCode))])),
                (F.reverter, .object([("code", .string(F.reverterCode))])),
                (F.destructor, .object([("code", .string(F.destructorCode)), ("balance", .string("0x64"))])),
                (F.creator, .object([("code", .string(F.creatorCode))])),
                (F.creator2, .object([("code", .string(F.creator2Code))])),
            ])),
            ("transactions", .array([
                .object([("to", .string(F.main)), ("data", .string(F.calldata)), ("gas", .number(String(F.gas)))]),
                .object([("to", .string(F.reverter)), ("gas", .number("200000"))]),
                .object([("data", .string("0x" + F.initCode)), ("gas", .number("200000"))]),
            ])),
        ])
        let script = TestPaths.packageRoot.appendingPathComponent("tools/xcheck/trace_xcheck.py").path
        let output = try await ProcessRunner.run(python, [script], stdin: Data(request.description.utf8))
        try #require(output.status == 0, "trace_xcheck.py failed: \(output.stderr.suffix(2000))")
        let answer = try JSONValue(parsing: output.stdout)
        let pyevm = try #require(answer["pyevm"]?.arrayValue)
        let revm = try #require(answer["revm"]?.arrayValue)
        try #require(pyevm.count == 3 && revm.count == 3)

        var tally = ConformanceTally(suite: Self.suite)
        var frames = 0
        var steps = 0
        for (i, hash) in [first, second, third].enumerated() {
            let calls = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"tracer\":\"callTracer\"}]")
            var problems: [String] = []
            Self.compare(calls, pyevm[i]["frames"] ?? .null, path: "tx \(i)", problems: &problems, frames: &frames)
            tally.check(problems.isEmpty, "tx \(i) call frames", problems.prefix(3).joined(separator: "; "))
            let logs = try await h.result("debug_traceTransaction", "[\"\(hash)\",{\"disableStack\":true,\"disableStorage\":true}]")
            let ours = logs["structLogs"]?.arrayValue ?? []
            let theirs = revm[i]["steps"]?.arrayValue ?? []
            problems = []
            if ours.count != theirs.count { problems.append("\(ours.count) steps, revm \(theirs.count)") }
            for (n, (step, other)) in zip(ours, theirs).enumerated() {
                steps += 1
                for key in ["pc", "gas", "depth"] where Self.number(step[key]) != Self.number(other[key]) {
                    problems.append("step \(n) \(key): \(step[key]?.description ?? "nil"), revm \(other[key]?.description ?? "nil")")
                }
                if step["op"] != other["op"] {
                    problems.append("step \(n) op: \(step["op"]?.description ?? "nil"), revm \(other["op"]?.description ?? "nil")")
                }
                if step["error"] == nil, Self.number(step["gasCost"]) != Self.number(other["gasCost"]) {
                    problems.append("step \(n) (\(step["op"]?.stringValue ?? "")) gasCost \(step["gasCost"]?.description ?? ""), revm \(other["gasCost"]?.description ?? "")")
                }
            }
            tally.check(problems.isEmpty, "tx \(i) struct logs", problems.prefix(3).joined(separator: "; "))
            let receipt = try await h.result("eth_getTransactionReceipt", "[\"\(hash)\"]")
            tally.check(
                receipt["gasUsed"]?.quantity == pyevm[i]["gasUsed"].flatMap(Self.number).map(UInt64.init)
                    && receipt["gasUsed"]?.quantity == revm[i]["gasUsed"].flatMap(Self.number).map(UInt64.init),
                "tx \(i) gas used", "receipt \(receipt["gasUsed"]?.description ?? ""), py-evm \(pyevm[i]["gasUsed"]?.description ?? ""), revm \(revm[i]["gasUsed"]?.description ?? "")")
        }
        tally.report()
        print("\(Self.suite): \(frames) call frames and \(steps) steps compared")
        #expect(frames >= 14 && steps >= 100)
    }

    /// A JSON number, or a quantity.
    static func number(_ value: JSONValue?) -> Int? {
        switch value {
        case .number(let text)?: return Int(text)
        case .string(let text)? where text.hasPrefix("0x"): return Int(text.dropFirst(2), radix: 16)
        default: return nil
        }
    }

    /// Compares one of our call frames with py-evm's computation (recursively), appending each difference.
    static func compare(_ ours: JSONValue, _ theirs: JSONValue, path: String, problems: inout [String], frames: inout Int) {
        frames += 1
        func differ(_ what: String, _ a: String?, _ b: String?) {
            if a != b { problems.append("\(path) \(what): \(a ?? "nil"), py-evm \(b ?? "nil")") }
        }
        let type = ours["type"]?.stringValue
        differ("type", type == "CREATE2" ? "CREATE" : type, theirs["type"]?.stringValue)
        differ("from", ours["from"]?.stringValue, theirs["from"]?.stringValue)
        if let to = ours["to"]?.stringValue { differ("to", to, theirs["to"]?.stringValue) }
        if let value = ours["value"]?.stringValue { differ("value", value, theirs["value"]?.stringValue) }
        differ("gas", number(ours["gas"]).map(String.init), number(theirs["gas"]).map(String.init))
        differ("gasUsed", number(ours["gasUsed"]).map(String.init), number(theirs["gasUsed"]).map(String.init))
        differ("input", ours["input"]?.stringValue, theirs["input"]?.stringValue)
        differ("output", ours["output"]?.stringValue ?? "0x", theirs["output"]?.stringValue)
        differ("failed", String(ours["error"] != nil), theirs["failed"].map { String($0 == .bool(true)) })
        let calls = (ours["calls"]?.arrayValue ?? []).filter { $0["type"] != .string("SELFDESTRUCT") }
        let others = theirs["calls"]?.arrayValue ?? []
        guard calls.count == others.count else {
            problems.append("\(path): \(calls.count) calls, py-evm \(others.count)")
            return
        }
        for (i, (call, other)) in zip(calls, others).enumerated() {
            compare(call, other, path: "\(path).calls[\(i)]", problems: &problems, frames: &frames)
        }
    }
}

