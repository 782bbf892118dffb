import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// Issue 23: the scenario priced under several forks. The seed's artifact under every fork of the seed
/// README's table must use exactly the gas its py-evm replays published; the EIP named for each change is
/// derived from the traced breakdown and is checked against what the specs say moved.
@Suite struct GasReportForkTests {
    /// The seed README's fork columns, and the forks they mean.
    static let seedColumns: [(column: String, fork: Hardfork)] = [
        ("Byzantium", .byzantium), ("Petersburg", .petersburg), ("Istanbul", .istanbul), ("Berlin", .berlin), ("London", .london),
        ("Shanghai", .shanghai), ("Cancun", .cancun), ("Prague", .prague),
    ]

    static func seedArtifact() throws -> (CarChainArtifact, String)? {
        guard let artifactURL = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact"),
            let readmeURL = TestPaths.shared("seed-carchain/README.md", what: "seed README")
        else { return nil }
        return (try CarChainArtifact(contentsOf: artifactURL), try String(contentsOf: readmeURL, encoding: .utf8))
    }

    /// The seed scenario's reports under every README fork, traced.
    static func seedForkReport() async throws -> (ForkGasReport, [Hardfork: ScenarioRun], String)? {
        guard let (artifact, readme) = try seedArtifact() else { return nil }
        var runs: [Hardfork: ScenarioRun] = [:]
        for (_, fork) in seedColumns {
            runs[fork] = try await ScenarioRunner.run(try Scenario.seedReplay(), artifact: artifact, label: "seed", hardfork: fork, traceGas: true)
        }
        let report = ForkGasReport(reports: seedColumns.compactMap { entry in runs[entry.fork].map { (entry.fork, $0.gasReport()) } })
        return (report, runs, readme)
    }

    @Test func seedArtifactUnderEveryForkMatchesTheSeedReadme() async throws {
        guard let (report, runs, readme) = try await Self.seedForkReport() else { return }
        for (column, fork) in Self.seedColumns {
            let expected = try ScenarioGasTests.readmeColumn(readme, column: column)
            guard let run = runs[fork] else { continue }
            ScenarioGasTests.compare(ScenarioGasTests.figures(run), expected, what: "seed artifact, \(column)")
            // The per-fork table's numbers are those of the README's figures, grouped by function.
            let names = ["deploy"] + run.steps.map(\.operation.functionName)
            let fromReadme = GasReport(
                contract: "readme", deploymentGas: expected.first?.gas,
                observations: zip(names.dropFirst(), expected.dropFirst()).map { GasObservation(function: $0, gasUsed: $1.gas, succeeded: $1.ok) })
            let table = try #require(report.reports.first { $0.fork == fork }?.report)
            #expect(table.deploymentGas == fromReadme.deploymentGas, "\(column) deployment")
            for f in fromReadme.functions {
                let got = table.function(f.name)
                #expect(got?.median == f.median && got?.max == f.max && got?.min == f.min && got?.calls == f.calls, "\(column) \(f.name)")
            }
            // Every traced breakdown adds up to the receipt's gas.
            for observation in [run.deploymentObservation] + run.observations {
                #expect(observation.breakdown?.total == observation.gasUsed, "\(column) \(observation.function) breakdown")
            }
        }
    }

    @Test func theEIPNamedIsTheOneWhoseComponentMoved() async throws {
        guard let (report, _, _) = try await Self.seedForkReport() else { return }
        let changes = report.changes
        func eips(_ function: String, _ from: Hardfork) -> Set<Int>? {
            changes.first { $0.function == function && $0.from == from }.map { Set($0.eips.map(\.eip)) }
        }
        // Petersburg → Istanbul: calldata got cheaper (EIP-2028), SLOAD dearer (EIP-1884), SSTORE net metering (EIP-2200).
        #expect(eips(GasSnapshot.deploymentName, .petersburg)?.contains(2028) == true)
        #expect(eips("rentCar", .petersburg) == [1884, 2028, 2200])
        // Istanbul → Berlin: cold and warm access (EIP-2929), and nothing about calldata.
        for name in ["addCredit", "registerNewCar", "registerNewUser", "rentCar", "returnCar"] {
            #expect(eips(name, .istanbul) == [2929], "\(name)")
        }
        // Berlin → London: only the functions whose refunds were cut moved, and EIP-3529 alone explains them.
        #expect(eips("rentCar", .berlin) == [3529])
        #expect(eips("returnCar", .berlin) == [3529])
        #expect(eips("addCredit", .berlin) == nil)
        // London → Shanghai: initcode words (EIP-3860), the deployment only.
        #expect(eips(GasSnapshot.deploymentName, .london) == [3860])
        #expect(changes.filter { $0.from == .london }.count == 1)
        // Shanghai → Cancun and Cancun → Prague: nothing the seed replay does changed price.
        #expect(changes.filter { $0.from >= .shanghai }.isEmpty)
        let text = report.render(.table)
        #expect(text.contains("EIP-3529") && text.contains("EIP-2929") && text.contains("EIP-3860"))
    }

