import EthereumPrimitives
import EthereumTransactions

/// Maps a ``TransactionError`` for the transaction bytes `raw` to the exception name ethereum/tests'
/// TransactionTests use ("TransactionException.X" without the prefix); the conformance test requires the
/// names to match.
///
/// The suite's names come from the order in which the clients that filled it check things, which is not
/// always this decoder's (it rejects anything non-canonical while decoding). The rules below translate by
/// that order, never by a vector's name:
/// - a 33-byte fee in a type-2 transaction is `TYPE_NOT_SUPPORTED` before London and `GASPRICE_OVERFLOW`
///   after (the type is checked before the value's range);
/// - a 64-bit integer wider than 8 bytes is an overflow even with leading zeros (the width is checked first);
/// - a scalar field given as a list is `RLP_INVALID_<FIELD>` once the envelope's own items fit, whatever is
///   wrong inside that list (the field's kind is checked before its content);
/// - a transaction given as an RLP byte string is read as EIP-2718's network form: type || payload.
enum SuiteExceptionNames {
    static func name(for error: TransactionError, fork: Hardfork, raw: [UInt8]) -> String {
        if let content = byteStringContent(raw) {
            // The network form: an unknown (or legacy) type inside is not supported; a known one is decoded
            // and named like any typed transaction.
            guard let first = content.first, let type = TransactionType(rawValue: first), type != .legacy else {
                return "TYPE_NOT_SUPPORTED"
            }
            do {
                _ = try SignedTransaction.decode(Array(content))
            } catch {
                return name(for: error, fork: fork, raw: Array(content))
            }
        }
        // A typed transaction whose payload is not a list: the envelope's header is invalid.
        if let first = raw.first, first < 0x80, let type = TransactionType(rawValue: first), type != .legacy, raw.count > 1, raw[1] < 0xc0 {
            return "RLP_INVALID_HEADER"
        }
        switch error {
        case .empty: return "RLP_ERROR_EOF"
        case .unknownType, .notAList, .sidecarNotSupported: return "TYPE_NOT_SUPPORTED"
        case .malformed(let rlp, let field, let type):
            // The suite was filled by a client whose newest fork is Cancun: it rejects type-4 envelopes by their
            // type byte before parsing them, so any malformation inside one is reported as an unsupported type.
            if type.introducedIn > .cancun && fork < type.introducedIn { return "TYPE_NOT_SUPPORTED" }
            return malformedName(rlp, field: field, type: type, fork: fork, raw: raw)
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

    private static func malformedName(
        _ error: RLPError, field: TransactionField?, type: TransactionType, fork: Hardfork, raw: [UInt8]
    ) -> String {
        let fieldItem = error.fieldPath.first.flatMap { topLevelItem($0, in: raw) }
        // A scalar field given as a list: once the envelope's own items are sound, a field's kind is checked
        // before anything inside it.
        if let field, field.isScalar, let (start, _) = fieldItem, raw[start] >= 0xc0, topLevelItemsFit(raw) {
            switch field {
            case .r: return "RLP_INVALID_SIGNATURE_R"
            case .s: return "RLP_INVALID_SIGNATURE_S"
            default: return "RLP_INVALID_\(fieldName(field))"
            }
        }
        // A 64-bit integer (nonce, gas limit) wider than 8 bytes: its width is checked before leading zeros
        // (256-bit amounts and signature values are checked for leading zeros first).
        if case .leadingZeroInInteger = error.kind, field == .nonce || field == .gasLimit, let (_, length) = fieldItem, length > 8 {
            return overflowName(field, type: type, fork: fork)
        }
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
            return overflowName(field, type: type, fork: fork)
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

    private static func overflowName(_ field: TransactionField?, type: TransactionType, fork: Hardfork) -> String {
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
    }

    /// The payload of `raw` when it is one complete RLP byte string (trailing bytes allowed).
    static func byteStringContent(_ raw: [UInt8]) -> ArraySlice<UInt8>? {
        guard let first = raw.first, (0x80...0xbf).contains(first) else { return nil }
        guard let (start, length) = payload(at: 0, in: raw), start + length <= raw.count else { return nil }
        return raw[start..<(start + length)]
    }

    /// True when every item of the envelope's top-level list fits inside it (whatever is inside the items).
    static func topLevelItemsFit(_ raw: [UInt8]) -> Bool {
        var p = raw.first.map { $0 < 0x80 ? 1 : 0 } ?? 0
        guard p < raw.count, raw[p] >= 0xc0, let (listStart, listLength) = payload(at: p, in: raw) else { return false }
        let end = listStart + listLength
        p = listStart
        while p < end {
            guard let (start, length) = payload(at: p, in: raw), start + length <= end else { return false }
            p = start + length
        }
        return p == end
    }

    /// Start and length of item `index` of the envelope's top-level list (after the type byte of a typed
    /// transaction), found by walking headers; nil when the bytes do not get that far.
    static func topLevelItem(_ index: Int, in raw: [UInt8]) -> (start: Int, payloadLength: Int)? {
        var p = raw.first.map { $0 < 0x80 ? 1 : 0 } ?? 0
        guard p < raw.count, raw[p] >= 0xc0, let (listStart, _) = payload(at: p, in: raw) else { return nil }
        p = listStart
        for _ in 0..<index {
            guard let (start, length) = payload(at: p, in: raw) else { return nil }
            p = start + length
        }
        guard p < raw.count, let (_, length) = payload(at: p, in: raw) else { return nil }
        return (p, length)
    }

    /// Where the payload of the item at `p` starts and how long its header says it is.
    static func payload(at p: Int, in raw: [UInt8]) -> (start: Int, length: Int)? {
        guard p < raw.count else { return nil }
        let prefix = raw[p]
        switch prefix {
        case 0x00...0x7f: return (p, 1)
        case 0x80...0xb7: return (p + 1, Int(prefix - 0x80))
        case 0xc0...0xf7: return (p + 1, Int(prefix - 0xc0))
        default:
            let lengthOfLength = Int(prefix - (prefix >= 0xf8 ? 0xf7 : 0xb7))
            guard p + lengthOfLength < raw.count, lengthOfLength <= 4 else { return nil }
            var length = 0
            for i in 1...lengthOfLength { length = length << 8 | Int(raw[p + i]) }
            return (p + 1 + lengthOfLength, length)
        }
    }
}

extension TransactionField {
    /// True for the fields that hold a byte string (everything but the lists).
    var isScalar: Bool {
        switch self {
        case .accessList, .blobVersionedHashes, .authorizationList: return false
        default: return true
        }
    }
}
