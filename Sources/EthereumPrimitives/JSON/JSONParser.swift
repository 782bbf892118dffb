import EthereumPrimitives

/// A strict, bounded JSON parser for request bodies: object members in document order, numbers kept
/// as text, nesting limited to ``maxDepth`` levels so hostile input cannot exhaust the stack. It reads
/// bytes directly (no `Codable`, no Foundation) because every request passes through it.
package struct RequestJSONParser {
    /// Why a body is not acceptable JSON, with the byte offset.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        /// What is wrong.
        package let message: String
        /// Where, in bytes from the start of the body.
        package let offset: Int
        package var description: String { "\(message) at byte \(offset)" }
    }

    /// The deepest nesting of arrays and objects accepted.
    package static let maxDepth = 64

    /// Parses one JSON document (surrounding whitespace allowed).
    package static func parse(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Failure) -> JSONValue in
            var parser = RequestJSONParser(buffer: buffer)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.failure("unexpected data after the JSON value") }
            return value
        }
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    private func failure(_ message: String) -> Failure { Failure(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
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

    private mutating func expectWord(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard buffer.count - index >= count else { throw failure("unexpected end of input") }
        for i in 0..<count where buffer[index + i] != word.utf8Start[i] { throw failure("unexpected character") }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
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

    private mutating func parseArray(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw failure("nesting deeper than \(Self.maxDepth) levels") }
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

    private mutating func parseNumber() throws(Failure) -> String {
        let start = index
        if buffer[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
        guard index > digitsStart else { throw failure("expected a digit") }
        if buffer[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw failure("leading zero in a number") }
        if index < buffer.count, buffer[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
            guard index > fraction else { throw failure("expected a digit after '.'") }
        }
        if index < buffer.count, buffer[index] == UInt8(ascii: "e") || buffer[index] == UInt8(ascii: "E") {
            index += 1
            if index < buffer.count, buffer[index] == UInt8(ascii: "+") || buffer[index] == UInt8(ascii: "-") { index += 1 }
            let exponent = index
            while index < buffer.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(buffer[index]) { index += 1 }
            guard index > exponent else { throw failure("expected a digit in the exponent") }
        }
        return String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1  // opening quote
        let start = index
        // Fast path: no escapes.
        while index < buffer.count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(validating: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
                guard let text else { throw failure("invalid UTF-8 in a string") }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw failure("control character in a string") }
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

    private mutating func hex4() throws(Failure) -> UInt32 {
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
