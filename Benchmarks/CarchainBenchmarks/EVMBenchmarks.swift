// EVM benchmarks: the standard interpreter benchmarks (SnailTracer, revm's `analysis` and BurntPix; inputs
// in ../shared/bench, see its README), a CALL-heavy contract (Benchmarks/EVMData/callheavy.json) and the
// CarChain rentCar transaction on the executor.
//
// Each iteration runs one message (PrestateCall: caller, callee and precompiles warm, no intrinsic gas) on
// a fresh copy of the prestate under Cancun, so every run sees the same cold storage, and checks the gas
// it used. tools/bench-revm.py runs the same calls on revm (pyrevm) and `make bench` (tools/bench.sh)
// prints both with the ratio. With CARCHAIN_BENCH_RESULTS set to a directory, each benchmark also writes
// its per-call wall and CPU times there (EVMBenchmarkSamples) for that comparison.

import Benchmark
import Chain
import Conformance
import EVM
import EthereumPrimitives
import EthereumTransactions
import Foundation

func registerEVMBenchmarks() {
    registerCarChainCallBenchmark()
    for spec in EVMBenchmarkSpec.all { registerMessageBenchmark(spec) }
    registerEVMSuiteBenchmarks()
}

/// One message benchmark: where its prestate comes from and the gas it must use.
struct EVMBenchmarkSpec {
    /// The package-benchmark name.
    var name: String
    /// The key shared with tools/bench-revm.py and tools/bench.sh.
    var key: String
    /// Builds the call, or nil (with the reason) when the input is missing.
    var load: () -> Result<PrestateCall, BenchmarkInputMissing>
    /// Gas the message must use (revm agrees: tools/bench-revm.py checks its side).
    var expectedGas: Int64
    /// Analyse the code again on every call (an empty code cache), as revm 8 does.
    var coldCodeCache = false
    var timeUnits: BenchmarkTimeUnits = .milliseconds
    var maxIterations = 20

    static let caller = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xca]) ?? .zero
    static let codeAddress = Address(bytes: [UInt8](repeating: 0, count: 19) + [0xc0]) ?? .zero

    static var all: [EVMBenchmarkSpec] {
        [
            EVMBenchmarkSpec(
                name: "EVM SnailTracer (Cancun)", key: "snailtracer",
                load: { codeCall("snailtracer.runtime.hex", input: [0x30, 0x62, 0x7b, 0x7c]) },
                expectedGas: 165_962_868),
            EVMBenchmarkSpec(
                name: "EVM analysis (Cancun, code analysed on every call)", key: "analysis",
                load: { codeCall("analysis.runtime.hex", input: [0x80, 0x35, 0xf0, 0xce]) },
                expectedGas: 12_685, coldCodeCache: true, timeUnits: .microseconds, maxIterations: 100_000),
            EVMBenchmarkSpec(
                name: "EVM analysis (Cancun, analysed code cached)", key: "analysis-cached",
                load: { codeCall("analysis.runtime.hex", input: [0x80, 0x35, 0xf0, 0xce]) },
                expectedGas: 12_685, timeUnits: .microseconds, maxIterations: 100_000),
            // 159,033,567 with the transaction's 21,344 intrinsic gas (../shared/bench/README.md; evmone agrees).
            EVMBenchmarkSpec(
                name: "EVM BurntPix (Cancun)", key: "burntpix", load: { prestateCall(sharedBench("burntpix.json")) },
                expectedGas: 159_012_223),
            EVMBenchmarkSpec(
                name: "EVM CALL-heavy, 100,000 calls (Cancun)", key: "callheavy",
                load: { prestateCall(packageFile("Benchmarks/EVMData/callheavy.json")) }, expectedGas: 18_302_511),
            // EIP-7939's CLZ in a loop: PUSH3 100000, then JUMPDEST DUP1 CLZ POP PUSH1 1 SWAP1 SUB DUP1 PUSH1 4
            // JUMPI, STOP. 36 gas per iteration (CLZ costs 5) + 3 = 3,600,003. Osaka only, so no revm figure
            // (pyrevm 0.3.7's revm stops at Cancun).
            EVMBenchmarkSpec(
                name: "EVM CLZ loop, 100,000 CLZ (Osaka)", key: "clz",
                load: {
                    let code: [UInt8] = [
                        0x62, 0x01, 0x86, 0xa0, 0x5b, 0x80, 0x1e, 0x50, 0x60, 0x01, 0x90, 0x03, 0x80, 0x60, 0x04, 0x57, 0x00,
                    ]
                    let state = WorldState(accounts: [codeAddress: Account(code: code), caller: Account()])
                    return .success(PrestateCall(state: state, caller: caller, to: codeAddress, gas: 10_000_000, fork: .osaka))
                },
                expectedGas: 3_600_003, timeUnits: .microseconds, maxIterations: 1_000),
            // The set-up every iteration pays (fresh state, interpreter, frame): the baseline for the
            // malloc counts of the others, which shows the interpreter loop allocates nothing.
            EVMBenchmarkSpec(
                name: "EVM STOP call (set-up only, Cancun)", key: "stop",
                load: { .success(PrestateCall(state: WorldState(accounts: [codeAddress: Account(code: [0x00])]),
                                              caller: caller, to: codeAddress, gas: 1_000_000, fork: .cancun)) },
                expectedGas: 0, timeUnits: .microseconds, maxIterations: 100_000),
        ]
    }

    static func sharedBench(_ file: String) -> String {
        (ProcessInfo.processInfo.environment["CARCHAIN_SHARED_DIR"] ?? "../shared") + "/bench/" + file
    }

    static func packageFile(_ path: String) -> String {
        // This file is Benchmarks/CarchainBenchmarks/EVMBenchmarks.swift in the package.
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(path).path
    }

    static func codeCall(_ file: String, input: [UInt8]) -> Result<PrestateCall, BenchmarkInputMissing> {
        let path = sharedBench(file)
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let code = try? Hex.decode(text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { return .failure(BenchmarkInputMissing(path: path)) }
        let state = WorldState(accounts: [codeAddress: Account(code: code), caller: Account()])
        return .success(PrestateCall(state: state, caller: caller, to: codeAddress, input: input, gas: 1_000_000_000, fork: .cancun))
    }

    static func prestateCall(_ path: String) -> Result<PrestateCall, BenchmarkInputMissing> {
        guard let data = FileManager.default.contents(atPath: path), let file = try? PrestateFile(json: Array(data)),
            let to = file.to, let gas = file.gas, gas <= UInt64(Int64.max)
        else { return .failure(BenchmarkInputMissing(path: path)) }
        return .success(
            PrestateCall(state: file.state, caller: caller, to: to, input: file.input ?? [], gas: Int64(gas), fork: .cancun))
    }
}

