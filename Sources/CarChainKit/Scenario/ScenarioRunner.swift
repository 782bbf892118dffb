import CarChain
import Chain
import EthereumABI
import EthereumCrypto
import EthereumPrimitives

/// What one scenario step did on the chain.
public struct ScenarioStepResult: Sendable, Hashable {
    /// The step's number: 1 for the first step (0 is the deployment), as in the seed README's table.
    public var number: Int
    /// The step's label, or its operation.
    public var label: String
    /// What was sent.
    public var operation: CarChainOperation
    /// The sending account's name.
    public var from: String
    /// The mined transaction (receipt, events, the refusal).
    public var transaction: CarChainTransaction

    /// True when the contract accepted the operation.
    public var succeeded: Bool { transaction.succeeded }
    /// The receipt's gas used.
    public var gasUsed: UInt64 { transaction.outcome.gasUsed }
    /// Why it reverted; nil when it succeeded.
    public var revertReason: EthereumABI.RevertReason? { transaction.error?.revertReason }

    /// `success` or the revert (`reverted: car not rented`, `reverted without data`).
    public var outcomeDescription: String { revertReason?.description ?? "success" }
}

/// A finished scenario run on an ephemeral chain.
public struct ScenarioRun: Sendable {
    /// The scenario's name.
    public var scenario: String
    /// The label of the contract it ran on (a report's column title).
    public var contract: String
    /// The contract's flavour.
    public var flavour: CarChainFlavour
    /// The fork the chain ran.
    public var hardfork: Hardfork
    /// The deployment's receipt.
    public var deployment: CarChain.TransactionOutcome
    /// The runtime bytecode size of the artifact, in bytes.
    public var deploymentSize: Int
    /// Every step, in order.
    public var steps: [ScenarioStepResult]
    /// The state root after the last step.
    public var stateRoot: Bytes32

    /// The gas report of this run (deployment, and every step's receipt).
    public func gasReport() -> GasReport {
        GasReport(
            contract: contract, deploymentGas: deployment.gasUsed, deploymentSize: deploymentSize,
            observations: steps.map { GasObservation(function: $0.operation.functionName, gasUsed: $0.gasUsed, succeeded: $0.succeeded) })
    }
}

/// Runs a ``Scenario`` on a fresh deterministic in-process chain (``ChainConfig/deterministic(genesisTimestamp:blockInterval:)``,
/// in memory, one block per transaction), so the same scenario gives the same receipts every time.
public enum ScenarioRunner {
    /// Deploys `artifact` from the scenario's deployer, sends every step from its account and returns
    /// the receipts. With `checkExpectations`, a step whose outcome differs from its `"expect"` throws
    /// ``ScenarioError/expectationFailed(scenario:step:operation:from:expected:got:)`` (reasons are
    /// compared only on the project's contract; the seed's reverts carry none).
    public static func run(
        _ scenario: Scenario, artifact: CarChainArtifact, label: String? = nil, hardfork: Hardfork = .cancun,
        checkExpectations: Bool = true
    ) async throws -> ScenarioRun {
        var keys: [String: PrivateKey] = [:]
        var extra: [DevAccount] = []
        let dev = DevAccounts.standard
        for account in scenario.accounts {
            switch account.source {
            case .dev(let index):
                guard index < dev.count, let key = dev[index].privateKey else {
                    throw ScenarioError.invalid(source: scenario.name, path: "accounts.\(account.name)", message: "no dev account \(index)")
                }
                keys[account.name] = key
            case .key(let key):
                keys[account.name] = key
                if !dev.contains(where: { $0.address == key.address }) && !extra.contains(where: { $0.address == key.address }) {
                    extra.append(DevAccount(privateKey: key, balance: DevAccounts.defaultBalance))
                }
            }
        }
        guard let deployerKey = keys[scenario.deployer] else {
            throw ScenarioError.invalid(source: scenario.name, path: "deployer", message: "\(scenario.deployer) is not an account")
        }
        var config = ChainConfig.deterministic()
        config.hardfork = hardfork
        config.devAccounts = dev + extra
        let chain = try await DevChain(config: config, storage: .memory)
        let backend = try DevChainBackend(
            chain: chain, keys: Array(keys.values), defaultSender: deployerKey.address,
            deploymentGasLimit: scenario.deploymentGasLimit ?? DevChainBackend.defaultDeploymentGasLimit,
            callGasLimit: scenario.callGasLimit ?? DevChainBackend.defaultCallGasLimit)
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, artifact: artifact, from: deployerKey.address)

        var results: [ScenarioStepResult] = []
        for (i, step) in scenario.steps.enumerated() {
            guard let key = keys[step.from] else {
                throw ScenarioError.invalid(source: scenario.name, path: "steps[\(i)].from", message: "\(step.from) is not an account")
            }
            let transaction = try await contract.execute(step.operation, from: key.address)
            let result = ScenarioStepResult(
                number: i + 1, label: step.label ?? step.operation.description, operation: step.operation, from: step.from,
                transaction: transaction)
            if checkExpectations, let expected = step.expect, !matches(expected, result, flavour: artifact.flavour) {
                throw ScenarioError.expectationFailed(
                    scenario: scenario.name, step: i + 1, operation: step.operation.description, from: step.from,
                    expected: expected.description, got: result.outcomeDescription)
            }
            results.append(result)
        }
        let stateRoot = await chain.latestHeader().stateRoot
        await chain.close()
        return ScenarioRun(
            scenario: scenario.name, contract: label ?? artifact.flavour.description, flavour: artifact.flavour,
            hardfork: hardfork, deployment: deployment, deploymentSize: artifact.deployedBytecode.count, steps: results,
            stateRoot: stateRoot)
    }

    static func matches(_ expected: ScenarioExpectation, _ result: ScenarioStepResult, flavour: CarChainFlavour) -> Bool {
        switch expected {
        case .success: return result.succeeded
        case .revert(nil): return !result.succeeded
        case .revert(let reason?):
            if result.succeeded { return false }
            return flavour == .seed || result.revertReason == .error(reason)
        }
    }
}
