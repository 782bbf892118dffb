import EthereumPrimitives

/// A transaction as a caller describes it before it is complete: every field optional, the node (or the
/// in-process chain) filling in the rest. It is the parameter object of `eth_call`, `eth_estimateGas`,
/// `eth_createAccessList` and `eth_sendTransaction` — what the JSON-RPC client sends, what the dev node
/// reads and what `DevChain` executes — so one type serves all three. It lives here, below both the chain
/// and the wire module, because it is made of transaction fields (an ``AccessList`` among them); its JSON
/// form is in `EthereumWire`.
public struct CallRequest: Sendable, Hashable {
    /// The sender (`msg.sender` of a call; required for `eth_sendTransaction`; the zero address for a call
    /// without one).
    public var from: Address?
    /// The callee; nil creates a contract.
    public var to: Address?
    /// The gas limit (a call without one gets the block gas limit).
    public var gas: UInt64?
    /// A legacy gas price (selects a type 0 or 1 transaction).
    public var gasPrice: UInt256?
    /// EIP-1559 fee cap.
    public var maxFeePerGas: UInt256?
    /// EIP-1559 priority fee cap.
    public var maxPriorityFeePerGas: UInt256?
    /// Wei sent.
    public var value: UInt256?
    /// Calldata, or init code for a creation.
    public var data: [UInt8]?
    /// The nonce (`eth_sendTransaction` fills the pending nonce when absent).
    public var nonce: UInt64?
    /// An EIP-2930 access list.
    public var accessList: AccessList?
    /// The envelope type to send (0, 1, 2 or 4); chosen from the fee fields (and, for 4, the authorization
    /// list) when absent.
    public var type: UInt8?
    /// Blob versioned hashes (calls only).
    public var blobVersionedHashes: [Bytes32]?
    /// Blob fee cap (calls only).
    public var maxFeePerBlobGas: UInt256?
    /// EIP-7702 signed authorizations (Prague): a call applies them before it runs, as a type-4 transaction
    /// would, and `eth_sendTransaction` sends a type-4 transaction carrying them.
    public var authorizationList: [SignedAuthorization]?

    /// Creates a request; only `to` and `data` are needed for a plain view call.
    public init(
        from: Address? = nil, to: Address? = nil, gas: UInt64? = nil, gasPrice: UInt256? = nil,
        maxFeePerGas: UInt256? = nil, maxPriorityFeePerGas: UInt256? = nil, value: UInt256? = nil,
        data: [UInt8]? = nil, nonce: UInt64? = nil, accessList: AccessList? = nil, type: UInt8? = nil,
        blobVersionedHashes: [Bytes32]? = nil, maxFeePerBlobGas: UInt256? = nil,
        authorizationList: [SignedAuthorization]? = nil
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
        self.authorizationList = authorizationList
    }
}
