import CarChainKit
import ContractScenarios
import EthereumContracts
import EthereumPrimitives
import EthereumRPC
import Foundation

/// `carchain gas-report --scenario FILE` for a scenario of any contract (docs/SCENARIOS.md, "Scenarios for any
/// contract"): the file's deployments and calls on a fresh deterministic in-process chain per fork (or a node with --rpc),
/// and a report per contract in forge's columns, with the fork comparison, L2 fee, chart, snapshot, check, diff and JSON
/// outputs of CarChain's reports.
struct ContractScenarioGasReport {
    let command: GasReportCommand
    let scenario: ContractScenario

    /// The scenario at `path` when it is one of this format (a step deploys or calls); nil for CarChain's format (or
    /// text that is not JSON, which CarChain's reader reports with its line and column).
    static func load(_ path: String) throws -> ContractScenario? {
        let bytes = try CLIInput.file(path, option: "--scenario")
        guard let document = try? JSONValue(parsing: bytes), ContractScenario.isContractScenario(document) else { return nil }
        let url = URL(fileURLWithPath: path)
        do {
            return try ContractScenario(
                document: document, source: url.lastPathComponent, defaultName: url.deletingPathExtension().lastPathComponent,
                directory: url.deletingLastPathComponent())
        } catch { throw CLIError(error.description) }
    }

    /// The options that belong to CarChain's scenarios only (another CarChain artifact to run or compare).
    func refuseCarChainOptions() throws {
        let c = command
        let refused: [(Bool, String)] = [(c.artifact != nil, "--artifact"), (c.compare != nil, "--compare")]
        if let (_, option) = refused.first(where: { $0.0 }) {
            throw CLIError("\(option) applies to CarChain scenarios; \(scenario.name) deploys its own contracts (docs/SCENARIOS.md)")
        }
    }

    /// The forks to run in process: --forks, else --hardfork, else cancun; oldest first.
    func forks() throws -> [Hardfork] {
        let names = try command.forks.map { try GasReportValidation.forkNames($0) } ?? [command.hardfork ?? "cancun"]
        return try names.map { name throws in
            guard let fork = Hardfork(name: name) else {
                throw CLIError("--hardfork: unknown hardfork \(String(reflecting: name)) (e.g. london, shanghai, cancun, prague, osaka)")
            }
            return fork
        }.sorted()
    }

    /// One run of the scenario (under a fork in process, or against a node) and a report per contract it deployed.
    struct ForkRun {
        var fork: Hardfork?
        var run: ContractScenarioRun
        var reports: [GasReport]
    }

