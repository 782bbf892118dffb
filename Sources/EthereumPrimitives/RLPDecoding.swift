extension RLP {
    /// Decodes exactly one canonical RLP item from `bytes`.
    ///
    /// Rejects, with an ``RLPError`` naming the offset: truncated input; lengths that exceed the input
    /// (or, inside a list, the list's payload) or do not fit in `Int`; the long form for lengths
    /// below 56; long-form lengths with leading zero bytes; a single byte below 0x80 written as
    /// `0x81 byte`; bytes after the top-level item; and lists nested deeper than ``maxDepth``.
    ///
    /// Safe on hostile input: every length is checked against the bytes actually remaining before
    /// anything is allocated, and nesting is handled with an explicit stack, not recursion.
    public static func decode(_ bytes: [UInt8]) throws(RLPError) -> RLPItem {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RLPError) -> RLPItem in
            try decode(buffer)
        }
    }

    /// Decodes exactly one canonical RLP item from the bytes in `buffer`; see ``decode(_:)-([UInt8])``.
    public static func decode(_ buffer: UnsafeBufferPointer<UInt8>) throws(RLPError) -> RLPItem {
        var reader = Reader(buffer: buffer)
        let item = try reader.readItem()
        if reader.position < buffer.count {
            throw RLPError(.trailingBytes(count: buffer.count - reader.position), offset: reader.position)
        }
        return item
    }

    /// Decodes `bytes` as RLP and then as a `T`.
    @inlinable
    public static func decode<T: RLPDecodable>(_ type: T.Type, from bytes: [UInt8]) throws(RLPError) -> T {
        try T(rlp: decode(bytes))
    }

    /// A parsed item header.
    struct Header {
        var isList: Bool
        /// Where the payload starts.
        var payloadStart: Int
        var payloadLength: Int
        var end: Int { payloadStart + payloadLength }
    }

    /// Iterative strict decoder over a byte buffer.
    struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var position = 0

        init(buffer: UnsafeBufferPointer<UInt8>) {
            self.buffer = buffer
        }

        /// A list being filled: its items so far and where its payload ends.
        private struct OpenList {
            var items: [RLPItem] = []
            let end: Int
        }

        /// Reads one item (with everything nested in it) starting at `position`.
        mutating func readItem() throws(RLPError) -> RLPItem {
            var open: [OpenList] = []
            while true {
                // Close every list whose payload has been consumed, innermost first.
                while let last = open.last, position == last.end {
                    open.removeLast()
                    let list = RLPItem.list(last.items)
                    if open.isEmpty { return list }
                    open[open.count - 1].items.append(list)
                }
                let limit = open.last?.end ?? buffer.count
                let header = try readHeader(limit: limit, insideList: !open.isEmpty)
                if header.isList {
                    if open.count == RLP.maxDepth {
                        throw RLPError(.nestingTooDeep(limit: RLP.maxDepth), offset: position)
                    }
                    var list = OpenList(end: header.end)
                    list.items.reserveCapacity(countItems(from: header.payloadStart, to: header.end))
                    open.append(list)
                    position = header.payloadStart
                } else {
                    let payload = UnsafeBufferPointer(rebasing: buffer[header.payloadStart..<header.end])
                    position = header.end
                    let item = RLPItem.bytes(Array(payload))
                    if open.isEmpty { return item }
                    open[open.count - 1].items.append(item)
                }
            }
        }

        /// How many items start in `start..<end`, counted by skipping from header to header, so a list's
        /// array is allocated once. The count is bounded by the bytes present (every item takes at least
        /// one), and malformed headers merely end the count: the real parse reports them.
        func countItems(from start: Int, to end: Int) -> Int {
            var count = 0
            var p = start
            while p < end {
                let prefix = buffer[p]
                var size: Int
                switch prefix {
                case 0x00...0x7f: size = 1
                case 0x80...0xb7: size = 1 + Int(prefix - 0x80)
                case 0xc0...0xf7: size = 1 + Int(prefix - 0xc0)
                default:
                    let lengthOfLength = Int(prefix - (prefix >= 0xf8 ? 0xf7 : 0xb7))
                    guard lengthOfLength < end - p else { return count + 1 }
                    var length = 0
                    for i in 1...lengthOfLength {
                        guard length <= (end - p) >> 8 else { return count + 1 }  // longer than the list
                        length = length << 8 | Int(buffer[p + i])
                    }
                    size = 1 + lengthOfLength + length
                }
                count += 1
                guard size <= end - p else { break }
                p += size
            }
            return count
        }

        /// Parses the header at `position`, checking that the whole item fits before `limit`.
        func readHeader(limit: Int, insideList: Bool) throws(RLPError) -> Header {
            let start = position
            let available = limit - start
            func tooShort(_ needed: Int) -> RLPError {
                insideList
                    ? RLPError(.exceedsList(needed: needed, available: available), offset: start)
                    : RLPError(.truncated(needed: needed, available: available), offset: start)
            }
            guard available > 0 else { throw tooShort(1) }
            let prefix = buffer[start]
            let header: Header
            switch prefix {
            case 0x00...0x7f:
                // A single byte below 0x80 is its own encoding.
                return Header(isList: false, payloadStart: start, payloadLength: 1)
            case 0x80...0xb7, 0xc0...0xf7:
                let isList = prefix >= 0xc0
                let length = Int(prefix - (isList ? 0xc0 : 0x80))
                header = Header(isList: isList, payloadStart: start + 1, payloadLength: length)
                guard length <= available - 1 else { throw tooShort(1 + length) }
                if !isList && length == 1 && buffer[start + 1] < 0x80 {
                    throw RLPError(.nonCanonicalSingleByte(buffer[start + 1]), offset: start)
                }
            default:
                let isList = prefix >= 0xf8
                let lengthOfLength = Int(prefix - (isList ? 0xf7 : 0xb7))
                guard lengthOfLength <= available - 1 else { throw tooShort(1 + lengthOfLength) }
                if buffer[start + 1] == 0 { throw RLPError(.leadingZeroInLength, offset: start) }
                var length: UInt64 = 0
                for i in 0..<lengthOfLength { length = length << 8 | UInt64(buffer[start + 1 + i]) }
                guard length <= UInt64(Int.max) else { throw RLPError(.lengthOverflow, offset: start) }
                let n = Int(length)
                if n < 56 { throw RLPError(.longFormForShortLength(n), offset: start) }
                let headerLength = 1 + lengthOfLength
                guard n <= available - headerLength else {
                    let (needed, overflow) = headerLength.addingReportingOverflow(n)
                    throw overflow ? RLPError(.lengthOverflow, offset: start) : tooShort(needed)
                }
                header = Header(isList: isList, payloadStart: start + headerLength, payloadLength: n)
            }
            return header
        }
    }
}

