import EthereumABI
import EthereumPrimitives

/// A parameter with what the generator needs beyond the ABI model: the compiler's `internalType` (which names
/// Solidity structs), recursively for tuple components.
struct Parameter {
    var name: String
    var type: ABIType
    var components: [Parameter]
    var internalType: String?
    var indexed: Bool

    /// Pairs ABI parameters with their JSON entries (same order), to read `internalType`.
    static func list(_ parameters: [ABIParameter], json: JSONValue?) -> [Parameter] {
        let entries = json?.arrayValue ?? []
        return parameters.enumerated().map { i, p in
            let entry = i < entries.count ? entries[i] : nil
            return Parameter(
                name: p.name, type: p.type, components: list(p.components, json: entry?["components"]),
                internalType: entry?["internalType"]?.stringValue, indexed: p.indexed)
        }
    }
}

/// The Swift side of one ABI type: its type name, and how a value converts each way.
struct SwiftType {
    /// The Swift type, e.g. `UInt256`, `[Address]`, `Pool.Slot0`.
    var name: String
    /// Encoding: the expression of an `ABIValue` for the Swift expression `x`.
    var encode: (String) -> String
    /// Decoding: the expression of a Swift value from the `ABIValue` expression `v`, naming it `path` in errors.
    var decode: (_ v: String, _ path: String, _ depth: Int) -> String
}

/// Maps ABI types to Swift types, collecting the structs tuples need.
final class TypeMapper {
    /// A generated struct for a tuple.
    struct TupleStruct {
        var name: String
        var type: ABIType
        var fields: [(name: String, parameter: Parameter)]
    }

    private(set) var structs: [TupleStruct] = []
    private var structByKey: [String: String] = [:]
    /// Names taken in the contract's namespace (events, outputs, structs, fixed members).
    var taken: Set<String>

    init(taken: Set<String>) { self.taken = taken }

    /// A fresh type name starting from `base`.
    func claim(_ base: String) -> String {
        var name = base
        var n = 2
        while taken.contains(name) {
            name = "\(base)\(n)"
            n += 1
        }
        taken.insert(name)
        return name
    }

    func swiftType(_ p: Parameter) -> SwiftType {
        swiftType(p.type, p)
    }

    private func swiftType(_ type: ABIType, _ p: Parameter) -> SwiftType {
        switch type {
        case .uint(let bits):
            if bits > 64 {
                return SwiftType(name: "UInt256", encode: { "ABIValue.uint(\($0))" }, decode: { v, path, _ in "try \(v).decodeUInt256(path: \(path))" })
            }
            let swift = "UInt\(TypeMapper.width(bits))"
            return SwiftType(name: swift, encode: { "ABIValue.unsigned(\($0))" }, decode: { v, path, _ in "try \(v).decodeUnsigned(\(swift).self, path: \(path))" })
        case .int(let bits):
            if bits > 64 {
                return SwiftType(name: "Int256", encode: { "ABIValue.signed(\($0))" }, decode: { v, path, _ in "try \(v).decodeInt256(path: \(path))" })
            }
            let swift = "Int\(TypeMapper.width(bits))"
            return SwiftType(name: swift, encode: { "ABIValue.signed(\($0))" }, decode: { v, path, _ in "try \(v).decodeSigned(\(swift).self, path: \(path))" })
        case .address:
            return SwiftType(name: "Address", encode: { "ABIValue.address(\($0))" }, decode: { v, path, _ in "try \(v).decodeAddress(path: \(path))" })
        case .bool:
            return SwiftType(name: "Bool", encode: { "ABIValue.bool(\($0))" }, decode: { v, path, _ in "try \(v).decodeBool(path: \(path))" })
        case .string:
            return SwiftType(name: "String", encode: { "ABIValue.string(\($0))" }, decode: { v, path, _ in "try \(v).decodeString(path: \(path))" })
        case .bytes:
            return SwiftType(name: "[UInt8]", encode: { "ABIValue.bytes(\($0))" }, decode: { v, path, _ in "try \(v).decodeBytes(path: \(path))" })
        case .fixedBytes(32):
            return SwiftType(name: "Bytes32", encode: { "ABIValue.word(\($0))" }, decode: { v, path, _ in "try \(v).decodeBytes32(path: \(path))" })
        case .fixedBytes(let n):
            return SwiftType(name: "[UInt8]", encode: { "ABIValue.fixedBytes(\($0))" }, decode: { v, path, _ in "try \(v).decodeFixedBytes(count: \(n), path: \(path))" })
        case .function:
            return SwiftType(name: "[UInt8]", encode: { "ABIValue.fixedBytes(\($0))" }, decode: { v, path, _ in "try \(v).decodeFixedBytes(count: 24, path: \(path))" })
        case .array(let element, let count):
            let inner = swiftType(element, p)
            let countText = count.map(String.init) ?? "nil"
            return SwiftType(
                name: "[\(inner.name)]",
                encode: { x in "ABIValue.array(\(x).map { e in \(inner.encode("e")) })" },
                decode: { v, path, depth in
                    let e = "e\(depth)"
                    let ep = "p\(depth)"
                    return "try \(v).decodeArray(count: \(countText), path: \(path)) { (\(e): ABIValue, \(ep): String) throws(ContractError) -> \(inner.name) in "
                        + inner.decode(e, ep, depth + 1) + " }"
                })
        case .tuple:
            let name = tupleStruct(for: p)
            return SwiftType(name: name, encode: { "\($0).abiValue" }, decode: { v, path, _ in "try \(name)(abiValue: \(v), path: \(path))" })
        }
    }

