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

    struct RunSummary: Encodable {
        let output: String
        let gasUsed: String
        let error: String?
        let unsupported: String?
    }
}
