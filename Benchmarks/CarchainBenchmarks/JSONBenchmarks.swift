import Benchmark
import EthereumPrimitives

/// The JSON parser on what the dev node parses per request (an `eth_call` body, an `eth_sendRawTransaction`
/// body, a batch of 100 calls) and on a state-test fixture's kind of text (long hex strings).
func registerJSONBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock, .throughput, .mallocCountTotal], maxDuration: .seconds(2))
    let call = Array(
        #"{"jsonrpc":"2.0","id":1,"method":"eth_call","params":[{"to":"0x5fbdb2315678afecb367f032d93f642f64180aa3","data":"0x2e5e6b9e00000000000000000000000000000000000000000000000000000000000000200000000000000000000000000000000000000000000000000000000000000006757365722d370000000000000000000000000000000000000000000000000000"},"latest"]}"#
            .utf8)
    let raw = Array(("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"eth_sendRawTransaction\",\"params\":[\"0x" + String(repeating: "ab", count: 180) + "\"]}").utf8)
    let batch = Array(("[" + Array(repeating: String(decoding: call, as: UTF8.self), count: 100).joined(separator: ",") + "]").utf8)
    let code = Array(("{\"code\":\"0x" + String(repeating: "60016001", count: 16_384) + "\",\"storage\":{}}").utf8)

    Benchmark("JSON parse eth_call request body", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? JSONParser.parse(call)) }
    }
    Benchmark("JSON parse eth_sendRawTransaction body", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? JSONParser.parse(raw)) }
    }
    Benchmark("JSON parse batch of 100 eth_call", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? JSONParser.parse(batch)) }
    }
    Benchmark("JSON parse 64 KiB hex string (fixture code)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try? JSONParser.parse(code)) }
    }
}
