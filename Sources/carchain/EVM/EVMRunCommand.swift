import ArgumentParser
import Chain
import Conformance
import EVM
import EthereumPrimitives
import Foundation

/// `carchain evm run`: executes bytecode, or calls an account of a prestate, like geth's `evm run`.
struct EVMRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Execute bytecode or call a prestate's account; print the output and gas, a trace, or timings.",
        discussion: """
            --code installs the bytecode at \(contractAddress) (or at --to). --prestate loads accounts (code, \
            storage, balance, nonce) from a JSON file: either an object keyed by address, as a state test's \
            `pre`, or an object with such a `pre` member and optionally the call to make (`to`, `input`, \
            `gas`), as ../shared/bench/burntpix.json. The account called is --to, else the file's `to`. \
            The call comes from \(callerAddress); it, the callee and the precompiles start warm; no \
            intrinsic gas is charged and no refund is applied (the gas is what the interpreter used).

            --trace prints one JSON object per instruction (EIP-3155 / geth `evm --json` fields: pc, op, \
            gas, gasCost, memSize, stack, depth, refund, opName), then a summary line. --bench N runs the \
            call N times, each on a fresh copy of the prestate (the same cold storage every time), and \
            prints the minimum and median wall time, the minimum CPU time and Mgas/s at the minimum.

            Examples:
              carchain evm run --code 0x6001600201600055
              carchain evm run --code 0x60003560005260206000f3 --input 0x2a --json
              carchain evm run --code 0x5f5f5f5f5f --fork Shanghai --gas 100 --trace
              carchain evm run --code "$(cat ../shared/bench/snailtracer.runtime.hex)" --input 0x30627b7c \\
                --gas 1000000000 --bench 10
              carchain evm run --prestate ../shared/bench/burntpix.json --bench 10
              carchain evm run --prestate accounts.json --to 0x49206861766520746f6f206d7563682074696d65 \\
                --input 0xa4de9ab4… --gas 30000000
            """
    )

    static let contractAddress = "0xc0de000000000000000000000000000000000000"
    static let callerAddress = "0xca11e40000000000000000000000000000000000"
    static let defaultGas: UInt64 = 10_000_000

    @Option(help: "The bytecode to run, as hex (installed at --to, or at \(contractAddress)).")
    var code: String?

    @Option(help: ArgumentHelp("A JSON file of accounts to start from (a `pre` object, or an object with `pre`, `to`, `input`, `gas`).", valueName: "file"))
    var prestate: String?

    @Option(help: "The account to call (default: the prestate file's `to`, or \(contractAddress) with --code).")
    var to: String?

    @Option(help: "Call data, as hex (default: the prestate file's `input`, else empty).")
    var input: String?

    @Option(help: "The fork whose rules apply (default Cancun).")
    var fork: String = "Cancun"

    @Option(help: "Gas available to the call (default: the prestate file's `gas`, else \(defaultGas); \(OptionRanges.evmGas.text)).")
    var gas: UInt64?

    @Option(help: "Value sent with the call, in wei, decimal or 0x hex (the caller is funded with it; 0 to 2^256-1).")
    var value: String = "0"

    @Flag(help: "Print a struct-log trace, one JSON object per instruction.")
    var trace = false

    @Option(help: "Run the call this many times on fresh copies of the prestate; print min and median time and Mgas/s (\(OptionRanges.bench.text)).")
    var bench: Int?

    @OptionGroup var output: JSONOption

    func validate() throws {
        try OptionRanges.evmGas.check(gas)
        try OptionRanges.bench.check(bench)
        if bench != nil && trace { throw ValidationError("--bench and --trace cannot be combined") }
        do { _ = try UInt256(parsing: value) } catch { throw ValidationError("--value must be 0 to 2^256-1 wei: \(error)") }
    }

    func run() throws {
        let call = try makeCall()
        if let bench {
            try runBench(call, runs: bench)
            return
        }
        let result: ExecutionResult
        if trace {
            (result, _) = call.run(tracer: StructLogTracer(sink: { step in Output.json(step) }))
        } else {
            result = call.run()
        }
        let gasUsed = call.gasUsed(result)
        let summary = RunSummary(
            output: Hex.encode(result.output), gasUsed: "0x" + String(gasUsed, radix: 16),
            error: result.isSuccess ? nil : (result.status.errorDescription ?? "\(result.status)"),
            unsupported: result.unsupportedReason)
        if output.json || trace {
            Output.json(summary)
        } else {
            print("output:   \(summary.output)")
            print("gas used: \(gasUsed)")
            print("status:   \(summary.error ?? "success")")
            if let reason = result.unsupportedReason { print("note:     unsupported: \(reason)") }
        }
    }

    /// The call the options describe: the prestate (if any) with the code (if any) installed, funded caller.
    func makeCall() throws -> PrestateCall {
        guard code != nil || prestate != nil else { throw CLIError("give --code, --prestate or both") }
        let fork = try EVMCommand.fork(fork)
        let value: UInt256
        do { value = try UInt256(parsing: self.value) } catch { throw CLIError("bad --value: \(error)") }
        var target = try to.map { text in
            do { return try Address(text) } catch { throw CLIError("bad address for --to: \(text)") }
        }
        var state = WorldState()
        var fileInput: [UInt8]?
        var fileGas: UInt64?
        if let prestate {
            let bytes = try CLIInput.file(prestate, option: "--prestate", limit: InputFile.bulkLimit)
            let file: PrestateFile
            do { file = try PrestateFile(json: bytes) } catch { throw CLIError("bad --prestate \(prestate): \(error)") }
            state = file.state
            target = target ?? file.to
            fileInput = file.input
            fileGas = file.gas
        }
        if let code {
            let bytes = try EVMCommand.hex(code, option: "--code")
            let address = target ?? (try? Address(Self.contractAddress)) ?? .zero
            var account = state[address] ?? Account()
            account.setCode(bytes)
            state[address] = account
            target = address
        }
        guard let target else { throw CLIError("--prestate \(prestate ?? "") names no account to call: give --to") }
        let input = try input.map { try EVMCommand.hex($0, option: "--input") } ?? fileInput ?? []
        let gas = gas ?? fileGas ?? Self.defaultGas
        guard gas <= UInt64(Int64.max) else { throw CLIError("--gas \(gas) is too large (at most \(Int64.max))") }

        let caller = (try? Address(Self.callerAddress)) ?? .zero
        var funded = state[caller] ?? Account()
        let (balance, overflow) = funded.balance.addingReportingOverflow(value)
        guard !overflow else { throw CLIError("--value \(self.value) overflows the caller's prestate balance") }
        funded.balance = balance
        state[caller] = funded
        return PrestateCall(
            state: state, caller: caller, to: target, input: input, value: value, gas: Int64(gas), fork: fork)
    }

    /// Runs `call` `runs` times on fresh copies of the prestate and prints the timings.
    func runBench(_ call: PrestateCall, runs: Int) throws {
        let buffers = ExecutionBuffers()
        var times: [Double] = []
        var cpuTimes: [Double] = []
        var last: ExecutionResult?
        for _ in 0..<runs {
            let cpuStart = Self.cpuMilliseconds()
            let start = DispatchTime.now().uptimeNanoseconds
            last = call.run(buffers: buffers)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            cpuTimes.append(Self.cpuMilliseconds() - cpuStart)
        }
        times.sort()
        cpuTimes.sort()
        let gasUsed = last.map(call.gasUsed) ?? 0
        let best = times[0]
        let report = BenchReport(
            runs: runs, gasUsed: gasUsed, minMilliseconds: best, medianMilliseconds: times[times.count / 2],
            minCPUMilliseconds: cpuTimes[0], mgasPerSecond: Double(gasUsed) / (best * 1_000),
            status: last.flatMap { $0.isSuccess ? nil : $0.status.errorDescription } ?? "success")
        if output.json {
            Output.json(report)
        } else {
            // Milliseconds, or microseconds for calls shorter than one.
            let (scale, unit) = times[times.count / 2] < 1 ? (1_000.0, "us") : (1.0, "ms")
            func time(_ milliseconds: Double) -> String { String(format: "%.3f ", milliseconds * scale) + unit }
            print(
                "\(runs) runs, gas used \(gasUsed), min \(time(best)), median \(time(report.medianMilliseconds)), "
                    + "min CPU \(time(cpuTimes[0])), " + String(format: "%.1f", report.mgasPerSecond)
                    + " Mgas/s (at min), \(report.status)")
        }
    }

    /// CPU time of this thread in milliseconds (on a shared machine wall time includes waiting for a core).
    static func cpuMilliseconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) * 1e3 + Double(spec.tv_nsec) / 1e6
    }

    struct BenchReport: Encodable {
        let runs: Int
        let gasUsed: Int64
        let minMilliseconds: Double
        let medianMilliseconds: Double
        let minCPUMilliseconds: Double
        let mgasPerSecond: Double
        let status: String
    }

    struct RunSummary: Encodable {
        let output: String
        let gasUsed: String
        let error: String?
        let unsupported: String?
    }
}
