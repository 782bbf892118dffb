import EthereumContracts
import EthereumPrimitives
import Foundation

/// The changes between a snapshot and a run, printed by `--diff` (every change) and `--check` (every
/// change, the ones over the tolerance marked).
public struct GasSnapshotDiff: Sendable {
    /// Every change, by key then metric.
    public var changes: [GasSnapshotChange]
    /// The changes that fail `--check` (empty for `--diff`).
    public var regressions: [GasSnapshotChange]
    /// The snapshot file's name, for the title.
    public var source: String

    /// Creates a diff.
    public init(changes: [GasSnapshotChange], regressions: [GasSnapshotChange] = [], source: String) {
        self.changes = changes
        self.regressions = regressions
        self.source = source
    }

    /// The diff in `format`: a table (or a Markdown table for a pull-request comment), or JSON.
    public func render(_ format: GasReportFormat) -> String {
        switch format {
        case .json: return jsonValue.description
        case .table, .markdown:
            if changes.isEmpty { return "No gas changes against \(source)." }
            var table = TextTable(header: ["Function", "Metric", "Before", "After", "Change"], numeric: [false, false, true, true, true])
            for change in changes {
                let failing = regressions.contains(change)
                var percent = change.kind == .changed ? GasReportComparison.formatChange(change.percent) : change.kind.rawValue
                if failing { percent += " ✗" }
                table.add([
                    change.key, change.metric ?? "", change.before.map(String.init) ?? "—", change.after.map(String.init) ?? "—", percent,
                ])
            }
            let rose = changes.filter { ($0.after ?? 0) > ($0.before ?? 0) && $0.kind == .changed }.count
            let fell = changes.filter { ($0.after ?? 0) < ($0.before ?? 0) && $0.kind == .changed }.count
            let summary = "\(changes.count) change\(changes.count == 1 ? "" : "s") against \(source): \(rose) up, \(fell) down"
            if format == .markdown {
                return "**Gas changes against `\(source)`**\n\n" + table.renderMarkdown() + "\n\n" + summary + "."
            }
            return table.renderText() + "\n" + summary + "."
        }
    }

    /// `{"snapshot", "changes": [{"key", "metric", "before", "after", "percent", "kind", "regression"}]}`.
    public var jsonValue: JSONValue {
        .object([
            ("snapshot", .string(source)),
            (
                "changes",
                .array(
                    changes.map { change in
                        .object([
                            ("key", .string(change.key)), ("metric", change.metric.map(JSONValue.string) ?? .null),
                            ("before", change.before.map { .number(String($0)) } ?? .null),
                            ("after", change.after.map { .number(String($0)) } ?? .null),
                            ("percent", change.percent.map { .number(String(format: "%.2f", $0)) } ?? .null),
                            ("kind", .string(change.kind.rawValue)), ("regression", .bool(regressions.contains(change))),
                        ])
                    })
            ),
        ])
    }
}
