import EthereumCrypto
import EthereumPrimitives

/// An unsigned transaction of any type: one case per envelope. Sign it with ``sign(with:)`` to get a
/// ``SignedTransaction``.
public enum Transaction: Sendable, Hashable {
    case legacy(LegacyTransaction)
    case accessList(AccessListTransaction)
    case dynamicFee(DynamicFeeTransaction)
    case blob(BlobTransaction)
    case setCode(SetCodeTransaction)

    /// The chain id used when none is given: 4 (Rinkeby's id, which this project's tools default to).
    public static let defaultChainID: UInt64 = 4

    /// The envelope type.
    public var type: TransactionType {
        switch self {
        case .legacy: return .legacy
        case .accessList: return .accessList
        case .dynamicFee: return .dynamicFee
        case .blob: return .blob
        case .setCode: return .setCode
        }
    }

    // MARK: Common fields

    /// The sender's nonce.
    public var nonce: UInt64 {
        switch self {
        case .legacy(let t): return t.nonce
        case .accessList(let t): return t.nonce
        case .dynamicFee(let t): return t.nonce
        case .blob(let t): return t.nonce
        case .setCode(let t): return t.nonce
        }
    }

    /// The most gas the transaction may use.
    public var gasLimit: UInt64 {
        switch self {
        case .legacy(let t): return t.gasLimit
        case .accessList(let t): return t.gasLimit
        case .dynamicFee(let t): return t.gasLimit
        case .blob(let t): return t.gasLimit
        case .setCode(let t): return t.gasLimit
        }
    }

    /// The recipient; nil for a contract creation.
    public var to: Address? {
        switch self {
        case .legacy(let t): return t.to
        case .accessList(let t): return t.to
        case .dynamicFee(let t): return t.to
        case .blob(let t): return t.to
        case .setCode(let t): return t.to
        }
    }

    /// True for a contract creation (no recipient).
    public var isContractCreation: Bool { to == nil }

    /// Wei transferred.
    public var value: UInt256 {
        switch self {
        case .legacy(let t): return t.value
        case .accessList(let t): return t.value
        case .dynamicFee(let t): return t.value
        case .blob(let t): return t.value
        case .setCode(let t): return t.value
        }
    }

    /// Calldata, or initcode for a creation.
    public var data: [UInt8] {
        switch self {
        case .legacy(let t): return t.data
        case .accessList(let t): return t.data
        case .dynamicFee(let t): return t.data
        case .blob(let t): return t.data
        case .setCode(let t): return t.data
        }
    }

    /// The chain id; nil only for an unprotected legacy transaction.
    public var chainId: UInt64? {
        switch self {
        case .legacy(let t): return t.chainId
        case .accessList(let t): return t.chainId
        case .dynamicFee(let t): return t.chainId
        case .blob(let t): return t.chainId
        case .setCode(let t): return t.chainId
        }
    }

    /// The access list (empty for legacy transactions).
    public var accessList: AccessList {
        switch self {
        case .legacy: return []
        case .accessList(let t): return t.accessList
        case .dynamicFee(let t): return t.accessList
        case .blob(let t): return t.accessList
        case .setCode(let t): return t.accessList
        }
    }

    // MARK: Fees

    /// The gas price of a legacy or EIP-2930 transaction; nil for fee-market types (use ``maxFeePerGas``).
    public var gasPrice: UInt256? {
        switch self {
        case .legacy(let t): return t.gasPrice
        case .accessList(let t): return t.gasPrice
        case .dynamicFee, .blob, .setCode: return nil
        }
    }

    /// The fee cap per gas: maxFeePerGas, or the gas price for legacy and EIP-2930 transactions.
    public var maxFeePerGas: UInt256 {
        switch self {
        case .legacy(let t): return t.gasPrice
        case .accessList(let t): return t.gasPrice
        case .dynamicFee(let t): return t.maxFeePerGas
        case .blob(let t): return t.maxFeePerGas
        case .setCode(let t): return t.maxFeePerGas
        }
    }

