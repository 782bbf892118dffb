import EthereumPrimitives

// RLP conventions for transaction fields that the primitives do not define: 256-bit integers and the
// optional recipient (the empty string for a contract creation).

extension RLPItem {
    /// The canonical encoding of a 256-bit integer (big-endian, no leading zeros, zero is empty).
    init(uint256 value: UInt256) {
        self = value.fitsInUInt64 ? RLPItem(unsignedInteger: value.low64) : .bytes(value.minimalBigEndianBytes)
    }

    /// A recipient: 20 bytes, or the empty string for a creation.
    init(recipient: Address?) {
        self = .bytes(recipient?.bytes ?? [])
    }

    /// Reads a canonical integer of at most 32 bytes.
    func uint256() throws(RLPError) -> UInt256 {
        let bytes = try unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256")
        // At most 32 bytes, checked above.
        return UInt256(bigEndianBytes: bytes) ?? .zero
    }

    /// Reads a recipient: the empty string (creation) or exactly 20 bytes.
    func recipient() throws(RLPError) -> Address? {
        let bytes = try byteString()
        if bytes.isEmpty { return nil }
        guard let address = Address(bytes: bytes) else {
            throw RLPError(.wrongByteCount(expected: 20, actual: bytes.count))
        }
        return address
    }
}

/// Reads the fields of one envelope in order, attributing every error to its named field.
struct EnvelopeReader {
    let items: [RLPItem]
    let type: TransactionType
    let fields: [TransactionField]
    private(set) var index = 0

    /// Starts on `item`, which must be a list with exactly the signed envelope's field count.
    init(_ item: RLPItem, type: TransactionType) throws(TransactionError) {
        self.type = type
        fields = TransactionField.order(for: type)
        do {
            items = try item.list(expectedCount: fields.count)
        } catch {
            throw .malformed(error, field: nil, type: type)
        }
    }

    private mutating func read<T>(_ body: (RLPItem) throws(RLPError) -> T) throws(TransactionError) -> T {
        let i = index
        index += 1
        do {
            return try body(items[i])
        } catch {
            throw .malformed(error.inField(i), field: fields[i], type: type)
        }
    }

    mutating func uint64() throws(TransactionError) -> UInt64 { try read { (item) throws(RLPError) in try UInt64(rlp: item) } }
    mutating func uint256() throws(TransactionError) -> UInt256 { try read { (item) throws(RLPError) in try item.uint256() } }
    mutating func recipient() throws(TransactionError) -> Address? { try read { (item) throws(RLPError) in try item.recipient() } }
    /// A recipient that must be present (types 3 and 4 cannot create contracts).
    mutating func requiredRecipient() throws(TransactionError) -> Address {
        try read { (item) throws(RLPError) in
            let bytes = try item.byteString()
            guard let address = Address(bytes: bytes) else {
                throw RLPError(.wrongByteCount(expected: 20, actual: bytes.count))
            }
            return address
        }
    }
    mutating func bytes() throws(TransactionError) -> [UInt8] { try read { (item) throws(RLPError) in try item.byteString() } }
    mutating func accessList() throws(TransactionError) -> AccessList {
        try read { (item) throws(RLPError) in try [AccessListEntry](rlp: item) }
    }
    mutating func hashes() throws(TransactionError) -> [Bytes32] {
        try read { (item) throws(RLPError) in try [Bytes32](rlp: item) }
    }
    mutating func authorizations() throws(TransactionError) -> [SignedAuthorization] {
        try read { (item) throws(RLPError) in try [SignedAuthorization](rlp: item) }
    }

    /// The three signature fields (v or y parity, r, s).
    mutating func signature() throws(TransactionError) -> TransactionSignature {
        let v = try uint256()
        let r = try uint256()
        let s = try uint256()
        return TransactionSignature(v: v, r: r, s: s)
    }
}
