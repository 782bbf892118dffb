import EthereumPrimitives

/// Where a contract binding runs: a JSON-RPC node, the in-process chain, or a test double. It executes
/// calls and sends transactions; choosing gas, nonces and signing keys is its business.
public protocol ContractBackend: Sendable {
    /// Executes `data` against `to` at the latest state without a transaction (`eth_call`), as `from`
    /// (nil: the backend's default account).
    func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome

    /// Sends a transaction from `from` (nil: the backend's default account) to `to` (nil: contract
    /// creation, `data` being the creation code), waits until it is mined and returns what happened. A
    /// reverted transaction is an outcome with `succeeded == false`, not an error; errors are for
    /// transactions that could not be sent or mined.
    func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome
}

extension ContractBackend {
    /// Deploys creation code (`send(to: nil, …)`); the outcome's `contractAddress` is the new contract.
    public func deploy(bytecode: [UInt8], value: UInt256 = .zero, from: Address? = nil) async throws -> TransactionOutcome {
        try await send(to: nil, data: bytecode, value: value, from: from)
    }
}

/// The result of a call: the returned bytes, or the revert data.
public enum CallOutcome: Sendable, Hashable {
    /// The call returned this data.
    case returned([UInt8])
    /// The call reverted with this data (possibly empty).
    case reverted([UInt8])
}

/// A log record a transaction emitted.
public struct TransactionLog: Sendable, Hashable {
    /// The emitting contract.
    public var address: Address
    /// Topics (topic 0 is the event signature's hash for non-anonymous events).
    public var topics: [Bytes32]
    /// The non-indexed data.
    public var data: [UInt8]

    /// Creates a log record.
    public init(address: Address, topics: [Bytes32], data: [UInt8]) {
        self.address = address
        self.topics = topics
        self.data = data
    }
}

/// What a mined transaction did (the receipt, plus revert data when the backend knows it).
public struct TransactionOutcome: Sendable, Hashable {
    /// The receipt's status: false when the transaction reverted or ran out of gas.
    public var succeeded: Bool
    /// The transaction's hash.
    public var transactionHash: Bytes32
    /// The block it was mined in.
    public var blockNumber: UInt64
    /// Gas used (the receipt's `gasUsed`).
    public var gasUsed: UInt64
    /// The price paid per gas (`effectiveGasPrice`).
    public var effectiveGasPrice: UInt256
    /// The logs, in order (empty when the transaction failed).
    public var logs: [TransactionLog]
    /// For a failed transaction, its revert data when the backend can tell (an in-process chain always
    /// can; a node may need a replay); nil when unknown or the transaction succeeded.
    public var revertData: [UInt8]?
    /// The created contract, for a successful deployment.
    public var contractAddress: Address?

    /// Creates an outcome.
    public init(
        succeeded: Bool, transactionHash: Bytes32, blockNumber: UInt64, gasUsed: UInt64, effectiveGasPrice: UInt256,
        logs: [TransactionLog] = [], revertData: [UInt8]? = nil, contractAddress: Address? = nil
    ) {
        self.succeeded = succeeded
        self.transactionHash = transactionHash
        self.blockNumber = blockNumber
        self.gasUsed = gasUsed
        self.effectiveGasPrice = effectiveGasPrice
        self.logs = logs
        self.revertData = revertData
        self.contractAddress = contractAddress
    }

    /// The fee paid: `gasUsed × effectiveGasPrice`.
    public var fee: UInt256 { UInt256(gasUsed) &* effectiveGasPrice }
}
