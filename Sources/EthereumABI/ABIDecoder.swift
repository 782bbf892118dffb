import EthereumPrimitives

/// Decodes the contract ABI's standard encoding into typed values; see ``ABIDecodingOptions`` for
/// exactly what is accepted.
///
/// Hostile data gives an ``ABIError/invalidData(offset:path:reason:)`` naming the byte offset and the
/// value, never a trap: every offset and length is compared with the bytes that remain before it is
/// converted to an `Int` or used to size an allocation.
public enum ABIDecoder {
    /// Decodes data encoded as the tuple of `types` (function arguments, return values, event data).
    public static func decode(
        _ types: [ABIType], from data: some Collection<UInt8>, options: ABIDecodingOptions = .strict
    ) throws(ABIError) -> [ABIValue] {
        for type in types { try type.validate() }
        let result: Result<[ABIValue], DecodeFailure>
        if let r = data.withContiguousStorageIfAvailable({ buffer in
            Result { () throws(DecodeFailure) in try decode(types, UnsafeRawBufferPointer(buffer), options) }
        }) {
            result = r
        } else {
            let copy = Array(data)
            result = copy.withUnsafeBytes { raw in
                Result { () throws(DecodeFailure) in try decode(types, raw, options) }
            }
        }
        switch result {
        case .success(let values): return values
        case .failure(let failure): throw failure.abiError
        }
    }

    /// Decodes data encoded as the one-element tuple `(type)`.
    public static func decode(
        _ type: ABIType, from data: some Collection<UInt8>, options: ABIDecodingOptions = .strict
    ) throws(ABIError) -> ABIValue {
        let values = try decode([type], from: data, options: options)
        return values[0]
    }

    /// Decodes one 32-byte word as an elementary type (an indexed event topic).
    public static func decodeWord(_ type: ABIType, _ word: Bytes32) throws(ABIError) -> ABIValue {
        guard type.isElementary else {
            throw .invalidType(type.description, reason: "only elementary types fit in one word")
        }
        return try decode(type, from: word.bytes)
    }

    private static func decode(_ types: [ABIType], _ data: UnsafeRawBufferPointer, _ options: ABIDecodingOptions) throws(DecodeFailure) -> [ABIValue] {
        var reader = Reader(data: data, options: options)
        var headSize = 0
        for t in types { headSize += t.headSize }
        return try reader.sequence(count: types.count, headSize: headSize, base: 0, naming: .topLevel) { types[$0] }.values
    }
}

/// A decoding error on its way out: innermost path component first.
struct DecodeFailure: Error {
    var offset: Int
    var reason: String
    var path: [String] = []

    var abiError: ABIError {
        .invalidData(offset: offset, path: path.reversed().joined(), reason: reason)
    }
}

/// The decoding state: the input, the options, and the units decoded so far (see
/// ``ABIDecodingOptions/maxExpansion``).
private struct Reader {
    enum Naming { case topLevel, tuple, array }

    let data: UnsafeRawBufferPointer
    let options: ABIDecodingOptions
    var units = 0
    let maxUnits: Int

    init(data: UnsafeRawBufferPointer, options: ABIDecodingOptions) {
        self.data = data
        self.options = options
        let words = data.count / 32 + 1
        let (limit, overflow) = words.multipliedReportingOverflow(by: max(1, options.maxExpansion))
        maxUnits = overflow ? Int.max : limit
    }

    var count: Int { data.count }

    /// The word at `position`, after checking that 32 bytes are there.
    func word(at position: Int, _ what: @autoclosure () -> String) throws(DecodeFailure) -> UInt256 {
        guard position >= 0, position <= count - 32, let base = data.baseAddress else {
            throw DecodeFailure(offset: position, reason: "\(what()) needs 32 bytes, but only \(max(0, count - position)) remain")
        }
        return UInt256(bigEndianAt: base + position)
    }

    mutating func spend(_ n: Int, at position: Int) throws(DecodeFailure) {
        units += n
        if units > maxUnits {
            throw DecodeFailure(
                offset: position,
                reason: "the decoded value would exceed \(options.maxExpansion)x the size of the \(count)-byte input (shared offsets?)")
        }
    }

    /// Decodes `count` values whose head (of `headSize` bytes) starts at `base`; offsets inside are
    /// relative to `base`. Returns the values and where the encoding ends.
    mutating func sequence(
        count n: Int, headSize: Int, base: Int, naming: Naming, typeAt: (Int) -> ABIType
    ) throws(DecodeFailure) -> (values: [ABIValue], end: Int) {
        guard headSize <= count - base else {
            throw DecodeFailure(offset: base, reason: "needs \(headSize) bytes for \(n) head entries, but only \(count - base) remain")
        }
        var values: [ABIValue] = []
        values.reserveCapacity(n)
        var head = base
        var cursor = base + headSize  // where the next tail must start (canonical layout)
        for i in 0..<n {
            let type = typeAt(i)
            do throws(DecodeFailure) {
                if type.isDynamic {
                    let offsetWord = try word(at: head, "the offset")
                    guard offsetWord < UInt256(UInt64(count - base)) else {
                        throw DecodeFailure(offset: head, reason: "offset \(offsetWord) points beyond the \(count)-byte data")
                    }
                    let offset = Int(offsetWord.low64)
                    let target = base + offset
                    if options.requireCanonicalLayout && target != cursor {
                        throw DecodeFailure(
                            offset: head, reason: "offset \(offset) is not canonical (expected \(cursor - base): tails in order, no gaps or overlaps)")
                    }
                    let (value, end) = try decodeValue(type, at: target)
                    values.append(value)
                    cursor = max(cursor, end)
                    head += 32
                } else {
                    let (value, end) = try decodeValue(type, at: head)
                    values.append(value)
                    head = end
                }
            } catch {
                var failure = error
                switch naming {
                case .topLevel: failure.path.append("value \(i + 1)")
                case .tuple: failure.path.append(".\(i)")
                case .array: failure.path.append("[\(i)]")
                }
                throw failure
            }
        }
        return (values, cursor)
    }

