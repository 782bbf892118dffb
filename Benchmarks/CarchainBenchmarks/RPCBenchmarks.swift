import Benchmark
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import Foundation
import NIOConcurrencyHelpers

/// JSON-RPC round trips against tools/pyevm-node.py (started for the run on a free port, with the CarChain
/// contract deployed): an `eth_call` of a view (p50 is the figure to read: HTTP, JSON both ways and
/// py-evm's execution), and a batch of 100 `eth_getBalance`. Skipped with a message when the Python venv
/// is missing.
func registerRPCBenchmarks() {
    let config = Benchmark.Configuration(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 1000)
    let fixture = RPCBenchmarkFixture()

    Benchmark(
        "RPC eth_call round trip (pyevm-node)", configuration: config,
        closure: { benchmark in
            guard let ready = fixture.ready else { return }
            for _ in benchmark.scaledIterations { blackHole(try? await ready.client.call(ready.view)) }
        },
        setup: { try await fixture.start() }, teardown: { fixture.stop() })

    Benchmark(
        "RPC batch of 100 eth_getBalance (pyevm-node)", configuration: config,
        closure: { benchmark in
            guard let ready = fixture.ready else { return }
            let calls = (0..<100).map { i in RPCMethods.balance(of: ready.accounts[i % ready.accounts.count]) }
            for _ in benchmark.scaledIterations { blackHole(try? await ready.client.batch(calls)) }
        },
        setup: { try await fixture.start() }, teardown: { fixture.stop() })
}

/// The node process and what the benchmarks need from it, shared by their setup and teardown hooks.
final class RPCBenchmarkFixture: Sendable {
    struct Ready: Sendable {
        let client: RPCClient
        let view: CallRequest
        let accounts: [Address]
    }

    private struct State: @unchecked Sendable {  // Process is not Sendable; it is only touched under the lock
        var process: Process?
        var ready: Ready?
    }

    private let state = NIOLockedValueBox(State())

    var ready: Ready? { state.withLockedValue { $0.ready } }

    func start() async throws {
        if ready != nil { return }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let venv = ProcessInfo.processInfo.environment["CARCHAIN_VENV"].map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent(".venv")
        let python = venv.appendingPathComponent("bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            print("SKIPPED: RPC benchmarks (no Python venv at \(venv.path); run make venv)")
            return
        }
        let process = Process()
        process.executableURL = python
        process.arguments = [root.appendingPathComponent("tools/pyevm-node.py").path, "--port", "0", "--exit-with-parent", "--lifetime", "900"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        state.withLockedValue { $0.process = process }
        var line: [UInt8] = []
        while true {
            let byte = stdout.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte.first == UInt8(ascii: "\n") { break }
            line += byte
        }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else {
            stop()
            throw RPCBenchmarkError("pyevm-node did not report its port")
        }
        let client = try RPCClient(url: "http://127.0.0.1:\(port)", timeout: 60)
        // Dev account 0 of the test mnemonic deploys the project's contract; the view is registeredUsers().
        let key = try PrivateKey(hex: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
        let sender = try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: key))
        let artifact = try JSONValue(parsing: [UInt8](Data(contentsOf: root.appendingPathComponent("contracts/CarChain.json"))))
        let bytecode = try Hex.decode(artifact["bytecode"]?.stringValue ?? "")
        let deployed = try await sender.sendAndWait(TransactionRequest(to: nil, data: bytecode))
        guard let contract = deployed.contractAddress else { throw RPCBenchmarkError("deployment failed") }
        let view = CallRequest(to: contract, data: [0x66, 0x0d, 0x58, 0x87])  // registeredUsers()
        let accounts = try await client.accounts()
        state.withLockedValue { $0.ready = Ready(client: client, view: view, accounts: accounts) }
    }

    func stop() {
        let process: Process? = state.withLockedValue { state in
            defer { state = State() }
            return state.process
        }
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

struct RPCBenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
