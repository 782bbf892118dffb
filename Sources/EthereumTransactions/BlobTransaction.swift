import EthereumPrimitives

/// An EIP-4844 blob transaction (type 3, Cancun), in its canonical form without the sidecar.
///
/// `0x03 ‖ rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data, accessList,
/// maxFeePerBlobGas, blobVersionedHashes, yParity, r, s])`. It cannot create a contract: `to` is required.
public struct BlobTransaction: Sendable, Hashable {
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
    /// The recipient (blob transactions cannot create contracts).
    public var to: Address
    /// Wei transferred.
    public var value: UInt256
    /// Calldata.
    public var data: [UInt8]
    /// Accounts and storage slots to pre-warm.
    public var accessList: AccessList
    /// The most wei per unit of blob gas.
    public var maxFeePerBlobGas: UInt256
    /// The versioned hashes (0x01 ‖ sha256(commitment)[1...]) of the blobs.
    public var blobVersionedHashes: [Bytes32]

    /// Blob gas per blob (EIP-4844: 2^17).
    public static let gasPerBlob: UInt64 = 131_072

    /// Creates a type-3 transaction.
    public init(
        chainId: UInt64 = Transaction.defaultChainID, nonce: UInt64, maxPriorityFeePerGas: UInt256,
        maxFeePerGas: UInt256, gasLimit: UInt64, to: Address, value: UInt256 = .zero, data: [UInt8] = [],
        accessList: AccessList = [], maxFeePerBlobGas: UInt256, blobVersionedHashes: [Bytes32]
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
        self.maxFeePerBlobGas = maxFeePerBlobGas
        self.blobVersionedHashes = blobVersionedHashes
    }

    /// The blob gas the transaction consumes: ``gasPerBlob`` per blob.
    public var blobGas: UInt64 { UInt64(blobVersionedHashes.count) * Self.gasPerBlob }

    var unsignedFields: [RLPItem] {
        [RLPItem(unsignedInteger: chainId), RLPItem(unsignedInteger: nonce), RLPItem(uint256: maxPriorityFeePerGas),
         RLPItem(uint256: maxFeePerGas), RLPItem(unsignedInteger: gasLimit), .bytes(to.bytes),
         RLPItem(uint256: value), .bytes(data), accessList.encodeRLP(), RLPItem(uint256: maxFeePerBlobGas),
         blobVersionedHashes.encodeRLP()]
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
        maxFeePerBlobGas = try reader.uint256()
        blobVersionedHashes = try reader.hashes()
    }
}
