import EthereumContracts
import EthereumPrimitives

/// One scenario priced under several forks, side by side, with the EIP behind every number that moved
/// between neighbouring forks (``ForkGasChange``, derived from each transaction's traced gas breakdown).
public struct ForkGasReport: Sendable {
    /// The reports, one per fork, in fork order.
    public private(set) var reports: [(fork: Hardfork, report: GasReport)]

    /// Orders the reports by fork.
    public init(reports: [(fork: Hardfork, report: GasReport)]) {
        self.reports = reports.sorted { $0.fork < $1.fork }
    }

    /// The forks, in order.
    public var forks: [Hardfork] { reports.map(\.fork) }

    /// Every function any fork's report has, sorted.
    public var functionNames: [String] {
        Array(Set(reports.flatMap { $0.report.functions.map(\.name) })).sorted()
    }

    /// What moved between each fork and the next, deployment first, then by function.
    public var changes: [ForkGasChange] {
        var out: [ForkGasChange] = []
        for (a, b) in zip(reports, reports.dropFirst()) {
            if let before = a.report.deploymentGas, let after = b.report.deploymentGas {
                let moved = Self.moved(a.report.deployment?.breakdown, b.report.deployment?.breakdown)
                if before != after || moved.contains(where: { $0.component == .gasLimitCap }) {
                    out.append(
                        ForkGasChange(
                            function: GasSnapshot.deploymentName, from: a.fork, to: b.fork, medianBefore: before, medianAfter: after,
                            maxBefore: before, maxAfter: after, totalBefore: before, totalAfter: after, moved: moved,
                            eips: GasScheduleChange.explaining(Set(moved.map(\.component)), from: a.fork, to: b.fork)))
                }
            }
            for name in functionNames {
                guard let f = a.report.function(name), let g = b.report.function(name) else { continue }
                let moved = Self.moved(f.breakdown, g.breakdown)
                guard f.total != g.total || f.median != g.median || f.max != g.max || moved.contains(where: { $0.component == .gasLimitCap })
                else { continue }
                out.append(
                    ForkGasChange(
                        function: name, from: a.fork, to: b.fork, medianBefore: f.median, medianAfter: g.median, maxBefore: f.max,
                        maxAfter: g.max, totalBefore: f.total, totalAfter: g.total, moved: moved,
                        eips: GasScheduleChange.explaining(Set(moved.map(\.component)), from: a.fork, to: b.fork)))
            }
        }
        return out
    }

    private static func moved(_ a: GasBreakdown?, _ b: GasBreakdown?) -> [(component: GasComponent, change: Int64)] {
        guard let a, let b else { return [] }
        return b.changes(from: a)
    }

    /// The side-by-side table (text or Markdown) with the notes on what moved, or JSON.
    public func render(_ format: GasReportFormat, pricing: GasPricing = GasPricing(), l2: L2DataFee? = nil) -> String {
        switch format {
        case .json: return jsonValue(pricing: pricing, l2: l2).description
        case .table, .markdown:
            var header = ["Function Name", "# Calls"]
            var numeric = [false, true]
            for (i, fork) in forks.enumerated() {
                header += ["Median (\(fork.name))", "Max (\(fork.name))"]
                numeric += [true, true]
                if i > 0 {
                    header.append("Δ median")
                    numeric.append(true)
                }
            }
            var table = TextTable(header: header, numeric: numeric)
            func row(_ name: String, calls: Int?, _ stats: (Hardfork) -> (median: UInt64, max: UInt64)?) -> [String] {
                var cells = [name, calls.map(String.init) ?? ""]
                var previous: UInt64?
                for (i, fork) in forks.enumerated() {
                    let s = stats(fork)
                    cells += [s.map { String($0.median) } ?? "—", s.map { String($0.max) } ?? "—"]
                    if i > 0 {
                        cells.append(GasReportComparison.formatChange(GasReportComparison.change(from: previous, to: s?.median)))
                    }
                    previous = s?.median
                }
                return cells
            }
            let byFork = Dictionary(reports.map { ($0.fork, $0.report) }, uniquingKeysWith: { a, _ in a })
            if reports.contains(where: { $0.report.deploymentGas != nil }) {
                table.add(row("Deployment Cost", calls: 1) { fork in byFork[fork]?.deploymentGas.map { ($0, $0) } })
                table.rule()
            }
            for name in functionNames {
                let calls = reports.compactMap { $0.report.function(name)?.calls }.first
                table.add(row(name, calls: calls) { fork in byFork[fork]?.function(name).map { ($0.median, $0.max) } })
            }
            let rendered = format == .table ? table.renderText() : table.renderMarkdown()
            var lines = [rendered, ""]
            let changes = changes
            if changes.isEmpty {
                lines.append("No number moved between these forks.")
            } else {
                lines.append(format == .markdown ? "**What moved, and why:**\n" : "What moved, and why:")
                for change in changes { lines.append((format == .markdown ? "- " : "  ") + change.description) }
            }
            lines.append("")
            let totals = reports.map { "\($0.fork.name) \($0.report.totalGas) gas = \(pricing.feeEth(gas: $0.report.totalGas)) ETH" }
            lines.append("Gas price \(pricing.gasPriceGwei) gwei. Scenario totals: " + totals.joined(separator: "; ") + ".")
            if let l2 { lines.append("L2 data (\(l2.mode), \(l2.priceGwei) gwei): \(l2.formula).") }
            return lines.joined(separator: "\n")
        }
    }

    /// The forks' reports, each as ``GasReport/jsonValue(pricing:l2:)`` with its `"fork"`, and the changes.
    public func jsonValue(pricing: GasPricing = GasPricing(), l2: L2DataFee? = nil) -> JSONValue {
        .object([
            ("forks", .array(reports.map { .object([("fork", .string($0.fork.name))] + ($0.report.jsonValue(pricing: pricing, l2: l2).objectValue ?? [])) })),
            ("forkChanges", .array(changes.map(\.jsonValue))),
        ])
    }
}

extension ForkGasChange {
    /// `{"function", "from", "to", "medianBefore", …, "moved": {component: gas}, "eips": [{"eip", "fork", "summary"}]}`.
    public var jsonValue: JSONValue {
        .object([
            ("function", .string(function)), ("from", .string(from.name)), ("to", .string(to.name)),
            ("medianBefore", .number(String(medianBefore))), ("medianAfter", .number(String(medianAfter))),
            ("maxBefore", .number(String(maxBefore))), ("maxAfter", .number(String(maxAfter))),
            ("totalBefore", .number(String(totalBefore))), ("totalAfter", .number(String(totalAfter))),
            ("moved", .object(moved.map { ($0.component.rawValue, .number(String($0.change))) })),
            (
                "eips",
                .array(eips.map { .object([("eip", .number(String($0.eip))), ("fork", .string($0.fork.name)), ("summary", .string($0.summary))]) })
            ),
        ])
    }
}

extension GasBreakdown {
    /// `{component: gas}` for the components present.
    public var jsonValue: JSONValue {
        .object(GasComponent.allCases.compactMap { c in parts[c].map { (c.rawValue, .number(String($0))) } })
    }
}
