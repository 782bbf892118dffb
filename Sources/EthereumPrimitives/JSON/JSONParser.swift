/// Why a text is not acceptable JSON: what is wrong and the byte offset where the parser saw it.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong (e.g. "unexpected character").
    public let message: String
    /// Where, in bytes from the start of the text.
    public let offset: Int

    /// Creates an error.
    public init(message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }

    public var description: String { "\(message) at byte \(offset)" }
}

/// The one JSON parser of the project: strict (RFC 8259 grammar, valid UTF-8, no control characters in
/// strings, paired surrogates, nothing after the value) and bounded (nesting limited to `maxDepth`, so
/// hostile input cannot exhaust the stack). Object members keep their document order and numbers keep
/// their text, so a 2^70 literal or a long decimal is never rounded through `Double` (see
/// ``JSONValue/number(_:)``). It reads bytes directly, without `Codable` or Foundation: the dev node parses
/// every request body with it, and the state tests over 100 MB of fixtures.
public enum JSONParser {
    /// The default bound on nested arrays and objects: far beyond any request, ABI, keystore, typed-data
    /// or test fixture, far below what the stack can hold.
    public static let defaultMaxDepth = 64

    /// Parses one JSON document (surrounding whitespace allowed).
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            var reader = Reader(buffer: buffer, maxDepth: maxDepth)
            reader.skipWhitespace()
            let value = try reader.parseValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.failure("unexpected data after the JSON value") }
            return value
        }
    }

    /// Parses one JSON document from text.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    /// The parser's cursor over the bytes of one document.
    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        let maxDepth: Int
        var index = 0

        init(buffer: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
            self.buffer = buffer
            self.maxDepth = maxDepth
        }

        func failure(_ message: String) -> JSONParseError { JSONParseError(message: message, offset: index) }

        mutating func skipWhitespace() {
            while index < buffer.count {
                switch buffer[index] {
                case 0x20, 0x09, 0x0a, 0x0d: index += 1
                default: return
                }
            }
        }

        mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
            guard index < buffer.count else { throw failure("unexpected end of input") }
            switch buffer[index] {
            case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
            case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
            case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
            case UInt8(ascii: "n"): try expectWord("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
            default: throw failure("unexpected character")
            }
        }

        mutating func expectWord(_ word: StaticString) throws(JSONParseError) {
            let count = word.utf8CodeUnitCount
            guard buffer.count - index >= count else { throw failure("unexpected end of input") }
            for i in 0..<count where buffer[index + i] != word.utf8Start[i] { throw failure("unexpected character") }
            index += count
        }

        mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                guard index < buffer.count, buffer[index] == UInt8(ascii: "\"") else { throw failure("expected a member name") }
                let key = try parseString()
                skipWhitespace()
                guard index < buffer.count, buffer[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
                index += 1
                skipWhitespace()
                let value = try parseValue(depth: depth)
                members.append((key, value))
                skipWhitespace()
                guard index < buffer.count else { throw failure("unexpected end of input") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard buffer[index] == UInt8(ascii: "}") else { throw failure("expected ',' or '}'") }
                index += 1
                return .object(members)
            }
        }

        mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
            guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth))
                skipWhitespace()
                guard index < buffer.count else { throw failure("unexpected end of input") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard buffer[index] == UInt8(ascii: "]") else { throw failure("expected ',' or ']'") }
                index += 1
                return .array(items)
            }
        }

        /// A number's text as written, after checking it against the grammar (`-`, digits without a
        /// leading zero, optional fraction and exponent).
        mutating func parseNumber() throws(JSONParseError) -> String {
            let start = index
            if buffer[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            skipDigits()
            guard index > digitsStart else { throw failure("expected a digit") }
            if buffer[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw failure("leading zero in a number") }
            if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
                index += 1
                let fraction = index
                skipDigits()
                guard index > fraction else { throw failure("expected a digit after '.'") }
            }
            if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
                index += 1
                if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                skipDigits()
                guard index > exponent else { throw failure("expected a digit in the exponent") }
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
        }

        mutating func skipDigits() {
            while index < buffer.count, buffer[index] &- UInt8(ascii: "0") < 10 { index += 1 }
        }

        mutating func parseString() throws(JSONParseError) -> String {
            index += 1  // the opening quote
            let start = index
            // Fast path: no escapes. `seen` collects the bits of every byte, so an ASCII-only string (the
            // common case: hex, names, tags) is built without a second, validating pass.
            var seen: UInt8 = 0
            // Eight bytes at a time while they are plain printable ASCII other than '"' and '\\' (hex, names).
            if let base = buffer.baseAddress {
                while buffer.count - index >= 8 {
                    let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
                    guard Self.isPlainASCII(word) else { break }
                    index += 8
                }
            }
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") {
                    let run = UnsafeBufferPointer(rebasing: buffer[start..<index])
                    if seen < 0x80 {
                        index += 1
                        return String(decoding: run, as: UTF8.self)
                    }
                    guard let text = String(validating: run, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
                    index += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { break }
                guard byte >= 0x20 else { throw failure("control character in a string") }
                seen |= byte
                index += 1
            }
            var bytes = Array(UnsafeBufferPointer(rebasing: buffer[start..<index]))
            while index < buffer.count {
                let byte = buffer[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("invalid UTF-8 in a string") }
                    return text
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < buffer.count else { throw failure("unexpected end of input") }
                    let escape = buffer[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""): bytes.append(0x22)
                    case UInt8(ascii: "\\"): bytes.append(0x5c)
                    case UInt8(ascii: "/"): bytes.append(0x2f)
                    case UInt8(ascii: "b"): bytes.append(0x08)
                    case UInt8(ascii: "f"): bytes.append(0x0c)
                    case UInt8(ascii: "n"): bytes.append(0x0a)
                    case UInt8(ascii: "r"): bytes.append(0x0d)
                    case UInt8(ascii: "t"): bytes.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800...0xDBFF).contains(scalar) {
                            guard buffer.count - index >= 6, buffer[index] == UInt8(ascii: "\\"), buffer[index + 1] == UInt8(ascii: "u")
                            else { throw failure("unpaired surrogate") }
                            index += 2
                            let low = try hex4()
                            guard (0xDC00...0xDFFF).contains(low) else { throw failure("unpaired surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else if (0xDC00...0xDFFF).contains(scalar) {
                            throw failure("unpaired surrogate")
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw failure("invalid \\u escape") }
                        bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw failure("invalid escape")
                    }
                default:
                    guard byte >= 0x20 else { throw failure("control character in a string") }
                    bytes.append(byte)
                    index += 1
                }
            }
            throw failure("unterminated string")
        }

        /// True when none of the eight bytes of `word` is a quote, a backslash, a control character or
        /// non-ASCII (the classic "has a byte less than / equal to" bit tricks, exact once the high bits are 0).
        @inline(__always)
        static func isPlainASCII(_ word: UInt64) -> Bool {
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highs: UInt64 = 0x8080_8080_8080_8080
            if word & highs != 0 { return false }
            let control = (word &- ones &* 0x20) & ~word & highs
            let quote = word ^ (ones &* 0x22)
            let backslash = word ^ (ones &* 0x5c)
            let hasQuote = (quote &- ones) & ~quote & highs
            let hasBackslash = (backslash &- ones) & ~backslash & highs
            return control | hasQuote | hasBackslash == 0
        }

        mutating func hex4() throws(JSONParseError) -> UInt32 {
            guard buffer.count - index >= 4 else { throw failure("unexpected end of input") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = buffer[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw failure("invalid \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}

extension JSONValue {
    /// Parses a JSON document with ``JSONParser`` (strict, bounded, numbers exact).
    public init(parsing bytes: [UInt8], maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
        self = try JSONParser.parse(bytes, maxDepth: maxDepth)
    }

    /// Parses JSON text with ``JSONParser``.
    public init(parsing text: String, maxDepth: Int = JSONParser.defaultMaxDepth) throws(JSONParseError) {
        self = try JSONParser.parse(Array(text.utf8), maxDepth: maxDepth)
    }
}
