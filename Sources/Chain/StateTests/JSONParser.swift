import EthereumPrimitives

/// A small, strict JSON parser into ``JSONValue`` that keeps object members in document order and
/// numbers as text. The state-test files are large (over 100 MB in all); this reads bytes directly
/// and is several times faster than going through `Codable`.
struct JSONParser {
    /// A parse error with the byte offset.
    struct Error: Swift.Error, CustomStringConvertible {
        let message: String
        let offset: Int
        var description: String { "JSON error at byte \(offset): \(message)" }
    }

    /// Parses one JSON document.
    static func parse(_ bytes: [UInt8]) throws(Error) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(Error) -> JSONValue in
            var parser = JSONParser(buffer: buffer)
            parser.skipWhitespace()
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            guard parser.index == buffer.count else { throw parser.error("trailing characters") }
            return value
        }
    }

    private let buffer: UnsafeBufferPointer<UInt8>
    private var index = 0
    private static let maxDepth = 512

    private init(buffer: UnsafeBufferPointer<UInt8>) { self.buffer = buffer }

    private func error(_ message: String) -> Error { Error(message: message, offset: index) }

    private mutating func skipWhitespace() {
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0a, 0x0d: index += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws(Error) {
        guard index < buffer.count, buffer[index] == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    private mutating func parseValue(depth: Int) throws(Error) -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nesting too deep") }
        guard index < buffer.count else { throw error("unexpected end of input") }
        switch buffer[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipWhitespace()
                let key = try parseString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                let value = try parseValue(depth: depth + 1)
                members.append((key, value))
                skipWhitespace()
                guard index < buffer.count else { throw error("unterminated object") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"))
                return .object(members)
            }
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            while true {
                skipWhitespace()
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < buffer.count else { throw error("unterminated array") }
                if buffer[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"))
                return .array(items)
            }
        case UInt8(ascii: "\""):
            return .string(try parseString())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        default:
            let start = index
            while index < buffer.count {
                let c = buffer[index]
                let isNumberByte =
                    (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9")) || c == UInt8(ascii: "-") || c == UInt8(ascii: "+")
                    || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                if !isNumberByte { break }
                index += 1
            }
            guard index > start else { throw error("unexpected character") }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self))
        }
    }

    private mutating func literal(_ word: String) throws(Error) {
        for byte in word.utf8 { try expect(byte) }
    }

    private mutating func parseString() throws(Error) -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        // Fast path: no escapes.
        while index < buffer.count {
            let c = buffer[index]
            if c == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeBufferPointer(rebasing: buffer[start..<index]), as: UTF8.self)
                index += 1
                return s
            }
            if c == UInt8(ascii: "\\") { break }
            index += 1
        }
        var bytes = Array(buffer[start..<index])
        while index < buffer.count {
            let c = buffer[index]
            index += 1
            if c == UInt8(ascii: "\"") { return String(decoding: bytes, as: UTF8.self) }
            guard c == UInt8(ascii: "\\") else {
                bytes.append(c)
                continue
            }
            guard index < buffer.count else { break }
            let escaped = buffer[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "n"): bytes.append(0x0a)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "r"): bytes.append(0x0d)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0c)
            case UInt8(ascii: "u"):
                guard index + 4 <= buffer.count,
                    let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: buffer[index..<(index + 4)]), as: UTF8.self), radix: 16)
                else { throw error("bad \\u escape") }
                index += 4
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                bytes.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: bytes.append(escaped)
            }
        }
        throw error("unterminated string")
    }
}
