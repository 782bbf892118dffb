import EthereumPrimitives
import EthereumTransactions

/// Why a block is not valid: the rule it breaks, with the figures that break it. Nothing of a block that
/// fails is applied. ``eestName`` gives the execution-spec-tests name of a block-level rule
/// (`BlockException.…`); a transaction's own error keeps its type so callers can name it.
public enum BlockValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The RLP does not hold a block (or a header, ommer or withdrawal in it).
    case malformedBlock(String)
    /// A proof-of-work header's difficulty is not the one its parent and timestamp give.
    case invalidDifficulty(expected: UInt256, got: UInt256)
    /// The ommers break a rule (count, depth, ancestry, repeats).
    case invalidOmmers(String)
    /// A header field is missing, or present before its fork (e.g. a requests hash before Prague).
    case incorrectFormat(String)
    /// The parent hash is not the hash of the parent block.
    case unknownParent(expected: Bytes32, got: Bytes32)
    /// The number is not the parent's + 1.
    case invalidNumber(parent: UInt64, got: UInt64)
    /// The timestamp is not after the parent's.
    case timestampNotAfterParent(parent: UInt64, got: UInt64)
    /// The gas limit moved by 1/1024 of the parent's or more, or is below 5,000 or above 2^63 − 1.
    case invalidGasLimit(parent: UInt64, got: UInt64)
    /// The header's gas used is above its gas limit.
    case gasUsedAboveLimit(used: UInt64, limit: UInt64)
    /// Extra data longer than 32 bytes.
    case extraDataTooLong(Int)
    /// A proof-of-stake header with a difficulty, nonce or ommers (EIP-3675).
    case proofOfWorkFieldAfterMerge(String)
    /// The base fee is not the one EIP-1559 gives from the parent.
    case invalidBaseFee(expected: UInt256, got: UInt256)
    /// The excess blob gas is not the one EIP-4844 (and EIP-7918 from Osaka) gives from the parent.
    case invalidExcessBlobGas(expected: UInt64, got: UInt64)
    /// The header's blob gas used is above the fork's maximum or not a whole number of blobs.
    case blobGasUsedAboveLimit(used: UInt64, max: UInt64)
    /// The header's blob gas used differs from the transactions' blob gas.
    case invalidBlobGasUsed(expected: UInt64, got: UInt64)
    /// The block's RLP is larger than EIP-7934 allows (Osaka).
    case blockTooLarge(size: Int, limit: Int)
    /// Transaction `index` does not decode, or its signature does not hold.
    case invalidTransaction(index: Int, TransactionError)
    /// Transaction `index` cannot be included on the state and block (nonce, funds, fees, gas...).
    case transaction(index: Int, TransactionValidationError)
    /// Transaction `index`'s blobs would take the block past its blob gas maximum.
    case blobGasExceeded(index: Int, used: UInt64, max: UInt64)
    /// Execution needed something this build cannot do.
    case unsupported(String)
    /// A required system contract (EIP-7002, EIP-7251) has no code.
    case systemContractEmpty(Address)
    /// A required system contract call failed (EIP-7002, EIP-7251).
    case systemContractCallFailed(Address)
    /// A log of the deposit contract is not a well-formed `DepositEvent` (EIP-6110).
    case invalidDepositEvent(String)
    /// A header commitment does not match what the block computes.
    case mismatch(Commitment, expected: String, got: String)

    /// The header fields that commit to the block's execution.
    public enum Commitment: String, Sendable, Equatable {
        case gasUsed = "gas used"
        case transactionsRoot = "transactions root"
        case receiptsRoot = "receipts root"
        case logsBloom = "logs bloom"
        case stateRoot = "state root"
        case withdrawalsRoot = "withdrawals root"
        case requestsHash = "requests hash"
        case ommersHash = "ommers hash"
    }

    /// The execution-spec-tests name of the rule (`BlockException.…`), nil for a transaction's own error.
    public var eestName: String? {
        switch self {
        case .malformedBlock: return "BlockException.RLP_STRUCTURES_ENCODING"
        case .invalidDifficulty: return "BlockException.INVALID_DIFFICULTY"
        case .invalidOmmers: return "BlockException.INVALID_UNCLE"
        case .incorrectFormat: return "BlockException.INCORRECT_BLOCK_FORMAT"
        case .unknownParent: return "BlockException.UNKNOWN_PARENT"
        case .invalidNumber: return "BlockException.INVALID_BLOCK_NUMBER"
        case .timestampNotAfterParent: return "BlockException.INVALID_BLOCK_TIMESTAMP_OLDER_THAN_PARENT"
        case .invalidGasLimit: return "BlockException.INVALID_GASLIMIT"
        case .gasUsedAboveLimit: return "BlockException.GAS_USED_OVERFLOW"
        case .extraDataTooLong: return "BlockException.EXTRA_DATA_TOO_BIG"
        case .proofOfWorkFieldAfterMerge(let field):
            return field == "difficulty"
                ? "BlockException.IMPORT_IMPOSSIBLE_DIFFICULTY_OVER_PARIS"
                : field == "ommers" ? "BlockException.IMPORT_IMPOSSIBLE_UNCLES_OVER_PARIS" : "BlockException.INCORRECT_BLOCK_FORMAT"
        case .invalidBaseFee: return "BlockException.INVALID_BASEFEE_PER_GAS"
        case .invalidExcessBlobGas: return "BlockException.INCORRECT_EXCESS_BLOB_GAS"
        case .blobGasUsedAboveLimit: return "BlockException.BLOB_GAS_USED_ABOVE_LIMIT"
        case .invalidBlobGasUsed: return "BlockException.INCORRECT_BLOB_GAS_USED"
        case .blockTooLarge: return "BlockException.RLP_BLOCK_LIMIT_EXCEEDED"
        case .invalidTransaction, .transaction: return nil
        case .blobGasExceeded: return "TransactionException.TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED"
        case .unsupported: return nil
        case .systemContractEmpty: return "BlockException.SYSTEM_CONTRACT_EMPTY"
        case .systemContractCallFailed: return "BlockException.SYSTEM_CONTRACT_CALL_FAILED"
        case .invalidDepositEvent: return "BlockException.INVALID_DEPOSIT_EVENT_LAYOUT"
        case .mismatch(let commitment, _, _):
            switch commitment {
            case .gasUsed: return "BlockException.INVALID_GAS_USED"
            case .transactionsRoot: return "BlockException.INVALID_TRANSACTIONS_ROOT"
            case .receiptsRoot: return "BlockException.INVALID_RECEIPTS_ROOT"
            case .logsBloom: return "BlockException.INVALID_LOG_BLOOM"
            case .stateRoot: return "BlockException.INVALID_STATE_ROOT"
            case .withdrawalsRoot: return "BlockException.INVALID_WITHDRAWALS_ROOT"
            case .requestsHash: return "BlockException.INVALID_REQUESTS"
            case .ommersHash: return "BlockException.INVALID_UNCLES_HASH"
            }
        }
    }

    public var description: String {
        let text: String
        switch self {
        case .malformedBlock(let what): text = "malformed block: \(what)"
        case .invalidDifficulty(let expected, let got): text = "difficulty \(got), expected \(expected) (proof of work)"
        case .invalidOmmers(let what): text = "ommers: \(what)"
        case .incorrectFormat(let what): text = "header format: \(what)"
        case .unknownParent(let expected, let got):
            text = "parent hash \(got.hexString) is not the parent's hash \(expected.hexString)"
        case .invalidNumber(let parent, let got): text = "block number \(got) does not follow the parent's \(parent)"
        case .timestampNotAfterParent(let parent, let got):
            text = "timestamp \(got) is not after the parent's \(parent)"
        case .invalidGasLimit(let parent, let got):
            text = "gas limit \(got) is outside the bounds set by the parent's \(parent) (±1/1024, at least 5000)"
        case .gasUsedAboveLimit(let used, let limit): text = "gas used \(used) is above the gas limit \(limit)"
        case .extraDataTooLong(let count): text = "extra data is \(count) bytes (at most 32)"
        case .proofOfWorkFieldAfterMerge(let field): text = "a proof-of-stake block has a non-empty \(field) (EIP-3675)"
        case .invalidBaseFee(let expected, let got): text = "base fee \(got), expected \(expected) (EIP-1559)"
        case .invalidExcessBlobGas(let expected, let got): text = "excess blob gas \(got), expected \(expected)"
        case .blobGasUsedAboveLimit(let used, let max):
            text = "blob gas used \(used) is above the maximum \(max) or not a multiple of a blob's gas"
        case .invalidBlobGasUsed(let expected, let got): text = "blob gas used \(got), the transactions use \(expected)"
        case .blockTooLarge(let size, let limit): text = "block RLP is \(size) bytes, above the limit \(limit) (EIP-7934)"
        case .invalidTransaction(let index, let error): text = "transaction \(index): \(error)"
        case .transaction(let index, let error): text = "transaction \(index): \(error)"
        case .blobGasExceeded(let index, let used, let max):
            text = "transaction \(index) takes the block's blob gas to \(used), above \(max)"
        case .unsupported(let reason): text = "unsupported: \(reason)"
        case .systemContractEmpty(let address): text = "system contract \(address.lowercasedHex) has no code"
        case .systemContractCallFailed(let address): text = "system contract \(address.lowercasedHex) call failed"
        case .invalidDepositEvent(let what): text = "deposit event: \(what)"
        case .mismatch(let commitment, let expected, let got):
            text = "\(commitment.rawValue) \(expected) in the header, the block computes \(got)"
        }
        return eestName.map { "\($0): \(text)" } ?? text
    }
}
