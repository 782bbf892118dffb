import EthereumPrimitives
import EthereumTransactions

/// Maps a ``TransactionError`` to the exception name ethereum/tests' TransactionTests use
/// ("TransactionException.X" without the prefix), so the runner can count exact name matches.
///
/// The rejection itself is what the conformance test requires; the names are a secondary check, because the
/// suite's names come from the clients that filled it (e.g. a 33-byte fee in a type-2 transaction is
/// `TYPE_NOT_SUPPORTED` before London and `GASPRICE_OVERFLOW` after, since those clients check the type before
/// the value's range, while this decoder rejects out-of-range integers while decoding).
enum SuiteExceptionNames {
    static func name(for error: TransactionError, fork: Hardfork) -> String {
        switch error {
        case .empty: return "RLP_ERROR_EOF"
        case .unknownType, .notAList, .sidecarNotSupported: return "TYPE_NOT_SUPPORTED"
        case .malformed(let rlp, let field, let type): return malformedName(rlp, field: field, type: type, fork: fork)
        case .typeNotSupported: return "TYPE_NOT_SUPPORTED"
        case .invalidChainID: return "INVALID_CHAINID"
        case .invalidV, .invalidYParity, .invalidSignatureScalars, .highS: return "INVALID_SIGNATURE_VRS"
        case .recoveryFailed: return "EC_RECOVERY_FAIL"
        case .intrinsicGasTooLow: return "INTRINSIC_GAS_TOO_LOW"
        case .floorGasTooLow: return "INTRINSIC_GAS_BELOW_FLOOR_GAS_COST"
        case .initcodeTooLarge: return "INITCODE_SIZE_EXCEEDED"
        case .nonceTooBig: return "NONCE_TOO_BIG"
        case .gasLimitPriceProductOverflow: return "GASLIMIT_PRICE_PRODUCT_OVERFLOW"
        case .priorityFeeAboveMaxFee: return "PRIORITY_GREATER_THAN_MAX_FEE_PER_GAS_2"
        case .gasLimitAboveCap: return "GAS_LIMIT_EXCEEDS_MAXIMUM"
        case .missingRecipient: return "TYPE_3_TX_CONTRACT_CREATION"
        case .noBlobs: return "TYPE_3_TX_ZERO_BLOBS"
        case .tooManyBlobs: return "TYPE_3_TX_MAX_BLOB_GAS_ALLOWANCE_EXCEEDED"
        case .invalidBlobVersionedHash: return "TYPE_3_TX_INVALID_BLOB_VERSIONED_HASH"
        case .emptyAuthorizationList: return "TYPE_4_EMPTY_AUTHORIZATION_LIST"
        }
    }

    /// Suite spelling of a field in RLP_LEADING_ZEROS_* / RLP_INVALID_* names.
    private static func fieldName(_ field: TransactionField?) -> String {
        switch field {
        case .nonce: return "NONCE"
        case .gasPrice: return "GASPRICE"
        case .gasLimit: return "GASLIMIT"
        case .to: return "TO"
        case .value: return "VALUE"
        case .data: return "DATA"
        case .v, .yParity: return "V"
        case .r: return "R"
        case .s: return "S"
        case .maxFeePerGas: return "BASEFEE"
        case .maxPriorityFeePerGas: return "PRIORITY_FEE"
        case .chainId: return "CHAINID"
        case .accessList: return "ACCESS_LIST"
        case .maxFeePerBlobGas: return "BLOBFEE"
        case .blobVersionedHashes: return "BLOB_HASHES"
        case .authorizationList: return "AUTHORIZATION_LIST"
        case nil: return "HEADER"
        }
    }

    private static func malformedName(_ error: RLPError, field: TransactionField?, type: TransactionType, fork: Hardfork) -> String {
        switch error.kind {
        case .truncated(let needed, _):
            // A header cut short (its length bytes missing) is "EOF"; a payload cut short is a size error.
            return needed <= 9 && field == nil ? "RLP_ERROR_EOF" : "RLP_ERROR_SIZE"
        case .exceedsList, .trailingBytes, .lengthOverflow, .longFormForShortLength, .nestingTooDeep:
            return "RLP_ERROR_SIZE"
        case .leadingZeroInLength:
            return field == .data ? "RLP_LEADING_ZEROS_DATA_SIZE" : "RLP_ERROR_SIZE_LEADING_ZEROS"
        case .nonCanonicalSingleByte:
            return "RLP_LEADING_ZEROS_\(fieldName(field))_SIZE"
        case .wrongFieldCount(let expected, let actual):
            if error.fieldPath.isEmpty { return actual < expected ? "RLP_TOO_FEW_ELEMENTS" : "RLP_TOO_MANY_ELEMENTS" }
            return "RLP_ERROR_SIZE"
        case .expectedBytes:
            switch field {
            case .r: return "RLP_INVALID_SIGNATURE_R"
            case .s: return "RLP_INVALID_SIGNATURE_S"
            default: return "RLP_INVALID_\(fieldName(field))"
            }
        case .expectedList:
            return "RLP_INVALID_HEADER"
        case .leadingZeroInInteger:
            return "RLP_LEADING_ZEROS_\(fieldName(field))"
        case .integerOverflow:
            if fork < type.introducedIn { return "TYPE_NOT_SUPPORTED" }
            switch field {
            case .nonce: return "NONCE_OVERFLOW"
            case .gasLimit: return "GASLIMIT_OVERFLOW"
            case .gasPrice, .maxFeePerGas: return "GASPRICE_OVERFLOW"
            case .maxPriorityFeePerGas: return "PRIORITY_OVERFLOW"
            case .value: return "VALUE_OVERFLOW"
            case .v, .yParity, .r, .s: return "INVALID_SIGNATURE_VRS"
            default: return "RLP_ERROR_SIZE"
            }
        case .wrongByteCount(let expected, let actual):
            let direction = actual < expected ? "SHORT" : "LONG"
            if field == .accessList {
                // fieldPath: [list field, entry, 0 = address | 1 = keys, key index]
                let part = error.fieldPath.count > 2 && error.fieldPath[2] == 1 ? "STORAGE" : "ADDRESS"
                return "RLP_INVALID_ACCESS_LIST_\(part)_TOO_\(direction)"
            }
            return "ADDRESS_TOO_\(direction)"
        case .invalidBool, .invalidUTF8, .invalidValue:
            return "RLP_ERROR_SIZE"
        }
    }
}
