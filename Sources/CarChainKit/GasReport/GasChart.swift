import EthereumPrimitives

/// A bar chart of median gas per function as SVG (`gas-report --chart FILE.svg`): one horizontal bar per
/// function, or one per function and fork side by side when several forks are priced, each labelled with
/// its number, on a scale that starts at zero so bar lengths compare honestly.
public struct GasChart: Sendable {
    /// One series: a fork's (or a run's) medians.
    public struct Series: Sendable {
        /// The legend's label (`Cancun`).
        public var label: String
        /// Median gas per function name.
        public var medians: [String: UInt64]

        public init(label: String, medians: [String: UInt64]) {
            self.label = label
            self.medians = medians
        }
    }

    /// The chart's title.
    public var title: String
    /// The series, drawn in order within each function's group.
    public var series: [Series]

    /// Colours that stay apart for the colour-blind (Okabe–Ito).
    static let palette = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"]

    public init(title: String, series: [Series]) {
        self.title = title
        self.series = series
    }

    /// A chart of reports: one series per fork (or the single report under `label`).
    public init(title: String, reports: [(label: String, report: GasReport)]) {
        self.init(
            title: title,
            series: reports.map { entry in
                Series(label: entry.label, medians: Dictionary(entry.report.functions.map { ($0.name, $0.median) }, uniquingKeysWith: { a, _ in a }))
            })
    }

    /// Every function of every series, sorted.
    var functions: [String] { Array(Set(series.flatMap(\.medians.keys))).sorted() }

    /// The SVG document.
    public var svg: String {
        let functions = functions
        let barHeight = 18
        let barGap = 4
        let groupGap = 14
        let labelWidth = 12 + (functions.map(\.count).max() ?? 8) * 8
        let plotWidth = 560
        let valueWidth = 90
        let top = 56
        let legendHeight = series.count > 1 ? 28 : 0
        let groupHeight = series.count * (barHeight + barGap) - barGap
        let plotHeight = functions.count * (groupHeight + groupGap)
        let width = labelWidth + plotWidth + valueWidth
        let height = top + legendHeight + plotHeight + 36
        let maxValue = max(1, series.flatMap { $0.medians.values }.max() ?? 1)
        let scale = Self.niceCeiling(maxValue)

        var out: [String] = []
        out.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" viewBox="0 0 \##(width) \##(height)" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">"##)
        out.append(##"<rect width="100%" height="100%" fill="#ffffff"/>"##)
        out.append(##"<text x="\##(width / 2)" y="26" text-anchor="middle" font-size="16" font-weight="bold">\##(Self.escape(title))</text>"##)
        out.append(##"<text x="\##(width / 2)" y="44" text-anchor="middle" fill="#555555">median gas per function</text>"##)
        if series.count > 1 {
            var x = labelWidth
            for (i, s) in series.enumerated() {
                out.append(##"<rect x="\##(x)" y="\##(top + 4)" width="14" height="14" fill="\##(Self.palette[i % Self.palette.count])"/>"##)
                out.append(##"<text x="\##(x + 20)" y="\##(top + 16)">\##(Self.escape(s.label))</text>"##)
                x += 40 + s.label.count * 8
            }
        }
        let plotTop = top + legendHeight
        // Grid lines at quarters of the scale.
        for quarter in 0...4 {
            let x = labelWidth + plotWidth * quarter / 4
            let value = scale / 4 * UInt64(quarter)
            out.append(##"<line x1="\##(x)" y1="\##(plotTop)" x2="\##(x)" y2="\##(plotTop + plotHeight)" stroke="#dddddd"/>"##)
            out.append(##"<text x="\##(x)" y="\##(plotTop + plotHeight + 18)" text-anchor="middle" fill="#555555" font-size="11">\##(value)</text>"##)
        }
        for (row, function) in functions.enumerated() {
            let groupTop = plotTop + row * (groupHeight + groupGap) + groupGap / 2
            out.append(##"<text x="\##(labelWidth - 8)" y="\##(groupTop + groupHeight / 2 + 5)" text-anchor="end">\##(Self.escape(function))</text>"##)
            for (i, s) in series.enumerated() {
                let y = groupTop + i * (barHeight + barGap)
                guard let value = s.medians[function] else {
                    out.append(##"<text x="\##(labelWidth + 4)" y="\##(y + barHeight - 5)" fill="#888888" font-size="11">not called</text>"##)
                    continue
                }
                let length = max(1, Int(Double(value) / Double(scale) * Double(plotWidth)))
                out.append(##"<rect x="\##(labelWidth)" y="\##(y)" width="\##(length)" height="\##(barHeight)" fill="\##(Self.palette[i % Self.palette.count])"><title>\##(Self.escape(function)) \##(Self.escape(s.label)): \##(value) gas</title></rect>"##)
                out.append(##"<text x="\##(labelWidth + length + 6)" y="\##(y + barHeight - 5)" font-size="12">\##(value)</text>"##)
            }
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }

    /// The smallest 1, 2 or 5 × 10^n at or above `value`, so the axis reads in round numbers.
    static func niceCeiling(_ value: UInt64) -> UInt64 {
        var magnitude: UInt64 = 1
        while magnitude <= value / 10 { magnitude *= 10 }
        for step in [1, 2, 5, 10] as [UInt64] where step * magnitude >= value { return step * magnitude }
        return value
    }

    /// Text escaped for XML (the fleet map's SVG escaping).
    static func escape(_ text: String) -> String { FleetMap.escape(text) }
}
