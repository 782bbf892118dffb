import EthereumPrimitives
import EthereumTransactions

/// A transaction as `eth_getTransactionByHash` and full blocks return it. Fields a transaction type does
/// not have are nil (e.g. `maxFeePerGas` of a legacy transaction).
public struct RPCTransaction: Sendable, Hashable {
    /// The transaction's (or block's) hash.
    public var hash: Bytes32
    /// EIP-2718 type: 0 legacy, 1 access list, 2 dynamic fee, 3 blob, 4 set code.
    public var type: UInt64
    /// The sender's nonce.
    public var nonce: UInt64
    /// The sender.
    public var from: Address
    /// Nil for a contract creation.
    public var to: Address?
    /// Wei transferred.
    public var value: UInt256
    /// The gas limit.
    public var gas: UInt64
    /// The legacy gas price, or the effective price of a mined EIP-1559 transaction (as nodes report it).
    public var gasPrice: UInt256?
    public var maxFeePerGas: UInt256?
    public var maxPriorityFeePerGas: UInt256?
    /// Calldata, or init code for a creation.
    public var input: [UInt8]
    /// The chain id it was signed for (EIP-155 / typed transactions).
    public var chainId: UInt64?
    /// Nil while the transaction is pending.
    public var blockHash: Bytes32?
    /// The number of the block holding it (nil while pending).
    public var blockNumber: UInt64?
    /// Its position in the block (nil while pending).
    public var transactionIndex: UInt64?
    /// Signature v (or y-parity for typed transactions).
    public var v: UInt256
    /// Signature r.
    public var r: UInt256
    /// Signature s.
    public var s: UInt256
    /// A set-code (type 4, EIP-7702) transaction's signed authorizations; nil for other types.
    public var authorizationList: [SignedAuthorization]?

    /// Reads a transaction object.
    public init(json: JSONValue, path: String = "transaction") throws(WireError) {
        let o = try json.wireObject(path)
        hash = try o.bytes32("hash")
        type = try o.optionalUInt64("type") ?? 0
        nonce = try o.uint64("nonce")
        from = try o.address("from")
        to = try o.optionalAddress("to")
        value = try o.uint256("value")
        gas = try o.uint64("gas")
        gasPrice = try o.optionalUInt256("gasPrice")
        maxFeePerGas = try o.optionalUInt256("maxFeePerGas")
        maxPriorityFeePerGas = try o.optionalUInt256("maxPriorityFeePerGas")
        // "input" is the spec's name; some older nodes answer "data".
        if let input = try o.optionalBytes("input") {
            self.input = input
        } else {
            self.input = try o.optionalBytes("data") ?? []
        }
        chainId = try o.optionalUInt64("chainId")
        blockHash = try o.optionalBytes32("blockHash")
        blockNumber = try o.optionalUInt64("blockNumber")
        transactionIndex = try o.optionalUInt64("transactionIndex")
        if let v = try o.optionalUInt256("v") {
            self.v = v
        } else {
            self.v = try o.optionalUInt256("yParity") ?? .zero
        }
        r = try o.uint256("r")
        s = try o.uint256("s")
        authorizationList = try o.optional("authorizationList").map { list throws(WireError) in
            try SignedAuthorization.list(json: list, path: o.name("authorizationList"))
        }
    }
}
