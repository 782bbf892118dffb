/// A JSON document as a typed tree, for reading test-vector files without `Any`.
enum JSONValue: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number that is an integer within `Int64`.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() {
            self = .null
        } else if let b = try? c.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? c.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? c.decode(Double.self) {
            self = .number(d)
        } else if let s = try? c.decode(String.self) {
            self = .string(s)
        } else if let a = try? c.decode([JSONValue].self) {
            self = .array(a)
        } else {
            self = .object(try c.decode([String: JSONValue].self))
        }
    }

    /// The string, or nil.
    var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The object's members, or nil.
    var object: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The array's elements, or nil.
    var array: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// A member of an object, or nil.
    subscript(key: String) -> JSONValue? {
        object?[key]
    }
}
