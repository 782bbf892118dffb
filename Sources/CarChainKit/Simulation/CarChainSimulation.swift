import CarChain
import Chain
import EthereumABI
import EthereumContractsLocal
import EthereumCrypto
import EthereumPrimitives

/// How a simulation is set up.
public struct SimulationOptions: Sendable, Hashable {
    /// The seed: the same seed gives the same operations, receipts and final state root.
    public var seed: UInt64
    /// How many user ids the workload uses.
    public var users: Int
    /// How many plates.
    public var cars: Int
    /// How many transactions to send after the deployment.
    public var steps: Int
    /// The fork the chain runs (the project's contract needs Cancun or later).
    public var hardfork: Hardfork

    /// Creates options.
    public init(seed: UInt64, users: Int = 6, cars: Int = 4, steps: Int = 300, hardfork: Hardfork = .cancun) {
        self.seed = seed
        self.users = users
        self.cars = cars
        self.steps = steps
        self.hardfork = hardfork
    }
}

/// How often one function was sent, and how it ended.
public struct SimulationOperationCount: Sendable, Hashable {
    /// The function's name.
    public var name: String
    /// Accepted.
    public var succeeded: Int
    /// Refused.
    public var reverted: Int
}

/// A finished simulation in which the chain and the model agreed at every step.
public struct SimulationReport: Sendable {
    /// The options it ran with.
    public var options: SimulationOptions
    /// Per function, sorted by name.
    public var operations: [SimulationOperationCount]
    /// How often each revert reason (the `Error(string)` text) occurred, most frequent first (ties by text).
    public var revertReasons: [(reason: String, count: Int)]
    /// How many view results were compared with the model.
    public var readsChecked: Int
    /// The gas of the deployment and of every transaction.
    public var gasReport: GasReport
    /// The state root of the last block.
    public var stateRoot: Bytes32
    /// The last block's number.
    public var blockNumber: UInt64
    /// `registeredUsers`, `registeredCars`, `rentedCars` at the end.
    public var finalCounters: (users: UInt256, cars: UInt256, rented: UInt256)
}

/// The chain and the reference model disagreed: the step, the operation and both answers.
public struct SimulationDisagreement: Error, Sendable, CustomStringConvertible {
    /// The step (1-based; 0 would be the deployment).
    public var step: Int
    /// The operation sent, e.g. `rentCar("SIM-001", "user-02")`.
    public var operation: String
    /// Who sent it.
    public var sender: String
    /// What differed: `outcome`, `events`, or a view such as `getUserCredit("user-02")`.
    public var subject: String
    /// The chain's answer.
    public var chain: String
    /// The model's answer.
    public var model: String

    /// Creates a disagreement record.
    public init(step: Int, operation: String, sender: String, subject: String, chain: String, model: String) {
        self.step = step
        self.operation = operation
        self.sender = sender
        self.subject = subject
        self.chain = chain
        self.model = model
    }

    public var description: String {
        "simulation step \(step): \(operation) from \(sender): \(subject) differs: chain \(chain), model \(model)"
    }
}

/// A seeded random CarChain workload on an ephemeral deterministic chain, checked step by step against
/// ``CarChainModel``: after every transaction its outcome (success and events, or the revert reason)
/// and the views it could change (the counters, the user's credit and car, the car) must equal the
/// model's; at the end every id's and plate's views are compared too.
public enum CarChainSimulation {
    /// The manager's key: the first account of the test mnemonic.
    static func managerKey() throws -> PrivateKey {
        guard let key = DevAccounts.standard.first?.privateKey else {
            throw DevChainBackendError.noSender
        }
        return key
    }

    /// A fixed key per label (keccak256 of the text), so user accounts are the same on every run.
    static func key(_ label: String) throws -> PrivateKey { try PrivateKey(bytes: Keccak256.hash(Array(label.utf8)).bytes) }