    func execute() async throws {
        try refuseCarChainOptions()
        let pricing = try GasPricing(gasPrice: command.gasPrice, ethPrice: command.ethPrice)
        let l2 = try GasReportValidation.l2Fee(command)
        let diffBaseline = try command.diff.map { try GasReportPlan.readSnapshot($0, option: "--diff") }
        let checkBaseline = try command.check.map { try GasReportPlan.readSnapshot($0, option: "--check") }
        let keys: [(name: String, key: PrivateKey)]
        do { keys = try scenario.accounts.map { ($0.name, try $0.privateKey()) } } catch {
            throw CLIError("scenario \(scenario.name): an account's key: \(error)")
        }
        let addresses = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0.key.address) })
        guard let deployer = addresses[scenario.deployer] else { throw CLIError("scenario \(scenario.name): no deployer \(scenario.deployer)") }

        var runs: [ForkRun] = []
        let source: GasReportDocument.Source
        let origin: String
        if let url = command.rpc {
            let client = try RPCClient(url: url, timeout: command.timeout)
            let (backend, node, signedBytes) = try await ScenarioRPCRunner.signingBackend(
                accounts: keys, client: client, expectedChainID: command.chainId, receiptTimeout: command.timeout)
            let run = try await scenarioRun(fork: nil) { try await scenario.run(backend: backend, addresses: addresses) }
            let reports = try await Self.reports(run) { name, outcome, _ in
                GasObservation(
                    function: name, gasUsed: outcome.gasUsed, succeeded: outcome.succeeded,
                    encoded: await signedBytes(outcome.transactionHash).map(TransactionBytes.init))
            }
            runs = [ForkRun(fork: nil, run: run, reports: reports)]
            source = .rpc(node)
            origin = "against \(GasReportDocument.origin(url)) (chain \(node.chainID)\(node.clientVersion.map { ", \($0)" } ?? ""))"
        } else {
            let forks = try forks()
            for fork in forks {
                let (chain, backend) = try await ScenarioRunner.inProcessChain(
                    keys: keys.map(\.key), sender: deployer, hardfork: fork, deploymentGasLimit: ContractScenario.defaultGasLimit,
                    callGasLimit: ContractScenario.defaultGasLimit)
                do {
                    let run = try await scenarioRun(fork: forks.count > 1 ? fork : nil) {
                        try await scenario.run(backend: backend, addresses: addresses)
                    }
                    // Several forks: each transaction's gas split by component, so a change names the EIP behind it.
                    let observer = ChainGasObserver(chain: chain, fork: fork, trace: forks.count > 1)
                    let reports = try await Self.reports(run) { name, outcome, deposited in
                        try await observer.observe(name, outcome, depositedCodeSize: deposited, capped: false)
                    }
                    runs.append(ForkRun(fork: fork, run: run, reports: reports))
                    await chain.close()
                } catch {
                    await chain.close()
                    throw error
                }
            }
            source = .inProcess
            origin = "\(forks.map(\.name).joined(separator: ", ")), deterministic in-process chain"
        }
        guard let first = runs.first, !first.reports.isEmpty else {
            throw CLIError("scenario \(scenario.name): no contract was deployed, so there is nothing to report")
        }
        // Per contract (in the first run's deployment order), its report under each fork.
        let contracts: [(name: String, reports: [(fork: Hardfork?, report: GasReport)])] = first.reports.map { report in
            (report.contract, runs.compactMap { run in run.reports.first { $0.contract == report.contract }.map { (run.fork, $0) } })
        }
        let snapshot = GasSnapshot(contractReports: runs.flatMap { run in run.reports.map { (run.fork, $0) } })
        if let path = command.snapshot { try GasReportPlan.write(snapshot.text, to: path, option: "--snapshot") }
        if let path = command.jsonFile {
            let document = GasReportDocument.json(
                scenarioName: scenario.name, steps: scenario.steps.count, source: source, contracts: contracts, pricing: pricing, l2: l2)
            try GasReportPlan.write(document.description + "\n", to: path, option: "--json")
        }
        if let path = command.chart {
            // One bar per contract function (`Name.function`), one series per fork.
            let chart = GasChart(
                title: "Gas: scenario \(scenario.name)",
                series: runs.map { run in
                    GasChart.Series(
                        label: run.fork?.name ?? "node",
                        medians: Dictionary(
                            run.reports.flatMap { report in report.functions.map { ("\(report.contract).\($0.name)", $0.median) } },
                            uniquingKeysWith: { a, _ in a }))
                })
            try GasReportPlan.write(chart.svg, to: path, option: "--chart")
        }
        if checkBaseline != nil || diffBaseline != nil {
            try GasReportPlan.printChanges(command, snapshot, diffBaseline: diffBaseline, checkBaseline: checkBaseline)
            return
        }
        let title = "Scenario \(scenario.name): \(scenario.steps.count) steps, \(contracts.count) contract\(contracts.count == 1 ? "" : "s"), \(origin)"
        // Several forks (in process, so every run has one): each contract's reports side by side.
        let sideBySide: [(name: String, report: ForkGasReport)] = runs.count > 1
            ? contracts.map { contract in
                (contract.name, ForkGasReport(reports: contract.reports.compactMap { entry in entry.fork.map { (fork: $0, report: entry.report) } }))
            }
            : []
        switch command.format {
        case .json:
            var members: [(key: String, value: JSONValue)] = [("scenario", .string(scenario.name))]
            if !sideBySide.isEmpty {
                members.append(("forks", .array(runs.compactMap { $0.fork.map { .string($0.name) } })))
                members.append(
                    ("contracts", .array(sideBySide.map { .object([("name", .string($0.name))] + ($0.report.jsonValue(pricing: pricing, l2: l2).objectValue ?? [])) })))
            } else {
                members.append(("hardfork", first.fork.map { .string($0.name) } ?? .null))
                members.append(
                    ("contracts", .array(first.reports.map { .object([("name", .string($0.contract))] + ($0.jsonValue(pricing: pricing, l2: l2).objectValue ?? [])) })))
                if command.steps { members.append(("steps", .array(first.run.steps.map(Self.stepJSON)))) }
            }
            print(JSONValue.object(members).description)
        case .table, .markdown:
            let markdown = command.format == .markdown
            print(markdown ? "**\(title)**\n" : title)
            if !sideBySide.isEmpty {
                for contract in sideBySide {
                    print(markdown ? "**\(contract.name)**\n" : contract.name)
                    print(contract.report.render(command.format, pricing: pricing, l2: l2))
                }
            } else {
                if command.steps { print(Self.stepsTable(first.run, markdown: markdown)) }
                for report in first.reports { print(report.render(command.format, pricing: pricing, l2: l2)) }
            }
        }
    }

    /// A report per contract `run` deployed: its deployment and every call to it, each observed by `observe` (function
    /// name, receipt, the code a deployment left).
    static func reports(
        _ run: ContractScenarioRun, observe: (String, EthereumContracts.TransactionOutcome, Int) async throws -> GasObservation
    ) async throws -> [GasReport] {
        var reports: [GasReport] = []
        for contract in run.contracts {
            let deployment = try await observe(GasSnapshot.deploymentName, contract.deployment, contract.runtimeSize)
            var observations: [GasObservation] = []
            for call in run.calls(to: contract.name) { observations.append(try await observe(call.function, call.outcome, 0)) }
            reports.append(
                GasReport(
                    contract: contract.name, deploymentGas: contract.deployment.gasUsed, deploymentSize: contract.creationSize,
                    runtimeSize: contract.runtimeSize, deployment: deployment, observations: observations))
        }
        return reports
    }

    /// Runs the scenario; a failed expectation or a step that cannot be sent ends in one line (naming the fork when
    /// several run).
    func scenarioRun(fork: Hardfork?, _ body: () async throws -> ContractScenarioRun) async throws -> ContractScenarioRun {
        do { return try await body() } catch let error as ContractScenarioError {
            throw CLIError((fork.map { "under \($0.name): " } ?? "") + error.description)
        }
    }

    static func stepJSON(_ step: ContractScenarioStepResult) -> JSONValue {
        .object([
            ("step", .number(String(step.number))), ("label", .string(step.step.label ?? step.step.summary)), ("contract", .string(step.step.contract)),
            ("function", .string(step.function)), ("from", .string(step.step.from)), ("succeeded", .bool(step.succeeded)),
            ("outcome", .string(step.outcomeDescription)), ("gasUsed", .number(String(step.outcome.gasUsed))),
            ("transactionHash", .string(step.outcome.transactionHash.description)),
        ])
    }

    static func stepsTable(_ run: ContractScenarioRun, markdown: Bool) -> String {
        var lines = ["| # | step | from | outcome | gas |", "|---|---|---|---|---:|"]
        for step in run.steps {
            let label = step.step.label.map { "\(step.step.summary): \($0)" } ?? step.step.summary
            lines.append("| \(step.number) | \(label) | \(step.step.from) | \(step.outcomeDescription) | \(step.outcome.gasUsed) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
