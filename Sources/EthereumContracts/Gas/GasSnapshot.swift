import EthereumPrimitives
import Foundation

/// A gas snapshot to keep in the repository, like forge's `.gas-snapshot`: one line per function (and per
/// fork), sorted, so a diff of two snapshots shows exactly what moved and nothing else.
///
/// ```
/// CarChain:(deployment)@Cancun (gas: 1111249, size: 4854, runtimeSize: 4622)
/// CarChain:rentCar@Cancun (calls: 5, min: 27346, mean: 33001, median: 30201, max: 40988)
/// ```
///
/// The key is `<Contract>:<function>@<fork>` (no `@<fork>` for a report made against a node by URL, whose fork
/// the node keeps to itself); the metrics are the report's, in a fixed order. `carchain gas-report` writes it for
/// its scenarios (CarChainKit adds `init(reports:)`), EthereumTesting's `TestChain` for what a test run sent; both
/// check a run against one with the same rules (``regressions(from:tolerance:)``).
public struct GasSnapshot: Sendable, Hashable {
    /// One line.
    public struct Entry: Sendable, Hashable {
        /// `CarChain:rentCar@Cancun`.
        public var key: String
        /// The metrics in file order (`calls`, `min`, `mean`, `median`, `max`; or `gas`, `size`, `runtimeSize`).
        public var metrics: [(name: String, value: UInt64)]

        public static func == (a: Entry, b: Entry) -> Bool {
            a.key == b.key && a.metrics.map(\.name) == b.metrics.map(\.name) && a.metrics.map(\.value) == b.metrics.map(\.value)
        }
        public func hash(into hasher: inout Hasher) { hasher.combine(key) }

        /// The value of `name`, if the line has it.
        public func value(_ name: String) -> UInt64? { metrics.first { $0.name == name }?.value }

        /// A line of `metrics` in this order.
        public init(key: String, metrics: [(name: String, value: UInt64)]) {
            self.key = key
            self.metrics = metrics
        }

        /// The metrics `--check` guards: a function's median and max, a deployment's gas.
        public var guarded: [String] { value("gas") != nil ? ["gas"] : ["median", "max"] }
    }

    /// The key of the deployment line.
    public static let deploymentName = "(deployment)"

    /// The lines, sorted by key.
    public private(set) var entries: [Entry]

    /// A snapshot of these lines (sorted here by key; a key given twice keeps its first line).
    public init(entries: [Entry]) {
        var seen: Set<String> = []
        self.entries = entries.filter { seen.insert($0.key).inserted }.sorted { $0.key < $1.key }
    }

    /// The snapshot's text: one line per entry, sorted, ending in a newline.
    public var text: String {
        entries.map { entry in
            "\(entry.key) (" + entry.metrics.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")"
        }.joined(separator: "\n") + "\n"
    }

