import EthereumPrimitives

/// Why a transaction cannot be included: the state (and the block) are left as they were.
public enum TransactionValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The envelope type is not enabled in the fork.
    case typeNotSupported(type: UInt8)
    /// The sender's nonce is higher than the transaction's.
    case nonceTooLow(expected: UInt64, got: UInt64)
    /// The sender's nonce is lower than the transaction's.
    case nonceTooHigh(expected: UInt64, got: UInt64)
    /// The sender's nonce is 2^64 − 1 (EIP-2681).
    case nonceMax
    /// The sender has code (EIP-3607).
    case senderNotEOA
    /// maxPriorityFeePerGas > maxFeePerGas (EIP-1559).
    case tipAboveFeeCap
    /// The fee cap is below the block's base fee (EIP-1559).
    case feeCapBelowBaseFee
    /// A blob transaction without a recipient (EIP-4844).
    case blobTransactionCreate
    /// A blob transaction without blobs.
    case noBlobs
    /// More blobs than a block may hold.
    case tooManyBlobs(Int)
    /// A blob versioned hash without the KZG version byte 0x01.
    case invalidBlobVersionedHash
    /// The blob fee cap is below the block's blob base fee.
    case blobFeeCapTooLow
    /// The sender cannot pay gas limit × fee cap + value (+ blob gas × blob fee cap).
    case insufficientFunds
    /// The gas limit is above what the block has left.
    case gasLimitExceedsBlock
    /// The gas limit is below the intrinsic gas.
    case intrinsicGasTooLow(intrinsic: UInt64, limit: UInt64)
    /// Init code longer than 49,152 bytes (EIP-3860).
    case initCodeTooLarge(Int)
    /// The gas limit is below the EIP-7623 calldata floor (Prague).
    case gasLimitBelowFloor(floor: UInt64, limit: UInt64)
    /// A set-code transaction without authorizations (EIP-7702).
    case emptyAuthorizationList
    /// The gas limit is above the per-transaction cap (EIP-7825, Osaka).
    case gasLimitAboveCap(cap: UInt64, limit: UInt64)

    public var description: String {
        switch self {
        case .typeNotSupported(let type): return "transaction type \(type) not supported in this fork"
        case .nonceTooLow(let expected, let got): return "nonce too low: account has \(expected), transaction \(got)"
        case .nonceTooHigh(let expected, let got): return "nonce too high: account has \(expected), transaction \(got)"
        case .nonceMax: return "nonce has max value"
        case .senderNotEOA: return "sender not an EOA (has code)"
        case .tipAboveFeeCap: return "max priority fee per gas higher than max fee per gas"
        case .feeCapBelowBaseFee: return "max fee per gas less than block base fee"
        case .blobTransactionCreate: return "blob transaction cannot create a contract"
        case .noBlobs: return "blob transaction without blobs"
        case .tooManyBlobs(let n): return "blob transaction with \(n) blobs exceeds the block limit"
        case .invalidBlobVersionedHash: return "blob versioned hash without version byte 0x01"
        case .blobFeeCapTooLow: return "max fee per blob gas less than block blob base fee"
        case .insufficientFunds: return "insufficient funds for gas * price + value"
        case .gasLimitExceedsBlock: return "gas limit reached: transaction gas above block gas left"
        case .intrinsicGasTooLow(let intrinsic, let limit): return "intrinsic gas too low: need \(intrinsic), limit \(limit)"
        case .initCodeTooLarge(let n): return "init code size \(n) exceeds 49152"
        case .gasLimitBelowFloor(let floor, let limit): return "gas limit \(limit) below the calldata floor \(floor)"
        case .emptyAuthorizationList: return "set-code transaction with an empty authorization list"
        case .gasLimitAboveCap(let cap, let limit): return "transaction gas limit \(limit) above the cap \(cap)"
        }
    }
}
