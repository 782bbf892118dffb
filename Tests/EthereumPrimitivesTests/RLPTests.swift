import TestSupport
import Testing
import EthereumPrimitives

@Suite struct RLPTests {
    // MARK: Encoding

    @Test(arguments: [
        (RLPItem.bytes([]), "80"),
        (.bytes([0x00]), "00"),
        (.bytes([0x7f]), "7f"),
        (.bytes([0x80]), "8180"),
        (.bytes(Array("dog".utf8)), "83646f67"),
        (.list([]), "c0"),
        (.list([.bytes(Array("cat".utf8)), .bytes(Array("dog".utf8))]), "c88363617483646f67"),
        // The set-theoretic representation of three: [ [], [[]], [ [], [[]] ] ].
        (.list([.list([]), .list([.list([])]), .list([.list([]), .list([.list([])])])]), "c7c0c1c0c3c0c1c0"),
    ])
    func encodesKnownItems(item: RLPItem, hex: String) throws {
        #expect(RLP.encode(item) == (try [UInt8](hex: hex)))
        #expect(try RLP.decode([UInt8](hex: hex)) == item)
        #expect(RLP.encodedSize(item) == hex.count / 2)
    }

    @Test func lengthBoundaries() throws {
        // Strings: 55 bytes is the last short form, 56 the first long form.
        for n in [55, 56, 255, 256, 65_535, 65_536] {
            let payload = [UInt8](repeating: 0xaa, count: n)
            let encoded = RLP.encode(.bytes(payload))
            let header: [UInt8]
            switch n {
            case ..<56: header = [0x80 + UInt8(n)]
            case ..<256: header = [0xb8, UInt8(n)]
            case ..<65_536: header = [0xb9, UInt8(n >> 8), UInt8(n & 0xff)]
            default: header = [0xba, UInt8(n >> 16), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)]
            }
            #expect(Array(encoded.prefix(header.count)) == header, "string of \(n)")
            #expect(encoded.count == header.count + n)
            #expect(try RLP.decode(encoded) == .bytes(payload))
        }
        // Lists: a payload of 55 bytes keeps the short form (0xf7), 56 needs 0xf8 0x38.
        let short = RLPItem.list([.bytes([UInt8](repeating: 1, count: 54))])  // 1 + 54 = 55
        #expect(RLP.encode(short).first == 0xf7)
        let long = RLPItem.list([.bytes([UInt8](repeating: 1, count: 55))])  // 1 + 55 = 56
        #expect(Array(RLP.encode(long).prefix(2)) == [0xf8, 0x38])
        #expect(try RLP.decode(RLP.encode(long)) == long)
        // The same two lists, and strings across the boundaries, written without an item tree.
        for n in [0, 1, 54, 55, 56, 255, 256] {
            let payload = [UInt8](repeating: 1, count: n)
            let flat = RLP.encodeList { add in payload.withUnsafeBytes(add) }
            #expect(flat == RLP.encode(.list([.bytes(payload)])), "list of a string of \(n)")
            #expect(payload.withUnsafeBytes(RLP.encodeString) == RLP.encode(.bytes(payload)), "string of \(n)")
        }
        // The appenders (a list header, then its strings), including a single byte below and at 0x80.
        for n in [0, 1, 54, 55, 56, 255, 256, 65_536] {
            for fill: UInt8 in [0x00, 0x7f, 0x80] {
                let payload = [UInt8](repeating: fill, count: n)
                let size = RLP.stringSize(payload)
                #expect(payload.withUnsafeBytes(RLP.stringSize) == size)
                var out: [UInt8] = []
                RLP.appendHeader(payload: 2 * size, list: true, to: &out)
                RLP.appendString(payload, to: &out)
                payload.withUnsafeBytes { RLP.appendString($0, to: &out) }
                #expect(out == RLP.encode(.list([.bytes(payload), .bytes(payload)])), "two strings of \(n) × \(fill)")
                #expect(out.count == RLP.headerSize(payload: 2 * size) + 2 * size)
            }
        }
    }

    @Test func integers() throws {
        let cases: [(UInt64, String)] = [
            (0, "80"), (1, "01"), (0x7f, "7f"), (0x80, "8180"), (0xff, "81ff"), (0x100, "820100"),
            (1_024, "820400"), (0xffff_ffff, "84ffffffff"), (UInt64.max, "88ffffffffffffffff"),
        ]
        for (value, hex) in cases {
            let bytes = try [UInt8](hex: hex)
            #expect(RLP.encode(value) == bytes, "\(value)")
            #expect(try RLP.decode(UInt64.self, from: bytes) == value)
            #expect(value.withMinimalBigEndianBytes(RLP.encodeString) == bytes, "\(value), without an item")
            #expect(UInt256(value).withMinimalBigEndianBytes(RLP.encodeString) == bytes, "\(value) as UInt256")
        }
        // 2^255 and 2^256 - 1: 32 bytes behind 0xa0.
        #expect((UInt256(1) << 255).withMinimalBigEndianBytes(RLP.encodeString) == [0xa0, 0x80] + [UInt8](repeating: 0, count: 31))
        #expect(UInt256.max.withMinimalBigEndianBytes(RLP.encodeString) == [0xa0] + [UInt8](repeating: 0xff, count: 32))
        #expect(RLP.encode(1_000 as Int) == [0x82, 0x03, 0xe8])
        #expect(try RLP.decode(Int.self, from: [0x82, 0x03, 0xe8]) == 1_000)
        #expect(RLP.encode(200 as UInt8) == [0x81, 0xc8])
        #expect(try RLP.decode(UInt16.self, from: [0x82, 0x01, 0x00]) == 256)
        #expect(try RLP.decode(UInt32.self, from: [0x84, 0xff, 0xff, 0xff, 0xff]) == UInt32.max)
    }

    @Test func otherConformances() throws {
        #expect(RLP.encode(true) == [0x01])
        #expect(RLP.encode(false) == [0x80])
        #expect(try RLP.decode(Bool.self, from: [0x01]) == true)
        #expect(try RLP.decode(Bool.self, from: [0x80]) == false)
        #expect(RLP.encode("dog") == [0x83, 0x64, 0x6f, 0x67])
        #expect(try RLP.decode(String.self, from: [0x83, 0x64, 0x6f, 0x67]) == "dog")
        // [UInt8] is a byte string; other arrays are lists.
        #expect(RLP.encode([UInt8]([1, 2, 3])) == [0x83, 1, 2, 3])
        #expect(RLP.encode([UInt64]([1, 2, 3])) == [0xc3, 1, 2, 3])
        #expect(RLP.encode(["cat", "dog"]) == (try [UInt8](hex: "c88363617483646f67")))
        #expect(try RLP.decode([String].self, from: [UInt8](hex: "c88363617483646f67")) == ["cat", "dog"])
        #expect(try RLP.decode([[UInt8]].self, from: [0xc2, 0x80, 0x01]) == [[], [1]])
        let hash = try Bytes32(hex: "0x" + String(repeating: "00", count: 31) + "01")
        #expect(RLP.encode(hash) == [0xa0] + hash.bytes)  // fixed size: leading zeros kept
        #expect(try RLP.decode(Bytes32.self, from: RLP.encode(hash)) == hash)
        let address = try Address("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed")
        #expect(RLP.encode(address) == [0x94] + address.bytes)
        #expect(try RLP.decode(Address.self, from: RLP.encode(address)) == address)
        #expect(RLPItem.bytes([1]).bytesValue == [1] && RLPItem.bytes([1]).listValue == nil)
        #expect(RLPItem.list([]).listValue == [] && RLPItem.list([]).bytesValue == nil)
    }

    @Test func randomItemsRoundTrip() throws {
        var rng = SplitMix64(seed: 11)
        func randomItem(depth: Int) -> RLPItem {
            if depth > 4 || rng.next() % 3 != 0 {
                let sizes = [0, 1, 1, 2, 55, 56, 57, 200, 1_000]
                let n = sizes[Int(rng.next() % UInt64(sizes.count))]
                return .bytes(rng.bytes(n))
            }
            return .list((0..<Int(rng.next() % 6)).map { _ in randomItem(depth: depth + 1) })
        }
        for _ in 0..<500 {
            let item = randomItem(depth: 0)
            let encoded = RLP.encode(item)
            #expect(encoded.count == RLP.encodedSize(item))
            #expect(try RLP.decode(encoded) == item)
        }
    }

    /// `RLPWriter` writes the bytes `RLP.encode` does, for random trees whose strings and lists cross every header
    /// size: lists of 55, 56 and 255/256 bytes of payload, and strings and lists past 65,535 bytes (three length bytes).
    @Test func writerMatchesTheItemEncoder() {
        var rng = SplitMix64(seed: 36)
        func randomItem(depth: Int) -> RLPItem {
            if depth > 4 || rng.next() % 3 != 0 {
                let sizes = [0, 1, 1, 2, 54, 55, 56, 57, 253, 254, 255, 256, 1_000, 70_000]
                let n = sizes[Int(rng.next() % UInt64(sizes.count))]
                var bytes = rng.bytes(n)
                if n == 1 && rng.next() % 2 == 0 { bytes[0] &= 0x7F }  // a single byte that is its own encoding
                return .bytes(bytes)
            }
            return .list((0..<Int(rng.next() % 6)).map { _ in randomItem(depth: depth + 1) })
        }
        func write(_ item: RLPItem, _ writer: inout RLPWriter) {
            switch item {
            case .bytes(let bytes): writer.append(bytes)
            case .list(let items): writer.list { w in for child in items { write(child, &w) } }
            }
        }
        for _ in 0..<300 {
            let item = randomItem(depth: 0)
            var writer = RLPWriter()
            write(item, &writer)
            #expect(writer.bytes == RLP.encode(item))
        }
        // Lists whose payload is exactly at the short/long boundary and at one and two length bytes.
        for payload in [55, 56, 255, 256, 65_535, 65_536] {
            let string = RLPItem.bytes([UInt8](repeating: 0xAA, count: payload - RLP.headerSize(payload: payload - 1)))
            #expect(RLP.encodedSize(string) == payload)
            let item = RLPItem.list([string])
            var writer = RLPWriter()
            write(item, &writer)
            #expect(writer.bytes == RLP.encode(item))
        }
        // The typed appends are the conventions' encodings: integers minimal (zero empty), addresses and hashes whole.
        var writer = RLPWriter()
        let address = Address(bytes: [UInt8](repeating: 0x11, count: 20)) ?? .zero
        writer.list { w in
            w.append(integer: UInt64(0))
            w.append(integer: UInt64(0x7F))
            w.append(integer: UInt64(0x80))
            w.append(integer: UInt256(1) << 255)
            w.append(address)
            w.append(Bytes32.zero)
            w.append(encoded: RLP.encode(RLPItem.list([.bytes([1, 2])])))
            w.append(true)
            w.append(false)
        }
        let expected = RLPItem.list([
            .bytes([]), .bytes([0x7F]), .bytes([0x80]), .bytes([0x80] + [UInt8](repeating: 0, count: 31)),
            .bytes(address.bytes), .bytes([UInt8](repeating: 0, count: 32)), .list([.bytes([1, 2])]),
            true.encodeRLP(), false.encodeRLP(),
        ])
        #expect(writer.bytes == RLP.encode(expected))
    }

    // MARK: Rejected encodings, each with its message

    @Test(arguments: [
        ("", RLPError.Kind.truncated(needed: 1, available: 0), 0,
         "truncated input at offset 0: the item needs 1 byte but the input has only 0 left"),
        ("8100", .nonCanonicalSingleByte(0x00), 0,
         "non-canonical single byte at offset 0: byte 0x00 must be encoded as itself, not as 0x81 0x00"),
        ("c3c2817f", .nonCanonicalSingleByte(0x7f), 2,
         "non-canonical single byte at offset 2: byte 0x7f must be encoded as itself, not as 0x81 0x7f"),
        ("b80461626364", .longFormForShortLength(4), 0,
         "non-canonical length at offset 0: length 4 is written in the long form; lengths below 56 must use the short form"),
        ("f80180", .longFormForShortLength(1), 0,
         "non-canonical length at offset 0: length 1 is written in the long form; lengths below 56 must use the short form"),
        ("b800", .leadingZeroInLength, 0,
         "non-canonical length at offset 0: the long-form length starts with a zero byte"),
        ("c4b9003800", .leadingZeroInLength, 1,
         "non-canonical length at offset 1: the long-form length starts with a zero byte"),
        ("83646f", .truncated(needed: 4, available: 3), 0,
         "truncated input at offset 0: the item needs 4 bytes but the input has only 3 left"),
        ("b9", .truncated(needed: 3, available: 1), 0,
         "truncated input at offset 0: the item needs 3 bytes but the input has only 1 left"),
        ("c5010203", .truncated(needed: 6, available: 4), 0,
         "truncated input at offset 0: the item needs 6 bytes but the input has only 4 left"),
        ("c283010203", .exceedsList(needed: 4, available: 2), 1,
         "item exceeds its list at offset 1: the item needs 4 bytes but its list has only 2 left"),
        ("bf7fffffffffffffff00", .lengthOverflow, 0,
         "length overflow at offset 0: the declared length (with its header) does not fit in Int"),
        ("bfffffffffffffffff00", .lengthOverflow, 0,
         "length overflow at offset 0: the declared length (with its header) does not fit in Int"),
        ("ff7ffffffffffffff800", .lengthOverflow, 0,
         "length overflow at offset 0: the declared length (with its header) does not fit in Int"),
        ("8080", .trailingBytes(count: 1), 1,
         "trailing bytes at offset 1: 1 byte after the end of the top-level item"),
        ("c0000102", .trailingBytes(count: 3), 1,
         "trailing bytes at offset 1: 3 bytes after the end of the top-level item"),
    ] as [(String, RLPError.Kind, Int, String)])
    func rejects(hex: String, kind: RLPError.Kind, offset: Int, message: String) throws {
        let bytes = try [UInt8](hex: hex)
        let error = #expect(throws: RLPError.self) { try RLP.decode(bytes) }
        #expect(error?.kind == kind)
        #expect(error?.offset == offset)
        #expect(error?.description == message)
    }

    @Test func nestingDepthIsCapped() throws {
        func nested(_ depth: Int) -> RLPItem {
            var item = RLPItem.list([])
            for _ in 1..<depth { item = .list([item]) }
            return item
        }
        let ok = RLP.encode(nested(RLP.maxDepth))
        #expect(try RLP.decode(ok) == nested(RLP.maxDepth))
        let tooDeep = RLP.encode(nested(RLP.maxDepth + 1))
        let error = #expect(throws: RLPError.self) { try RLP.decode(tooDeep) }
        #expect(error?.kind == .nestingTooDeep(limit: RLP.maxDepth))
        #expect(error?.description.hasPrefix("nesting too deep at offset") == true)

        // A hostile input: 100,000 correctly nested lists. Rejected at the cap, without deep recursion.
        var sizes = [1]  // encoded size of each level, innermost (c0) first
        for _ in 1..<100_000 {
            let payload = sizes[sizes.count - 1]
            sizes.append(payload + (payload < 56 ? 1 : 1 + (payload.bitWidth - payload.leadingZeroBitCount + 7) / 8))
        }
        var bomb: [UInt8] = []
        bomb.reserveCapacity(sizes[sizes.count - 1])
        for payload in sizes.dropLast().reversed() {
            if payload < 56 {
                bomb.append(0xc0 + UInt8(payload))
            } else {
                let n = (payload.bitWidth - payload.leadingZeroBitCount + 7) / 8
                bomb.append(0xf7 + UInt8(n))
                for i in (0..<n).reversed() { bomb.append(UInt8(truncatingIfNeeded: payload >> (8 * i))) }
            }
        }
        bomb.append(0xc0)
        #expect(bomb.count == sizes[sizes.count - 1])
        let bombError = #expect(throws: RLPError.self) { try RLP.decode(bomb) }
        #expect(bombError?.kind == .nestingTooDeep(limit: RLP.maxDepth))
    }

    @Test func hostileLengthsDoNotAllocate() throws {
        // A declared 2^62-byte string over 9 bytes of input must fail fast (a length-based allocation
        // would trap or exhaust memory).
        let input: [UInt8] = [0xbf, 0x40, 0, 0, 0, 0, 0, 0, 0]
        let error = #expect(throws: RLPError.self) { try RLP.decode(input) }
        #expect(error?.kind == .truncated(needed: 9 + (1 << 62), available: 9))
    }

    // MARK: Typed decoding

    @Test func typedDecodingErrors() throws {
        func kind<T: RLPDecodable>(_: T.Type, _ hex: String) throws -> RLPError.Kind? {
            let bytes = try [UInt8](hex: hex)
            return #expect(throws: RLPError.self) { try RLP.decode(T.self, from: bytes) }?.kind
        }
        #expect(try kind(UInt64.self, "00") == .leadingZeroInInteger)
        #expect(try kind(UInt64.self, "820001") == .leadingZeroInInteger)
        #expect(try kind(UInt64.self, "89010000000000000000") == .integerOverflow(byteCount: 9, type: "UInt64"))
        #expect(try kind(Int.self, "888000000000000000") == .integerOverflow(byteCount: 8, type: "Int"))
        #expect(try kind(UInt8.self, "820100") == .integerOverflow(byteCount: 2, type: "UInt8"))
        #expect(try kind(UInt64.self, "c0") == .expectedBytes)
        #expect(try kind([UInt64].self, "80") == .expectedList)
        #expect(try kind(Bool.self, "02") == .invalidBool)
        #expect(try kind(String.self, "81ff") == .invalidUTF8)
        #expect(try kind(Bytes32.self, "820101") == .wrongByteCount(expected: 32, actual: 2))
        #expect(try kind(Address.self, "80") == .wrongByteCount(expected: 20, actual: 0))

        // The helper for wider integer types (UInt256).
        #expect(try RLPItem.bytes([1, 0]).unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256") == [1, 0])
        #expect(throws: RLPError(.integerOverflow(byteCount: 33, type: "UInt256"))) {
            try RLPItem.bytes([UInt8](repeating: 1, count: 33)).unsignedIntegerBytes(maxBytes: 32, typeName: "UInt256")
        }

        let e = #expect(throws: RLPError.self) { try RLP.decode(UInt64.self, from: [0x82, 0x00, 0x01]) }
        #expect(e?.description == "non-canonical integer: integers must not have leading zero bytes (zero is the empty string)")
        let inList = #expect(throws: RLPError.self) { try RLP.decode([UInt64].self, from: [0xc4, 0x01, 0x82, 0x00, 0x05]) }
        #expect(inList?.fieldPath == [1])
    }

    // MARK: Struct decoding with RLPListReader

    /// A legacy transaction, as the transaction module will decode one (r and s would be integers
    /// there; as Bytes32 here they keep leading zeros, which is fine for this example's values).
    struct LegacyTransaction: Equatable, RLPEncodable, RLPDecodable {
        var nonce: UInt64, gasPrice: UInt64, gasLimit: UInt64
        var to: Address, value: UInt64, data: [UInt8]
        var v: UInt64, r: Bytes32, s: Bytes32

        init(nonce: UInt64, gasPrice: UInt64, gasLimit: UInt64, to: Address, value: UInt64, data: [UInt8],
             v: UInt64, r: Bytes32, s: Bytes32) {
            (self.nonce, self.gasPrice, self.gasLimit, self.to, self.value, self.data) = (nonce, gasPrice, gasLimit, to, value, data)
            (self.v, self.r, self.s) = (v, r, s)
        }

        func encodeRLP() -> RLPItem {
            .list([nonce.encodeRLP(), gasPrice.encodeRLP(), gasLimit.encodeRLP(), to.encodeRLP(), value.encodeRLP(),
                   data.encodeRLP(), v.encodeRLP(), r.encodeRLP(), s.encodeRLP()])
        }

        init(rlp: RLPItem) throws(RLPError) {
            var f = try RLPListReader(rlp, expectedCount: 9)
            nonce = try f.next()
            gasPrice = try f.next()
            gasLimit = try f.next()
            to = try f.next()
            value = try f.next()
            data = try f.next()
            v = try f.next()
            r = try f.next()
            s = try f.next()
            try f.finish()
        }
    }

    @Test func listReader() throws {
        let tx = LegacyTransaction(
            nonce: 9, gasPrice: 20_000_000_000, gasLimit: 21_000,
            to: try Address("0x3535353535353535353535353535353535353535"), value: 1_000_000_000_000_000_000, data: [],
            v: 37, r: try Bytes32(hex: "0x28ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276"),
            s: try Bytes32(hex: "0x67cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83"))
        // EIP-155's example signed transaction.
        let expected = try [UInt8](hex: "f86c098504a817c800825208943535353535353535353535353535353535353535880de0b6b3a7640000"
            + "8025a028ef61340bd939bc2195fe537567866003e1a15d3c71ff63e1590620aa636276"
            + "a067cbe9d8997f761aecb703304b3800ccf555c9f3dc64214b297fb1966a3b6d83")
        #expect(RLP.encode(tx) == expected)
        #expect(try RLP.decode(LegacyTransaction.self, from: expected) == tx)

        var fields = tx.encodeRLP().listValue ?? []
        fields.append(.bytes([]))
        let tooMany = #expect(throws: RLPError.self) { try LegacyTransaction(rlp: .list(fields)) }
        #expect(tooMany?.description == "wrong field count: expected 9 fields, got 10")

        fields.removeLast()
        fields[3] = .bytes([UInt8](repeating: 0x35, count: 19))
        let badTo = #expect(throws: RLPError.self) { try LegacyTransaction(rlp: .list(fields)) }
        #expect(badTo?.fieldPath == [3])
        #expect(badTo?.description == "wrong byte count in field 3: expected 20 bytes, got 19")

        #expect(try RLPItem.list([.bytes([])]).list(expectedCount: 1) == [.bytes([])])
        let notList = #expect(throws: RLPError.self) { try RLPItem.bytes([]).list(expectedCount: 1) }
        #expect(notList?.kind == .expectedList)

        var reader = try RLPListReader(.list([.bytes([1])]))
        #expect(reader.count == 1 && !reader.isAtEnd)
        #expect(try reader.next(UInt64.self) == 1)
        #expect(reader.isAtEnd)
        let past = #expect(throws: RLPError.self) { try reader.nextItem() }
        #expect(past?.kind == .wrongFieldCount(expected: 2, actual: 1))
    }
}
