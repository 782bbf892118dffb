import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// CarChain's binding: the generated one (``CarChainBinding``, Generated/CarChainBinding.swift, made by
/// `carchain bindgen` like any contract's) with what CarChain adds over it — the seed/project flavours, operations
/// and queries as values (``CarChainOperation``, ``CarChainQuery``, shared with ``CarChainModel``), the typed
/// ``CarChainEvent``s and ``CarChainError``s — over any ``ContractBackend`` (a JSON-RPC node, the in-process chain,
/// a test double).
///
/// It drives both the project's contract and the seed's (load the seed's artifact with
/// ``CarChainArtifact/init(contentsOf:)``): the functions and selectors are the same; on the seed the
/// four added views throw ``CarChainError/notSupported(function:flavour:)``, transactions carry no events,
/// and refusals revert without a reason.
///
/// State-changing methods return the mined ``CarChainTransaction`` and throw ``CarChainError`` when the
/// contract refuses (e.g. `.reverted(reason: "car not rented")`); ``execute(_:from:)`` returns the refused
/// transaction instead of throwing, for callers that want its gas and hash too.
public struct CarChainContract: Sendable {
    /// The contract's address.
    public let address: Address
    /// Where calls and transactions go.
    public let backend: any ContractBackend
    /// The artifact the contract was built from (its ABI decides what is supported).
    public let artifact: CarChainArtifact

    /// Binds a deployed contract.
    public init(address: Address, backend: any ContractBackend, artifact: CarChainArtifact = .project) {
        self.address = address
        self.backend = backend
        self.artifact = artifact
    }

    /// Project or seed.
    public var flavour: CarChainFlavour { artifact.flavour }

    /// The generated binding over the same address and backend.
    public var binding: CarChainBinding { CarChainBinding(address: address, backend: backend) }

    /// Deploys `artifact`'s creation code from `from` (who becomes the manager).
    public static func deploy(
        backend: any ContractBackend, artifact: CarChainArtifact = .project, from: Address? = nil
    ) async throws -> (contract: CarChainContract, outcome: TransactionOutcome) {
        let outcome = try await backend.deploy(bytecode: artifact.bytecode, from: from)
        guard outcome.succeeded else {
            throw CarChainError.deploymentFailed(reason: "the creation transaction \(outcome.transactionHash) failed")
        }
        guard let address = outcome.contractAddress else {
            throw CarChainError.deploymentFailed(reason: "the receipt names no contract address")
        }
        return (CarChainContract(address: address, backend: backend, artifact: artifact), outcome)
    }

    // MARK: Generic forms

    /// Sends `operation` and returns the mined transaction, refused or not.
    public func execute(_ operation: CarChainOperation, from: Address? = nil) async throws -> CarChainTransaction {
        let outcome = try await backend.send(to: address, data: operation.calldata, value: .zero, from: from)
        guard outcome.succeeded else {
            return CarChainTransaction(operation: operation, outcome: outcome, events: [], error: CarChainError(revertData: outcome.revertData ?? []))
        }
        return CarChainTransaction(operation: operation, outcome: outcome, events: try events(in: outcome), error: nil)
    }

    /// Calls a view.
    public func query(_ query: CarChainQuery, from: Address? = nil) async throws -> CarChainQueryResult {
        guard artifact.abi.function(named: query.functionName) != nil else {
            throw CarChainError.notSupported(function: query.functionName, flavour: flavour)
        }
        switch try await backend.call(to: address, data: query.calldata, from: from) {
        case .reverted(let data):
            throw CarChainError(revertData: data)
        case .returned(let data):
            let values: [ABIValue]
            do {
                values = try ABIDecoder.decode(query.outputTypes, from: data)
            } catch {
                throw CarChainError.unexpectedData(function: query.functionName, reason: "\(error)")
            }
            guard let result = query.result(from: values) else {
                throw CarChainError.unexpectedData(function: query.functionName, reason: "unexpected values \(values)")
            }
            return result
        }
    }

    /// The CarChain events among a transaction's logs (logs of other contracts are skipped).
    public func events(in outcome: TransactionOutcome) throws(CarChainError) -> [CarChainEvent] {
        var events: [CarChainEvent] = []
        for log in outcome.logs where log.address == address {
            let event: CarChainEvent?
            do {
                event = try CarChainEvent(topics: log.topics, data: log.data)
            } catch {
                throw .unexpectedData(function: "log", reason: "\(error)")
            }
            guard let event else {
                throw .unexpectedData(function: "log", reason: "unknown event topic \(log.topics.first?.description ?? "(none)")")
            }
            events.append(event)
        }
        return events
    }

    private func send(_ operation: CarChainOperation, from: Address?) async throws -> CarChainTransaction {
        let transaction = try await execute(operation, from: from)
        if let error = transaction.error { throw error }
        return transaction
    }

