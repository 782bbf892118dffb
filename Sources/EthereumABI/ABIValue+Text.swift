import EthereumPrimitives

// Values from text (command-line arguments) and JSON, and back to JSON.
//
// Text, per type: integers in decimal or 0x-hex, signed ones with an optional leading "-"; addresses as
// 40 hex digits (EIP-55 checked when mixed case); bools as true/false; bytes and bytesN as hex; strings
// as they are; arrays and tuples as JSON arrays, e.g. '[1,2]' or '["0xab…", 5]'. In JSON, integers may be
// numbers or strings; numbers of any size are read exactly (JSONParser keeps their text).

extension ABIValue {
    /// Parses a command-line argument as a value of `type`.
    public init(parsing text: String, as type: ABIType) throws(ABIError) {
        switch type {
        case .array, .tuple:
            let json: JSONValue
            do {
                json = try JSONValue(parsing: text)
            } catch {
                throw .invalidValue(path: "value", type: type, reason: "expected a JSON array, e.g. [1,2] or [\"0xab\",5]")
            }
            try self.init(json: json, as: type)
        case .string:
            self = .string(text)
        default:
            try self.init(scalarText: text, as: type, path: "value")
        }
    }

    /// Converts a JSON value to a value of `type` (numbers or strings for integers, strings for the rest,
    /// arrays for arrays and tuples). `path` names the value in errors.
    public init(json: JSONValue, as type: ABIType, path: String = "value") throws(ABIError) {
        switch type {
        case .array(let element, let count):
            guard case .array(let items) = json else { throw .invalidValue(path: path, type: type, reason: "expected a JSON array") }
            if let count, items.count != count {
                throw .invalidValue(path: path, type: type, reason: "expected \(count) elements, got \(items.count)")
            }
            var values: [ABIValue] = []
            for (i, item) in items.enumerated() { values.append(try ABIValue(json: item, as: element, path: "\(path)[\(i)]")) }
            self = .array(values)
        case .tuple(let components):
            guard case .array(let items) = json else { throw .invalidValue(path: path, type: type, reason: "expected a JSON array") }
            guard items.count == components.count else {
                throw .invalidValue(path: path, type: type, reason: "expected \(components.count) components, got \(items.count)")
            }
            var values: [ABIValue] = []
            for (i, (item, t)) in zip(items, components).enumerated() { values.append(try ABIValue(json: item, as: t, path: "\(path).\(i)")) }
            self = .tuple(values)
        case .string:
            guard case .string(let s) = json else { throw .invalidValue(path: path, type: type, reason: "expected a JSON string") }
            self = .string(s)
        case .bool:
            switch json {
            case .bool(let b): self = .bool(b)
            case .string(let s): try self.init(scalarText: s, as: type, path: path)
            default: throw .invalidValue(path: path, type: type, reason: "expected true or false")
            }
        case .uint, .int:
            switch json {
            case .number(let n), .string(let n): try self.init(scalarText: n, as: type, path: path)
            default: throw .invalidValue(path: path, type: type, reason: "expected a number or a string of digits")
            }
        case .address, .fixedBytes, .bytes, .function:
            guard case .string(let s) = json else { throw .invalidValue(path: path, type: type, reason: "expected a hex string") }
            try self.init(scalarText: s, as: type, path: path)
        }
    }

    private init(scalarText text: String, as type: ABIType, path: String) throws(ABIError) {
        switch type {
        case .uint(let bits):
            let v: UInt256
            do { v = try UInt256(parsing: text) } catch {
                throw .invalidValue(path: path, type: type, reason: "\(String(reflecting: text)) is not a number (\(error))")
            }
            if v.significantBitCount > bits { throw .invalidValue(path: path, type: type, reason: "\(v) does not fit") }
            self = .uint(v)
        case .int(let bits):
            let negative = text.hasPrefix("-")
            let digits = negative ? String(text.dropFirst()) : text
            let magnitude: UInt256
            do { magnitude = try UInt256(parsing: digits) } catch {
                throw .invalidValue(path: path, type: type, reason: "\(String(reflecting: text)) is not a number (\(error))")
            }
            // |v| ≤ 2^(bits−1) − 1 for positives, ≤ 2^(bits−1) for negatives.
            let limit = UInt256.one << (bits - 1)
            if negative ? magnitude > limit : magnitude >= limit {
                throw .invalidValue(path: path, type: type, reason: "\(text) does not fit")
            }
            self = .int(negative ? magnitude.negated : magnitude)
        case .address:
            do { self = .address(try Address(text)) } catch {
                throw .invalidValue(path: path, type: type, reason: "\(error)")
            }
        case .bool:
            switch text {
            case "true": self = .bool(true)
            case "false": self = .bool(false)
            default: throw .invalidValue(path: path, type: type, reason: "expected true or false, got \(String(reflecting: text))")
            }
        case .fixedBytes(let n):
            let bytes = try ABIValue.hexBytes(text, type: type, path: path)
            guard bytes.count == n else { throw .invalidValue(path: path, type: type, reason: "expected \(n) bytes, got \(bytes.count)") }
            self = .fixedBytes(bytes)
        case .function:
            let bytes = try ABIValue.hexBytes(text, type: type, path: path)
            guard bytes.count == 24 else {
                throw .invalidValue(path: path, type: type, reason: "expected 24 bytes (an address and a selector), got \(bytes.count)")
            }
            self = .fixedBytes(bytes)
        case .bytes:
            self = .bytes(try ABIValue.hexBytes(text, type: type, path: path))
        case .string:
            self = .string(text)
        case .array, .tuple:
            try self.init(parsing: text, as: type)
        }
    }

    private static func hexBytes(_ text: String, type: ABIType, path: String) throws(ABIError) -> [UInt8] {
        do { return try Hex.decode(text) } catch {
            throw .invalidValue(path: path, type: type, reason: "\(String(reflecting: text)) is not hex (\(error))")
        }
    }

    /// The value as JSON: integers as decimal strings (signed with "-"), so that no reader loses precision;
    /// addresses checksummed; bytes as 0x-hex; arrays and tuples as arrays.
    public var jsonValue: JSONValue {
        switch self {
        case .uint(let v): return .string(v.description)
        case .int(let v): return .string(ABIValue.signedDecimal(v))
        case .address(let a): return .string(a.checksummed)
        case .bool(let b): return .bool(b)
        case .fixedBytes(let b), .bytes(let b): return .string(Hex.encode(b))
        case .string(let s): return .string(s)
        case .array(let items), .tuple(let items): return .array(items.map(\.jsonValue))
        }
    }
}
