import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives
import EthereumRPC
import Foundation

extension GasReportFormat: ExpressibleByArgument {}
extension L2DataFee.Mode: ExpressibleByArgument {}

/// `carchain gas-report`: a scenario on an ephemeral deterministic chain (or a node), and the gas of every
/// function — printed, kept as a snapshot, checked against one, priced under several forks, charted.
struct GasReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gas-report",
        abstract: "Run a scenario and report the gas of every function (any contract's, or CarChain's; snapshots, CI checks, forks, L2 fees, charts).",
        discussion: """
            The scenario (a JSON file, see docs/SCENARIOS.md; default: the seed's replay) runs on a fresh \
            deterministic in-process chain with the project's contract (or --artifact's), or against a node \
            with --rpc. The report has forge's columns: Deployment Cost, Deployment Size (the creation \
            transaction's data: creation code and constructor arguments), Runtime Size (the deployed code), \
            and per function min, avg, median, max and # calls, with the fee at --gas-price (and in USD with \
            --eth-price). docs/GAS-REPORT.md describes every option and file format.

            L2 data fee (--l2): the cost of posting each signed transaction to L1, as a rollup does:
              calldata: (16 x non-zero bytes + 4 x zero bytes) x --l1-base-fee
              blob:     ceil(bytes / 31) x 32 blob gas x --blob-base-fee

            --check FILE exits 1 when a function's median or max (a deployment's gas) rose above FILE's by \
            more than --tolerance percent; --diff FILE prints every change with its percentage. Both print the \
            changes instead of the report (as a Markdown table for a pull request with --format markdown).

            A scenario of any contract deploys artifacts (Foundry, Hardhat, vyper, solc output) and calls \
            their functions by signature with typed arguments, from named accounts, with expected outcomes; \
            the report has a table per contract, and every option but --artifact and --compare (CarChain's) \
            applies: with --forks, each contract's functions side by side per fork; --chart draws one bar per \
            contract function.

            Examples:
              carchain gas-report --seed-scenario
              carchain gas-report --scenario testdata/scenarios/contracts-day.json --snapshot .gas-snapshot
              carchain gas-report --scenario testdata/scenarios/busy-day.json --format markdown
              carchain gas-report --scenario testdata/scenarios/contracts-day.json --forks cancun,prague,osaka --l2 blob --chart gas.svg
              carchain gas-report --seed-scenario --compare ../shared/seed-carchain/CarChain.json
              carchain gas-report --seed-scenario --gas-price 20gwei --eth-price 3500 --format json
              carchain gas-report --snapshot .gas-snapshot
              carchain gas-report --check .gas-snapshot --tolerance 1
              carchain gas-report --diff .gas-snapshot --format markdown > gas-diff.md
              carchain gas-report --json gas-report.json
              carchain gas-report --forks cancun,prague,osaka
              carchain gas-report --artifact ../shared/seed-carchain/CarChain.json --forks byzantium,istanbul,berlin,london
              carchain gas-report --l2 blob --blob-base-fee 1gwei
              carchain gas-report --l2 calldata --l1-base-fee 5gwei
              carchain gas-report --chart gas.svg --forks cancun,prague,osaka
              carchain gas-report --rpc http://127.0.0.1:8545 --chain-id 31337
            """
    )

    @Option(help: "A scenario file (JSON): CarChain's operations, or deployments and calls of any contract (docs/SCENARIOS.md).")
    var scenario: String?

    @Flag(help: "Run the seed's replay scenario (the default when no --scenario is given).")
    var seedScenario = false

    @Option(help: ArgumentHelp("A CarChain artifact (JSON with abi, bytecode, deployedBytecode) to report on instead of the project's.", valueName: "file"))
    var artifact: String?

    @Option(help: "The fork the chain runs: cancun (default), prague, osaka, … (the project's contract needs cancun or later; the seed's byzantium).")
    var hardfork: String?

    @Option(help: ArgumentHelp("Run the scenario under each fork (comma-separated, e.g. cancun,prague,osaka) and print them side by side, naming the EIP behind each change.", valueName: "forks"))
    var forks: String?

    @Option(help: "The gas price for fees: an amount with a unit, e.g. 1gwei, 0.5gwei, 30000000000 (wei; 0 to 2^256-1 wei).")
    var gasPrice = "1gwei"

    @Option(help: "The price of one ETH in USD, for a fiat fee column (e.g. 3500 or 3500.25; at most 6 decimals).")
    var ethPrice: String?

    @Option(help: ArgumentHelp("Add an L2 data-fee column: calldata or blob (the formulas are above).", valueName: "mode"))
    var l2: L2DataFee.Mode?

    @Option(help: ArgumentHelp("With --l2 calldata: the L1 base fee per gas (default 1gwei; 0 to 2^256-1 wei).", valueName: "amount"))
    var l1BaseFee: String?

    @Option(help: ArgumentHelp("With --l2 blob: the blob base fee per blob gas (default 1wei; 0 to 2^256-1 wei).", valueName: "amount"))
    var blobBaseFee: String?

    @Option(help: "Output: table, markdown or json.")
    var format: GasReportFormat = .table

    @Option(help: "Another CarChain artifact (JSON with abi, bytecode, deployedBytecode) to run the scenario on and compare.")
    var compare: String?

    @Flag(help: "Also list every step with its outcome and gas.")
    var steps = false

    @Option(help: ArgumentHelp("Write a sorted, line-per-function snapshot (like forge's .gas-snapshot) to this file.", valueName: "file"))
    var snapshot: String?

    @Option(name: .customLong("json"), help: ArgumentHelp("Write the full report as JSON (docs/gas-report.schema.json) to this file.", valueName: "file"))
    var jsonFile: String?

    @Option(help: ArgumentHelp("Compare with this snapshot; exit 1 when a median or max rose beyond --tolerance.", valueName: "file"))
    var check: String?

    @Option(help: ArgumentHelp("With --check: the rise in percent still accepted (default 0; 0 to 1000).", valueName: "pct"))
    var tolerance: Double?

    @Option(help: ArgumentHelp("Print every change against this snapshot, with its percentage.", valueName: "file"))
    var diff: String?

    @Option(help: ArgumentHelp("Write a bar chart (SVG) of median gas per function, per fork with --forks.", valueName: "file.svg"))
    var chart: String?

    @Option(help: ArgumentHelp("Replay the scenario against this node's JSON-RPC URL instead of an in-process chain.", valueName: "url"))
    var rpc: String?

    @Option(help: "With --rpc: the chain id the node must report (default: whatever it reports; \(OptionRanges.chainID.text)).")
    var chainId: UInt64?

    @Option(help: ArgumentHelp("With --rpc: seconds each request and each receipt may take (\(OptionRanges.timeout.text)).", valueName: "seconds"))
    var timeout: Double = 30

    func validate() throws {
        try GasReportValidation(self).check()
    }

    func run() async throws {
        if let path = scenario, let contractScenario = try ContractScenarioGasReport.load(path) {
            try await ContractScenarioGasReport(command: self, scenario: contractScenario).execute()
            return
        }
        let plan = try GasReportPlan(self)
        try await plan.execute()
    }
}
