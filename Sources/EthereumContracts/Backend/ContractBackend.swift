import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire

/// Where a contract runs: a JSON-RPC node (``RPCContractBackend``), the in-process chain (`DevChainBackend` in
/// `EthereumContractsLocal`), or a test double. Every binding — generated, dynamic or hand-written — goes through
/// these seven requirements and nothing else, so a new backend (a test bench, a recording proxy, a fork) is one
/// conformance.
///
/// A revert is an outcome here, not an error: ``call(_:at:)`` returns ``CallOutcome/reverted(_:)``,
/// ``estimateGas(_:at:)`` returns ``GasEstimate/reverted(_:)`` and ``send(_:from:)`` returns a mined
/// ``TransactionOutcome`` whose `succeeded` is false. A backend throws only when it could not do what was asked
/// (transport, signing, a node refusing the transaction); a revert found before anything was sent (a backend that
/// estimates gas first) is thrown as ``RevertedBeforeSending``, or as EthereumRPC's `SendError` carrying the revert
/// (``RPCContractBackend`` signing locally, through a `TransactionSender`). ``Contract`` turns reverts into ``ContractError``s
/// decoded with the contract's ABI.
public protocol ContractBackend: Sendable {
    /// The account calls and transactions come from when they name none (nil: calls come from the zero address,
    /// and sending needs an explicit sender).
    var defaultSender: Address? { get }

    /// The chain id (`eth_chainId`).
    func chainID() async throws -> UInt64

    /// Runs a call without a transaction at `block` (`eth_call`).
    func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome

    /// The gas a transaction needs (`eth_estimateGas`), or the revert that stops it.
    func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate

    /// Signs (with a local key, or by the node), submits, and waits until the transaction is mined (and, where the
    /// backend is configured so, confirmed). `from` nil: ``defaultSender``.
    func send(_ request: TransactionRequest, from: Address?) async throws -> TransactionOutcome

    /// The logs matching a filter (`eth_getLogs`), in chain order.
    func logs(_ filter: LogFilter) async throws -> [RPCLog]

    /// An account's code at `block` (`eth_getCode`).
    func code(at address: Address, block: BlockTag) async throws -> [UInt8]
}

extension ContractBackend {
    /// Runs `data` against `to` at the latest block, from `from` (nil: ``defaultSender``).
    public func call(to: Address, data: [UInt8], from: Address?) async throws -> CallOutcome {
        try await call(CallRequest(from: from ?? defaultSender, to: to, data: data), at: .latest)
    }

    /// Sends `data` with `value` to `to` (nil: a contract creation) from `from` (nil: ``defaultSender``).
    public func send(to: Address?, data: [UInt8], value: UInt256, from: Address?) async throws -> TransactionOutcome {
        try await send(TransactionRequest(to: to, data: data, value: value), from: from)
    }

    /// Deploys creation code; the outcome's `contractAddress` is the new contract.
    public func deploy(bytecode: [UInt8], value: UInt256 = .zero, from: Address? = nil) async throws -> TransactionOutcome {
        try await send(TransactionRequest(to: nil, data: bytecode, value: value), from: from)
    }
}

/// The result of a call: the returned bytes, or the revert data.
public enum CallOutcome: Sendable, Hashable {
    /// The call returned this data.
    case returned([UInt8])
    /// The call reverted with this data (possibly empty).
    case reverted([UInt8])
}

/// The result of a gas estimate: the gas, or the revert data of the execution that failed.
public enum GasEstimate: Sendable, Hashable {
    /// The transaction needs this much gas.
    case gas(UInt64)
    /// The execution reverts (with this data) at any gas limit.
    case reverted([UInt8])
}

/// A transaction a backend did not send because its gas estimate reverted: the revert data and the node's words.
public struct RevertedBeforeSending: Error, Sendable, Hashable, CustomStringConvertible {
    /// The revert data.
    public var data: [UInt8]
    /// What the node or chain said (`execution reverted: …`).
    public var message: String

    public init(data: [UInt8], message: String) {
        self.data = data
        self.message = message
    }

    public var description: String { "the transaction would revert (found by the gas estimate; nothing was sent): \(message)" }
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

    /// The record of a log as the node returns it.
    public init(_ log: RPCLog) {
        self.init(address: log.address, topics: log.topics, data: log.data)
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
