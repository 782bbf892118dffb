import EVM
import EthereumPrimitives

/// A transaction as the executor needs it: the sender already recovered, the fee fields of its
/// envelope type, and the payload.
public struct ExecutableTransaction: Sendable, Equatable {
    /// The envelope type: 0 legacy, 1 access list (EIP-2930), 2 fee market (EIP-1559), 3 blob
    /// (EIP-4844), 4 set code (EIP-7702).
    public var type: UInt8
    /// The sender.
    public var sender: Address
    /// The recipient, or nil for a contract creation.
    public var to: Address?
    /// The sender's nonce.
    public var nonce: UInt64
    /// The gas limit.
    public var gasLimit: UInt64
    /// Types 0 and 1: the gas price. (For types 2–4 use ``maxFeePerGas``.)
    public var gasPrice: UInt256
    /// Types 2–4: the fee cap per gas.
    public var maxFeePerGas: UInt256
    /// Types 2–4: the priority fee (tip) cap per gas.
    public var maxPriorityFeePerGas: UInt256
    /// The value transferred.
    public var value: UInt256
    /// Call data, or init code for a creation.
    public var data: [UInt8]
    /// The access list (types 1–4).
    public var accessList: [AccessListEntry]
    /// Type 3: the blob versioned hashes.
    public var blobVersionedHashes: [Bytes32]
    /// Type 3: the fee cap per blob gas.
    public var maxFeePerBlobGas: UInt256

    /// Creates a transaction; for a legacy one give `gasPrice`, for a fee-market one the two caps.
    public init(
        type: UInt8 = 0, sender: Address, to: Address?, nonce: UInt64, gasLimit: UInt64, gasPrice: UInt256 = .zero,
        maxFeePerGas: UInt256 = .zero, maxPriorityFeePerGas: UInt256 = .zero, value: UInt256 = .zero,
        data: [UInt8] = [], accessList: [AccessListEntry] = [], blobVersionedHashes: [Bytes32] = [],
        maxFeePerBlobGas: UInt256 = .zero
    ) {
        self.type = type
        self.sender = sender
        self.to = to
        self.nonce = nonce
        self.gasLimit = gasLimit
        self.gasPrice = gasPrice
        self.maxFeePerGas = maxFeePerGas
        self.maxPriorityFeePerGas = maxPriorityFeePerGas
        self.value = value
        self.data = data
        self.accessList = accessList
        self.blobVersionedHashes = blobVersionedHashes
        self.maxFeePerBlobGas = maxFeePerBlobGas
    }

    /// True for types 2–4, which price gas with a fee cap and a tip cap.
    public var isFeeMarket: Bool { type >= 2 }

    /// The fee cap: `maxFeePerGas` for fee-market types, else the gas price.
    public var feeCap: UInt256 { isFeeMarket ? maxFeePerGas : gasPrice }

    /// The tip cap: `maxPriorityFeePerGas` for fee-market types, else the gas price.
    public var tipCap: UInt256 { isFeeMarket ? maxPriorityFeePerGas : gasPrice }

    /// Blob gas used (EIP-4844): 131,072 per blob.
    public var blobGas: UInt64 { UInt64(blobVersionedHashes.count) * BlobGas.perBlob }
}

/// One entry of an EIP-2930 access list.
public struct AccessListEntry: Sendable, Equatable {
    /// The account.
    public var address: Address
    /// Its storage keys.
    public var storageKeys: [Bytes32]

    /// Creates an entry.
    public init(address: Address, storageKeys: [Bytes32]) {
        self.address = address
        self.storageKeys = storageKeys
    }
}
