import EthereumPrimitives

/// A legacy (pre-EIP-2718) transaction: `rlp([nonce, gasPrice, gasLimit, to, value, data, v, r, s])`.
///
/// With a `chainId` it is signed under EIP-155 (the chain id is part of the signed message and of v); without
/// one it is an unprotected transaction that any chain would accept.
public struct LegacyTransaction: Sendable, Hashable {
    /// The sender's nonce.
    public var nonce: UInt64
    /// Wei paid per unit of gas.
    public var gasPrice: UInt256
    /// The most gas the transaction may use.
    public var gasLimit: UInt64
    /// The recipient, or nil to create a contract.
    public var to: Address?
    /// Wei transferred.
    public var value: UInt256
    /// Calldata, or initcode for a creation.
    public var data: [UInt8]
    /// The EIP-155 chain id, or nil for an unprotected transaction.
    public var chainId: UInt64?

    /// Creates a legacy transaction; `chainId` defaults to ``Transaction/defaultChainID`` (EIP-155 protected).
    public init(
        nonce: UInt64, gasPrice: UInt256, gasLimit: UInt64, to: Address?, value: UInt256 = .zero,
        data: [UInt8] = [], chainId: UInt64? = Transaction.defaultChainID
    ) {
        self.nonce = nonce
        self.gasPrice = gasPrice
        self.gasLimit = gasLimit
        self.to = to
        self.value = value
        self.data = data
        self.chainId = chainId
    }

    /// The six fields before the signature.
    var unsignedFields: [RLPItem] {
        [RLPItem(unsignedInteger: nonce), RLPItem(uint256: gasPrice), RLPItem(unsignedInteger: gasLimit),
         RLPItem(recipient: to), RLPItem(uint256: value), .bytes(data)]
    }

    /// The RLP the signer hashes: the six fields, plus `[chainId, 0, 0]` under EIP-155.
    public var signingPayload: [UInt8] {
        var fields = unsignedFields
        if let chainId {
            fields += [RLPItem(unsignedInteger: chainId), .bytes([]), .bytes([])]
        }
        return RLP.encode(.list(fields))
    }

    /// v for a signature with this recovery id: 27/28, or chainId * 2 + 35/36 (EIP-155).
    public func v(recoveryID: UInt8) -> UInt256 {
        guard let chainId else { return UInt256(27 + UInt64(recoveryID)) }
        return UInt256(chainId) * 2 + UInt256(35 + UInt64(recoveryID))
    }

    /// Decodes the six unsigned fields; the chain id is set from v afterwards.
    init(decoding reader: inout EnvelopeReader) throws(TransactionError) {
        nonce = try reader.uint64()
        gasPrice = try reader.uint256()
        gasLimit = try reader.uint64()
        to = try reader.recipient()
        value = try reader.uint256()
        data = try reader.bytes()
        chainId = nil
    }

    /// What a legacy v says about replay protection.
    enum VKind: Equatable {
        /// 27 or 28: unprotected, with this recovery id.
        case unprotected(recoveryID: UInt8)
        /// chainId * 2 + 35 + recovery id (EIP-155).
        case protected(chainId: UInt64, recoveryID: UInt8)
        /// 35 or more but the chain id does not fit in 64 bits.
        case chainIdTooLarge(UInt256)
        /// 0–26 or 29–34.
        case invalid
    }

    /// Interprets a legacy v.
    static func classify(v: UInt256) -> VKind {
        if v == 27 || v == 28 { return .unprotected(recoveryID: UInt8(v.low64 - 27)) }
        guard v >= 35 else { return .invalid }
        let offset = v - 35
        let chainId = offset >> 1
        guard let id = chainId.uint64 else { return .chainIdTooLarge(chainId) }
        return .protected(chainId: id, recoveryID: UInt8(offset.low64 & 1))
    }
}
