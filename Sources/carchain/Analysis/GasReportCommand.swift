import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation

extension GasReportFormat: ExpressibleByArgument {}

/// `carchain gas-report`: a scenario on an ephemeral deterministic chain, and the gas of every function.
struct GasReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gas-report",
        abstract: "Run a scenario on an ephemeral chain and report the gas of every CarChain function.",
        discussion: """
            The scenario (a JSON file, see docs/SCENARIOS.md; default: the seed's replay) runs on a fresh
            deterministic in-process chain with the project's contract. The report has forge's columns
            (deployment cost and size; per function min, avg, median, max and # calls) and the fee at
            --gas-price, and in fiat with --eth-price. --compare runs the same scenario on another
            artifact (e.g. the seed's) and shows both side by side with the change in percent.

            Examples:
              carchain gas-report --seed-scenario
              carchain gas-report --scenario testdata/scenarios/busy-day.json --format markdown
              carchain gas-report --seed-scenario --compare ../shared/seed-carchain/CarChain.json
              carchain gas-report --seed-scenario --gas-price 20gwei --eth-price 3500 --format json
            """
    )

    @Option(help: "A scenario file (JSON).")
    var scenario: String?

    @Flag(help: "Run the seed's replay scenario (the default when no --scenario is given).")
    var seedScenario = false

    @Option(help: "The fork the chain runs: cancun (default), prague, … (the project's contract needs cancun or later).")
    var hardfork = "cancun"

    @Option(help: "The gas price for fees: an amount with a unit, e.g. 1gwei, 0.5gwei, 30000000000 (wei; 0 to 2^256-1 wei).")
    var gasPrice = "1gwei"

    @Option(help: "The price of one ETH in USD, for a fiat fee column (e.g. 3500 or 3500.25; at most 6 decimals).")
    var ethPrice: String?

    @Option(help: "Output: table, markdown or json.")
    var format: GasReportFormat = .table

    @Option(help: "Another CarChain artifact (JSON with abi, bytecode, deployedBytecode) to run the scenario on and compare.")
    var compare: String?

    @Flag(help: "Also list every step with its outcome and gas.")
    var steps = false

    func validate() throws {
        if scenario != nil && seedScenario { throw ValidationError("give either --scenario FILE or --seed-scenario, not both") }
        do { _ = try GasPricing(gasPrice: gasPrice, ethPrice: ethPrice) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let pricing = try GasPricing(gasPrice: gasPrice, ethPrice: ethPrice)
        let fork = try ScenarioReporting.hardfork(hardfork)
        let scenario = try scenario.map { try Scenario(contentsOf: URL(fileURLWithPath: $0)) } ?? Scenario.seedReplay()
        var baselineArtifact: CarChainArtifact?
        var baselineLabel = ""
        if let compare {
            let bytes = try CLIInput.file(compare, option: "--compare")
            do {
                baselineArtifact = try CarChainArtifact(json: bytes)
            } catch {
                throw CLIError("--compare \(compare): \(error)")
            }
            baselineLabel = baselineArtifact?.flavour == .seed ? "seed" : URL(fileURLWithPath: compare).lastPathComponent
            if baselineLabel == "project" { baselineLabel = "compared" }
        }

        let run = try await ScenarioRunner.run(scenario, artifact: .project, label: "project", hardfork: fork)
        var baselineRun: ScenarioRun?
        if let baselineArtifact {
            baselineRun = try await ScenarioRunner.run(
                scenario, artifact: baselineArtifact, label: baselineLabel, hardfork: fork, checkExpectations: false)
        }

        let title = "Scenario \(scenario.name): \(scenario.steps.count) steps after the deployment, \(fork.name), deterministic in-process chain"
        switch format {
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                ("scenario", .string(scenario.name)), ("hardfork", .string(fork.name)),
            ]
            if let baselineRun {
                let comparison = GasReportComparison(candidate: run.gasReport(), baseline: baselineRun.gasReport())
                members += comparison.jsonValue(pricing: pricing).objectValue ?? []
            } else {
                members += run.gasReport().jsonValue(pricing: pricing).objectValue ?? []
            }
            if steps {
                members.append(("steps", .array(run.steps.map { ScenarioReporting.stepJSON($0, baseline: baselineRun?.steps[$0.number - 1]) })))
            }
            print(JSONValue.object(members).description)
        case .table, .markdown:
            print(format == .markdown ? "**\(title)**\n" : title)
            if steps { print(ScenarioReporting.stepsTable(run, baseline: baselineRun, markdown: format == .markdown)) }
            if let baselineRun {
                print(GasReportComparison(candidate: run.gasReport(), baseline: baselineRun.gasReport()).render(format, pricing: pricing))
            } else {
                print(run.gasReport().render(format, pricing: pricing))
            }
        }
    }
}