    /// Decodes one value whose encoding starts at `position` (inline for a static type, the tail for a
    /// dynamic one); returns it and the end of its encoding.
    mutating func decodeValue(_ type: ABIType, at position: Int) throws(DecodeFailure) -> (ABIValue, Int) {
        switch type {
        case .uint(let bits):
            let v = try word(at: position, "a \(type)")
            if v.significantBitCount > bits {
                throw DecodeFailure(offset: position, reason: "\(v) does not fit \(type) (high bits set)")
            }
            try spend(1, at: position)
            return (.uint(v), position + 32)
        case .int(let bits):
            let v = try word(at: position, "an \(type)")
            if bits < 256 && v.signExtend(byteIndex: UInt256(bits / 8 - 1)) != v {
                throw DecodeFailure(offset: position, reason: "word \(v.paddedHexString) is not a sign-extended \(type)")
            }
            try spend(1, at: position)
            return (.int(v), position + 32)
        case .address:
            let v = try word(at: position, "an address")
            if v.significantBitCount > 160 {
                throw DecodeFailure(offset: position, reason: "address word has non-zero high bytes")
            }
            try spend(1, at: position)
            return (.address(Address(bytes32: v.bytes32)), position + 32)
        case .bool:
            let v = try word(at: position, "a bool")
            guard v <= UInt256.one else {
                throw DecodeFailure(offset: position, reason: "bool word is \(v), not 0 or 1")
            }
            try spend(1, at: position)
            return (.bool(v == UInt256.one), position + 32)
        case .function:
            return try decodeValue(.fixedBytes(24), at: position)
        case .fixedBytes(let n):
            let v = try word(at: position, "a \(type)")
            if n < 32 && (v << (8 * n)) != UInt256.zero {
                throw DecodeFailure(offset: position, reason: "\(type) word has non-zero bytes after the first \(n)")
            }
            try spend(1, at: position)
            return (.fixedBytes(Array(UnsafeRawBufferPointer(rebasing: data[position..<position + n]))), position + 32)
        case .bytes, .string:
            let (contents, end) = try byteString(at: position, type)
            if case .bytes = type { return (.bytes(Array(contents)), end) }
            if let s = String(validating: contents, as: UTF8.self) { return (.string(s), end) }
            if options.rejectInvalidUTF8 {
                throw DecodeFailure(offset: position + 32, reason: "string is not valid UTF-8")
            }
            return (.string(String(decoding: contents, as: UTF8.self)), end)
        case .array(let element, let fixedCount):
            let elementHead = element.headSize
            if let fixedCount {
                let (values, end) = try sequence(
                    count: fixedCount, headSize: fixedCount * elementHead, base: position, naming: .array) { _ in element }
                return (.array(values), end)
            }
            let length = try word(at: position, "the array length")
            let base = position + 32
            // Bound the count by the bytes that remain before allocating anything (each element's head
            // takes at least 32 bytes, since arrays of zero-size types are refused).
            let available = count - base
            guard length <= UInt256(UInt64(available / elementHead)) else {
                throw DecodeFailure(
                    offset: position, reason: "array length \(length) needs more than the \(available) bytes that remain")
            }
            let n = Int(length.low64)
            try spend(1, at: position)
            let (values, end) = try sequence(count: n, headSize: n * elementHead, base: base, naming: .array) { _ in element }
            return (.array(values), end)
        case .tuple(let components):
            var headSize = 0
            for c in components { headSize += c.headSize }
            let (values, end) = try sequence(count: components.count, headSize: headSize, base: position, naming: .tuple) {
                components[$0]
            }
            return (.tuple(values), end)
        }
    }

    /// The contents of a `bytes`/`string` at `position` (length word, then the bytes and padding).
    mutating func byteString(at position: Int, _ type: ABIType) throws(DecodeFailure) -> (UnsafeRawBufferPointer, Int) {
        let lengthWord = try word(at: position, "the \(type) length")
        let start = position + 32
        let available = count - start
        guard lengthWord <= UInt256(UInt64(available)) else {
            throw DecodeFailure(offset: position, reason: "\(type) length \(lengthWord) exceeds the \(available) bytes that remain")
        }
        let length = Int(lengthWord.low64)
        let padded = ABIEncoder.paddedLength(length)
        if options.requireZeroPadding {
            guard padded <= available else {
                throw DecodeFailure(offset: start + length, reason: "\(type) padding is missing (\(padded - length) bytes expected)")
            }
            for i in start + length..<start + padded where data[i] != 0 {
                throw DecodeFailure(offset: i, reason: "\(type) padding byte is not zero")
            }
        }
        try spend(1 + padded / 32, at: position)
        return (UnsafeRawBufferPointer(rebasing: data[start..<start + length]), start + padded)
    }
}
