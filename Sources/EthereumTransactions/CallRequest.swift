import EthereumPrimitives
import EthereumTransactions

/// The parameters of `eth_call`, `eth_estimateGas`, `eth_createAccessList` and
/// `eth_sendTransaction`: every field optional, as in JSON-RPC.
public struct TransactionRequest: Sendable, Hashable {
    /// The sender (required for `eth_sendTransaction`; zero address for calls when absent).
    public var from: Address?
    /// The recipient; nil creates a contract.
    public var to: Address?
    /// The gas limit.
    public var gas: UInt64?
    /// A legacy gas price (selects a type 0 or 1 transaction).
    public var gasPrice: UInt256?
    /// EIP-1559 fee cap.
    public var maxFeePerGas: UInt256?
    /// EIP-1559 priority fee cap.
    public var maxPriorityFeePerGas: UInt256?
    /// Wei sent.
    public var value: UInt256?
    /// Call data or init code.
    public var data: [UInt8]?
    /// The nonce (sendTransaction fills the pending nonce when absent).
    public var nonce: UInt64?
    /// An EIP-2930 access list.
    public var accessList: AccessList?
    /// The envelope type to send (0, 1 or 2); chosen from the fee fields when absent.
    public var type: UInt8?
    /// Blob versioned hashes (calls only).
    public var blobVersionedHashes: [Bytes32]?
    /// Blob fee cap (calls only).
    public var maxFeePerBlobGas: UInt256?

    /// Creates a request.
    public init(
        from: Address? = nil, to: Address? = nil, gas: UInt64? = nil, gasPrice: UInt256? = nil,
        maxFeePerGas: UInt256? = nil, maxPriorityFeePerGas: UInt256? = nil, value: UInt256? = nil,
        data: [UInt8]? = nil, nonce: UInt64? = nil, accessList: AccessList? = nil, type: UInt8? = nil,
        blobVersionedHashes: [Bytes32]? = nil, maxFeePerBlobGas: UInt256? = nil
    ) {
        self.from = from
        self.to = to
        self.gas = gas
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.value = value
        self.data = data
        self.nonce = nonce
        self.accessList = accessList
        self.type = type
        self.blobVersionedHashes = blobVersionedHashes
        self.maxFeePerBlobGas = maxFeePerBlobGas
    }
}

/// The parameters of a call: the same fields as a transaction request.
public typealias CallRequest = TransactionRequest
