import CarChain
import CarChainKit
import ContractScenarios
import EthereumPrimitives
import Foundation
import Testing
import TestSupport

/// CarChain's scenario files as scenarios of any contract (`Scenario.contractScenario(artifact:)`, docs/SCENARIOS.md):
/// the same file run by CarChain's `ScenarioRunner` and, translated, by the general `ContractScenario` runner on the
/// same kind of chain, must send the same transactions — every step's gas and outcome equal, and the snapshots' lines
/// equal — and the translation must keep every expectation (a wrong one still fails the general run).
@Suite struct ScenarioAsContractScenarioTests {
    /// Runs `general` with the general runner on a fresh in-process chain under Cancun, as `gas-report` does.
    static func runGeneral(_ general: ContractScenario) async throws -> ContractScenarioRun {
        let keys = try general.accounts.map { ($0.name, try $0.privateKey()) }
        let addresses = Dictionary(uniqueKeysWithValues: keys.map { ($0.0, $0.1.address) })
        let (chain, backend) = try await ScenarioRunner.inProcessChain(
            keys: keys.map(\.1), sender: try #require(addresses[general.deployer]), hardfork: .cancun,
            deploymentGasLimit: try #require(general.deploymentGasLimit), callGasLimit: try #require(general.callGasLimit))
        do {
            let run = try await general.run(backend: backend, addresses: addresses)
            await chain.close()
            return run
        } catch {
            await chain.close()
            throw error
        }
    }

    /// Runs `scenario` both ways on `artifact` under Cancun; returns the two snapshots' texts.
    static func bothWays(_ scenario: Scenario, artifact: CarChainArtifact) async throws -> (carChain: String, general: String) {
        let carChainRun = try await ScenarioRunner.run(scenario, artifact: artifact, hardfork: .cancun)
        let general = try scenario.contractScenario(artifact: artifact)
        #expect(general.steps.count == scenario.steps.count + 1)
        let run = try await runGeneral(general)

        let contract = try #require(run.contracts.first)
        #expect(run.contracts.count == 1 && contract.name == "CarChain")
        #expect(contract.deployment.gasUsed == carChainRun.deployment.gasUsed)
        #expect(contract.runtimeSize == carChainRun.runtimeSize && contract.creationSize == carChainRun.creationSize)
        let calls = Array(run.steps.dropFirst())
        #expect(calls.count == carChainRun.steps.count)
        for (a, b) in zip(carChainRun.steps, calls) {
            #expect(a.gasUsed == b.outcome.gasUsed && a.succeeded == b.succeeded, "step \(a.number) \(a.label)")
            #expect(a.operation.functionName == b.function)
        }
        let report = GasReport(
            contract: "CarChain", deploymentGas: contract.deployment.gasUsed, deploymentSize: contract.creationSize,
            runtimeSize: contract.runtimeSize,
            observations: run.calls(to: "CarChain").map { GasObservation(function: $0.function, gasUsed: $0.outcome.gasUsed, succeeded: $0.succeeded) })
        return (
            GasSnapshot(reports: [(.cancun, carChainRun.gasReport())]).text, GasSnapshot(contractReports: [(.cancun, report)]).text
        )
    }

    /// busy-day.json on the project's contract: reasons checked, the same gas both ways.
    @Test func busyDayOnTheProjectContract() async throws {
        let scenario = try Scenario(contentsOf: TestPaths.packageRoot.appendingPathComponent("testdata/scenarios/busy-day.json"))
        let (carChain, general) = try await Self.bothWays(scenario, artifact: .project)
        #expect(!carChain.isEmpty && carChain == general)
    }

    /// The seed's replay on the seed's artifact (no revert reasons: an expected reason becomes any revert).
    @Test func seedReplayOnTheSeedArtifact() async throws {
        guard let url = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") else { return }
        let (carChain, general) = try await Self.bothWays(try Scenario.seedReplay(), artifact: try CarChainArtifact(contentsOf: url))
        #expect(!carChain.isEmpty && carChain == general)
    }

    /// A wrong expectation survives the translation: the general run stops at that step, naming it.
    @Test func aWrongExpectationStillFails() async throws {
        var scenario = try Scenario(contentsOf: TestPaths.packageRoot.appendingPathComponent("testdata/scenarios/busy-day.json"))
        let index = try #require(scenario.steps.firstIndex { $0.expect == .success })
        scenario.steps[index].expect = .revert(reason: "not what happens")
        do {
            _ = try await Self.runGeneral(try scenario.contractScenario(artifact: .project))
            Issue.record("the run passed a wrong expectation")
        } catch let error as ContractScenarioError {
            guard case .expectationFailed(_, let step, _, _, let expected, _) = error else { Issue.record("\(error)"); return }
            #expect(step == index + 2)  // after the deployment step, numbered from 1
            #expect(expected.contains("not what happens"))
        }
    }
}
