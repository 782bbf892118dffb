import EthereumPrimitives

/// One EIP-2930 access-list entry: an address and the storage slots of it that the transaction declares it
/// will touch (each pre-warmed at a discount, Berlin).
public struct AccessListEntry: Sendable, Hashable {
    /// The account.
    public var address: Address
    /// Its storage keys, 32 bytes each.
    public var storageKeys: [Bytes32]

    /// Creates an entry.
    public init(address: Address, storageKeys: [Bytes32] = []) {
        self.address = address
        self.storageKeys = storageKeys
    }
}

extension AccessListEntry: RLPEncodable, RLPDecodable {
    /// `[address, [key, …]]`.
    public func encodeRLP() -> RLPItem {
        .list([.bytes(address.bytes), .list(storageKeys.map { .bytes($0.bytes) })])
    }

    /// Decodes `[address, [key, …]]`: exactly two fields, a 20-byte address and 32-byte keys.
    public init(rlp: RLPItem) throws(RLPError) {
        var reader = try RLPListReader(rlp, expectedCount: 2)
        address = try reader.next(Address.self)
        storageKeys = try reader.next([Bytes32].self)
    }
}

/// EIP-2930's access list: the accounts and storage slots a transaction declares.
public typealias AccessList = [AccessListEntry]

extension Array where Element == AccessListEntry {
    /// The number of storage keys over all entries.
    public var storageKeyCount: Int { reduce(0) { $0 + $1.storageKeys.count } }
}