struct BenchmarkInputMissing: Error {
    var path: String
}

func registerMessageBenchmark(_ spec: EVMBenchmarkSpec) {
    let call: PrestateCall
    switch spec.load() {
    case .success(let loaded): call = loaded
    case .failure(let missing):
        print("SKIPPED: \(spec.name) (no readable \(missing.path); set CARCHAIN_SHARED_DIR)")
        return
    }
    let mgas = BenchmarkMetric.custom("Mgas/s", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, mgas], timeUnits: spec.timeUnits, warmupIterations: 1,
        maxDuration: .seconds(spec.maxIterations > 100 ? 3 : 10), maxIterations: spec.maxIterations)
    let buffers = ExecutionBuffers()
    let samples = EVMBenchmarkSamples(key: spec.key)
    Benchmark(spec.name, configuration: configuration) { benchmark in
        var outputRecorded = false
        for _ in benchmark.scaledIterations {
            if spec.coldCodeCache { buffers.removeAnalyzedCode() }
            let (result, nanoseconds, cpu) = timedRun(call, buffers: buffers)
            let used = call.gasUsed(result)
            guard result.isSuccess, used == spec.expectedGas else {
                benchmark.error("\(spec.key) used \(used) gas (status \(result.status)), expected \(spec.expectedGas)")
                return
            }
            if !outputRecorded {
                samples.setOutput(result.output)
                outputRecorded = true
            }
            if used > 0 { benchmark.measurement(mgas, Int(Double(used) / Double(nanoseconds) * 1_000)) }
            samples.record(wall: nanoseconds, cpu: cpu, gas: used)
            blackHole(result)
        }
    }
}

/// Runs `call` once: the result, and the wall and thread-CPU nanoseconds the run took.
@inline(__always)
func timedRun(_ call: PrestateCall, buffers: ExecutionBuffers) -> (ExecutionResult, UInt64, UInt64) {
    let cpuStart = EVMBenchmarkSamples.threadCPUNanoseconds()
    let start = DispatchTime.now().uptimeNanoseconds
    let result = call.run(buffers: buffers)
    let nanoseconds = DispatchTime.now().uptimeNanoseconds - start
    return (result, nanoseconds, EVMBenchmarkSamples.threadCPUNanoseconds() - cpuStart)
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
    let samples = EVMBenchmarkSamples(key: "rentcar")
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 10, maxDuration: .seconds(3),
        maxIterations: 100_000)
    Benchmark("EVM CarChain rentCar transaction (executor, Cancun)", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var state = start
            let clock = DispatchTime.now().uptimeNanoseconds
            guard let outcome = try? TransactionExecutor.execute(transaction, state: &state, block: block, fork: .cancun, buffers: buffers),
                outcome.isSuccess, outcome.logs.count == 1
            else {
                benchmark.error("rentCar did not succeed with one log")
                return
            }
            samples.record(wall: DispatchTime.now().uptimeNanoseconds - clock, cpu: 0, gas: Int64(outcome.gasUsed))
            blackHole(outcome)
        }
    }
}
