import EthereumContracts
import EthereumPrimitives
import Foundation

/// Two gas reports side by side — a candidate (the project's contract) and a baseline (e.g. the seed's
/// artifact) after the same scenario — with the change from baseline to candidate in percent
/// (negative: the candidate is cheaper).
public struct GasReportComparison: Sendable, Hashable {
    /// The report being judged.
    public var candidate: GasReport
    /// The report it is compared with.
    public var baseline: GasReport

    /// Pairs two reports.
    public init(candidate: GasReport, baseline: GasReport) {
        self.candidate = candidate
        self.baseline = baseline
    }

    /// The change from `baseline` to `candidate` in percent (nil when the baseline is 0 or missing).
    public static func change(from baseline: UInt64?, to candidate: UInt64?) -> Double? {
        GasSnapshotChange.percentChange(from: baseline, to: candidate)
    }

    /// `-50.3%`, `+2.0%`, `0.0%`, or `—`.
    public static func formatChange(_ change: Double?) -> String { GasSnapshotChange.formatPercent(change) }

    /// Every function either report has, sorted.
    public var functionNames: [String] {
        Array(Set(candidate.functions.map(\.name) + baseline.functions.map(\.name))).sorted()
    }

    /// The comparison in `format`, with fees at `pricing`.
    public func render(_ format: GasReportFormat, pricing: GasPricing = GasPricing()) -> String {
        switch format {
        case .json: return jsonValue(pricing: pricing).description
        case .table, .markdown:
            let (deployment, functions) = tables()
            let render: (TextTable) -> String = format == .table ? { $0.renderText() } : { $0.renderMarkdown() }
            let separator = format == .table ? "\n" : "\n\n"
            return render(deployment) + separator + render(functions) + separator + footer(pricing)
        }
    }

    private func tables() -> (TextTable, TextTable) {
        var deployment = TextTable(
            header: ["Deployment", candidate.contract, baseline.contract, "Change"], numeric: [false, true, true, true])
        deployment.add([
            "Cost (gas)", candidate.deploymentGas.map(String.init) ?? "—", baseline.deploymentGas.map(String.init) ?? "—",
            Self.formatChange(Self.change(from: baseline.deploymentGas, to: candidate.deploymentGas)),
        ])
        deployment.add([
            "Size (bytes)", candidate.deploymentSize.map(String.init) ?? "—", baseline.deploymentSize.map(String.init) ?? "—",
            Self.formatChange(Self.change(from: baseline.deploymentSize.map(UInt64.init), to: candidate.deploymentSize.map(UInt64.init))),
        ])
        deployment.add([
            "Runtime size (bytes)", candidate.runtimeSize.map(String.init) ?? "—", baseline.runtimeSize.map(String.init) ?? "—",
            Self.formatChange(Self.change(from: baseline.runtimeSize.map(UInt64.init), to: candidate.runtimeSize.map(UInt64.init))),
        ])
        var functions = TextTable(
            header: ["Function Name", "Contract", "Min", "Avg", "Median", "Max", "# Calls"],
            numeric: [false, false, true, true, true, true, true])
        for (i, name) in functionNames.enumerated() {
            if i > 0 { functions.rule() }
            let c = candidate.function(name)
            let b = baseline.function(name)
            func row(_ label: String, _ f: GasReport.FunctionGas?, first: Bool) -> [String] {
                guard let f else { return [first ? name : "", label, "—", "—", "—", "—", "0"] }
                return [first ? name : "", label, String(f.min), String(f.avg), String(f.median), String(f.max), String(f.calls)]
            }
            functions.add(row(candidate.contract, c, first: true))
            functions.add(row(baseline.contract, b, first: false))
            functions.add([
                "", "change", Self.formatChange(Self.change(from: b?.min, to: c?.min)),
                Self.formatChange(Self.change(from: b?.avg, to: c?.avg)),
                Self.formatChange(Self.change(from: b?.median, to: c?.median)),
                Self.formatChange(Self.change(from: b?.max, to: c?.max)), "",
            ])
        }
        return (deployment, functions)
    }

    private func footer(_ pricing: GasPricing) -> String {
        func total(_ report: GasReport) -> String {
            var text = "\(report.contract) \(report.totalGas) gas = \(pricing.feeEth(gas: report.totalGas)) ETH"
            if let fiat = pricing.feeFiat(gas: report.totalGas) { text += " (\(fiat) \(pricing.currency))" }
            return text
        }
        var price = "Gas price \(pricing.gasPriceGwei) gwei"
        if let eth = pricing.ethPrice { price += ", 1 ETH = \(eth) \(pricing.currency)" }
        return price + ". Scenario total: " + total(candidate) + "; " + total(baseline) + "; change "
            + Self.formatChange(Self.change(from: baseline.totalGas, to: candidate.totalGas)) + "."
    }

    /// `{"candidate": report, "baseline": report, "change": {"deployment": {"gas", "size"}, "functions":
    /// {name: {"min", "mean", "median", "max"}}, "totalGas"}}`, changes in percent (null when undefined).
    public func jsonValue(pricing: GasPricing = GasPricing()) -> JSONValue {
        func number(_ change: Double?) -> JSONValue {
            guard let change else { return .null }
            return .number(String(format: "%.2f", change))
        }
        let functionChanges: [(key: String, value: JSONValue)] = functionNames.map { name in
            let c = candidate.function(name)
            let b = baseline.function(name)
            return (
                name,
                .object([
                    ("min", number(Self.change(from: b?.min, to: c?.min))), ("mean", number(Self.change(from: b?.avg, to: c?.avg))),
                    ("median", number(Self.change(from: b?.median, to: c?.median))), ("max", number(Self.change(from: b?.max, to: c?.max))),
                ])
            )
        }
        let change: JSONValue = .object([
            (
                "deployment",
                .object([
                    ("gas", number(Self.change(from: baseline.deploymentGas, to: candidate.deploymentGas))),
                    ("size", number(Self.change(from: baseline.deploymentSize.map(UInt64.init), to: candidate.deploymentSize.map(UInt64.init)))),
                    ("runtimeSize", number(Self.change(from: baseline.runtimeSize.map(UInt64.init), to: candidate.runtimeSize.map(UInt64.init)))),
                ])
            ),
            ("functions", .object(functionChanges)),
            ("totalGas", number(Self.change(from: baseline.totalGas, to: candidate.totalGas))),
        ])
        return .object([
            ("candidate", candidate.jsonValue(pricing: pricing)), ("baseline", baseline.jsonValue(pricing: pricing)), ("change", change),
        ])
    }
}
