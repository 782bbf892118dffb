import CarChain
import Chain
import EthereumABI
import EthereumContractsLocal
import EthereumCrypto
import EthereumContracts
import EthereumPrimitives
import EthereumTransactions

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
    /// The fork the chain ran (nil for a node given by URL, whose fork is its own).
    public var hardfork: Hardfork?
    /// The deployment's receipt.
    public var deployment: EthereumContracts.TransactionOutcome
    /// The creation transaction's data in bytes (creation code and constructor arguments; forge's
    /// "Deployment Size").
    public var creationSize: Int
    /// The deployed (runtime) code's size, in bytes.
    public var runtimeSize: Int
    /// Every step, in order.
    public var steps: [ScenarioStepResult]
    /// The state root after the last step (nil when the chain was a node given by URL).
    public var stateRoot: Bytes32?
    /// The deployment as observed (signed bytes, and the gas breakdown when traced).
    public var deploymentObservation: GasObservation
    /// Every step as observed, in order.
    public var observations: [GasObservation]

    /// The gas report of this run (deployment, and every step's receipt).
    public func gasReport() -> GasReport {
        GasReport(
            contract: contract, deploymentGas: deployment.gasUsed, deploymentSize: creationSize, runtimeSize: runtimeSize,
            deployment: deploymentObservation, observations: observations)
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
        checkExpectations: Bool = true, traceGas: Bool = false
    ) async throws -> ScenarioRun {
        let keys = try accountKeys(scenario)
        guard let deployerKey = keys[scenario.deployer] else {
            throw ScenarioError.invalid(source: scenario.name, path: "deployer", message: "\(scenario.deployer) is not an account")
        }
        let limits = GasLimits(scenario: scenario, fork: hardfork)
        let (chain, backend) = try await inProcessChain(
            keys: Array(keys.values), sender: deployerKey.address, hardfork: hardfork, deploymentGasLimit: limits.deployment,
            callGasLimit: limits.call)
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, artifact: artifact, from: deployerKey.address)
        let runtimeSize = try await chain.code(contract.address).count
        let observer = ChainGasObserver(chain: chain, fork: hardfork, trace: traceGas)
        let deploymentObservation = try await observer.observe(
            GasSnapshot.deploymentName, deployment, depositedCodeSize: runtimeSize, capped: limits.deploymentCapped)
        let (results, observations) = try await runSteps(
            scenario, keys: keys, contract: contract, flavour: artifact.flavour, checkExpectations: checkExpectations
        ) { function, outcome in
            try await observer.observe(function, outcome, depositedCodeSize: 0, capped: limits.callCapped)
        }
        let stateRoot = await chain.latestHeader().stateRoot
        await chain.close()
        return ScenarioRun(
            scenario: scenario.name, contract: label ?? artifact.flavour.description, flavour: artifact.flavour,
            hardfork: hardfork, deployment: deployment, creationSize: artifact.bytecode.count, runtimeSize: runtimeSize, steps: results,
            stateRoot: stateRoot, deploymentObservation: deploymentObservation, observations: observations)
    }

    /// A fresh deterministic chain in memory under `hardfork` (the test mnemonic's accounts, and every key of `keys`
    /// that is not one of them funded with 10,000 ETH at genesis), and a backend signing with `keys` — the chain every
    /// scenario runs on in process, CarChain's and any contract's (`ContractScenario`).
    public static func inProcessChain(
        keys: [PrivateKey], sender: Address, hardfork: Hardfork, deploymentGasLimit: UInt64, callGasLimit: UInt64
    ) async throws -> (chain: DevChain, backend: DevChainBackend) {
        let dev = DevAccounts.standard
        var extra: [DevAccount] = []
        for key in keys where !dev.contains(where: { $0.address == key.address }) && !extra.contains(where: { $0.address == key.address }) {
            extra.append(DevAccount(privateKey: key, balance: DevAccounts.defaultBalance))
        }
        var config = ChainConfig.deterministic()
        config.hardfork = hardfork
        config.devAccounts = dev + extra
        let chain = try await DevChain(config: config, storage: .memory)
        let backend = try DevChainBackend(
            chain: chain, keys: keys, defaultSender: sender, deploymentGasLimit: deploymentGasLimit, callGasLimit: callGasLimit)
        return (chain, backend)
    }

    /// Sends every step from its account, checks it against its `"expect"` when asked, and observes its gas;
    /// shared by the in-process run and the replay against a node.
    static func runSteps(
        _ scenario: Scenario, keys: [String: PrivateKey], contract: CarChainContract, flavour: CarChainFlavour, checkExpectations: Bool,
        observe: (String, EthereumContracts.TransactionOutcome) async throws -> GasObservation
    ) async throws -> ([ScenarioStepResult], [GasObservation]) {
        var results: [ScenarioStepResult] = []
        var observations: [GasObservation] = []
        for (i, step) in scenario.steps.enumerated() {
            guard let key = keys[step.from] else {
                throw ScenarioError.invalid(source: scenario.name, path: "steps[\(i)].from", message: "\(step.from) is not an account")
            }
            let transaction = try await contract.execute(step.operation, from: key.address)
            let result = ScenarioStepResult(
                number: i + 1, label: step.label ?? step.operation.description, operation: step.operation, from: step.from,
                transaction: transaction)
            if checkExpectations, let expected = step.expect, !matches(expected, result, flavour: flavour) {
                throw ScenarioError.expectationFailed(
                    scenario: scenario.name, step: i + 1, operation: step.operation.description, from: step.from,
                    expected: expected.description, got: result.outcomeDescription)
            }
            results.append(result)
            observations.append(try await observe(step.operation.functionName, transaction.outcome))
        }
        return (results, observations)
    }

    /// Each scenario account's key: `dev:N` from the test mnemonic, or the key given.
    static func accountKeys(_ scenario: Scenario) throws -> [String: PrivateKey] {
        var keys: [String: PrivateKey] = [:]
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
            }
        }
        return keys
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

