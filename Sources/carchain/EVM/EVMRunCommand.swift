import ArgumentParser
import Chain
import EVM
import EthereumPrimitives
import Foundation

/// `carchain evm run`: executes bytecode as the code of an account, like geth's `evm run`.
struct EVMRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Execute bytecode in a fresh state and print its output and gas (optionally a struct-log trace).",
        discussion: """
            The code is installed at \(contractAddress) and called from \(callerAddress) (both warm), with
            no intrinsic gas charged. --trace prints one JSON object per instruction (EIP-3155 / geth
            `evm --json` fields: pc, op, gas, gasCost, memSize, stack, depth, refund, opName), then a
            summary line.

            Examples:
              carchain evm run --code 0x6001600201600055
              carchain evm run --code 0x60003560005260206000f3 --input 0x2a --json
              carchain evm run --code 0x5f5f5f5f5f --fork Shanghai --gas 100 --trace
              carchain evm run --code "$(cat ../shared/bench/snailtracer.runtime.hex)" --input 0x30627b7c \
                --gas 1000000000 --bench 10
            """
    )

    static let contractAddress = "0xc0de000000000000000000000000000000000000"
    static let callerAddress = "0xca11e40000000000000000000000000000000000"

    @Option(help: "The bytecode, as hex.")
    var code: String

    @Option(help: "Call data, as hex.")
    var input: String = ""

    @Option(help: "The fork whose rules apply (default Cancun).")
    var fork: String = "Cancun"

    @Option(help: "Gas available to the code.")
    var gas: UInt64 = 10_000_000

    @Option(help: "Value sent with the call, in wei (the caller is funded with it).")
    var value: String = "0"

    @Flag(help: "Print a struct-log trace, one JSON object per instruction.")
    var trace = false

    @Option(help: "Run the call this many times on fresh copies of the state; print wall time and Mgas/s.")
    var bench: Int?

    @OptionGroup var output: JSONOption

    func run() throws {
        let code = try EVMCommand.hex(code, option: "--code")
        let input = try EVMCommand.hex(input, option: "--input")
        let fork = try EVMCommand.fork(fork)
        guard gas <= UInt64(Int64.max) else { throw CLIError("--gas \(gas) is too large") }
        let value: UInt256
        do { value = try UInt256(parsing: self.value) } catch { throw CLIError("bad --value: \(error)") }

        let contract = (try? Address(Self.contractAddress)) ?? .zero
        let caller = (try? Address(Self.callerAddress)) ?? .zero
        var state = WorldState()
        state[contract] = Account(code: code)
        state[caller] = Account(balance: value)
        var journaled = JournaledState(state: state)
        let rules = ForkRules(fork)
        if rules.accessLists {
            journaled.prewarm(caller)
            journaled.prewarm(contract)
            for address in Precompiles.addresses(for: fork) { journaled.prewarm(address) }
        }
        let message = Message.call(from: caller, to: contract, value: value, input: input, gas: Int64(gas))
        let block = BlockEnvironment(number: 1, timestamp: 1, gasLimit: max(gas, 30_000_000))
        let environment = TransactionEnvironment(origin: caller, gasPrice: .zero)

        if let bench {
            guard bench > 0, !trace else { throw CLIError("--bench needs a positive count and no --trace") }
            let buffers = ExecutionBuffers()
            var times: [Double] = []
            var cpuTimes: [Double] = []
            var last: ExecutionResult?
            for _ in 0..<bench {
                var interpreter = Interpreter(
                    host: journaled, rules: rules, block: block, transaction: environment, buffers: buffers)
                let cpuStart = Self.cpuMilliseconds()
                let start = DispatchTime.now().uptimeNanoseconds
                last = interpreter.execute(message)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                cpuTimes.append(Self.cpuMilliseconds() - cpuStart)
            }
            times.sort()
            cpuTimes.sort()
            let gasUsed = Int64(gas) - (last?.gasLeft ?? 0)
            let best = times[0]
            let median = times[times.count / 2]
            let report = BenchReport(
                runs: bench, gasUsed: gasUsed, minMilliseconds: best, medianMilliseconds: median,
                minCPUMilliseconds: cpuTimes[0],
                mgasPerSecond: Double(gasUsed) / (best * 1_000), status: last?.status.errorDescription ?? "success")
            if output.json {
                Output.json(report)
            } else {
                print(
                    String(
                        format: "%d runs, gas used %lld, min %.2f ms, median %.2f ms, min CPU %.2f ms, %.1f Mgas/s (at min)",
                        bench, gasUsed, best, median, cpuTimes[0], report.mgasPerSecond))
            }
            return
        }
        let result: ExecutionResult
        if trace {
            let tracer = StructLogTracer(sink: { step in Output.json(step) })
            var interpreter = Interpreter(
                host: journaled, rules: rules, block: block, transaction: environment, tracer: tracer)
            result = interpreter.execute(message)
        } else {
            var interpreter = Interpreter(host: journaled, rules: rules, block: block, transaction: environment)
            result = interpreter.execute(message)
        }
        let gasUsed = Int64(gas) - result.gasLeft
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
