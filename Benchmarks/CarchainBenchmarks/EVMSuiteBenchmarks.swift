// ipsilon/evm-benchmarks on carchain's EVM: the main and micro cases interpreter authors compare on (state
// tests filled for London; evmone's evmone-bench runs the same files). The cases are data read from
// EVM_BENCHMARKS_DIR (the repository or its `benchmarks/` folder; `make fetch-evm-benchmarks` fetches it
// into .evm-benchmarks), never copied into this repository.
//
// Before a case is timed, its state test runs through the conformance runner and every post entry must
// match the filled post-state root and logs hash (geth's gas and state, independent truth). Each timed
// iteration is then the transaction's message alone (PrestateCall under London: caller and callee warm,
// no intrinsic gas, 10^9 gas, a fresh copy of the prestate), as tools/bench-evmone.cpp times evmone and
// tools/bench-revm.py revm; every call must succeed with the gas and output of the first, and the samples
// (with the output's Keccak) go to CARCHAIN_BENCH_RESULTS, where tools/bench-compare.py checks gas and
// output against evmone's.

import Benchmark
import Chain
import Conformance
import EVM
import EthereumCrypto
import EthereumPrimitives
import Foundation

func registerEVMSuiteBenchmarks() {
    guard let folder = EVMSuiteCases.folder() else {
        print("SKIPPED: evm-benchmarks cases (set EVM_BENCHMARKS_DIR or run make fetch-evm-benchmarks)")
        return
    }
    let cases: [EVMSuiteCases.Case]
    do { cases = try EVMSuiteCases.load(folder) } catch {
        print("FAILED: evm-benchmarks cases in \(folder): \(error)")
        return
    }
    for suiteCase in cases { registerSuiteCase(suiteCase) }
}

/// The cases of ipsilon/evm-benchmarks, one per transaction input.
enum EVMSuiteCases {
    struct Case {
        /// `main/<test>/<label>`, as evmone-bench names it (and tools/bench-evm-cases.py keys it).
        var key: String
        var call: PrestateCall
        /// Nil when the state test's post entries all match; otherwise what differed.
        var conformanceFailure: String?
    }

    struct LoadError: Error, CustomStringConvertible {
        var description: String
    }

    /// The gas every message gets (the cases' transaction gas limit).
    static let gas: Int64 = 1_000_000_000

    /// EVM_BENCHMARKS_DIR (or its benchmarks/ folder), else the package's .evm-benchmarks.
    static func folder() -> String? {
        var candidates: [String] = []
        if let dir = ProcessInfo.processInfo.environment["EVM_BENCHMARKS_DIR"], !dir.isEmpty { candidates.append(dir) }
        candidates.append(EVMBenchmarkSpec.packageFile(".evm-benchmarks"))
        for base in candidates {
            for folder in [base + "/benchmarks", base] {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder + "/main", isDirectory: &isDirectory), isDirectory.boolValue {
                    return folder
                }
            }
        }
        return nil
    }

    static func load(_ folder: String) throws -> [Case] {
        var cases: [Case] = []
        for group in ["main", "micro"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder + "/" + group)
                .filter { $0.hasSuffix(".json") }.sorted()
            for name in names {
                let path = folder + "/" + group + "/" + name
                guard let bytes = FileManager.default.contents(atPath: path) else { throw LoadError(description: "cannot read \(path)") }
                let tests = try StateTest.parseFile(Array(bytes))
                let labels = try Self.labels(Array(bytes))
                for test in tests {
                    let failures = StateTestRunner().run(test).filter { !$0.pass }
                    let failure = failures.first.map { "\($0.label): \($0.error ?? "failed")" }
                    let sender = try test.transaction.sender ?? PrivateKey(bytes: test.transaction.secretKey).address
                    guard let to = test.transaction.to else { throw LoadError(description: "\(path): no recipient") }
                    for (index, input) in test.transaction.data.enumerated() {
                        let label = labels[test.name]?[String(index)] ?? String(index)
                        let call = PrestateCall(state: test.pre, caller: sender, to: to, input: input, gas: gas, fork: .london)
                        cases.append(Case(key: "\(group)/\(test.name)/\(label)", call: call, conformanceFailure: failure))
                    }
                }
            }
        }
        return cases
    }

    /// `_info.labels` of each test: input index → label.
    static func labels(_ bytes: [UInt8]) throws -> [String: [String: String]] {
        let root = try JSONParser.parse(bytes)
        var result: [String: [String: String]] = [:]
        for (name, test) in root.objectValue ?? [] {
            var labels: [String: String] = [:]
            for (index, label) in test["_info"]?["labels"]?.objectValue ?? [] { labels[index] = label.stringValue }
            result[name] = labels
        }
        return result
    }
}

func registerSuiteCase(_ suiteCase: EVMSuiteCases.Case) {
    let name = "EVM evm-benchmarks \(suiteCase.key) (London)"
    let mgas = BenchmarkMetric.custom("Mgas/s", polarity: .prefersLarger, useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, mgas], timeUnits: .microseconds, warmupIterations: 1,
        maxDuration: .seconds(2), maxIterations: 2_000)
    let buffers = ExecutionBuffers()
    let samples = EVMBenchmarkSamples(key: suiteCase.key)
    let call = suiteCase.call
    Benchmark(name, configuration: configuration) { benchmark in
        if let failure = suiteCase.conformanceFailure {
            benchmark.error("\(suiteCase.key): its state test fails (\(failure))")
            return
        }
        var first: (gas: Int64, output: [UInt8])?
        for _ in benchmark.scaledIterations {
            let (result, nanoseconds, cpu) = timedRun(call, buffers: buffers)
            let used = call.gasUsed(result)
            guard result.isSuccess else {
                benchmark.error("\(suiteCase.key) ended with \(result.status)")
                return
            }
            if let first {
                guard used == first.gas, result.output == first.output else {
                    benchmark.error("\(suiteCase.key): a call differs from the first (gas \(used), expected \(first.gas))")
                    return
                }
            } else {
                first = (used, result.output)
                samples.setOutput(result.output)
            }
            if used > 0 { benchmark.measurement(mgas, Int(Double(used) / Double(nanoseconds) * 1_000)) }
            samples.record(wall: nanoseconds, cpu: cpu, gas: used)
            blackHole(result)
        }
    }
}
