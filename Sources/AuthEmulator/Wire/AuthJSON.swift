import Foundation

/// A JSON value whose shape is only known at run time: custom claims (`customAttributes`, a custom token's
/// `claims`) and the payload of a token read before it is trusted. The auth service is a library of its own with
/// no Ethereum dependencies, so it does not borrow `EthereumPrimitives.JSONValue`; it needs only what claims need
/// (integers stay exact as `Int64`, other numbers are `Double`).
public enum AuthJSON: Sendable, Equatable, Codable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([AuthJSON])
    case object([String: AuthJSON])

    /// Decodes any JSON value.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? single.decode(Double.self) {
            self = .double(value)
        } else if let value = try? single.decode(String.self) {
            self = .string(value)
        } else if let value = try? single.decode([AuthJSON].self) {
            self = .array(value)
        } else {
            self = .object(try single.decode([String: AuthJSON].self))
        }
    }

    /// Encodes the value as it was decoded.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        switch self {
        case .null: try single.encodeNil()
        case .bool(let value): try single.encode(value)
        case .integer(let value): try single.encode(value)
        case .double(let value): try single.encode(value)
        case .string(let value): try single.encode(value)
        case .array(let value): try single.encode(value)
        case .object(let value): try single.encode(value)
        }
    }

    /// Parses JSON text; nil when it is not JSON.
    public static func parse(_ text: String) -> AuthJSON? {
        try? JSONDecoder().decode(AuthJSON.self, from: Data(text.utf8))
    }

    /// Parses JSON bytes; nil when they are not JSON.
    public static func parse(_ bytes: [UInt8]) -> AuthJSON? {
        try? JSONDecoder().decode(AuthJSON.self, from: Data(bytes))
    }

    /// The members of an object.
    public var objectValue: [String: AuthJSON]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements of an array.
    public var arrayValue: [AuthJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The boolean, when this is one.
    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The string, when this is one.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// Compact JSON with sorted keys.
    public var description: String {
        (try? AuthWire.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}

/// A coding key for members whose names are only known at run time.
struct DynamicCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) {
        self.stringValue = string
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        return nil
    }
}

/// An `int64` field of Google's REST mapping, which accepts a JSON number or a decimal string (`"3600"`); the
/// Admin SDKs send either.
public struct WireInt64: Codable, Sendable, Equatable {
    /// The value.
    public var value: Int64

    /// Wraps a value.
    public init(_ value: Int64) {
        self.value = value
    }

    /// Decodes a number or a decimal string; anything else is a type mismatch.
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if let number = try? single.decode(Int64.self) {
            value = number
        } else if let text = try? single.decode(String.self), let number = Int64(text) {
            value = number
        } else {
            throw DecodingError.typeMismatch(
                Int64.self, .init(codingPath: decoder.codingPath, debugDescription: "expected an int64"))
        }
    }

    /// Encodes as a decimal string, as Google's APIs answer int64 fields.
    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(String(value))
    }
}
