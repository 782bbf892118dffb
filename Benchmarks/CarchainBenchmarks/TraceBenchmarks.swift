import Benchmark
import Chain
import DevNode
import EthereumPrimitives
import Foundation

/// `debug_traceTransaction` of a mined CarChain `rentCar` through the node's handler (in process), under each tracer.
/// The no-op tracer is the reference: it replays the block (parent state, system calls, the transaction) without
/// recording anything, so the difference is each tracer's own cost.
func registerTraceBenchmarks() {
    let configs: [(name: String, config: String)] = [
        ("noopTracer", #"{"tracer":"noopTracer"}"#),
        ("callTracer", #"{"tracer":"callTracer","tracerConfig":{"withLog":true}}"#),
        ("prestateTracer", #"{"tracer":"prestateTracer"}"#),
        ("prestateTracer disableCode", #"{"tracer":"prestateTracer","tracerConfig":{"disableCode":true}}"#),
        ("prestateTracer diffMode", #"{"tracer":"prestateTracer","tracerConfig":{"diffMode":true}}"#),
        ("4byteTracer", #"{"tracer":"4byteTracer"}"#),
        ("struct logger", "{}"),
    ]
    for (name, config) in configs {
        Benchmark(
            "node debug_traceTransaction rentCar \(name)",
            configuration: .init(metrics: [.wallClock, .throughput], timeUnits: .microseconds, maxDuration: .seconds(2))
        ) { benchmark async in
            guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 1),
                let chain = try? await DevChain(config: .deterministic())
            else { return }
            var last: Bytes32?
            for raw in scenario.setUp + scenario.rentals { last = try? await chain.sendRawTransaction(raw) }
            guard let hash = last else { return }
            let handler = NodeRPCHandler(chain: chain)
            let body = Array(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"debug_traceTransaction\",\"params\":[\"\(Hex.encode(hash.bytes))\",\(config)]}".utf8)
            let answer = await handler.handle(body)
            guard String(decoding: answer, as: UTF8.self).contains("\"result\"") else {
                benchmark.error("debug_traceTransaction failed: \(String(decoding: answer.prefix(300), as: UTF8.self))")
                return
            }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(await handler.handle(body)) }
            benchmark.stopMeasurement()
            await chain.close()
        }
    }
}
