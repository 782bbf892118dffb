import CarChain
import CarChainKit
import EthereumContracts
import EthereumPrimitives
import EthereumRPC
import Foundation

/// What one `gas-report` invocation runs and writes: the runs (one per fork, or one against a node), then
/// the report on stdout — or the changes with --check/--diff — and the files asked for.
struct GasReportPlan {
    let command: GasReportCommand
    let pricing: GasPricing
    let l2: L2DataFee?
    let scenario: Scenario
    let artifact: CarChainArtifact
    let label: String

    init(_ command: GasReportCommand) throws {
        self.command = command
        pricing = try GasPricing(gasPrice: command.gasPrice, ethPrice: command.ethPrice)
        l2 = try GasReportValidation.l2Fee(command)
        scenario = try command.scenario.map { try Scenario(contentsOf: URL(fileURLWithPath: $0)) } ?? Scenario.seedReplay()
        if let path = command.artifact {
            artifact = try Self.loadArtifact(path, option: "--artifact")
            label = artifact.flavour == .seed ? "seed" : URL(fileURLWithPath: path).lastPathComponent
        } else {
            artifact = .project
            label = "project"
        }
    }

    static func loadArtifact(_ path: String, option: String) throws -> CarChainArtifact {
        let bytes = try CLIInput.file(path, option: option)
        do { return try CarChainArtifact(json: bytes) } catch { throw CLIError("\(option) \(path): \(error)") }
    }

    /// The forks to run, checked against the artifact.
    func forks() throws -> [Hardfork] {
        let names = try command.forks.map { try GasReportValidation.forkNames($0) } ?? [command.hardfork ?? "cancun"]
        return try names.map { name throws in try ScenarioReporting.hardfork(name, flavour: artifact.flavour) }.sorted()
    }

    func execute() async throws {
        if command.compare != nil {
            try await printComparison()
            return
        }
        // The snapshots are read before anything runs: a missing or malformed one fails at once.
        let diffBaseline = try command.diff.map { try Self.readSnapshot($0, option: "--diff") }
        let checkBaseline = try command.check.map { try Self.readSnapshot($0, option: "--check") }
        var reports: [(fork: Hardfork?, report: GasReport)] = []
        var source = GasReportDocument.Source.inProcess
        var firstRun: ScenarioRun?
        let title: String
        if let url = command.rpc {
            let client = try RPCClient(url: url, timeout: command.timeout)
            let (run, node) = try await ScenarioRPCRunner.run(
                scenario, artifact: artifact, label: label, client: client, expectedChainID: command.chainId, receiptTimeout: command.timeout)
            reports = [(nil, run.gasReport())]
            source = .rpc(node)
            firstRun = run
            title = "Scenario \(scenario.name): \(scenario.steps.count) steps after the deployment, against \(GasReportDocument.origin(url)) "
                + "(chain \(node.chainID)\(node.clientVersion.map { ", \($0)" } ?? ""))"
        } else {
            let forks = try forks()
            for fork in forks {
                let run = try await ScenarioRunner.run(scenario, artifact: artifact, label: label, hardfork: fork, traceGas: forks.count > 1)
                reports.append((fork, run.gasReport()))
                if firstRun == nil { firstRun = run }
            }
            title = "Scenario \(scenario.name): \(scenario.steps.count) steps after the deployment, "
                + "\(forks.map(\.name).joined(separator: ", ")), deterministic in-process chain"
        }
        let snapshot = GasSnapshot(reports: reports)
        try writeFiles(reports: reports, snapshot: snapshot, source: source)

        if checkBaseline != nil || diffBaseline != nil {
            try printChanges(snapshot, diffBaseline: diffBaseline, checkBaseline: checkBaseline)
            return
        }
        let named = reports.compactMap { entry in entry.fork.map { (fork: $0, report: entry.report) } }
        switch command.format {
        case .json:
            if named.count > 1 {
                let members: [(key: String, value: JSONValue)] = [("scenario", .string(scenario.name))]
                print(JSONValue.object(members + (ForkGasReport(reports: named).jsonValue(pricing: pricing, l2: l2).objectValue ?? [])).description)
            } else if let report = reports.first?.report {
                var members: [(key: String, value: JSONValue)] = [
                    ("scenario", .string(scenario.name)), ("hardfork", reports.first?.fork.map { .string($0.name) } ?? .null),
                ]
                members += report.jsonValue(pricing: pricing, l2: l2).objectValue ?? []
                if command.steps, let firstRun {
                    members.append(("steps", .array(firstRun.steps.map { ScenarioReporting.stepJSON($0, baseline: nil) })))
                }
                print(JSONValue.object(members).description)
            }
        case .table, .markdown:
            print(command.format == .markdown ? "**\(title)**\n" : title)
            if named.count > 1 {
                print(ForkGasReport(reports: named).render(command.format, pricing: pricing, l2: l2))
            } else if let report = reports.first?.report {
                if command.steps, let firstRun {
                    print(ScenarioReporting.stepsTable(firstRun, baseline: nil, markdown: command.format == .markdown))
                }
                print(report.render(command.format, pricing: pricing, l2: l2))
            }
        }
    }

