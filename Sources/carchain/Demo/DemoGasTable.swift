import Foundation

/// The demo's gas figures: each transaction's function and gas used, summarised per function.
struct DemoGasLedger {
    struct Entry {
        var function: String
        var gasUsed: UInt64
        var succeeded: Bool
    }

    private(set) var entries: [Entry] = []

    mutating func record(_ function: String, gasUsed: UInt64, succeeded: Bool = true) {
        entries.append(Entry(function: function, gasUsed: gasUsed, succeeded: succeeded))
    }

    /// A table: function, calls, min, average, max, total gas; functions in first-use order.
    func table() -> String {
        var order: [String] = []
        var byName: [String: [UInt64]] = [:]
        for entry in entries {
            if byName[entry.function] == nil { order.append(entry.function) }
            byName[entry.function, default: []].append(entry.gasUsed)
        }
        var rows = [["function", "calls", "min gas", "avg gas", "max gas", "total gas"]]
        var grand: UInt64 = 0
        for name in order {
            let gas = byName[name] ?? []
            let total = gas.reduce(0, +)
            grand += total
            rows.append([name, "\(gas.count)", "\(gas.min() ?? 0)", "\(total / UInt64(max(gas.count, 1)))", "\(gas.max() ?? 0)", "\(total)"])
        }
        rows.append(["all", "\(entries.count)", "", "", "", "\(grand)"])
        let widths = (0..<6).map { c in rows.map { $0[c].count }.max() ?? 0 }
        let lines = rows.map { cells in
            cells.enumerated().map { c, text in
                c == 0 ? text.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - text.count) + text
            }.joined(separator: "  ")
        }
        let rule = String(repeating: "-", count: lines[0].count)
        return ([lines[0], rule] + lines.dropFirst().dropLast() + [rule, lines[lines.count - 1]]).joined(separator: "\n")
    }
}
