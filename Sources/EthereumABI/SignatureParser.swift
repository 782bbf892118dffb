/// A small recursive-descent parser for type strings, parameter lists and human-readable signatures.
///
/// Recursion follows the nesting of parentheses and array suffixes and is cut off at
/// ``ABIType/maxDepth``, so hostile input such as ten thousand `(` cannot exhaust the stack.
struct SignatureParser {
    /// Whether errors are reported as invalid types (for ``ABIType/init(parsing:)``) or invalid signatures.
    enum Mode { case type, signature }

    let text: String
    let bytes: [UInt8]
    var index = 0
    var mode: Mode

    init(_ text: String, mode: Mode = .type) {
        self.text = text
        self.bytes = Array(text.utf8)
        self.mode = mode
    }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func fail(_ reason: String) -> ABIError {
        let place = atEnd ? "at the end" : "at offset \(index)"
        switch mode {
        case .type: return .invalidType(text, reason: "\(reason) \(place)")
        case .signature: return .invalidSignature(text, reason: "\(reason) \(place)")
        }
    }

    mutating func skipSpaces() {
        while let c = peek, c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d { index += 1 }
    }

    mutating func expect(_ c: Character) throws(ABIError) {
        skipSpaces()
        guard let ascii = c.asciiValue, peek == ascii else { throw fail("expected \"\(c)\"") }
        index += 1
    }

    /// Consumes `c` (after spaces) when it is next; returns whether it was.
    mutating func consume(_ c: Character) -> Bool {
        skipSpaces()
        guard let ascii = c.asciiValue, peek == ascii else { return false }
        index += 1
        return true
    }

    mutating func expectEnd() throws(ABIError) {
        skipSpaces()
        if !atEnd { throw fail("unexpected text") }
    }

    private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c == 0x5f || c == 0x24
    }

    private static func isIdentifierPart(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    /// The next identifier (`[A-Za-z_$][A-Za-z0-9_$]*`), or nil (consuming nothing) if none follows.
    mutating func identifier() -> String? {
        skipSpaces()
        guard let c = peek, Self.isIdentifierStart(c) else { return nil }
        let start = index
        while let c = peek, Self.isIdentifierPart(c) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The next identifier without consuming it.
    mutating func peekIdentifier() -> String? {
        let saved = index
        defer { index = saved }
        return identifier()
    }

    /// `( param, param, … )`: the parameters of a tuple or signature.
    mutating func parseParenthesizedList(depth: Int, allowNames: Bool, allowIndexed: Bool = false) throws(ABIError) -> [ABIParameter] {
        if depth > ABIType.maxDepth { throw fail("nested more than \(ABIType.maxDepth) levels deep") }
        try expect("(")
        var parameters: [ABIParameter] = []
        if consume(")") { return parameters }
        while true {
            parameters.append(try parseParameter(depth: depth, allowName: allowNames, allowIndexed: allowIndexed))
            if consume(")") { return parameters }
            try expect(",")
        }
    }

    /// One parameter: a type, array suffixes, then (when allowed) `indexed`, a data location and a name.
    mutating func parseParameter(depth: Int, allowName: Bool, allowIndexed: Bool) throws(ABIError) -> ABIParameter {
        if depth > ABIType.maxDepth { throw fail("nested more than \(ABIType.maxDepth) levels deep") }
        skipSpaces()
        var type: ABIType
        var components: [ABIParameter] = []
        var levels = depth
        if peek == UInt8(ascii: "(") {
            components = try parseParenthesizedList(depth: depth + 1, allowNames: allowName)
            type = .tuple(components.map(\.type))
        } else {
            let start = index
            guard let word = identifier() else { throw fail("expected a type") }
            if word == "tuple" && consume("(") {
                index -= 1
                components = try parseParenthesizedList(depth: depth + 1, allowNames: allowName)
                type = .tuple(components.map(\.type))
            } else {
                type = try elementary(word, at: start)
                if word == "address", allowName, peekIdentifier() == "payable" { _ = identifier() }
            }
        }
        // Array suffixes.
        while consume("[") {
            levels += 1
            if levels > ABIType.maxDepth { throw fail("nested more than \(ABIType.maxDepth) levels deep") }
            skipSpaces()
            if consume("]") {
                type = .array(type, count: nil)
                continue
            }
            let count = try decimal(what: "array size")
            if count == 0 { throw fail("a fixed-size array needs at least one element") }
            try expect("]")
            type = .array(type, count: count)
        }
        var name = ""
        var indexed = false
        if allowName || allowIndexed {
            while let word = peekIdentifier() {
                if word == "indexed" && allowIndexed && !indexed && name.isEmpty {
                    indexed = true
                } else if ["memory", "calldata", "storage"].contains(word) && name.isEmpty {
                    // Data locations say nothing about the ABI.
                } else if allowName && name.isEmpty {
                    name = word
                } else {
                    break
                }
                _ = identifier()
            }
        }
        do {
            try type.validate()
        } catch {
            throw fail("\(error)")
        }
        return ABIParameter(name: name, type: type, components: components, indexed: indexed)
    }

    /// A decimal number without sign or leading zeros, at most 2^32.
    private mutating func decimal(what: String) throws(ABIError) -> Int {
        let start = index
        var value = 0
        while let c = peek, c >= 0x30, c <= 0x39 {
            if index > start && bytes[start] == 0x30 { throw fail("\(what) has a leading zero") }
            value = value * 10 + Int(c - 0x30)
            if value > 1 << 32 { throw fail("\(what) is too large") }
            index += 1
        }
        if index == start { throw fail("expected a \(what)") }
        return value
    }

    /// An elementary type name: `uint<N>`, `int<N>`, `address`, `bool`, `bytes<N>`, `bytes`, `string`, `function`.
    private mutating func elementary(_ word: String, at start: Int) throws(ABIError) -> ABIType {
        func bits(_ suffix: Substring, _ make: (Int) -> ABIType) throws(ABIError) -> ABIType {
            if suffix.isEmpty { return make(256) }
            guard let n = Int(suffix), !suffix.hasPrefix("0"), n >= 8, n <= 256, n % 8 == 0 else {
                index = start
                throw fail("\(String(reflecting: word)): integer width must be a multiple of 8 from 8 to 256")
            }
            return make(n)
        }
        switch word {
        case "address": return .address
        case "bool": return .bool
        case "string": return .string
        case "bytes": return .bytes
        case "function": return .function
        default: break
        }
        if word.hasPrefix("uint") { return try bits(word.dropFirst(4)) { .uint($0) } }
        if word.hasPrefix("int") { return try bits(word.dropFirst(3)) { .int($0) } }
        if word.hasPrefix("bytes") {
            let suffix = word.dropFirst(5)
            guard let n = Int(suffix), !suffix.hasPrefix("0"), n >= 1, n <= 32 else {
                index = start
                throw fail("\(String(reflecting: word)): bytesN needs N from 1 to 32")
            }
            return .fixedBytes(n)
        }
        index = start
        if word.hasPrefix("fixed") || word.hasPrefix("ufixed") {
            throw fail("type \(String(reflecting: word)) is not supported")
        }
        throw fail("unknown type \(String(reflecting: word))")
    }
}
