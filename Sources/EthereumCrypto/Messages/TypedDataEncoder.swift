import EthereumPrimitives

/// The EIP-712 encoding rules: `encodeType`, `typeHash`, `encodeData` and `hashStruct` over a set of struct types.
struct TypedDataEncoder {
    let types: [String: [TypedData.Field]]
    private var typeHashes: [String: Bytes32] = [:]

    init(types: [String: [TypedData.Field]]) { self.types = types }

    /// The struct types `name` references, directly or not, including itself.
    func dependencies(of name: String) throws(TypedDataError) -> Set<String> {
        var found: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard !found.contains(next) else { continue }
            guard let fields = types[next] else { throw .invalidType("struct type \(String(reflecting: next)) is not defined") }
            found.insert(next)
            for field in fields {
                let base = Self.baseType(field.type)
                if types[base] != nil { pending.append(base) } else { try Self.checkAtomicOrDynamic(base, in: next) }
            }
        }
        return found
    }

    mutating func encodeType(_ name: String) throws(TypedDataError) -> String {
        let others = try dependencies(of: name).subtracting([name]).sorted()
        return try ([name] + others).map { (type) throws(TypedDataError) -> String in
            let fields = types[type] ?? []
            return type + "(" + fields.map { "\($0.type) \($0.name)" }.joined(separator: ",") + ")"
        }.joined()
    }

    mutating func typeHash(_ name: String) throws(TypedDataError) -> Bytes32 {
        if let cached = typeHashes[name] { return cached }
        let hash = Keccak256.hash(try encodeType(name))
        typeHashes[name] = hash
        return hash
    }

    /// keccak256(typeHash ‖ encodeData(value)).
    mutating func hashStruct(_ type: String, _ value: JSONValue, path: String) throws(TypedDataError) -> Bytes32 {
        guard let fields = types[type] else { throw .invalidType("struct type \(String(reflecting: type)) is not defined") }
        guard case .object = value else { throw .invalidValue(path: path, "expected an object for struct \(type)") }
        var bytes = (try typeHash(type)).bytes
        for field in fields {
            guard let member = value[field.name] else {
                throw .invalidValue(path: "\(path).\(field.name)", "missing (declared as \(field.type))")
            }
            bytes += (try encodeValue(field.type, member, path: "\(path).\(field.name)")).bytes
        }
        return Keccak256.hash(bytes)
    }

    /// One 32-byte member of encodeData.
    mutating func encodeValue(_ type: String, _ value: JSONValue, path: String) throws(TypedDataError) -> Bytes32 {
        if let (element, length) = Self.arrayElement(type) {
            guard let items = value.arrayValue else { throw .invalidValue(path: path, "expected an array for \(type)") }
            if let length, items.count != length {
                throw .invalidValue(path: path, "expected \(length) elements for \(type), got \(items.count)")
            }
            var bytes: [UInt8] = []
            for (i, item) in items.enumerated() {
                bytes += (try encodeValue(element, item, path: "\(path)[\(i)]")).bytes
            }
            return Keccak256.hash(bytes)
        }
        if types[type] != nil { return try hashStruct(type, value, path: path) }
        return try Self.encodeAtomic(type, value, path: path)
    }

    // MARK: Types

    /// `T` and the length (nil for `T[]`) of an array type, or nil when `type` is no array.
    static func arrayElement(_ type: String) -> (String, Int?)? {
        guard type.hasSuffix("]"), let open = type.lastIndex(of: "[") else { return nil }
        let inside = type[type.index(after: open)..<type.index(before: type.endIndex)]
        let element = String(type[..<open])
        if inside.isEmpty { return (element, nil) }
        guard let n = Int(inside) else { return nil }
        return (element, n)
    }

    /// The type with all array suffixes removed.
    static func baseType(_ type: String) -> String {
        var t = type
        while let (element, _) = arrayElement(t) { t = element }
        return t
    }

    static func checkAtomicOrDynamic(_ type: String, in owner: String) throws(TypedDataError) {
        if ["bool", "address", "string", "bytes"].contains(type) { return }
        if let bits = integerBits(type), bits.bits > 0 { return }
        if let n = fixedBytesLength(type), (1...32).contains(n) { return }
        throw .invalidType("\(owner) uses unknown type \(String(reflecting: type))")
    }

    /// (signed, bits) for `uintN`/`intN` with N a multiple of 8 in 8…256; nil otherwise.
    static func integerBits(_ type: String) -> (signed: Bool, bits: Int)? {
        let signed = type.hasPrefix("int")
        guard signed || type.hasPrefix("uint") else { return nil }
        let digits = type.dropFirst(signed ? 3 : 4)
        guard let bits = Int(digits), bits % 8 == 0, (8...256).contains(bits) else { return nil }
        return (signed, bits)
    }

    static func fixedBytesLength(_ type: String) -> Int? {
        guard type.hasPrefix("bytes"), type.count > 5 else { return nil }
        return Int(type.dropFirst(5))
    }

    // MARK: Atomic and dynamic values

    static func encodeAtomic(_ type: String, _ value: JSONValue, path: String) throws(TypedDataError) -> Bytes32 {
        switch type {
        case "bool":
            switch value {
            case .bool(let b): return UInt256(b ? 1 : 0).bytes32
            case .string("true"): return UInt256.one.bytes32
            case .string("false"): return Bytes32.zero
            default: throw .invalidValue(path: path, "expected a boolean")
            }
        case "address":
            guard let text = value.stringValue, let address = try? Address(text) else {
                throw .invalidValue(path: path, "expected a 20-byte hex address")
            }
            return address.bytes32
        case "string":
            guard let text = value.stringValue else { throw .invalidValue(path: path, "expected a string") }
            return Keccak256.hash(text)
        case "bytes":
            return Keccak256.hash(try hexBytes(value, path: path))
        default:
            if let (signed, bits) = integerBits(type) { return try encodeInteger(value, signed: signed, bits: bits, path: path) }
            if let n = fixedBytesLength(type) {
                let bytes = try hexBytes(value, path: path)
                guard bytes.count <= n else { throw .invalidValue(path: path, "\(bytes.count) bytes do not fit \(type)") }
                return Bytes32(bytes + Array(repeating: 0, count: 32 - bytes.count)) ?? .zero
            }
            throw .invalidType("unknown type \(String(reflecting: type)) at \(path)")
        }
    }

    static func hexBytes(_ value: JSONValue, path: String) throws(TypedDataError) -> [UInt8] {
        guard let text = value.stringValue, let bytes = try? Hex.decode(text) else {
            throw .invalidValue(path: path, "expected 0x-prefixed hex bytes")
        }
        return bytes
    }

    /// An integer as a 32-byte two's-complement word, range-checked against the type.
    static func encodeInteger(_ value: JSONValue, signed: Bool, bits: Int, path: String) throws(TypedDataError) -> Bytes32 {
        var text: String
        switch value {
        case .number(let n): text = n
        case .string(let s): text = s.trimmingCharacters(in: .whitespaces)
        default: throw .invalidValue(path: path, "expected an integer (number or decimal/0x string)")
        }
        var negative = false
        if text.hasPrefix("-") {
            negative = true
            text.removeFirst()
        }
        guard let magnitude = try? UInt256(parsing: text) else {
            throw .invalidValue(path: path, "not an integer: \(String(reflecting: text))")
        }
        let typeName = (signed ? "int" : "uint") + String(bits)
        if !signed {
            guard !negative || magnitude.isZero else { throw .invalidValue(path: path, "negative value for \(typeName)") }
            guard bits == 256 || magnitude >> bits == .zero else { throw .invalidValue(path: path, "value does not fit \(typeName)") }
            return magnitude.bytes32
        }
        // Signed: −2^(bits−1) ≤ v < 2^(bits−1).
        let limit = UInt256.one << (bits - 1)
        guard negative ? magnitude <= limit : magnitude < limit else { throw .invalidValue(path: path, "value does not fit \(typeName)") }
        return (negative ? magnitude.negated : magnitude).bytes32
    }
}