/// A scenario's gas limits under a fork: the scenario's (or the defaults), lowered to the EIP-7825 cap
/// from Osaka, which refuses a transaction whose gas limit is above 2^24.
struct GasLimits {
    var deployment: UInt64
    var call: UInt64
    var deploymentCapped = false
    var callCapped = false

    init(scenario: Scenario, fork: Hardfork) {
        deployment = scenario.deploymentGasLimit ?? DevChainBackend.defaultDeploymentGasLimit
        call = scenario.callGasLimit ?? DevChainBackend.defaultCallGasLimit
        if fork >= .osaka {
            let cap = SignedTransaction.osakaGasLimitCap
            if deployment > cap { (deployment, deploymentCapped) = (cap, true) }
            if call > cap { (call, callCapped) = (cap, true) }
        }
    }
}

/// Reads back what a gas report needs of a mined transaction on an in-process chain: its signed bytes
/// and, when asked, its gas split by component from a struct-log trace (what `gas-report --forks` names the EIP of a
/// change with).
public struct ChainGasObserver: Sendable {
    let chain: DevChain
    let fork: Hardfork
    let trace: Bool

    /// An observer of `chain`, which runs `fork`; `trace` splits each transaction's gas by component.
    public init(chain: DevChain, fork: Hardfork, trace: Bool) {
        self.chain = chain
        self.fork = fork
        self.trace = trace
    }

    /// The observation of the mined transaction of `outcome`, reported under `function`; `depositedCodeSize` is the
    /// code a deployment left (0 for a call), `capped` whether its gas limit was cut to the chain's cap.
    public func observe(
        _ function: String, _ outcome: EthereumContracts.TransactionOutcome, depositedCodeSize: Int, capped: Bool
    ) async throws -> GasObservation {
        guard let (signed, _) = try await chain.transaction(hash: outcome.transactionHash) else {
            throw AppError.failed("transaction \(outcome.transactionHash) is not on the chain it was sent to")
        }
        var breakdown: GasBreakdown?
        if trace {
            let logs = try await chain.trace(transaction: outcome.transactionHash).structLogs
            let intrinsic = signed.transaction.intrinsicGas(fork: fork)
            breakdown = GasBreakdown.split(
                gasUsed: outcome.gasUsed, intrinsic: intrinsic.gas, floor: intrinsic.floor,
                steps: logs.map { (op: $0.opName, depth: $0.depth, gas: $0.gas, cost: $0.gasCost) },
                depositedCodeSize: outcome.succeeded ? depositedCodeSize : 0, gasLimitCapped: capped)
        }
        return GasObservation(
            function: function, gasUsed: outcome.gasUsed, succeeded: outcome.succeeded, encoded: TransactionBytes(signed.encoded),
            breakdown: breakdown)
    }
}
