import EthereumPrimitives

/// The EIP-2718 transaction type: the byte before a typed transaction's RLP payload (legacy
/// transactions have none).
public enum TransactionType: UInt8, Sendable, CaseIterable, CustomStringConvertible {
    /// Pre-EIP-2718 transactions, unprotected or EIP-155 replay-protected.
    case legacy = 0
    /// EIP-2930: access lists (Berlin).
    case accessList = 1
    /// EIP-1559: base fee and priority fee (London).
    case dynamicFee = 2
    /// EIP-4844: blob-carrying transactions (Cancun).
    case blob = 3
    /// EIP-7702: set the sender's code by signed authorizations (Prague).
    case setCode = 4

    /// The first fork in which transactions of this type are valid.
    public var introducedIn: Hardfork {
        switch self {
        case .legacy: return .frontier
        case .accessList: return .berlin
        case .dynamicFee: return .london
        case .blob: return .cancun
        case .setCode: return .prague
        }
    }

    /// The EIP that introduced the type, e.g. "EIP-1559"; "legacy" for type 0.
    public var eip: String {
        switch self {
        case .legacy: return "legacy"
        case .accessList: return "EIP-2930"
        case .dynamicFee: return "EIP-1559"
        case .blob: return "EIP-4844"
        case .setCode: return "EIP-7702"
        }
    }

    /// For example "type 2 (EIP-1559)".
    public var description: String {
        self == .legacy ? "legacy (type 0)" : "type \(rawValue) (\(eip))"
    }
}

/// A named field of a transaction envelope, for error messages (and the conformance tests' exception names).
public enum TransactionField: String, Sendable, CaseIterable {
    case chainId, nonce, gasPrice, maxPriorityFeePerGas, maxFeePerGas, gasLimit, to, value, data
    case accessList, maxFeePerBlobGas, blobVersionedHashes, authorizationList
    case v, yParity, r, s

    /// The fields of a signed envelope of `type`, in RLP order.
    public static func order(for type: TransactionType) -> [TransactionField] {
        switch type {
        case .legacy:
            return [.nonce, .gasPrice, .gasLimit, .to, .value, .data, .v, .r, .s]
        case .accessList:
            return [.chainId, .nonce, .gasPrice, .gasLimit, .to, .value, .data, .accessList, .yParity, .r, .s]
        case .dynamicFee:
            return [.chainId, .nonce, .maxPriorityFeePerGas, .maxFeePerGas, .gasLimit, .to, .value, .data, .accessList,
                    .yParity, .r, .s]
        case .blob:
            return [.chainId, .nonce, .maxPriorityFeePerGas, .maxFeePerGas, .gasLimit, .to, .value, .data, .accessList,
                    .maxFeePerBlobGas, .blobVersionedHashes, .yParity, .r, .s]
        case .setCode:
            return [.chainId, .nonce, .maxPriorityFeePerGas, .maxFeePerGas, .gasLimit, .to, .value, .data, .accessList,
                    .authorizationList, .yParity, .r, .s]
        }
    }
}
