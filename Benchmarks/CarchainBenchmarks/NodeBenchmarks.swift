import Benchmark
import Chain
import DevNode
import EthereumPrimitives
import Foundation

/// The dev node's JSON-RPC handler in process (no HTTP): `eth_call` of a CarChain view as request
/// bytes in, answer bytes out, and automined `rentCar` transactions sent as `eth_sendRawTransaction`
/// bodies. tools/bench-node.sh measures the same over loopback HTTP, next to the py-evm node.
func registerNodeBenchmarks() {
    Benchmark(
        "node handler eth_call getUserCredit",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2))
    ) { benchmark async in
        guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 10),
            let chain = try? await DevChain(config: .deterministic())
        else { return }
        let handler = NodeRPCHandler(chain: chain)
        for raw in scenario.setUp + scenario.rentals { _ = try? await chain.sendRawTransaction(raw) }
        let data = Hex.encode(ChainBenchmarkSupport.encodeCall("getUserCredit(string)", ["user-7"]))
        let body = Array(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\"params\":[{\"to\":\"\(scenario.contract.lowercasedHex)\",\"data\":\"\(data)\"},\"latest\"]}"
                .utf8)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(await handler.handle(body)) }
        benchmark.stopMeasurement()
        await chain.close()
    }

    let batch = 2_000
    Benchmark(
        "node handler automined rentCar ×\(batch) (memory)",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 1)
    ) { benchmark async in
        guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: batch),
            let chain = try? await DevChain(config: .deterministic())
        else { return }
        let handler = NodeRPCHandler(chain: chain)
        for raw in scenario.setUp { _ = try? await chain.sendRawTransaction(raw) }
        let bodies = scenario.rentals.enumerated().map { i, raw in
            Array("{\"jsonrpc\":\"2.0\",\"id\":\(i),\"method\":\"eth_sendRawTransaction\",\"params\":[\"\(Hex.encode(raw))\"]}".utf8)
        }
        benchmark.startMeasurement()
        for body in bodies { blackHole(await handler.handle(body)) }
        benchmark.stopMeasurement()
        await chain.close()
    }
}
