import EthereumCrypto
import EthereumPrimitives

/// A signed transaction of any type: the unsigned ``Transaction`` and its ``TransactionSignature``, with the
/// raw encoding and the transaction hash computed once.
///
/// Fields of the transaction read through directly (`signed.nonce`, `signed.to`, `signed.maxFeePerGas`, …).
@dynamicMemberLookup
public struct SignedTransaction: Sendable, Hashable {
    /// The signed content.
    public let transaction: Transaction
    /// The signature fields as on the wire.
    public let signature: TransactionSignature
    /// The raw bytes as sent to `eth_sendRawTransaction`: the RLP list for legacy transactions,
    /// `type ‖ rlp(fields)` for typed ones.
    public let encoded: [UInt8]
    /// The transaction hash: keccak256 of ``encoded``.
    public let hash: Bytes32

    /// Combines a transaction and a signature (not checked: see ``sender(allowHighS:)`` and
    /// ``validate(for:chainID:)``).
    public init(transaction: Transaction, signature: TransactionSignature) {
        self.transaction = transaction
        self.signature = signature
        encoded = Self.encode(transaction, signature)
        hash = Keccak256.hash(encoded)
    }

    /// Used by the decoder, which already has the canonical bytes.
    init(transaction: Transaction, signature: TransactionSignature, encoded: [UInt8]) {
        self.transaction = transaction
        self.signature = signature
        self.encoded = encoded
        hash = Keccak256.hash(encoded)
    }

    private static func encode(_ transaction: Transaction, _ signature: TransactionSignature) -> [UInt8] {
        let fields = transaction.unsignedFields + [
            RLPItem(uint256: signature.v), RLPItem(uint256: signature.r), RLPItem(uint256: signature.s),
        ]
        let rlp = RLP.encode(.list(fields))
        if transaction.type == .legacy { return rlp }
        var out = [UInt8]()
        out.reserveCapacity(rlp.count + 1)
        out.append(transaction.type.rawValue)
        out.append(contentsOf: rlp)
        return out
    }

    /// Reads a field of the transaction.
    public subscript<T>(dynamicMember keyPath: KeyPath<Transaction, T>) -> T { transaction[keyPath: keyPath] }

    /// ``encoded`` as 0x-prefixed hex.
    public var rawHex: String { Hex.encode(encoded) }

    /// The message hash that was signed.
    public var signingHash: Bytes32 { transaction.signingHash }

    /// The y parity (0 or 1) of the signature, or nil when v / the y parity field is not a valid one.
    public var yParity: UInt8? {
        switch transaction {
        case .legacy(let t):
            switch LegacyTransaction.classify(v: signature.v) {
            case .unprotected(let id): return id
            case .protected(let chainId, let id): return chainId == t.chainId ? id : nil
            case .chainIdTooLarge, .invalid: return nil
            }
        default:
            return signature.v <= 1 ? UInt8(signature.v.low64) : nil
        }
    }

    /// Recovers the sender's address.
    ///
    /// Checks that v (or the y parity) is well formed, that r and s are in range and, unless `allowHighS` (for
    /// Frontier rules), that s is low (EIP-2). It does not apply fork or chain rules: see
    /// ``validate(for:chainID:)``.
    public func sender(allowHighS: Bool = false) throws(TransactionError) -> Address {
        let recoveryID: UInt8
        switch transaction {
        case .legacy(let t):
            switch LegacyTransaction.classify(v: signature.v) {
            case .unprotected(let id):
                guard t.chainId == nil else { throw .invalidV(signature.v, fork: nil) }
                recoveryID = id
            case .protected(let chainId, let id):
                guard chainId == t.chainId else {
                    throw .invalidChainID(expected: t.chainId, found: UInt256(chainId))
                }
                recoveryID = id
            case .chainIdTooLarge, .invalid:
                throw .invalidV(signature.v, fork: nil)
            }
        default:
            guard signature.v <= 1 else { throw .invalidYParity(signature.v) }
            recoveryID = UInt8(signature.v.low64)
        }
        return try Secp256k1.recoverAddress(
            hash: signingHash, signature: signature, recoveryID: recoveryID, allowHighS: allowHighS)
    }

    // MARK: Block bodies

    /// The form a block body holds: the RLP list for legacy transactions, the encoded envelope as an RLP byte
    /// string for typed ones (EIP-2718).
    public var blockBodyItem: RLPItem {
        if transaction.type == .legacy {
            // A legacy encoding is one canonical RLP list; it decodes.
            return (try? RLP.decode(encoded)) ?? .list([])
        }
        return .bytes(encoded)
    }

    /// Decodes a transaction from its block-body form (see ``blockBodyItem``).
    public static func decode(blockBodyItem item: RLPItem) throws(TransactionError) -> SignedTransaction {
        switch item {
        case .list: return try decode(RLP.encode(item))
        case .bytes(let envelope):
            guard let first = envelope.first else { throw .empty }
            guard first < 0x80 else { throw .notAList }
            return try decode(envelope)
        }
    }
}
