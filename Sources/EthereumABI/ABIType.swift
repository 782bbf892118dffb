/// A Solidity ABI type (the contract ABI specification's types, without the rarely used `fixed` and
/// `ufixed`).
///
/// The canonical spelling is `description` (`"(uint256,string)[2][]"`); ``init(parsing:)`` reads it.
/// Component names live beside the type, in ``ABIParameter``.
public enum ABIType: Hashable, Sendable, CustomStringConvertible {
    /// `uint<bits>`, bits 8…256 in steps of 8.
    case uint(Int)
    /// `int<bits>` (two's complement), bits 8…256 in steps of 8.
    case int(Int)
    /// `address`: 20 bytes.
    case address
    /// `bool`.
    case bool
    /// `bytes<n>`, n in 1…32.
    case fixedBytes(Int)
    /// `bytes`: a byte string of any length.
    case bytes
    /// `string`: UTF-8 text of any length.
    case string
    /// `function`: an external function reference, a contract address (20 bytes) followed by a selector (4
    /// bytes), encoded exactly as `bytes24`. Its values are ``ABIValue/fixedBytes(_:)`` of 24 bytes.
    case function
    /// `T[k]` (count k ≥ 1) or `T[]` (count nil).
    indirect case array(ABIType, count: Int?)
    /// `(T1,T2,…)`, possibly empty.
    case tuple([ABIType])

    /// The deepest nesting of tuples and arrays a type may have; deeper types are refused so that
    /// parsing, encoding and decoding never recurse without bound.
    public static let maxDepth = 64

    /// The largest head (static) size, in bytes, a type may have; larger types are refused so that
    /// size arithmetic cannot overflow.
    public static let maxStaticSize = 1 << 32

    /// `uint256`.
    public static let uint256 = ABIType.uint(256)
    /// `int256`.
    public static let int256 = ABIType.int(256)
    /// `bytes32`.
    public static let bytes32 = ABIType.fixedBytes(32)

    /// The canonical type string used in signatures, e.g. `(uint256,string)[2][]`.
    public var description: String {
        var out = ""
        appendCanonical(to: &out)
        return out
    }

    private func appendCanonical(to out: inout String) {
        switch self {
        case .uint(let bits): out += "uint\(bits)"
        case .int(let bits): out += "int\(bits)"
        case .address: out += "address"
        case .bool: out += "bool"
        case .fixedBytes(let n): out += "bytes\(n)"
        case .bytes: out += "bytes"
        case .string: out += "string"
        case .function: out += "function"
        case .array(let element, let count):
            element.appendCanonical(to: &out)
            out += count.map { "[\($0)]" } ?? "[]"
        case .tuple(let components):
            out += "("
            for (i, c) in components.enumerated() {
                if i > 0 { out += "," }
                c.appendCanonical(to: &out)
            }
            out += ")"
        }
    }

    /// True for types whose encoding has a length that depends on the value (`bytes`, `string`, `T[]`,
    /// and arrays and tuples containing them); they are encoded in the tail, behind an offset.
    public var isDynamic: Bool {
        switch self {
        case .uint, .int, .address, .bool, .fixedBytes, .function: return false
        case .bytes, .string: return true
        case .array(let element, let count): return count == nil || element.isDynamic
        case .tuple(let components): return components.contains { $0.isDynamic }
        }
    }

    /// Bytes this type takes in the head of an enclosing tuple: 32 for a dynamic type (its offset),
    /// else the whole static encoding.
    public var headSize: Int {
        switch self {
        case .uint, .int, .address, .bool, .fixedBytes, .function, .bytes, .string: return 32
        case .array(let element, let count):
            guard let count, !element.isDynamic else { return 32 }
            return count &* element.headSize
        case .tuple(let components):
            if components.contains(where: { $0.isDynamic }) { return 32 }
            return components.reduce(0) { $0 &+ $1.headSize }
        }
    }