    /// A scenario whose first transaction is mostly calldata and reverts early: from Prague it pays the
    /// EIP-7623 floor, 21000 + 10 × (zero bytes + 4 × non-zero bytes), computed here from the spec.
    @Test func calldataFloorIsNamedEIP7623() async throws {
        let plate = String(repeating: "P", count: 3000)
        let json = #"{"name": "calldata-heavy", "accounts": {"manager": "dev:0", "driver": "dev:1"}, "steps": [{"op": "registerNewCar", "plate": "\#(plate)", "from": "driver", "expect": "revert"}]}"#
        let scenario = try Scenario(json: Array(json.utf8))
        var reports: [(fork: Hardfork, report: GasReport)] = []
        for fork in [Hardfork.cancun, .prague] {
            reports.append((fork, try await ScenarioRunner.run(scenario, artifact: .project, hardfork: fork, traceGas: true).gasReport()))
        }
        // Calldata: selector (4 non-zero), offset word 0x20 (31 zero, 1 non-zero), length 3000 = 0x0bb8 (30 zero,
        // 2 non-zero), 3000 non-zero bytes padded with 8 zero bytes to 3008.
        let zeros: UInt64 = 31 + 30 + 8
        let nonZeros: UInt64 = 4 + 1 + 2 + 3000
        let floor = 21_000 + 10 * (zeros + 4 * nonZeros)
        let prague = try #require(reports[1].report.function("registerNewCar"))
        let cancun = try #require(reports[0].report.function("registerNewCar"))
        #expect(prague.max == floor)
        #expect(cancun.max < floor)
        let change = try #require(ForkGasReport(reports: reports).changes.first { $0.function == "registerNewCar" })
        #expect(change.eips.map(\.eip) == [7623])
        #expect(change.moved.contains { $0.component == .calldataFloor })
    }

    /// A deployment gas limit above 2^24 is lowered to the EIP-7825 cap from Osaka, and the report says so.
    @Test func gasLimitCapIsNamedEIP7825() async throws {
        var scenario = try Scenario.seedReplay()
        scenario.deploymentGasLimit = 30_000_000
        var reports: [(fork: Hardfork, report: GasReport)] = []
        for fork in [Hardfork.prague, .osaka] {
            reports.append((fork, try await ScenarioRunner.run(scenario, artifact: .project, hardfork: fork, traceGas: true).gasReport()))
        }
        #expect(reports[0].report.deploymentGas == reports[1].report.deploymentGas)
        let change = try #require(ForkGasReport(reports: reports).changes.first { $0.function == GasSnapshot.deploymentName })
        #expect(change.eips.map(\.eip) == [7825])
    }

    @Test func scheduleExplainsOnlyForksInRange() {
        #expect(GasScheduleChange.explaining([.refund], from: .berlin, to: .london).map(\.eip) == [3529])
        #expect(GasScheduleChange.explaining([.refund], from: .london, to: .prague).isEmpty)
        // Either direction.
        #expect(GasScheduleChange.explaining([.intrinsic], from: .shanghai, to: .istanbul).map(\.eip) == [3860])
        #expect(GasScheduleChange.explaining([.calldataFloor], from: .cancun, to: .osaka).map(\.eip) == [7623])
    }

    @Test func breakdownSplitsATraceAndAddsUp() {
        // 21000 intrinsic; execution starts with 100000 gas and ends with 70000 left after a 0-cost STOP.
        let steps: [(op: String, depth: Int, gas: Int64, cost: Int64)] = [
            ("PUSH1", 1, 100_000, 3), ("SLOAD", 1, 99_997, 2_100), ("SSTORE", 1, 97_897, 22_100), ("BALANCE", 1, 75_797, 2_600),
            ("ADD", 1, 73_197, 3_197), ("STOP", 1, 70_000, 0),
        ]
        let used: UInt64 = 21_000 + 30_000 - 4_800
        let split = GasBreakdown.split(gasUsed: used, intrinsic: 21_000, floor: 0, steps: steps)
        #expect(split[.storageRead] == 2_100)
        #expect(split[.storageWrite] == 22_100)
        #expect(split[.accountAccess] == 2_600)
        #expect(split[.otherExecution] == 30_000 - 2_100 - 22_100 - 2_600)
        #expect(split[.refund] == 4_800)
        #expect(split.total == used)
        // The floor binds: gas used is the floor, above intrinsic + execution.
        let floored = GasBreakdown.split(gasUsed: 60_000, intrinsic: 21_000, floor: 60_000, steps: steps)
        #expect(floored[.calldataFloor] == 60_000 - 51_000)
        #expect(floored.total == 60_000)
    }
}
