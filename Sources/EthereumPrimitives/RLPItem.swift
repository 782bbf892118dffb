/// A Recursive Length Prefix value (Ethereum Yellow Paper, appendix B): a byte string or a list of
/// items. RLP itself has no integers, text or other types; those are conventions layered on byte
/// strings by ``RLPEncodable`` and ``RLPDecodable``.
public enum RLPItem: Equatable, Sendable {
    /// A byte string (possibly empty).
    case bytes([UInt8])
    /// A list of items (possibly empty).
    case list([RLPItem])

    /// The bytes of a byte string; nil for a list.
    public var bytesValue: [UInt8]? {
        if case .bytes(let b) = self { return b }
        return nil
    }

    /// The items of a list; nil for a byte string.
    public var listValue: [RLPItem]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// The items of a list that must have exactly `expectedCount` items, as a struct's fields do.
    ///
    /// Throws ``RLPError/Kind/expectedList`` for a byte string and
    /// ``RLPError/Kind/wrongFieldCount(expected:actual:)`` ("expected 9 fields, got 10") otherwise.
    public func list(expectedCount: Int) throws(RLPError) -> [RLPItem] {
        guard case .list(let items) = self else { throw RLPError(.expectedList) }
        guard items.count == expectedCount else {
            throw RLPError(.wrongFieldCount(expected: expectedCount, actual: items.count))
        }
        return items
    }

    /// The bytes of a byte string; throws ``RLPError/Kind/expectedBytes`` for a list.
    public func byteString() throws(RLPError) -> [UInt8] {
        guard case .bytes(let b) = self else { throw RLPError(.expectedBytes) }
        return b
    }
}
