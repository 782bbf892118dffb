import CarChain
import EthereumPrimitives

/// Scenario runs as people and scripts read them (`gas-report`, `simulate`): the fork check, each step as
/// JSON, and the step table.
public enum ScenarioReporting {
    /// A fork by name (`cancun`, `Prague`, …) that `flavour`'s contract can run on.
    public static func hardfork(_ name: String, flavour: CarChainFlavour = .project) throws(AppError) -> Hardfork {
        guard let fork = Hardfork(name: name) else {
            throw AppError.failed("unknown hardfork \(String(reflecting: name)) (e.g. byzantium, london, shanghai, cancun, prague, osaka)")
        }
        guard fork >= minimumFork(flavour) else {
            switch flavour {
            case .project:
                throw AppError.failed("the project's contract needs cancun or later (its bytecode uses PUSH0 and MCOPY); got \(fork.name)")
            case .seed:
                throw AppError.failed("the seed's contract needs byzantium or later (it was compiled for byzantium: REVERT, RETURNDATASIZE); got \(fork.name)")
            }
        }
        return fork
    }

    /// The first fork whose opcodes a flavour's contract uses: Cancun for the project's (PUSH0, MCOPY),
    /// Byzantium for the seed's (solc 0.4.25 with EVM version byzantium).
    public static func minimumFork(_ flavour: CarChainFlavour) -> Hardfork { flavour == .project ? .cancun : .byzantium }

    /// One step as JSON: number, label, operation, sender, outcome, gas (and the baseline's).
    public static func stepJSON(_ step: ScenarioStepResult, baseline: ScenarioStepResult?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("step", .number(String(step.number))), ("label", .string(step.label)), ("operation", .string(step.operation.description)),
            ("from", .string(step.from)), ("succeeded", .bool(step.succeeded)), ("outcome", .string(step.outcomeDescription)),
            ("gasUsed", .number(String(step.gasUsed))),
        ]
        if let baseline {
            members.append(("baselineSucceeded", .bool(baseline.succeeded)))
            members.append(("baselineGasUsed", .number(String(baseline.gasUsed))))
        }
        return .object(members)
    }

    /// Every step with its outcome and gas, as a table or Markdown.
    public static func stepsTable(_ run: ScenarioRun, baseline: ScenarioRun?, markdown: Bool) -> String {
        var lines: [String] = []
        var header = "| # | step | from | outcome | gas (\(run.contract)) |"
        var rule = "|---|---|---|---|---:|"
        if let baseline {
            header += " outcome (\(baseline.contract)) | gas (\(baseline.contract)) |"
            rule += "---|---:|"
        }
        lines.append(header)
        lines.append(rule)
        var first = "| 0 | deploy | | \(run.deployment.succeeded ? "success" : "failed") | \(run.deployment.gasUsed) |"
        if let baseline { first += " \(baseline.deployment.succeeded ? "success" : "failed") | \(baseline.deployment.gasUsed) |" }
        lines.append(first)
        for step in run.steps {
            var line = "| \(step.number) | \(step.operation.functionName): \(step.label) | \(step.from) | \(step.outcomeDescription) | \(step.gasUsed) |"
            if let b = baseline?.steps[step.number - 1] { line += " \(b.outcomeDescription) | \(b.gasUsed) |" }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + (markdown ? "\n" : "\n")
    }
}