    /// Writes --snapshot, --json and --chart.
    func writeFiles(reports: [(fork: Hardfork?, report: GasReport)], snapshot: GasSnapshot, source: GasReportDocument.Source) throws {
        if let path = command.snapshot { try Self.write(snapshot.text, to: path, option: "--snapshot") }
        if let path = command.jsonFile {
            let document = GasReportDocument.json(
                scenario: scenario, source: source, contract: label, reports: reports, pricing: pricing, l2: l2)
            try Self.write(document.description + "\n", to: path, option: "--json")
        }
        if let path = command.chart {
            let chart = GasChart(
                title: "CarChain gas: scenario \(scenario.name) (\(label))",
                reports: reports.map { (label: $0.fork?.name ?? "node", report: $0.report) })
            try Self.write(chart.svg, to: path, option: "--chart")
        }
    }

    /// --check and --diff: the changes against the snapshot file(s); a failed check ends in one line and exit 1.
    func printChanges(_ snapshot: GasSnapshot, diffBaseline: GasSnapshot?, checkBaseline: GasSnapshot?) throws {
        try Self.printChanges(command, snapshot, diffBaseline: diffBaseline, checkBaseline: checkBaseline)
    }

    /// --check and --diff of `command` (CarChain's scenarios and any contract's).
    static func printChanges(_ command: GasReportCommand, _ snapshot: GasSnapshot, diffBaseline: GasSnapshot?, checkBaseline: GasSnapshot?) throws {
        if let path = command.diff, let baseline = diffBaseline {
            print(GasSnapshotDiff(changes: snapshot.changes(from: baseline), source: path).render(command.format))
        }
        guard let path = command.check, let baseline = checkBaseline else { return }
        let tolerance = command.tolerance ?? 0
        let regressions = snapshot.regressions(from: baseline, tolerance: tolerance)
        if command.diff == nil {
            print(GasSnapshotDiff(changes: snapshot.changes(from: baseline), regressions: regressions, source: path).render(command.format))
        }
        guard regressions.isEmpty else {
            let names = regressions.map { "\($0.key) \($0.metric ?? "") \(GasReportComparison.formatChange($0.percent))" }
            throw CLIError(
                "gas check failed against \(path): \(regressions.count) rise\(regressions.count == 1 ? "" : "s") beyond "
                    + "\(GasReportPlan.percent(tolerance)) tolerance: " + names.joined(separator: ", "))
        }
    }

    /// `0%`, `1.5%`.
    static func percent(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))%" : "\(value)%"
    }

    static func readSnapshot(_ path: String, option: String) throws -> GasSnapshot {
        let bytes = try CLIInput.file(path, option: option)
        guard let text = String(validating: bytes, as: UTF8.self) else { throw CLIError("\(option) \(path): not UTF-8 text") }
        do { return try GasSnapshot(parsing: text, source: path) } catch { throw CLIError("\(option): \(error)") }
    }

    static func write(_ text: String, to path: String, option: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CLIError("\(option) \(path): cannot write: \((error as NSError).localizedDescription)")
        }
    }

    /// `--compare`: the scenario on the project's (or --artifact's) contract and on another artifact, side by side.
    func printComparison() async throws {
        guard let compare = command.compare else { return }
        let baselineArtifact = try Self.loadArtifact(compare, option: "--compare")
        var baselineLabel = baselineArtifact.flavour == .seed ? "seed" : URL(fileURLWithPath: compare).lastPathComponent
        if baselineLabel == label { baselineLabel = "compared" }
        let fork = try ScenarioReporting.hardfork(command.hardfork ?? "cancun", flavour: artifact.flavour)
        _ = try ScenarioReporting.hardfork(fork.name, flavour: baselineArtifact.flavour)
        let run = try await ScenarioRunner.run(scenario, artifact: artifact, label: label, hardfork: fork)
        let baselineRun = try await ScenarioRunner.run(
            scenario, artifact: baselineArtifact, label: baselineLabel, hardfork: fork, checkExpectations: false)
        let comparison = GasReportComparison(candidate: run.gasReport(), baseline: baselineRun.gasReport())
        switch command.format {
        case .json:
            var members: [(key: String, value: JSONValue)] = [("scenario", .string(scenario.name)), ("hardfork", .string(fork.name))]
            members += comparison.jsonValue(pricing: pricing).objectValue ?? []
            if command.steps {
                members.append(("steps", .array(run.steps.map { ScenarioReporting.stepJSON($0, baseline: baselineRun.steps[$0.number - 1]) })))
            }
            print(JSONValue.object(members).description)
        case .table, .markdown:
            let title = "Scenario \(scenario.name): \(scenario.steps.count) steps after the deployment, \(fork.name), deterministic in-process chain"
            print(command.format == .markdown ? "**\(title)**\n" : title)
            if command.steps { print(ScenarioReporting.stepsTable(run, baseline: baselineRun, markdown: command.format == .markdown)) }
            print(comparison.render(command.format, pricing: pricing))
        }
    }
}