    /// True for the types a 32-byte word holds directly (integers, address, bool, `bytesN`); these are
    /// the types an indexed event parameter keeps as its value rather than a hash.
    public var isElementary: Bool {
        switch self {
        case .uint, .int, .address, .bool, .fixedBytes, .function: return true
        default: return false
        }
    }

    /// Checks the invariants a type built in code might break: integer widths, `bytesN` sizes, array
    /// counts, nesting depth, size bounds, and arrays of zero-size elements (such as `()[]`, which would
    /// let a short input claim any number of elements).
    public func validate() throws(ABIError) {
        _ = try checked(depth: 0)
    }

    /// Validates and returns the static size (0 for an empty tuple), or 32 for dynamic types.
    private func checked(depth: Int) throws(ABIError) -> Int {
        if depth > ABIType.maxDepth {
            throw .invalidType(description, reason: "nested more than \(ABIType.maxDepth) levels deep")
        }
        switch self {
        case .uint(let bits), .int(let bits):
            guard bits >= 8, bits <= 256, bits % 8 == 0 else {
                throw .invalidType(description, reason: "integer width must be a multiple of 8 from 8 to 256")
            }
            return 32
        case .fixedBytes(let n):
            guard n >= 1, n <= 32 else { throw .invalidType(description, reason: "bytesN needs N from 1 to 32") }
            return 32
        case .address, .bool, .bytes, .string, .function:
            return 32
        case .array(let element, let count):
            let elementSize = try element.checked(depth: depth + 1)
            if elementSize == 0 {
                throw .invalidType(description, reason: "arrays of zero-size types (empty tuples) are not supported")
            }
            guard let count else { return 32 }
            guard count >= 1 else { throw .invalidType(description, reason: "a fixed-size array needs at least one element") }
            if element.isDynamic { return 32 }
            let (size, overflow) = count.multipliedReportingOverflow(by: elementSize)
            if overflow || size > ABIType.maxStaticSize {
                throw .invalidType(description, reason: "static size exceeds \(ABIType.maxStaticSize) bytes")
            }
            return size
        case .tuple(let components):
            var total = 0
            var dynamic = false
            for c in components {
                total += try c.checked(depth: depth + 1)
                dynamic = dynamic || c.isDynamic
                if total > ABIType.maxStaticSize {
                    throw .invalidType(description, reason: "static size exceeds \(ABIType.maxStaticSize) bytes")
                }
            }
            return dynamic ? 32 : total
        }
    }

    /// Parses a type string: the canonical form (`uint256`, `(address,bytes)[]`, `string[2][]`), also
    /// accepting the aliases `uint`/`int` (256 bits), `tuple(…)` for `(…)`, and spaces between tokens.
    public init(parsing text: String) throws(ABIError) {
        var parser = SignatureParser(text)
        let parameter = try parser.parseParameter(depth: 0, allowName: false, allowIndexed: false)
        try parser.expectEnd()
        self = parameter.type
    }

    /// Parses a comma-separated list of types, with or without enclosing parentheses:
    /// `"uint256,string"` and `"(uint256,string)"` both give `[uint256, string]`; `""` and `"()"` give `[]`.
    public static func parseList(_ text: String) throws(ABIError) -> [ABIType] {
        var parser = SignatureParser(text)
        parser.skipSpaces()
        if parser.atEnd { return [] }
        if parser.peek == UInt8(ascii: "(") {
            // "(a,b)" is the list a,b unless something follows the closing parenthesis ("(a,b)[]", "(a),b").
            var whole = SignatureParser(text)
            if let list = try? whole.parseParenthesizedList(depth: 0, allowNames: false), (try? whole.expectEnd()) != nil {
                return list.map(\.type)
            }
        }
        var types: [ABIType] = []
        while true {
            types.append(try parser.parseParameter(depth: 0, allowName: false, allowIndexed: false).type)
            parser.skipSpaces()
            if parser.atEnd { return types }
            try parser.expect(",")
        }
    }
}
