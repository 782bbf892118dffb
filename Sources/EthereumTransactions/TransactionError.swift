import EthereumPrimitives

/// Why bytes are not a transaction, or why a transaction is not valid in a fork.
///
/// Decoding errors (``empty`` … ``sidecarNotSupported``) do not depend on the fork; the others come from
/// ``SignedTransaction/validate(for:chainID:)`` and sender recovery.
public enum TransactionError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: Decoding

    /// No bytes at all.
    case empty
    /// A first byte in 0x00–0x7f that is not a known EIP-2718 type.
    case unknownType(UInt8)
    /// The top-level item is an RLP byte string where a legacy transaction (a list) was expected.
    case notAList
    /// The bytes are not canonical RLP, or a field does not decode as its type (wrong size, leading zeros,
    /// too large, a list where bytes belong, …). `field` names the envelope field when known; `type` is the
    /// envelope being decoded.
    case malformed(RLPError, field: TransactionField?, type: TransactionType)
    /// A type-3 transaction in the network form with its blob sidecar (blobs, commitments, proofs); only the
    /// canonical form without sidecar is supported.
    case sidecarNotSupported

    // MARK: Fork rules

    /// The transaction type is not yet valid in `fork` (EIP-2718 types start at Berlin).
    case typeNotSupported(TransactionType, fork: Hardfork)
    /// The chain id (from a typed transaction, or from an EIP-155 v) is not the one required, or v encodes no
    /// valid chain id. `found` is nil when v does not encode one at all.
    case invalidChainID(expected: UInt64?, found: UInt256?)
    /// A legacy v that is not valid in the fork: not 27/28 before EIP-155 (Spurious Dragon), or 0/1.
    case invalidV(UInt256, fork: Hardfork?)
    /// A typed transaction's (or authorization's) y parity is neither 0 nor 1.
    case invalidYParity(UInt256)
    /// r or s is zero or not below the curve order.
    case invalidSignatureScalars
    /// s is above n/2, invalid since Homestead (EIP-2).
    case highS
    /// The signature does not recover to a public key.
    case recoveryFailed
    /// The gas limit is below the intrinsic gas.
    case intrinsicGasTooLow(gasLimit: UInt64, intrinsicGas: UInt64)
    /// The gas limit is below the EIP-7623 calldata floor (Prague).
    case floorGasTooLow(gasLimit: UInt64, floor: UInt64)
    /// A creation's initcode is longer than EIP-3860 allows (Shanghai).
    case initcodeTooLarge(size: Int, limit: Int)
    /// The nonce is 2^64 − 1, which EIP-2681 forbids (the sender's nonce could not be incremented).
    case nonceTooBig
    /// gasLimit × gas price (or max fee) does not fit in 256 bits.
    case gasLimitPriceProductOverflow
    /// maxPriorityFeePerGas is above maxFeePerGas (EIP-1559).
    case priorityFeeAboveMaxFee(priority: UInt256, maxFee: UInt256)
    /// The gas limit is above the per-transaction cap of EIP-7825 (Osaka).
    case gasLimitAboveCap(gasLimit: UInt64, cap: UInt64)
    /// A creation (no `to`) in a transaction type that requires a recipient (types 3 and 4).
    case missingRecipient(TransactionType)
    /// A blob transaction without blobs (EIP-4844).
    case noBlobs
    /// More blobs than the fork allows in a block.
    case tooManyBlobs(count: Int, limit: Int)
    /// A versioned blob hash whose first byte is not the KZG version 0x01; `index` is its position.
    case invalidBlobVersionedHash(index: Int)
    /// A set-code transaction with an empty authorization list (EIP-7702).
    case emptyAuthorizationList

    /// One line saying what is wrong and where.
    public var description: String {
        switch self {
        case .empty: return "empty transaction: no bytes"
        case .unknownType(let b):
            return "unsupported transaction type 0x\(String(b, radix: 16)) (known types are 0x01–0x04 and legacy RLP lists)"
        case .notAList: return "not a transaction: a legacy transaction is an RLP list, got a byte string"
        case .malformed(let error, let field, let type):
            let whereText = field.map { " field \($0.rawValue)" } ?? ""
            return "malformed \(type) transaction\(whereText): \(error)"
        case .sidecarNotSupported:
            return "blob transaction with sidecar (network wrapper form) is not supported; pass the canonical form without blobs"
        case .typeNotSupported(let type, let fork):
            return "\(type) transactions are not valid before \(type.introducedIn) (fork is \(fork))"
        case .invalidChainID(let expected, let found):
            let foundText = found.map { "chain id \($0)" } ?? "no valid chain id"
            let expectedText = expected.map { ", expected \($0)" } ?? ""
            return "invalid chain id: transaction has \(foundText)\(expectedText)"
        case .invalidV(let v, let fork):
            let forkText = fork.map { " in \($0)" } ?? ""
            return "invalid signature: v = \(v) is not valid\(forkText) (27/28, or chainId*2+35/36 under EIP-155)"
        case .invalidYParity(let y): return "invalid signature: y parity \(y) is neither 0 nor 1"
        case .invalidSignatureScalars: return "invalid signature: r or s is zero or not below the curve order"
        case .highS: return "invalid signature: s is in the upper half of the curve order (EIP-2 requires low s)"
        case .recoveryFailed: return "invalid signature: it does not recover to any public key"
        case .intrinsicGasTooLow(let limit, let gas):
            return "intrinsic gas too low: gas limit \(limit) is below the intrinsic gas \(gas)"
        case .floorGasTooLow(let limit, let floor):
            return "gas limit \(limit) is below the EIP-7623 calldata floor \(floor)"
        case .initcodeTooLarge(let size, let limit):
            return "initcode of \(size) bytes exceeds the EIP-3860 limit of \(limit) bytes"
        case .nonceTooBig: return "nonce 2^64-1 is not allowed (EIP-2681)"
        case .gasLimitPriceProductOverflow: return "gas limit × gas price overflows 256 bits"
        case .priorityFeeAboveMaxFee(let priority, let maxFee):
            return "maxPriorityFeePerGas \(priority) is above maxFeePerGas \(maxFee)"
        case .gasLimitAboveCap(let limit, let cap):
            return "gas limit \(limit) is above the EIP-7825 transaction cap \(cap)"
        case .missingRecipient(let type): return "\(type) transactions cannot create contracts: `to` is required"
        case .noBlobs: return "blob transaction without blob versioned hashes (EIP-4844 requires at least one)"
        case .tooManyBlobs(let count, let limit): return "\(count) blobs exceed the limit of \(limit) per block"
        case .invalidBlobVersionedHash(let index):
            return "blob versioned hash \(index) does not start with the KZG version byte 0x01"
        case .emptyAuthorizationList: return "set-code transaction with an empty authorization list (EIP-7702)"
        }
    }
}