    /// The Swift integer width for an ABI width ≤ 64 (8, 16, 32 or 64).
    static func width(_ bits: Int) -> Int {
        bits <= 8 ? 8 : bits <= 16 ? 16 : bits <= 32 ? 32 : 64
    }

    /// The struct for the innermost tuple of `p` (registered on first use).
    private func tupleStruct(for p: Parameter) -> String {
        let tupleType = p.type.innermostElement
        let key = tupleType.description + "|" + p.components.map { "\($0.name):\($0.internalType ?? "")" }.joined(separator: ",")
            + "|" + (TypeMapper.structName(p.internalType) ?? "")
        if let existing = structByKey[key] { return existing }
        let base = TypeMapper.structName(p.internalType) ?? (p.name.isEmpty ? "Tuple" : SwiftNames.type(p.name, fallback: "Tuple"))
        let name = claim(base)
        structByKey[key] = name
        var used: Set<String> = []
        var fields: [(String, Parameter)] = []
        for (i, c) in p.components.enumerated() {
            var field = SwiftNames.member(c.name, fallback: "field\(i)")
            if field == "abiValue" || field == "abiType" || used.contains(field) { field = "field\(i)" }
            used.insert(field)
            fields.append((field, c))
        }
        let entry = TupleStruct(name: name, type: tupleType, fields: fields)
        structs.append(entry)
        // Components' own structs are registered (and listed) after this one.
        for c in p.components { _ = swiftType(c) }
        return name
    }

    /// `struct Pool.Slot0[]` → `Slot0`; nil when the internal type names no struct.
    static func structName(_ internalType: String?) -> String? {
        guard let internalType, internalType.hasPrefix("struct ") else { return nil }
        var name = Substring(internalType.dropFirst("struct ".count))
        if let bracket = name.firstIndex(of: "[") { name = name[..<bracket] }
        if let dot = name.lastIndex(of: ".") { name = name[name.index(after: dot)...] }
        let id = SwiftNames.type(String(name), fallback: "")
        return id.isEmpty ? nil : id
    }

    /// An ABI type as a Swift expression (`.tuple([.uint(256), .array(.address, count: nil)])`).
    static func expression(_ type: ABIType) -> String {
        switch type {
        case .uint(let bits): return ".uint(\(bits))"
        case .int(let bits): return ".int(\(bits))"
        case .address: return ".address"
        case .bool: return ".bool"
        case .fixedBytes(let n): return ".fixedBytes(\(n))"
        case .bytes: return ".bytes"
        case .string: return ".string"
        case .function: return ".function"
        case .array(let element, let count): return ".array(\(expression(element)), count: \(count.map(String.init) ?? "nil"))"
        case .tuple(let components): return ".tuple([" + components.map(expression).joined(separator: ", ") + "])"
        }
    }
}
