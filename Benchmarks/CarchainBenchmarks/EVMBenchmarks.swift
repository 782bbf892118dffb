// EVM benchmarks: SnailTracer, the ray tracer that EVM implementations use as their standard
// interpreter benchmark (/work/shared/bench/README.md; runtime code from bluealloy/revm).
//
// One iteration installs the code in a fresh in-memory state and calls Benchmark() (selector
// 0x30627b7c) with 1,000,000,000 gas under Cancun; it must use exactly 165,962,868 gas (py-evm's
// figure for the same call). Reported: wall time per call and, as a custom metric, Mgas/s.
// tools/bench-pyevm-snailtracer.py times py-evm on the same call for the ratio.

import Benchmark
import Chain
import EVM
import EthereumPrimitives
import Foundation

func registerEVMBenchmarks() {
    let path = ProcessInfo.processInfo.environment["CARCHAIN_SHARED_DIR"].map { $0 + "/bench/snailtracer.runtime.hex" }
        ?? "../shared/bench/snailtracer.runtime.hex"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
        let code = try? Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
    else {
        print("SKIPPED: EVM SnailTracer benchmark (no \(path); set CARCHAIN_SHARED_DIR)")
        return
    }
    let expectedGas: Int64 = 165_962_868
    let gasLimit: Int64 = 1_000_000_000
    let contract = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xc0]) ?? .zero
    let caller = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xca]) ?? .zero
    let state = WorldState(accounts: [contract: Account(code: code), caller: Account()])
    let rules = ForkRules(.cancun)
    let block = BlockEnvironment(number: 1, timestamp: 1, gasLimit: 30_000_000)
    let environment = TransactionEnvironment(origin: caller)
    let buffers = ExecutionBuffers()

    func call() -> ExecutionResult {
        var host = JournaledState(state: state)
        host.prewarm(caller)
        host.prewarm(contract)
        var interpreter = Interpreter(host: host, rules: rules, block: block, transaction: environment, buffers: buffers)
        return interpreter.execute(.call(from: caller, to: contract, input: [0x30, 0x62, 0x7b, 0x7c], gas: gasLimit))
    }

    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .custom("Mgas/s", polarity: .prefersLarger, useScalingFactor: false)],
        timeUnits: .milliseconds,
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20
    )
    Benchmark("EVM SnailTracer (Cancun)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = call()
            let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
            let used = gasLimit - result.gasLeft
            guard result.isSuccess, used == expectedGas else {
                benchmark.error("SnailTracer used \(used) gas (status \(result.status)), expected \(expectedGas)")
                return
            }
            benchmark.measurement(.custom("Mgas/s", polarity: .prefersLarger, useScalingFactor: false),
                Int(Double(used) / Double(nanoseconds) * 1_000))
            blackHole(result)
        }
    }
}
