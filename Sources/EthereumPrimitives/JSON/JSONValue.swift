/// A JSON document as a typed tree, for the places where the shape is only known at run time
/// (RLP's JSON form, test vectors, JSON-RPC params, ABI and typed-data values, config files).
///
/// Read with ``JSONParser`` (``init(parsing:maxDepth:)``), written with ``description``: numbers keep
/// their exact source text both ways, so a 2^70 literal in an ABI argument or an EIP-712 message, or a
/// 78-digit uint256, is never rounded through `Double`. (There is deliberately no `Codable` conformance:
/// Foundation's decoder reads numbers as `Double` and would lose them.)
public enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    /// A number, exactly as written (e.g. "12", "-1.5e3", "1180591620717411303424"); the parser has checked
    /// it against JSON's number grammar.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in document order.
    case object([(key: String, value: JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member named `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [(key: String, value: JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// Compact JSON text (object members in stored order).
    public var description: String { String(decoding: jsonBytes, as: UTF8.self) }

    /// The compact JSON text as UTF-8 bytes (what ``description`` holds), written into one buffer: no string per
    /// member or element on the way (a JSON-RPC answer of hundreds of logs was mostly that).
    public var jsonBytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out)
        return out
    }

    /// Appends the compact JSON text to `out`.
    public func write(into out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): JSONValue.writeQuoted(s, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeQuoted(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `s` as a JSON string literal (``quote(_:)``) to `out`.
    static func writeQuoted(_ s: String, into out: inout [UInt8]) {
        var s = s
        let plain = s.withUTF8 { bytes -> Bool in
            // Most strings (hex data, names) need no escape: copied whole.
            for b in bytes where b == 0x22 || b == 0x5c || b < 0x20 { return false }
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: bytes)
            out.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { out.append(contentsOf: quote(s).utf8) }
    }

    /// A JSON string literal for `s`.
    public static func quote(_ s: String) -> String {
        // Most strings (hex data, names) need no escape: copied whole, not a scalar at a time (a contract's code in a
        // trace is tens of kilobytes of hex).
        if !s.utf8.contains(where: { $0 == 0x22 || $0 == 0x5c || $0 < 0x20 }) { return "\"" + s + "\"" }
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

// MARK: Reading documents

extension JSONValue {
    /// Why ``fields(allowed:)`` refused a value.
    public enum FieldsError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The value is not an object.
        case notAnObject
        /// The object has a member named `name`, which is none of `expected` (sorted).
        case unknownField(String, expected: [String])

        public var description: String {
            switch self {
            case .notAnObject: return "expected an object"
            case .unknownField(let name, let expected):
                return "unknown field \(JSONValue.quote(name)) (expected one of \(expected.joined(separator: ", ")))"
            }
        }
    }

    /// The members of this object by name, when every name is one of `allowed`: a document format's reader takes its
    /// fields through this, so a misspelt field is an error naming it and the expected ones, never silently ignored
    /// (scenario files, simulation specs). A repeated name keeps its last value.
    public func fields(allowed: Set<String>) throws(FieldsError) -> [String: JSONValue] {
        guard case .object(let members) = self else { throw .notAnObject }
        var out: [String: JSONValue] = [:]
        for (key, member) in members {
            guard allowed.contains(key) else { throw .unknownField(key, expected: allowed.sorted()) }
            out[key] = member
        }
        return out
    }

    /// What the value is, for an error message: `null`, `a boolean`, `the number 5`, `the string "x"`, `an array`,
    /// `an object`.
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number(let n): return "the number \(n)"
        case .string(let s): return "the string \(JSONValue.quote(s))"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
