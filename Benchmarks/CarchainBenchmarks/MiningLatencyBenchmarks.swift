import Benchmark
import Chain
import DevNode
import EthereumRPC
import Foundation
import Logging
import NIOConcurrencyHelpers

/// Issue 31: long dev operations run in slices, so other clients get answers. A node's server on a loopback port of
/// this process, its chain on SQLite in a temporary directory (as `carchain node --data-dir`), and each sample one
/// `eth_blockNumber` round trip over HTTP: idle (the reference), and while another client keeps `anvil_mine` of
/// 10,000 blocks running (a new one starts when the last one answers). The goal: p99 ≤ 100 ms while mining
/// (package-benchmark prints the percentiles). The third benchmark is the mining itself: `anvil_mine` of 1,000 empty
/// blocks through the handler, on SQLite.
func registerMiningLatencyBenchmarks() {
    for mining in [false, true] {
        let fixture = MiningFixture()
        Benchmark(
            "node eth_blockNumber over HTTP, \(mining ? "while another client mines 10,000 blocks" : "idle") (SQLite)",
            configuration: .init(metrics: [.wallClock], maxDuration: .seconds(mining ? 20 : 5), maxIterations: mining ? 5_000 : 20_000),
            closure: { benchmark in
                guard let ready = fixture.ready else { return }
                if mining {
                    ready.startMining()
                    try? await Task.sleep(for: .milliseconds(100))  // the first anvil_mine is under way
                }
                let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}"#.utf8)
                for _ in benchmark.scaledIterations {
                    benchmark.startMeasurement()
                    blackHole(try? await ready.transport.send(body))
                    benchmark.stopMeasurement()
                }
                await ready.stopMining()
            },
            setup: { try await fixture.start() }, teardown: { await fixture.stop() })
    }

    Benchmark(
        "chain anvil_mine 1,000 empty blocks (SQLite, through the handler)",
        configuration: .init(metrics: [.wallClock], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-bench-mine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let chain = try? await DevChain(config: .deterministic(), storage: .directory(directory)) else { return }
        let handler = NodeRPCHandler(chain: chain)
        let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x3e8"]}"#.utf8)
        for _ in benchmark.scaledIterations {
            benchmark.startMeasurement()
            blackHole(await handler.handle(body))
            benchmark.stopMeasurement()
        }
        await chain.close()
    }
}

/// The node (server task, chain on disk) and its clients, shared by a benchmark's setup, body and teardown.
final class MiningFixture: Sendable {
    final class Ready: Sendable {
        let url: String
        let transport: HTTPTransport
        private let miner = NIOLockedValueBox<Task<Void, Never>?>(nil)

        init(url: String) throws {
            self.url = url
            self.transport = try HTTPTransport(url: url, timeout: 600)
        }

        /// Keeps an `anvil_mine` of 10,000 blocks in flight from another connection until ``stopMining()``.
        func startMining() {
            let url = self.url
            let task = Task {
                guard let miner = try? HTTPTransport(url: url, timeout: 600) else { return }
                let body = Array(#"{"jsonrpc":"2.0","id":1,"method":"anvil_mine","params":["0x2710"]}"#.utf8)
                while !Task.isCancelled { _ = try? await miner.send(body) }
            }
            miner.withLockedValue { $0 = task }
        }

        func stopMining() async {
            let task = miner.withLockedValue { task in
                defer { task = nil }
                return task
            }
            task?.cancel()
            await task?.value
        }
    }

    private struct State: Sendable {
        var ready: Ready?
        var server: Task<Void, Never>?
        var chain: DevChain?
        var directory: URL?
    }

    private let state = NIOLockedValueBox(State())

    var ready: Ready? { state.withLockedValue { $0.ready } }

    func start() async throws {
        if ready != nil { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-bench-latency-\(UUID().uuidString)")
        let chain = try await DevChain(config: ChainConfig(), storage: .directory(directory))
        let handler = NodeRPCHandler(chain: chain)
        var logger = Logger(label: "bench.node")
        logger.logLevel = .critical
        let (url, server) = try await startBenchmarkServer(handler, logger: logger)
        let ready = try Ready(url: url)
        state.withLockedValue { $0 = State(ready: ready, server: server, chain: chain, directory: directory) }
    }

    func stop() async {
        let current = state.withLockedValue { s in
            defer { s = State() }
            return s
        }
        await current.ready?.stopMining()
        current.server?.cancel()
        await current.server?.value
        await current.chain?.close()
        if let directory = current.directory { try? FileManager.default.removeItem(at: directory) }
    }
}
