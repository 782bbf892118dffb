import EthereumPrimitives

/// An EIP-2930 transaction (type 1, Berlin): a legacy-priced transaction with a chain id and an access list.
///
/// `0x01 ‖ rlp([chainId, nonce, gasPrice, gasLimit, to, value, data, accessList, yParity, r, s])`.
public struct AccessListTransaction: Sendable, Hashable {
    /// The chain id (always present: typed transactions are replay-protected).
    public var chainId: UInt64
    /// The sender's nonce.
    public var nonce: UInt64
    /// Wei paid per unit of gas.
    public var gasPrice: UInt256
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

    /// Creates a type-1 transaction.
    public init(
        chainId: UInt64 = Transaction.defaultChainID, nonce: UInt64, gasPrice: UInt256, gasLimit: UInt64, to: Address?,
        value: UInt256 = .zero, data: [UInt8] = [], accessList: AccessList = []
    ) {
        self.chainId = chainId
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.gasLimit = gasLimit
        self.to = to
        self.value = value
        self.data = data
        self.accessList = accessList
    }

    var unsignedFields: [RLPItem] {
        [RLPItem(unsignedInteger: chainId), RLPItem(unsignedInteger: nonce), RLPItem(uint256: gasPrice),
         RLPItem(unsignedInteger: gasLimit), RLPItem(recipient: to), RLPItem(uint256: value), .bytes(data),
         accessList.encodeRLP()]
    }

    init(decoding reader: inout EnvelopeReader) throws(TransactionError) {
        chainId = try reader.uint64()
        nonce = try reader.uint64()
        gasPrice = try reader.uint256()
        gasLimit = try reader.uint64()
        to = try reader.recipient()
        value = try reader.uint256()
        data = try reader.bytes()
        accessList = try reader.accessList()
    }
}
