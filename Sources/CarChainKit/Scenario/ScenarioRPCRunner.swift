import CarChain
import Chain
import EthereumContractsLocal
import EthereumCrypto
import EthereumContracts
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions

/// Replays a ``Scenario`` against any JSON-RPC node (`gas-report --rpc URL`): a fork, another client, the
/// chain a team will pay on. Each account signs its own transactions with the scenario's gas limits (fixed,
/// so a step meant to revert is still sent and charged, as on the in-process chain). On a development
/// node, accounts without ether are funded from the first dev account of the test mnemonic; anywhere
/// else they must be funded beforehand.
public enum ScenarioRPCRunner {
    /// What the node said about itself.
    public struct Node: Sendable, Hashable {
        /// The URL the report was made against.
        public var url: String
        /// Its chain id.
        public var chainID: UInt64
        /// `web3_clientVersion`, when it answers.
        public var clientVersion: String?
    }

    /// Ether given to an unfunded account on a development node: enough for any scenario's gas.
    public static let funding = UInt256(100) * EtherUnit.ether.weiPerUnit

    /// Runs `scenario` on the node at `client`; `expectedChainID` (when given) must match the node's.
    public static func run(
        _ scenario: Scenario, artifact: CarChainArtifact, label: String? = nil, client: RPCClient, expectedChainID: UInt64?,
        receiptTimeout: Double, checkExpectations: Bool = true
    ) async throws -> (run: ScenarioRun, node: Node) {
        let chainID = try await client.chainID()
        if let expectedChainID, expectedChainID != chainID {
            throw SendError.chainIDMismatch(expected: expectedChainID, node: chainID, endpoint: client.endpoint)
        }
        let version = try? await client.clientVersion()
        let node = Node(url: client.endpoint, chainID: chainID, clientVersion: version)
        let options = SendOptions(expectedChainID: chainID, receiptTimeout: receiptTimeout)
        let keys = try ScenarioRunner.accountKeys(scenario)
        let named = scenario.accounts.compactMap { account in keys[account.name].map { (name: account.name, key: $0) } }
        try await fundAccounts(named, client: client, chainID: chainID, version: version, options: options)

        var senders: [Address: TransactionSender] = [:]
        let nonces = NonceManager(client: client)
        for key in keys.values where senders[key.address] == nil {
            senders[key.address] = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: options, nonces: nonces)
        }
        guard let deployer = keys[scenario.deployer] else {
            throw ScenarioError.invalid(source: scenario.name, path: "deployer", message: "\(scenario.deployer) is not an account")
        }
        let backend = RecordingRPCBackend(
            client: client, senders: senders,
            deploymentGasLimit: scenario.deploymentGasLimit ?? DevChainBackend.defaultDeploymentGasLimit,
            callGasLimit: scenario.callGasLimit ?? DevChainBackend.defaultCallGasLimit, signed: SignedTransactions())
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, artifact: artifact, from: deployer.address)
        let runtimeSize = try await client.code(at: contract.address).count
        func observe(_ function: String, _ outcome: EthereumContracts.TransactionOutcome) async -> GasObservation {
            let bytes = await backend.signed.bytes(outcome.transactionHash)
            return GasObservation(
                function: function, gasUsed: outcome.gasUsed, succeeded: outcome.succeeded, encoded: bytes.map(TransactionBytes.init))
        }
        let deploymentObservation = await observe(GasSnapshot.deploymentName, deployment)
        let (results, observations) = try await ScenarioRunner.runSteps(
            scenario, keys: keys, contract: contract, flavour: artifact.flavour, checkExpectations: checkExpectations, observe: observe)
        let run = ScenarioRun(
            scenario: scenario.name, contract: label ?? artifact.flavour.description, flavour: artifact.flavour, hardfork: nil,
            deployment: deployment, creationSize: artifact.bytecode.count, runtimeSize: runtimeSize, steps: results, stateRoot: nil,
            deploymentObservation: deploymentObservation, observations: observations)
        return (run, node)
    }

    /// A backend over the node at `client` that signs as each of `accounts` (for a scenario of any contract,
    /// `ContractScenario`): the node's chain id checked against `expectedChainID`, accounts without ether funded as
    /// ``run(_:artifact:label:client:expectedChainID:receiptTimeout:checkExpectations:)`` funds them, transactions
    /// without a gas limit given the defaults of the in-process chain.
    ///
    /// `signedBytes` gives the signed bytes of each transaction the backend sent, by hash (for an L2 data fee).
    public static func signingBackend(
        accounts: [(name: String, key: PrivateKey)], client: RPCClient, expectedChainID: UInt64?, receiptTimeout: Double
    ) async throws -> (backend: any ContractBackend, node: Node, signedBytes: @Sendable (Bytes32) async -> [UInt8]?) {
        let chainID = try await client.chainID()
        if let expectedChainID, expectedChainID != chainID {
            throw SendError.chainIDMismatch(expected: expectedChainID, node: chainID, endpoint: client.endpoint)
        }
        let version = try? await client.clientVersion()
        let options = SendOptions(expectedChainID: chainID, receiptTimeout: receiptTimeout)
        try await fundAccounts(accounts, client: client, chainID: chainID, version: version, options: options)
        var senders: [Address: TransactionSender] = [:]
        let nonces = NonceManager(client: client)
        for (_, key) in accounts where senders[key.address] == nil {
            senders[key.address] = try await TransactionSender.connect(
                client: client, signer: PrivateKeySigner(key: key), options: options, nonces: nonces)
        }
        let backend = RecordingRPCBackend(
            client: client, senders: senders, deploymentGasLimit: DevChainBackend.defaultDeploymentGasLimit,
            callGasLimit: DevChainBackend.defaultCallGasLimit, signed: SignedTransactions())
        let signed = backend.signed
        return (backend, Node(url: client.endpoint, chainID: chainID, clientVersion: version), { await signed.bytes($0) })
    }

    /// Funds every scenario account that has no ether, from dev account 0, when the node is a development
    /// node; elsewhere an unfunded account is an error naming it.
    static func fundAccounts(
        _ accounts: [(name: String, key: PrivateKey)], client: RPCClient, chainID: UInt64, version: String?, options: SendOptions
    ) async throws {
        var funder: TransactionSender?
        for (name, key) in accounts {
            guard try await client.balance(of: key.address).isZero else { continue }
            guard SignerSource.isDevelopmentNode(chainID: chainID, clientVersion: version), let devKey = DevAccounts.standard.first?.privateKey
            else {
                throw AppError.failed(
                    "scenario account \(name) (\(key.address)) has no ether on chain \(chainID): fund it first, "
                        + "or run against a development node")
            }
            if funder == nil {
                funder = try await TransactionSender.connect(client: client, signer: PrivateKeySigner(key: devKey), options: options)
            }
            guard let funder else { continue }
            let mined = try await funder.sendAndWait(TransactionRequest(to: key.address, value: funding, gasLimit: 21_000))
            guard mined.succeeded else { throw AppError.failed("funding \(name) (\(key.address)) from dev account 0 failed") }
        }
    }
}

