import Foundation
import Testing
import TestSupport

/// The tracers through a `carchain node` process, driven by web3.py (tools/xcheck/web3_trace.py): `debug_traceCall`
/// with `callTracer` through `manager.request_blocking`, matching the signed transaction's receipt and its
/// `debug_traceTransaction`; 4byte, prestate diff and block traces; an unknown tracer refused.
@Suite(.serialized) struct Web3TraceTests {
    @Test func web3TracesCallsAndTransactions() async throws {
        guard let python = PythonVenv.python(for: "web3.py debug_traceCall checks against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run("web3_trace.py", python: python, request: ["url": node.url], suite: "Web3TraceTests")
        #expect(counts.total >= 12)
    }
}