    // MARK: Transactions

    /// Registers `userId`; from an ordinary account it binds the id to that account.
    @discardableResult
    public func registerNewUser(_ userId: String, from: Address? = nil) async throws -> CarChainTransaction {
        try await send(.registerNewUser(userId: userId), from: from)
    }

    /// Registers a car (manager only).
    @discardableResult
    public func registerNewCar(_ plate: String, from: Address? = nil) async throws -> CarChainTransaction {
        try await send(.registerNewCar(plate: plate), from: from)
    }

    /// Adds credit to a user (the id's account or the manager).
    @discardableResult
    public func addCredit(userId: String, credit: UInt256, from: Address? = nil) async throws -> CarChainTransaction {
        try await send(.addCredit(userId: userId, credit: credit), from: from)
    }

    /// Rents a car for a user, for one credit.
    @discardableResult
    public func rentCar(plate: String, userId: String, from: Address? = nil) async throws -> CarChainTransaction {
        try await send(.rentCar(plate: plate, userId: userId), from: from)
    }

    /// Returns the car a user rents.
    @discardableResult
    public func returnCar(plate: String, userId: String, from: Address? = nil) async throws -> CarChainTransaction {
        try await send(.returnCar(plate: plate, userId: userId), from: from)
    }

    // MARK: Views

    /// Runs a view of the generated binding, refusing one the flavour lacks and turning its errors into ``CarChainError``.
    private func view<T>(_ name: String, _ body: (CarChainBinding) async throws -> T) async throws -> T {
        guard artifact.abi.function(named: name) != nil else { throw CarChainError.notSupported(function: name, flavour: flavour) }
        do {
            return try await body(binding)
        } catch let error as ContractError {
            throw CarChainError(error)
        }
    }

    /// A user's credit (0 for unknown ids).
    public func getUserCredit(_ userId: String) async throws -> UInt256 { try await view("getUserCredit") { try await $0.getUserCredit(userId: userId) } }

    /// The plate a user rents: `"-"` for none, `""` for an unknown id.
    public func getUserCar(_ userId: String) async throws -> String { try await view("getUserCar") { try await $0.getUserCar(userId: userId) } }

    /// The credit a rental costs (always 1).
    public func minimumRentCredit() async throws -> UInt256 { try await view("minimumRentCredit") { try await $0.minimumRentCredit() } }
    /// How many users are registered.
    public func registeredUsers() async throws -> UInt256 { try await view("registeredUsers") { try await $0.registeredUsers() } }
    /// How many cars are registered.
    public func registeredCars() async throws -> UInt256 { try await view("registeredCars") { try await $0.registeredCars() } }
    /// How many cars are rented.
    public func rentedCars() async throws -> UInt256 { try await view("rentedCars") { try await $0.rentedCars() } }
    /// `registeredCars − rentedCars`.
    public func availableCars() async throws -> UInt256 { try await view("availableCars") { try await $0.availableCars() } }

    /// The manager (the deployer). Not in the seed.
    public func manager() async throws -> Address { try await view("manager") { try await $0.manager() } }

    /// Whether a plate is registered and who rents it. Not in the seed.
    public func getCar(_ plate: String) async throws -> CarInfo {
        let car = try await view("getCar") { try await $0.getCar(plate: plate) }
        return CarInfo(registered: car.field0, renter: car.field1)
    }

    /// Whether a user id is registered. Not in the seed.
    public func isUserRegistered(_ userId: String) async throws -> Bool {
        try await view("isUserRegistered") { try await $0.isUserRegistered(userId: userId) }
    }

    /// The account bound to a user id, zero if none. Not in the seed.
    public func getUserAccount(_ userId: String) async throws -> Address {
        try await view("getUserAccount") { try await $0.getUserAccount(userId: userId) }
    }
}

/// A mined CarChain transaction: the operation, the receipt, the decoded events, and the contract's
/// refusal when it reverted.
public struct CarChainTransaction: Sendable, Hashable {
    /// What was sent.
    public var operation: CarChainOperation
    /// The receipt.
    public var outcome: TransactionOutcome
    /// The events it emitted (none when it reverted, none on the seed).
    public var events: [CarChainEvent]
    /// Why it reverted; nil when it succeeded.
    public var error: CarChainError?

    /// Creates a record.
    public init(operation: CarChainOperation, outcome: TransactionOutcome, events: [CarChainEvent], error: CarChainError?) {
        self.operation = operation
        self.outcome = outcome
        self.events = events
        self.error = error
    }

    /// True when the contract accepted the operation.
    public var succeeded: Bool { error == nil }

    /// The events, or the refusal as an error.
    public func get() throws(CarChainError) -> [CarChainEvent] {
        if let error { throw error }
        return events
    }
}
