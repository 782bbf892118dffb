/// A small table renderer for reports: aligned plain-text boxes for a terminal, or GitHub-flavoured
/// Markdown. Cells are strings; columns marked numeric are right-aligned.
struct TextTable: Sendable {
    /// A row of cells, or a horizontal rule between sections (plain text only; Markdown has none).
    enum Row: Sendable {
        case cells([String])
        case rule
    }

    var header: [String]
    var numeric: [Bool]
    var rows: [Row] = []

    init(header: [String], numeric: [Bool]) {
        self.header = header
        self.numeric = numeric
    }

    mutating func add(_ cells: [String]) { rows.append(.cells(cells)) }
    mutating func rule() { rows.append(.rule) }

    private func cells(_ row: [String]) -> [String] {
        (0..<header.count).map { $0 < row.count ? row[$0] : "" }
    }

    private var widths: [Int] {
        var widths = header.map(\.count)
        for case .cells(let row) in rows {
            for (i, cell) in cells(row).enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        return widths
    }

    private func pad(_ cell: String, _ width: Int, right: Bool) -> String {
        let fill = String(repeating: " ", count: max(0, width - cell.count))
        return right ? fill + cell : cell + fill
    }

    /// Numbers, signed percentages and decimals are right-aligned in numeric columns; labels are not.
    private func looksNumeric(_ cell: String) -> Bool {
        guard let first = cell.first else { return false }
        return first.isNumber || ((first == "-" || first == "+") && cell.count > 1)
    }

    /// Box-drawn text for a terminal.
    func renderText() -> String {
        let widths = widths
        func line(_ left: String, _ mid: String, _ right: String) -> String {
            left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: mid) + right
        }
        func row(_ values: [String], alignNumbers: Bool) -> String {
            "│ " + values.enumerated().map { i, v in pad(v, widths[i], right: alignNumbers && numeric[i] && looksNumeric(v)) }
                .joined(separator: " │ ") + " │"
        }
        var out = [line("╭", "┬", "╮"), row(header, alignNumbers: false), line("├", "┼", "┤")]
        for r in rows {
            switch r {
            case .cells(let values): out.append(row(cells(values), alignNumbers: true))
            case .rule: out.append(line("├", "┼", "┤"))
            }
        }
        out.append(line("╰", "┴", "╯"))
        return out.joined(separator: "\n")
    }

    /// A GitHub-flavoured Markdown table (rules are dropped).
    func renderMarkdown() -> String {
        func escape(_ s: String) -> String { s.replacingPipes() }
        var out = ["| " + header.map(escape).joined(separator: " | ") + " |"]
        out.append("|" + numeric.map { $0 ? "---:|" : "---|" }.joined())
        for case .cells(let values) in rows {
            out.append("| " + cells(values).map(escape).joined(separator: " | ") + " |")
        }
        return out.joined(separator: "\n")
    }
}

extension String {
    /// The string with `|` escaped for a Markdown table cell.
    func replacingPipes() -> String {
        var out = ""
        for c in self { if c == "|" { out += "\\|" } else { out.append(c) } }
        return out
    }
}