extension RLP {
    /// Decodes a canonical RLP list whose items are all byte strings, passing each item's index and bytes to `body` in
    /// order, without building an ``RLPItem`` tree (for hot decoders of flat structures, such as a trie's account
    /// leaf). The same input is accepted as by ``decode(_:)-([UInt8])``, except that a nested list throws
    /// ``RLPError/Kind/expectedBytes``. Returns the number of items.
    @discardableResult
    public static func forEachString(
        inList bytes: [UInt8], _ body: (Int, UnsafeRawBufferPointer) throws(RLPError) -> Void
    ) throws(RLPError) -> Int {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RLPError) -> Int in
            var reader = Reader(buffer: buffer)
            let list = try reader.readHeader(limit: buffer.count, insideList: false)
            guard list.isList else { throw RLPError(.expectedList, offset: 0) }
            if list.end < buffer.count { throw RLPError(.trailingBytes(count: buffer.count - list.end), offset: list.end) }
            reader.position = list.payloadStart
            var index = 0
            while reader.position < list.end {
                let item = try reader.readHeader(limit: list.end, insideList: true)
                guard !item.isList else { throw RLPError(.expectedBytes, offset: reader.position) }
                try body(index, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[item.payloadStart..<item.end])))
                reader.position = item.end
                index += 1
            }
            return index
        }
    }
}

extension RLP {
    /// Decodes `bytes` as one canonical RLP byte string and passes its payload to `body`, without allocating (for hot
    /// readers of single values, such as a storage trie's leaf). The same input is accepted as by
    /// ``decode(_:)-([UInt8])``, except that a list throws ``RLPError/Kind/expectedBytes``.
    public static func withString<R>(
        _ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws(RLPError) -> R
    ) throws(RLPError) -> R {
        try bytes.withUnsafeBufferPointer { (buffer) throws(RLPError) -> R in
            let reader = Reader(buffer: buffer)
            let item = try reader.readHeader(limit: buffer.count, insideList: false)
            guard !item.isList else { throw RLPError(.expectedBytes, offset: 0) }
            if item.end < buffer.count { throw RLPError(.trailingBytes(count: buffer.count - item.end), offset: item.end) }
            return try body(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: buffer[item.payloadStart..<item.end])))
        }
    }
}
