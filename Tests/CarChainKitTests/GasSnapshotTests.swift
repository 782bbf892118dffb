import CarChainKit
import EthereumContracts
import EthereumPrimitives
import Testing

/// Issue 23: snapshots (write, read, compare, tolerance), the L2 data-fee formulas and the chart.
@Suite struct GasSnapshotTests {
    static func report(rentCar: [UInt64], deployment: UInt64 = 1_000_000) -> GasReport {
        GasReport(
            contract: "project", deploymentGas: deployment, deploymentSize: 4902, runtimeSize: 4807,
            observations: rentCar.map { GasObservation(function: "rentCar", gasUsed: $0) } + [GasObservation(function: "addCredit", gasUsed: 30_000)])
    }

    @Test func snapshotIsSortedStableAndReadsBack() throws {
        let snapshot = GasSnapshot(reports: [(.prague, Self.report(rentCar: [3, 1, 2])), (.cancun, Self.report(rentCar: [10, 20]))])
        let lines = snapshot.text.split(separator: "\n").map(String.init)
        #expect(lines == lines.sorted())
        #expect(lines.count == 6)
        #expect(lines.contains("CarChain:rentCar@Prague (calls: 3, min: 1, mean: 2, median: 2, max: 3)"))
        #expect(lines.contains("CarChain:rentCar@Cancun (calls: 2, min: 10, mean: 15, median: 15, max: 20)"))
        #expect(lines.contains("CarChain:(deployment)@Cancun (gas: 1000000, size: 4902, runtimeSize: 4807)"))
        // The same reports give the same bytes; the text parses back to the same snapshot.
        #expect(GasSnapshot(reports: [(.cancun, Self.report(rentCar: [20, 10])), (.prague, Self.report(rentCar: [2, 3, 1]))]).text == snapshot.text)
        let read = try GasSnapshot(parsing: snapshot.text, source: "s")
        #expect(read == snapshot)
        #expect(read.changes(from: snapshot).isEmpty)
    }

    @Test func checkFailsOnlyOnMedianOrMaxBeyondTolerance() throws {
        let baseline = GasSnapshot(reports: [(.cancun, Self.report(rentCar: [100, 200, 300]))])
        // min rises, median and max stay: no regression, but the diff shows the change.
        let minOnly = GasSnapshot(reports: [(.cancun, Self.report(rentCar: [150, 200, 300]))])
        #expect(minOnly.regressions(from: baseline, tolerance: 0).isEmpty)
        #expect(minOnly.changes(from: baseline).map(\.metric) == ["min", "mean"])
        // max +10%: fails at tolerance 0 and 9.9, passes at 10.
        let dearer = GasSnapshot(reports: [(.cancun, Self.report(rentCar: [100, 200, 330]))])
        let failing = dearer.regressions(from: baseline, tolerance: 0)
        #expect(failing.map(\.key) == ["CarChain:rentCar@Cancun"])
        #expect(failing.map(\.metric) == ["max"])
        #expect(dearer.regressions(from: baseline, tolerance: 9.9).count == 1)
        #expect(dearer.regressions(from: baseline, tolerance: 10).isEmpty)
        // Cheaper passes; the diff shows it with its percentage.
        let cheaper = GasSnapshot(reports: [(.cancun, Self.report(rentCar: [100, 150, 300], deployment: 900_000))])
        #expect(cheaper.regressions(from: baseline, tolerance: 0).isEmpty)
        let diff = GasSnapshotDiff(changes: cheaper.changes(from: baseline), source: "base").render(.table)
        #expect(diff.contains("-25.0%") && diff.contains("-10.0%"))
        // A deployment that costs more fails the check.
        let heavier = GasSnapshot(reports: [(.cancun, Self.report(rentCar: [100, 200, 300], deployment: 1_000_001))])
        #expect(heavier.regressions(from: baseline, tolerance: 0).map(\.metric) == ["gas"])
        // Lines only one side has are listed, not failed.
        let other = GasSnapshot(reports: [(.prague, Self.report(rentCar: [100, 200, 300]))])
        let kinds = Set(other.changes(from: baseline).map(\.kind))
        #expect(kinds == [.added, .removed])
        #expect(other.regressions(from: baseline, tolerance: 0).isEmpty)
    }

    @Test func badSnapshotsNameTheLine() {
        let cases: [(String, String)] = [
            ("CarChain:a@Cancun (calls: 1, min: 1, mean: 1, median: 1, max: 1)\nnonsense\n", "snapshot f, line 2: expected KEY (name: value, …)"),
            ("CarChain:a (calls: 1, min: x, median: 1, max: 1)", #"snapshot f, line 1: "x" is not a whole number from 0 to 2^64-1"#),
            ("CarChain:a (calls: 1, min: 1, max: 1)", "snapshot f, line 1: CarChain:a has no median"),
            ("CarChain:a (median: 1, max: 18446744073709551616)", #"snapshot f, line 1: "18446744073709551616" is not a whole number from 0 to 2^64-1"#),
            ("CarChain:a (median: 1, max: 1)\nCarChain:a (median: 1, max: 1)", "snapshot f, line 2: CarChain:a appears twice"),
            ("\n\n", "snapshot f has no lines"),
        ]
        for (text, message) in cases {
            #expect(throws: GasSnapshotError.self) { try GasSnapshot(parsing: text, source: "f") }
            do {
                _ = try GasSnapshot(parsing: text, source: "f")
            } catch {
                #expect(error.description == message)
            }
        }
    }

    /// The formulas of docs/GAS-REPORT.md, on counted bytes.
    @Test func l2DataFeeFormulas() {
        let bytes = TransactionBytes([0, 1, 2, 0, 0, 0xff])
        #expect(bytes.zeros == 3 && bytes.nonZeros == 3)
        let calldata = L2DataFee(mode: .calldata, price: UInt256(10))
        #expect(calldata.dataGas(bytes) == 3 * 16 + 3 * 4)
        #expect(calldata.feeWei(bytes) == UInt256(600))
        let blob = L2DataFee(mode: .blob, price: UInt256(3))
        // 31 usable bytes per 32-byte field element.
        #expect(blob.dataGas(TransactionBytes(zeros: 0, nonZeros: 31)) == 32)
        #expect(blob.dataGas(TransactionBytes(zeros: 1, nonZeros: 31)) == 64)
        #expect(blob.dataGas(TransactionBytes(zeros: 0, nonZeros: 0)) == 0)
        #expect(blob.feeWei(bytes) == UInt256(96))
        // The report's column: the mean over a function's calls, in ETH.
        #expect(calldata.meanFeeEth(TransactionBytes(zeros: 0, nonZeros: 1_000_000_000), calls: 2) == "0.00000008")
    }

    @Test func chartHasEveryFunctionAndFork() {
        let chart = GasChart(
            title: "gas <&> \"chart\"",
            reports: [(label: "Cancun", report: Self.report(rentCar: [40_988])), (label: "Prague", report: Self.report(rentCar: [41_000]))])
        let svg = chart.svg
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("gas &lt;&amp;&gt; &quot;chart&quot;"))
        for needle in [">rentCar<", ">addCredit<", ">Cancun<", ">Prague<", ">40988<", ">41000<"] { #expect(svg.contains(needle), "\(needle)") }
    }
}
