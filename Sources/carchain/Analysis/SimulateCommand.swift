import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain simulate`: a seeded random workload on an ephemeral chain, checked against the model; with `--spec`, any
/// contract's declared actions and invariants (SpecSimulation).
struct SimulateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run seeded random calls on an in-process chain and check invariants: CarChain against its model, or any contract with --spec.",
        discussion: """
            Without --spec: users register (from their own accounts or at the manager's desk), cars \
            are registered, credit is added, cars are rented and returned — with refusals mixed in. \
            After every step the chain's outcome (success and events, or the revert reason) and the \
            views it could change are compared with CarChainModel; any difference stops the run with \
            the step, the operation and both answers (exit status 1). The same seed gives the same \
            final state root on every run and machine.

            With --spec FILE: any contract. The file (docs/SCENARIOS.md, "Simulating any contract") \
            is a scenario that deploys and sets up, plus the actors, the actions they take (functions \
            by signature with argument generators, time skips) and the invariants (a view compared \
            with a constant, another view or a sum over the actors; a view that must not revert). \
            Each of --runs sequences of up to --depth random steps starts from the set-up, with the \
            invariants checked before the first step and after every one; reverted steps are skipped. \
            A broken invariant is shrunk to the smallest sequence that still breaks it and printed \
            with its seed, as a replay file (--replay) and as Swift (exit status 1).

            Examples:
              carchain simulate --seed 42
              carchain simulate --seed 7 --users 20 --cars 8 --steps 2000
              carchain simulate --seed 42 --json
              carchain simulate --spec erc20-supply.json --runs 50 --depth 100 --seed 1
              carchain simulate --spec feevault.json --replay replay.json
            """
    )

    @Option(help: "A simulation spec of any contract (a JSON file; docs/SCENARIOS.md).")
    var spec: String?

    @Option(help: "The seed (0 to 18446744073709551615). Required without --spec; with --spec, default a random seed (printed).")
    var seed: UInt64?

    @Option(help: "With --spec: random sequences to run (\(OptionRanges.runs.text); default the file's \"runs\", else 100).")
    var runs: Int?

    @Option(help: "With --spec: steps per sequence, at most (\(OptionRanges.depth.text); default the file's \"depth\", else 50).")
    var depth: Int?

    @Option(help: "With --spec: run the steps of this replay file (as a failed run prints it) instead of random sequences.")
    var replay: String?

    @Option(help: "How many user ids (\(OptionRanges.users.text); default 6). Without --spec only.")
    var users: Int?

    @Option(help: "How many cars (\(OptionRanges.cars.text); default 4). Without --spec only.")
    var cars: Int?

    @Option(help: "How many transactions after the deployment (\(OptionRanges.steps.text); default 300). Without --spec only.")
    var steps: Int?

    @Option(help: "The fork the chain runs (cancun or later).")
    var hardfork = "cancun"

    @Option(help: "The gas price for the report's fees, e.g. 1gwei (\(AmountOption.text); default 1gwei). Without --spec only.")
    var gasPrice: String?

    @Option(help: "The price of one ETH in USD, for a fiat fee column (a decimal with at most 6 decimals, e.g. 3500.25). Without --spec only.")
    var ethPrice: String?

    @OptionGroup var output: JSONOption

    func validate() throws {
        if spec == nil {
            guard seed != nil else { throw ValidationError("--seed is required (or give --spec FILE to simulate any contract)") }
            for (given, option) in [(runs != nil, "--runs"), (depth != nil, "--depth"), (replay != nil, "--replay")] where given {
                throw ValidationError("\(option) applies to --spec only")
            }
        } else {
            let carChainOnly = [(users != nil, "--users"), (cars != nil, "--cars"), (steps != nil, "--steps"), (gasPrice != nil, "--gas-price"), (ethPrice != nil, "--eth-price")]
            for (given, option) in carChainOnly where given {
                throw ValidationError("\(option) applies to the CarChain simulation (without --spec)")
            }
            if replay != nil {
                for (given, option) in [(runs != nil, "--runs"), (depth != nil, "--depth"), (seed != nil, "--seed")] where given {
                    throw ValidationError("\(option) applies to random runs, not --replay (a replay's steps are fixed)")
                }
            }
        }
        try OptionRanges.users.check(users)
        try OptionRanges.cars.check(cars)
        try OptionRanges.steps.check(steps)
        try OptionRanges.runs.check(runs)
        try OptionRanges.depth.check(depth)
        do { _ = try GasPricing(gasPrice: gasPrice ?? "1gwei", ethPrice: ethPrice) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        if let spec {
            try await SpecSimulation(command: self, path: spec).execute()
            return
        }
        let pricing = try GasPricing(gasPrice: gasPrice ?? "1gwei", ethPrice: ethPrice)
        let options = SimulationOptions(
            seed: seed ?? 0, users: users ?? 6, cars: cars ?? 4, steps: steps ?? 300, hardfork: try ScenarioReporting.hardfork(hardfork))
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1)
        let clock = ContinuousClock()
        let start = clock.now
        let report: SimulationReport
        do {
            report = try await CarChainSimulation.run(options) { done, total in bar.update(done, total) }
        } catch {
            bar.clear()
            throw error
        }
        bar.clear()
        let elapsed = clock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if output.json {
            printJSON(report, seconds: seconds, pricing: pricing)
        } else {
            printText(report, seconds: seconds, pricing: pricing)
        }
    }

    private func printText(_ report: SimulationReport, seconds: Double, pricing: GasPricing) {
        let o = report.options
        let rate = seconds > 0 ? Double(o.steps) / seconds : 0
        print(
            "Simulated \(o.steps) steps (seed \(o.seed), \(o.users) users, \(o.cars) cars) on \(o.hardfork.name) in "
                + String(format: "%.2f s (%.0f steps/s)", seconds, rate) + ".")
        print("Chain and model agreed on every outcome, every event and \(report.readsChecked) view reads.")
        print("")
        var width = "Operation".count
        for op in report.operations { width = max(width, op.name.count) }
        func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }
        func lpad(_ s: String, _ n: Int) -> String { String(repeating: " ", count: max(0, n - s.count)) + s }
        print(pad("Operation", width) + "  " + lpad("ok", 6) + "  " + lpad("reverted", 8) + "  " + lpad("total", 6))
        var ok = 0
        var reverted = 0
        for op in report.operations {
            ok += op.succeeded
            reverted += op.reverted
            print(pad(op.name, width) + "  " + lpad(String(op.succeeded), 6) + "  " + lpad(String(op.reverted), 8) + "  " + lpad(String(op.succeeded + op.reverted), 6))
        }
        print(pad("all", width) + "  " + lpad(String(ok), 6) + "  " + lpad(String(reverted), 8) + "  " + lpad(String(ok + reverted), 6))
        if !report.revertReasons.isEmpty {
            print("")
            print("Refusals: " + report.revertReasons.map { "\($0.reason) ×\($0.count)" }.joined(separator: ", "))
        }
        print("")
        let c = report.finalCounters
        print("Final state: \(c.users) users, \(c.cars) cars, \(c.rented) rented; block \(report.blockNumber); state root \(report.stateRoot)")
        print("")
        print(report.gasReport.render(.table, pricing: pricing))
    }

    private func printJSON(_ report: SimulationReport, seconds: Double, pricing: GasPricing) {
        let o = report.options
        let c = report.finalCounters
        let value: JSONValue = .object([
            ("seed", .number(String(o.seed))), ("users", .number(String(o.users))), ("cars", .number(String(o.cars))),
            ("steps", .number(String(o.steps))), ("hardfork", .string(o.hardfork.name)),
            ("elapsedSeconds", .number(String(format: "%.3f", seconds))), ("agreed", .bool(true)),
            ("readsChecked", .number(String(report.readsChecked))),
            (
                "operations",
                .object(report.operations.map { ($0.name, .object([("succeeded", .number(String($0.succeeded))), ("reverted", .number(String($0.reverted)))])) })
            ),
            ("revertReasons", .object(report.revertReasons.map { ($0.reason, .number(String($0.count))) })),
            (
                "final",
                .object([
                    ("registeredUsers", .string(c.users.description)), ("registeredCars", .string(c.cars.description)),
                    ("rentedCars", .string(c.rented.description)),
                ])
            ),
            ("blockNumber", .number(String(report.blockNumber))), ("stateRoot", .string(report.stateRoot.description)),
            ("gasReport", report.gasReport.jsonValue(pricing: pricing)),
        ])
        print(value.description)
    }
}

/// A one-line progress bar on stderr, redrawn in place; silent when stderr is not a terminal.
final class ProgressBar: @unchecked Sendable {
    private let enabled: Bool
    private let unit: String
    private let lock = NSLock()
    private var lastDrawn = -1

    init(enabled: Bool, unit: String = "steps") {
        self.enabled = enabled
        self.unit = unit
    }

    func update(_ done: Int, _ total: Int) {
        guard enabled, total > 0 else { return }
        let width = 40
        let filled = done * width / total
        let percent = done * 100 / total
        lock.lock()
        defer { lock.unlock() }
        // Redraw only when the visible state changes (each percent), not on every step.
        guard percent != lastDrawn || done == total else { return }
        lastDrawn = percent
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] \(done)/\(total) \(unit)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func clear() {
        guard enabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8))
    }
}
