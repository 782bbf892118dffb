import Benchmark
import Chain
import DevNode
import Foundation

/// Issue 31: long dev operations run in slices, so other clients get answers. The latency a client sees while another
/// mines 10,000 blocks is measured against the release `carchain node` by tools/bench-node.py (`make bench-node`:
/// `eth_blockNumber` p50/p99 on a keep-alive connection, idle and while mining, same run), not here: in a
/// package-benchmark process, AsyncHTTPClient round trips to the node stalled for up to seconds while another
/// request of the same process was in flight (p50 497 ms against 15 ms from a Python client on the same node and
/// load), so an in-process client measured itself. This file keeps the mining itself: `anvil_mine` of 1,000 empty
/// blocks through the handler, on SQLite.
func registerMiningLatencyBenchmarks() {
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