    /// Runs the simulation. `progress(done, total)` is called after each step. Throws
    /// ``SimulationDisagreement`` at the first difference.
    public static func run(
        _ options: SimulationOptions, progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws -> SimulationReport {
        var workload = SimulationWorkload(seed: options.seed, users: options.users, cars: options.cars)
        let manager = try managerKey()
        let userKeys = try (0..<workload.users).map { try key("carchain simulate: account \($0)") }
        let stranger = try key("carchain simulate: stranger")
        let extra = (userKeys + [stranger]).map { DevAccount(privateKey: $0, balance: DevAccounts.defaultBalance) }

        var config = ChainConfig.deterministic()
        config.hardfork = options.hardfork
        config.devAccounts = [DevAccount(privateKey: manager, balance: DevAccounts.defaultBalance)] + extra
        let chain = try await DevChain(config: config, storage: .memory)
        let backend = try DevChainBackend(
            chain: chain, keys: [manager] + userKeys + [stranger], defaultSender: manager.address,
            callGasLimit: 1_000_000)
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, artifact: .project, from: manager.address)

        var model = CarChainModel(manager: manager.address)
        let accounts = userKeys.map(\.address)
        func address(_ sender: SimulationSender) -> Address {
            switch sender {
            case .manager: return manager.address
            case .user(let i): return accounts[i]
            case .stranger: return stranger.address
            }
        }

        var observations: [GasObservation] = []
        var counts: [String: (Int, Int)] = [:]
        var reasons: [String: Int] = [:]
        var reads = 0
        for step in stride(from: 1, through: options.steps, by: 1) {
            let (sender, operation) = workload.next(model: model, accounts: accounts)
            let from = address(sender)
            let transaction = try await contract.execute(operation, from: from)
            let expected = model.apply(operation, from: from)
            func disagreement(_ subject: String, chain: String, model: String) -> SimulationDisagreement {
                SimulationDisagreement(
                    step: step, operation: operation.description, sender: sender.description, subject: subject, chain: chain,
                    model: model)
            }
            let chainOutcome = transaction.error?.revertReason.map { $0.description } ?? "success"
            switch expected {
            case .success(let events):
                guard transaction.succeeded else { throw disagreement("outcome", chain: chainOutcome, model: "success") }
                guard transaction.events == events else {
                    throw disagreement(
                        "events", chain: transaction.events.map(\.description).joined(separator: ", "),
                        model: events.map(\.description).joined(separator: ", "))
                }
            case .reverted(let reason):
                guard transaction.error?.revertReason == reason else {
                    throw disagreement("outcome", chain: chainOutcome, model: reason.description)
                }
                let text: String
                switch reason {
                case .error(let message): text = message
                case .empty: text = "(no reason: ABI layer)"
                default: text = reason.description
                }
                reasons[text, default: 0] += 1
            }
            observations.append(GasObservation(function: operation.functionName, gasUsed: transaction.outcome.gasUsed, succeeded: transaction.succeeded))
            var count = counts[operation.functionName] ?? (0, 0)
            if transaction.succeeded { count.0 += 1 } else { count.1 += 1 }
            counts[operation.functionName] = count

            var queries: [CarChainQuery] = [.registeredUsers, .registeredCars, .rentedCars, .availableCars]
            if let id = operation.userId { queries += [.getUserCredit(userId: id), .getUserCar(userId: id), .getUserAccount(userId: id)] }
            if let plate = operation.plate { queries.append(.getCar(plate: plate)) }
            for query in queries {
                if let difference = try await compare(query, contract: contract, model: model) {
                    throw disagreement(query.description, chain: difference.chain, model: difference.model)
                }
                reads += 1
            }
            progress(step, options.steps)
        }

        // Every id and plate once more at the end.
        var finalQueries: [CarChainQuery] = [.minimumRentCredit, .manager]
        for id in workload.allUserIds {
            finalQueries += [.getUserCredit(userId: id), .getUserCar(userId: id), .isUserRegistered(userId: id), .getUserAccount(userId: id)]
        }
        for plate in workload.allPlates { finalQueries.append(.getCar(plate: plate)) }
        for query in finalQueries {
            if let difference = try await compare(query, contract: contract, model: model) {
                throw SimulationDisagreement(
                    step: options.steps, operation: "(final reads)", sender: "-", subject: query.description, chain: difference.chain,
                    model: difference.model)
            }
            reads += 1
        }

        let head = await chain.latestHeader()
        await chain.close()
        let report = GasReport(
            contract: "project", deploymentGas: deployment.gasUsed, deploymentSize: CarChainArtifact.project.bytecode.count,
            runtimeSize: CarChainArtifact.project.deployedBytecode.count, observations: observations)
        return SimulationReport(
            options: options,
            operations: counts.keys.sorted().map { SimulationOperationCount(name: $0, succeeded: counts[$0]?.0 ?? 0, reverted: counts[$0]?.1 ?? 0) },
            revertReasons: reasons.map { (reason: $0.key, count: $0.value) }.sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason },
            readsChecked: reads, gasReport: report, stateRoot: head.stateRoot, blockNumber: head.number,
            finalCounters: (model.registeredUsers, model.registeredCars, model.rentedCars))
    }

    /// Nil when the chain's view equals the model's; else both answers as text.
    static func compare(_ query: CarChainQuery, contract: CarChainContract, model: CarChainModel) async throws -> (chain: String, model: String)? {
        let expected = model.read(query)
        let actual: CarChainQueryResult?
        do {
            actual = try await contract.query(query)
        } catch let error as CarChainError where error == .revertedWithoutReason {
            actual = nil
        }
        if actual == expected { return nil }
        return (actual?.description ?? "reverted without data", expected?.description ?? "reverted without data")
    }
}
