/// Reads the fields of an RLP list in order, for decoders of structs such as transactions.
///
/// ```swift
/// var fields = try RLPListReader(item, expectedCount: 9)   // "expected 9 fields, got 10"
/// let nonce: UInt64 = try fields.next()
/// let to = try fields.next(Address.self)
/// ```
/// Errors thrown while decoding a field carry that field's index in ``RLPError/fieldPath``.
public struct RLPListReader: Sendable {
    /// All items of the list.
    public let items: [RLPItem]
    /// The index of the next field to read.
    public private(set) var index = 0

    /// Starts reading a list; throws if `item` is a byte string or, when `expectedCount` is given,
    /// the list does not have exactly that many items.
    public init(_ item: RLPItem, expectedCount: Int? = nil) throws(RLPError) {
        guard case .list(let items) = item else { throw RLPError(.expectedList) }
        if let expectedCount, items.count != expectedCount {
            throw RLPError(.wrongFieldCount(expected: expectedCount, actual: items.count))
        }
        self.items = items
    }

    /// The number of items in the list.
    public var count: Int { items.count }

    /// True when every item has been read.
    public var isAtEnd: Bool { index == items.count }

    /// Reads the next item as it is.
    public mutating func nextItem() throws(RLPError) -> RLPItem {
        guard index < items.count else {
            throw RLPError(.wrongFieldCount(expected: index + 1, actual: items.count))
        }
        defer { index += 1 }
        return items[index]
    }

    /// Decodes the next item as a `T`.
    public mutating func next<T: RLPDecodable>(_ type: T.Type = T.self) throws(RLPError) -> T {
        let i = index
        let item = try nextItem()
        do { return try T(rlp: item) } catch { throw error.inField(i) }
    }

    /// Throws ``RLPError/Kind/wrongFieldCount(expected:actual:)`` if items remain unread.
    public func finish() throws(RLPError) {
        guard isAtEnd else { throw RLPError(.wrongFieldCount(expected: index, actual: items.count)) }
    }
}
