import CarChain
import CarChainKit
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// The seed's replay scenario on the in-process chain must use exactly the gas the py-evm replays
/// published in contracts/README.md (the project's contract, Cancun) and in the seed's README (the
/// seed's artifact, Cancun column).
@Suite struct ScenarioGasTests {
    /// A column of the first Markdown table in `text` whose header has an `ok` column and `column`,
    /// as (ok, figure) per row in order.
    static func readmeColumn(_ text: String, column: String, after marker: String? = nil) throws -> [(ok: Bool, gas: UInt64)] {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let marker, let start = lines.firstIndex(where: { $0.contains(marker) }) { lines = Array(lines[(start + 1)...]) }
        func cells(_ line: String) -> [String] {
            var parts = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            parts.removeFirst()
            parts.removeLast()
            return parts
        }
        guard let headerIndex = lines.firstIndex(where: { $0.hasPrefix("|") && cells($0).contains("ok") && cells($0).contains(column) }) else {
            throw ReadmeTableError(description: "no table with columns ok and \(column)")
        }
        let header = cells(lines[headerIndex])
        guard let okIndex = header.firstIndex(of: "ok"), let gasIndex = header.firstIndex(of: column) else {
            throw ReadmeTableError(description: "no column \(column)")
        }
        var rows: [(ok: Bool, gas: UInt64)] = []
        for line in lines[(headerIndex + 2)...] {
            guard line.hasPrefix("|") else { break }
            let row = cells(line)
            guard let gas = UInt64(row[gasIndex]) else { throw ReadmeTableError(description: "not a number: \(line)") }
            rows.append((row[okIndex] == "True", gas))
        }
        return rows
    }

    struct ReadmeTableError: Error, CustomStringConvertible { let description: String }

    static func figures(_ run: ScenarioRun) -> [(ok: Bool, gas: UInt64)] {
        [(run.deployment.succeeded, run.deployment.gasUsed)] + run.steps.map { ($0.succeeded, $0.gasUsed) }
    }

    static func compare(_ got: [(ok: Bool, gas: UInt64)], _ expected: [(ok: Bool, gas: UInt64)], what: String) {
        #expect(got.count == expected.count, "\(what): \(got.count) steps, README has \(expected.count)")
        var differences: [String] = []
        for (i, (g, e)) in zip(got, expected).enumerated() where g.ok != e.ok || g.gas != e.gas {
            differences.append("step \(i): got \(g.ok ? "ok" : "revert") \(g.gas), README \(e.ok ? "ok" : "revert") \(e.gas)")
        }
        print("ScenarioGasTests \(what): \(expected.count - differences.count) steps equal, \(differences.count) differ")
        #expect(differences.isEmpty, "\(what): \(differences.joined(separator: "; "))")
    }

    @Test func seedScenarioOnProjectContractMatchesContractsReadme() async throws {
        let readme = try String(contentsOf: TestPaths.packageRoot.appendingPathComponent("contracts/README.md"), encoding: .utf8)
        let expected = try Self.readmeColumn(readme, column: "ours", after: "<!-- generated: cancun-table -->")
        let run = try await ScenarioRunner.run(try Scenario.seedReplay(), artifact: .project, hardfork: .cancun)
        Self.compare(Self.figures(run), expected, what: "project contract, Cancun")
        // The code the chain holds: the runtime and the immutables Vyper's constructor appends to it (the
        // --rpc test checks the figure against py-evm's eth_getCode).
        #expect(run.runtimeSize > CarChainArtifact.project.deployedBytecode.count)
        #expect(run.creationSize == CarChainArtifact.project.bytecode.count)
        let report = run.gasReport()
        #expect(report.function("rentCar")?.calls == 5)
        #expect(report.function("rentCar")?.min == 27346)
        #expect(report.function("rentCar")?.max == 40988)
        #expect(report.deploymentGas == 1_111_249)
    }

    @Test func seedScenarioOnSeedArtifactMatchesSeedReadme() async throws {
        guard let artifactURL = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact"),
            let readmeURL = TestPaths.shared("seed-carchain/README.md", what: "seed README")
        else { return }
        let expected = try Self.readmeColumn(try String(contentsOf: readmeURL, encoding: .utf8), column: "Cancun")
        let artifact = try CarChainArtifact(contentsOf: artifactURL)
        #expect(artifact.flavour == .seed)
        let run = try await ScenarioRunner.run(try Scenario.seedReplay(), artifact: artifact, label: "seed", hardfork: .cancun)
        Self.compare(Self.figures(run), expected, what: "seed artifact, Cancun")
        // The seed's reverts carry no reason.
        #expect(run.steps.filter { !$0.succeeded }.allSatisfy { $0.revertReason == .empty })
    }

    @Test func busyDayMeetsItsExpectationsOnTheProjectContract() async throws {
        let scenario = try Scenario(contentsOf: TestPaths.packageRoot.appendingPathComponent("testdata/scenarios/busy-day.json"))
        let run = try await ScenarioRunner.run(scenario, artifact: .project)
        #expect(run.steps.count == scenario.steps.count)
        #expect(run.steps.contains { !$0.succeeded })
        let again = try await ScenarioRunner.run(scenario, artifact: .project)
        #expect(again.stateRoot == run.stateRoot, "the same scenario must end in the same state root")
        #expect(again.steps.map(\.gasUsed) == run.steps.map(\.gasUsed))
    }

    @Test func failedExpectationNamesTheStep() async throws {
        let text = #"{"accounts": {"manager": "dev:0"}, "steps": [{"op": "registerNewCar", "plate": "P1"}, {"op": "registerNewCar", "plate": "P1", "expect": "success"}]}"#
        let scenario = try Scenario(json: Array(text.utf8), source: "dup.json", defaultName: "dup")
        await #expect {
            _ = try await ScenarioRunner.run(scenario, artifact: .project)
        } throws: { error in
            (error as? ScenarioError)?.description
                == #"scenario dup: step 2 registerNewCar("P1") from manager: expected success, got reverted: car already registered"#
        }
    }
}
