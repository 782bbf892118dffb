import CarChainKit
import ContractScenarios
import EthereumContracts
import EthereumPrimitives
import EthereumRPC
import Foundation

/// `carchain gas-report --scenario FILE` for a scenario of any contract (docs/SCENARIOS.md, "Scenarios for any
/// contract"): the file's deployments and calls on a fresh deterministic in-process chain (or a node with --rpc), and a
/// report per contract in forge's columns, with the snapshot, check, diff and JSON outputs of CarChain's reports.
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

    /// The options that belong to CarChain's scenarios only.
    func refuseCarChainOptions() throws {
        let c = command
        let refused: [(Bool, String)] = [
            (c.artifact != nil, "--artifact"), (c.compare != nil, "--compare"), (c.forks != nil, "--forks"), (c.l2 != nil, "--l2"),
            (c.chart != nil, "--chart"),
        ]
        if let (_, option) = refused.first(where: { $0.0 }) {
            throw CLIError("\(option) applies to CarChain scenarios; \(scenario.name) deploys its own contracts (docs/SCENARIOS.md)")
        }
    }

    func execute() async throws {
        try refuseCarChainOptions()
        let pricing = try GasPricing(gasPrice: command.gasPrice, ethPrice: command.ethPrice)
        let diffBaseline = try command.diff.map { try GasReportPlan.readSnapshot($0, option: "--diff") }
        let checkBaseline = try command.check.map { try GasReportPlan.readSnapshot($0, option: "--check") }
        let keys: [(name: String, key: PrivateKey)]
        do { keys = try scenario.accounts.map { ($0.name, try $0.privateKey()) } } catch {
            throw CLIError("scenario \(scenario.name): an account's key: \(error)")
        }
        let addresses = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0.key.address) })
        guard let deployer = addresses[scenario.deployer] else { throw CLIError("scenario \(scenario.name): no deployer \(scenario.deployer)") }

        let run: ContractScenarioRun
        let fork: Hardfork?
        let source: GasReportDocument.Source
        let origin: String
        if let url = command.rpc {
            let client = try RPCClient(url: url, timeout: command.timeout)
            let (backend, node) = try await ScenarioRPCRunner.signingBackend(
                accounts: keys, client: client, expectedChainID: command.chainId, receiptTimeout: command.timeout)
            run = try await scenarioRun { try await scenario.run(backend: backend, addresses: addresses) }
            fork = nil
            source = .rpc(node)
            origin = "against \(GasReportDocument.origin(url)) (chain \(node.chainID)\(node.clientVersion.map { ", \($0)" } ?? ""))"
        } else {
            let name = command.hardfork ?? "cancun"
            guard let hardfork = Hardfork(name: name) else {
                throw CLIError("--hardfork: unknown hardfork \(String(reflecting: name)) (e.g. london, shanghai, cancun, prague, osaka)")
            }
            let (chain, backend) = try await ScenarioRunner.inProcessChain(
                keys: keys.map(\.key), sender: deployer, hardfork: hardfork, deploymentGasLimit: ContractScenario.defaultGasLimit,
                callGasLimit: ContractScenario.defaultGasLimit)
            defer { Task { await chain.close() } }
            run = try await scenarioRun { try await scenario.run(backend: backend, addresses: addresses) }
            fork = hardfork
            source = .inProcess
            origin = "\(hardfork.name), deterministic in-process chain"
        }
        guard !run.contracts.isEmpty else { throw CLIError("scenario \(scenario.name): no contract was deployed, so there is nothing to report") }
        let reports = run.contracts.map { contract in
            GasReport(
                contract: contract.name, deploymentGas: contract.deployment.gasUsed, deploymentSize: contract.creationSize,
                runtimeSize: contract.runtimeSize,
                observations: run.calls(to: contract.name).map {
                    GasObservation(function: $0.function, gasUsed: $0.outcome.gasUsed, succeeded: $0.succeeded)
                })
        }
        let snapshot = GasSnapshot(contractReports: reports.map { (fork, $0) })
        if let path = command.snapshot { try GasReportPlan.write(snapshot.text, to: path, option: "--snapshot") }
        if let path = command.jsonFile {
            let document = GasReportDocument.json(
                scenarioName: scenario.name, steps: scenario.steps.count, source: source,
                contracts: reports.map { (name: $0.contract, reports: [(fork: fork, report: $0)]) }, pricing: pricing)
            try GasReportPlan.write(document.description + "\n", to: path, option: "--json")
        }
        if checkBaseline != nil || diffBaseline != nil {
            try GasReportPlan.printChanges(command, snapshot, diffBaseline: diffBaseline, checkBaseline: checkBaseline)
            return
        }
        let title = "Scenario \(scenario.name): \(scenario.steps.count) steps, \(reports.count) contract\(reports.count == 1 ? "" : "s"), \(origin)"
        switch command.format {
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                ("scenario", .string(scenario.name)), ("hardfork", fork.map { .string($0.name) } ?? .null),
                ("contracts", .array(reports.map { .object([("name", .string($0.contract))] + ($0.jsonValue(pricing: pricing, l2: nil).objectValue ?? [])) })),
            ]
            if command.steps { members.append(("steps", .array(run.steps.map(Self.stepJSON)))) }
            print(JSONValue.object(members).description)
        case .table, .markdown:
            let markdown = command.format == .markdown
            print(markdown ? "**\(title)**\n" : title)
            if command.steps { print(Self.stepsTable(run, markdown: markdown)) }
            for report in reports { print(report.render(command.format, pricing: pricing)) }
        }
    }

    /// Runs the scenario; a failed expectation or a step that cannot be sent ends in one line.
    func scenarioRun(_ body: () async throws -> ContractScenarioRun) async throws -> ContractScenarioRun {
        do { return try await body() } catch let error as ContractScenarioError { throw CLIError(error.description) }
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
