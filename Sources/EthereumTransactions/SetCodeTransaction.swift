import EthereumPrimitives

/// An EIP-7702 set-code transaction (type 4, Prague): a dynamic-fee transaction carrying signed authorizations
/// that set delegations on the authorities' accounts.
///
/// `0x04 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, destination, value, data,
/// accessList, authorizationList, yParity, r, s])`. It cannot create a contract, and the list must not be empty.
public struct SetCodeTransaction: Sendable, Hashable {
    /// The chain id.
    public var chainId: UInt64
    /// The sender's nonce.
    public var nonce: UInt64
    /// The most wei per gas paid to the block producer on top of the base fee.
    public var maxPriorityFeePerGas: UInt256
    /// The most wei per gas paid in all.
    public var maxFeePerGas: UInt256
    /// The most gas the transaction may use.
    public var gasLimit: UInt64
    /// The recipient ("destination" in the EIP).
    public var to: Address
    /// Wei transferred.
    public var value: UInt256
    /// Calldata.
    public var data: [UInt8]
    /// Accounts and storage slots to pre-warm.
    public var accessList: AccessList
    /// The signed authorizations.
    public var authorizationList: [SignedAuthorization]

    /// Creates a type-4 transaction.
    public init(
        chainId: UInt64 = Transaction.defaultChainID, nonce: UInt64, maxPriorityFeePerGas: UInt256,
        maxFeePerGas: UInt256, gasLimit: UInt64, to: Address, value: UInt256 = .zero, data: [UInt8] = [],
        accessList: AccessList = [], authorizationList: [SignedAuthorization]
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
        self.authorizationList = authorizationList
    }

    var unsignedFields: [RLPItem] {
        [RLPItem(unsignedInteger: chainId), RLPItem(unsignedInteger: nonce), RLPItem(uint256: maxPriorityFeePerGas),
         RLPItem(uint256: maxFeePerGas), RLPItem(unsignedInteger: gasLimit), .bytes(to.bytes),
         RLPItem(uint256: value), .bytes(data), accessList.encodeRLP(), authorizationList.encodeRLP()]
    }

    init(decoding reader: inout EnvelopeReader) throws(TransactionError) {
        chainId = try reader.uint64()
        nonce = try reader.uint64()
        maxPriorityFeePerGas = try reader.uint256()
        maxFeePerGas = try reader.uint256()
        gasLimit = try reader.uint64()
        to = try reader.requiredRecipient()
        value = try reader.uint256()
        data = try reader.bytes()
        accessList = try reader.accessList()
        authorizationList = try reader.authorizations()
    }
}
