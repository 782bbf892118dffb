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
import EthereumTransactions
import Foundation

func registerEVMBenchmarks() {
    registerCarChainCallBenchmark()
    registerSnailTracerBenchmark()
}

func registerSnailTracerBenchmark() {
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

/// The CarChain rentCar call (contracts/CarChain.json, the project's contract) as one transaction on the
/// executor, in microseconds: a state with the contract, a car and a user with credit is prepared once;
/// each iteration copies it and executes rentCar from the manager (validation, intrinsic gas, the call,
/// refunds, fee payment and EIP-161 clean-up), which must succeed and emit its CarRented log.
func registerCarChainCallBenchmark() {
    guard let key = DevAccounts.standard.first?.privateKey,
        let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 1)
    else {
        print("SKIPPED: EVM CarChain rentCar benchmark (contracts/CarChain.json not readable)")
        return
    }
    let sender = key.address
    var prepared = WorldState(accounts: [sender: Account(balance: UInt256(1_000_000_000_000_000_000 as UInt64) * UInt256(1000))])
    let block = BlockEnvironment(number: 1, timestamp: 1_700_000_000, gasLimit: 30_000_000, baseFee: UInt256(7), chainID: UInt256(4))
    for raw in scenario.setUp {
        guard let signed = try? SignedTransaction.decode(raw),
            let outcome = try? TransactionExecutor.execute(ExecutableTransaction(signed, sender: sender), state: &prepared, block: block, fork: .cancun),
            outcome.isSuccess
        else {
            print("SKIPPED: EVM CarChain rentCar benchmark (the set-up transactions failed)")
            return
        }
    }
    guard let rental = scenario.rentals.first, let signed = try? SignedTransaction.decode(rental) else { return }
    let transaction = ExecutableTransaction(signed, sender: sender)
    let start = prepared
    let buffers = ExecutionBuffers()
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 10, maxDuration: .seconds(3),
        maxIterations: 100_000)
    Benchmark("EVM CarChain rentCar transaction (executor, Cancun)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var state = start
            guard let outcome = try? TransactionExecutor.execute(transaction, state: &state, block: block, fork: .cancun, buffers: buffers),
                outcome.isSuccess, outcome.logs.count == 1
            else {
                benchmark.error("rentCar did not succeed with one log")
                return
            }
            blackHole(outcome)
        }
    }
}