    /// The priority fee cap per gas: maxPriorityFeePerGas, or the gas price for legacy and EIP-2930 transactions
    /// (their whole price above the base fee goes to the block producer).
    public var maxPriorityFeePerGas: UInt256 {
        switch self {
        case .legacy(let t): return t.gasPrice
        case .accessList(let t): return t.gasPrice
        case .dynamicFee(let t): return t.maxPriorityFeePerGas
        case .blob(let t): return t.maxPriorityFeePerGas
        case .setCode(let t): return t.maxPriorityFeePerGas
        }
    }

    /// The price per gas actually paid in a block with this base fee (nil before London):
    /// min(maxFeePerGas, baseFee + maxPriorityFeePerGas). Nil when the fee cap is below the base fee, so the
    /// transaction cannot be included.
    public func effectiveGasPrice(baseFee: UInt256?) -> UInt256? {
        guard let baseFee else { return maxFeePerGas }
        guard maxFeePerGas >= baseFee else { return nil }
        let (sum, overflow) = baseFee.addingReportingOverflow(maxPriorityFeePerGas)
        return overflow ? maxFeePerGas : Swift.min(maxFeePerGas, sum)
    }

    /// The part of the effective gas price that goes to the block producer: effectiveGasPrice − baseFee.
    /// Nil when the fee cap is below the base fee.
    public func effectivePriorityFee(baseFee: UInt256?) -> UInt256? {
        guard let price = effectiveGasPrice(baseFee: baseFee) else { return nil }
        return price - (baseFee ?? .zero)
    }

    /// The blob fee cap (type 3 only).
    public var maxFeePerBlobGas: UInt256? {
        if case .blob(let t) = self { return t.maxFeePerBlobGas }
        return nil
    }

    /// The blob versioned hashes (empty except for type 3).
    public var blobVersionedHashes: [Bytes32] {
        if case .blob(let t) = self { return t.blobVersionedHashes }
        return []
    }

    /// Blob gas used (zero except for type 3).
    public var blobGas: UInt64 {
        if case .blob(let t) = self { return t.blobGas }
        return 0
    }

    /// The EIP-7702 authorizations (empty except for type 4).
    public var authorizationList: [SignedAuthorization] {
        if case .setCode(let t) = self { return t.authorizationList }
        return []
    }

    // MARK: Signing

    /// The fields before the signature, in envelope order.
    var unsignedFields: [RLPItem] {
        switch self {
        case .legacy(let t): return t.unsignedFields
        case .accessList(let t): return t.unsignedFields
        case .dynamicFee(let t): return t.unsignedFields
        case .blob(let t): return t.unsignedFields
        case .setCode(let t): return t.unsignedFields
        }
    }

    /// The bytes the signer hashes: the legacy RLP (with `[chainId, 0, 0]` under EIP-155), or
    /// `type ‖ rlp(unsigned fields)` for typed transactions.
    public var signingPayload: [UInt8] {
        if case .legacy(let t) = self { return t.signingPayload }
        return [type.rawValue] + RLP.encode(.list(unsignedFields))
    }

    /// keccak256 of ``signingPayload``: the message hash the sender signs.
    public var signingHash: Bytes32 { Keccak256.hash(signingPayload) }

    /// Signs with `key` (RFC 6979 deterministic nonce, low s) and returns the signed envelope.
    public func sign(with key: PrivateKey) -> SignedTransaction {
        let signature = key.sign(hash: signingHash)
        let v: UInt256
        if case .legacy(let t) = self {
            v = t.v(recoveryID: signature.recoveryID)
        } else {
            v = UInt256(signature.recoveryID)
        }
        return SignedTransaction(
            transaction: self, signature: TransactionSignature(v: v, r: UInt256(signature.r), s: UInt256(signature.s)))
    }
}
