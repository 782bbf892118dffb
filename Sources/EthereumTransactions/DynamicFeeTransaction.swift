import EthereumPrimitives

/// An EIP-1559 transaction (type 2, London): a fee cap and a priority fee instead of a gas price.
///
/// `0x02 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList,
/// yParity, r, s])`.
public struct DynamicFeeTransaction: Sendable, Hashable {
    /// The chain id.
    public var chainId: UInt64
    /// The sender's nonce.
    public var nonce: UInt64
    /// The most wei per gas paid to the block producer on top of the base fee.
    public var maxPriorityFeePerGas: UInt256
    /// The most wei per gas paid in all (base fee plus priority fee).
    public var maxFeePerGas: UInt256
    /// The most gas the transaction may use.
    public var gasLimit: UInt64
    /// The recipient, or nil to create a contract.
    public var to: Address?
    /// Wei transferred.
    public var value: UInt256
    /// Calldata, or initcode for a creation.
    public var data: [UInt8]
    /// Accounts and storage slots to pre-warm.
    public var accessList: AccessList

    /// Creates a type-2 transaction.
    public init(
        chainId: UInt64 = Transaction.defaultChainID, nonce: UInt64, maxPriorityFeePerGas: UInt256,
        maxFeePerGas: UInt256, gasLimit: UInt64, to: Address?, value: UInt256 = .zero, data: [UInt8] = [],
        accessList: AccessList = []
    ) {
        self.chainId = chainId
        self.nonce = nonce
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.maxFeePerGas = maxFeePerGas
        self.gasLimit = gasLimit
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }

    var unsignedFields: [RLPItem] {
        [RLPItem(unsignedInteger: chainId), RLPItem(unsignedInteger: nonce), RLPItem(uint256: maxPriorityFeePerGas),
         RLPItem(uint256: maxFeePerGas), RLPItem(unsignedInteger: gasLimit), RLPItem(recipient: to),
         RLPItem(uint256: value), .bytes(data), accessList.encodeRLP()]
    }

    init(decoding reader: inout EnvelopeReader) throws(TransactionError) {
        chainId = try reader.uint64()
        nonce = try reader.uint64()
        maxPriorityFeePerGas = try reader.uint256()
        maxFeePerGas = try reader.uint256()
        gasLimit = try reader.uint64()
        to = try reader.recipient()
        value = try reader.uint256()
        data = try reader.bytes()
        accessList = try reader.accessList()
    }
}
