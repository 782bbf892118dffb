import CarChain
import EthereumPrimitives

/// Scenario runs as people and scripts read them (`gas-report`, `simulate`): the fork check, each step as
/// JSON, and the step table.
public enum ScenarioReporting {
    /// A fork by name (`cancun`, `Prague`, …).
    public static func hardfork(_ name: String) throws(AppError) -> Hardfork {
        guard let fork = Hardfork(name: name) else {
            throw AppError.failed("unknown hardfork \(String(reflecting: name)) (e.g. byzantium, london, shanghai, cancun, prague)")
        }
        guard fork >= .cancun else {
            throw AppError.failed("the project's contract needs cancun or later (its bytecode uses PUSH0 and MCOPY); got \(fork.name)")
        }
        return fork
    }

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