    /// Reads a snapshot file's text. `source` names the file in errors.
    public init(parsing text: String, source: String) throws(GasSnapshotError) {
        var entries: [Entry] = []
        var seen: Set<String> = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(rawLine).trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty { continue }
            func fail(_ why: String) -> GasSnapshotError { .invalidLine(source: source, line: index + 1, reason: why) }
            guard let open = line.range(of: " ("), line.hasSuffix(")") else {
                throw fail("expected KEY (name: value, …)")
            }
            let key = String(line[..<open.lowerBound])
            guard !key.isEmpty, !key.contains(" ") else { throw fail("the key must be one word, like CarChain:rentCar@Cancun") }
            guard seen.insert(key).inserted else { throw fail("\(key) appears twice") }
            let body = line[open.upperBound..<line.index(before: line.endIndex)]
            var metrics: [(name: String, value: UInt64)] = []
            for pair in body.split(separator: ",") {
                let parts = pair.split(separator: ":", maxSplits: 1)
                guard parts.count == 2 else { throw fail("expected name: value, found \(JSONValue.quote(String(pair)))") }
                let name = String(parts[0]).trimmingCharacters(in: .whitespacesAndNewlines)
                let number = String(parts[1]).trimmingCharacters(in: .whitespacesAndNewlines)
                guard !name.isEmpty, let value = UInt64(number) else {
                    throw fail("\(JSONValue.quote(number)) is not a whole number from 0 to 2^64-1")
                }
                guard !metrics.contains(where: { $0.name == name }) else { throw fail("\(name) appears twice") }
                metrics.append((name, value))
            }
            let entry = Entry(key: key, metrics: metrics)
            for name in entry.guarded where entry.value(name) == nil { throw fail("\(key) has no \(name)") }
            entries.append(entry)
        }
        guard !entries.isEmpty else { throw .empty(source: source) }
        self.entries = entries.sorted { $0.key < $1.key }
    }

    /// The entry for `key`.
    public func entry(_ key: String) -> Entry? { entries.first { $0.key == key } }

    /// Every difference from `baseline`: changed metrics, and lines only one side has.
    public func changes(from baseline: GasSnapshot) -> [GasSnapshotChange] {
        let keys = Set(entries.map(\.key)).union(baseline.entries.map(\.key)).sorted()
        var out: [GasSnapshotChange] = []
        for key in keys {
            let now = entry(key)
            let then = baseline.entry(key)
            guard let now, let then else {
                out.append(GasSnapshotChange(key: key, metric: nil, before: nil, after: nil, kind: now == nil ? .removed : .added))
                continue
            }
            var names = now.metrics.map(\.name)
            for (name, _) in then.metrics where !names.contains(name) { names.append(name) }
            for name in names {
                let before = then.value(name)
                let after = now.value(name)
                guard before != after else { continue }
                out.append(GasSnapshotChange(key: key, metric: name, before: before, after: after, kind: .changed))
            }
        }
        return out
    }

    /// The changes `--check` fails on: a guarded metric (median, max; a deployment's gas) that rose by more
    /// than `tolerance` percent.
    public func regressions(from baseline: GasSnapshot, tolerance: Double) -> [GasSnapshotChange] {
        changes(from: baseline).filter { change in
            guard change.kind == .changed, let metric = change.metric, let before = change.before, let after = change.after,
                let entry = entry(change.key), entry.guarded.contains(metric), after > before
            else { return false }
            return Double(after) > Double(before) * (1 + tolerance / 100)
        }
    }
}

/// One difference between two snapshots.
public struct GasSnapshotChange: Sendable, Hashable, CustomStringConvertible {
    /// What kind of difference.
    public enum Kind: String, Sendable, Hashable {
        case changed, added, removed
    }

    /// The line's key.
    public var key: String
    /// The metric that changed (nil for a line added or removed).
    public var metric: String?
    /// The snapshot's value and the run's.
    public var before: UInt64?
    public var after: UInt64?
    /// Changed, or a line only one side has.
    public var kind: Kind

    /// The change in percent (nil when undefined).
    public var percent: Double? { Self.percentChange(from: before, to: after) }

    /// The change from `baseline` to `candidate` in percent (nil when either is missing or the baseline is 0).
    public static func percentChange(from baseline: UInt64?, to candidate: UInt64?) -> Double? {
        guard let baseline, let candidate, baseline > 0 else { return nil }
        return (Double(candidate) - Double(baseline)) / Double(baseline) * 100
    }

    /// `-50.3%`, `+2.0%`, `0.0%`, or `—`.
    public static func formatPercent(_ change: Double?) -> String {
        guard let change else { return "—" }
        let rounded = (change * 10).rounded() / 10
        if rounded == 0 { return "0.0%" }
        return String(format: "%+.1f%%", rounded)
    }

    /// `CarChain:rentCar@Cancun median 30201 → 31000 (+2.6%)`, or `… added` / `… removed`.
    public var description: String {
        switch kind {
        case .added: return "\(key): new (not in the snapshot)"
        case .removed: return "\(key): in the snapshot, not in this run"
        case .changed:
            let b = before.map(String.init) ?? "—"
            let a = after.map(String.init) ?? "—"
            return "\(key) \(metric ?? ""): \(b) → \(a) (\(Self.formatPercent(percent)))"
        }
    }
}

/// A snapshot file that cannot be used.
public enum GasSnapshotError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line does not parse.
    case invalidLine(source: String, line: Int, reason: String)
    /// No lines at all.
    case empty(source: String)

    public var description: String {
        switch self {
        case .invalidLine(let source, let line, let reason): return "snapshot \(source), line \(line): \(reason)"
        case .empty(let source): return "snapshot \(source) has no lines"
        }
    }
}