/// The signed bytes of every transaction a replay sent, by hash (for the L2 data fee).
actor SignedTransactions {
    private var byHash: [Bytes32: [UInt8]] = [:]
    func record(_ hash: Bytes32, _ bytes: [UInt8]) { byHash[hash] = bytes }
    func bytes(_ hash: Bytes32) -> [UInt8]? { byHash[hash] }
}

/// A backend over JSON-RPC that signs as whichever scenario account a step names, with the scenario's fixed
/// gas limits, and keeps each transaction's signed bytes.
struct RecordingRPCBackend: RPCReadingBackend {
    let client: RPCClient
    let senders: [Address: TransactionSender]
    let deploymentGasLimit: UInt64
    let callGasLimit: UInt64
    let signed: SignedTransactions

    /// Every step names its sender.
    var defaultSender: Address? { nil }

    func send(_ request: TransactionRequest, from: Address?) async throws -> EthereumContracts.TransactionOutcome {
        guard let from, let sender = senders[from] else {
            throw AppError.failed("no scenario account signs for \(from.map { "\($0)" } ?? "an unnamed sender")")
        }
        let mined = try await sender.sendAndWait(
            TransactionRequest(
                to: request.to, data: request.data, value: request.value,
                gasLimit: request.gasLimit ?? (request.to == nil ? deploymentGasLimit : callGasLimit)))
        await signed.record(mined.hash, mined.sent.signed.encoded)
        return await RPCContractBackend.outcome(of: mined, sender: sender)
    }
}
