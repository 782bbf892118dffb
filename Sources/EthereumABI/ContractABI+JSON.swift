import EthereumPrimitives

// The JSON ABI format (Solidity ABI specification, "JSON"): an array of entries with "type"
// ("function" when absent, "event", "error", "constructor", "fallback", "receive"), "name", "inputs",
// "outputs", "stateMutability" (or the older "constant"/"payable"), "anonymous", and per parameter
// "name", "type", "components" (for tuples) and "indexed" (for events).

extension ContractABI {
    /// Parses a JSON ABI, or a compiler artifact (an object whose `"abi"` member is the ABI).
    public init(json text: String) throws(ABIError) {
        try self.init(jsonData: Array(text.utf8))
    }

    /// Parses JSON ABI bytes, or a compiler artifact with an `"abi"` member.
    public init(jsonData bytes: [UInt8]) throws(ABIError) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: bytes)
        } catch {
            throw .invalidJSON(path: "$", reason: "not valid JSON")
        }
        try self.init(jsonValue: value)
    }

    /// Parses a JSON ABI (array of entries) or an artifact object with an `"abi"` member.
    public init(jsonValue: JSONValue) throws(ABIError) {
        var root = jsonValue
        var path = "abi"
        if case .object = root {
            guard let abi = root["abi"] else { throw .invalidJSON(path: "$", reason: "an object without an \"abi\" member") }
            root = abi
            path = "$.abi"
        }
        guard case .array(let entries) = root else { throw .invalidJSON(path: path, reason: "expected an array of entries") }
        var items: [ABIItem] = []
        for (i, entry) in entries.enumerated() {
            items.append(try ContractABI.item(entry, path: "\(path)[\(i)]"))
        }
        self.init(items: items)
    }

    private static func item(_ entry: JSONValue, path: String) throws(ABIError) -> ABIItem {
        guard case .object = entry else { throw .invalidJSON(path: path, reason: "expected an object") }
        let kind: String
        switch entry["type"] {
        case nil: kind = "function"
        case .string(let s)?: kind = s
        default: throw .invalidJSON(path: path + ".type", reason: "expected a string")
        }
        switch kind {
        case "function":
            return .function(ABIFunction(
                name: try name(entry, path: path),
                inputs: try parameters(entry["inputs"], path: path + ".inputs", allowIndexed: false),
                outputs: try parameters(entry["outputs"], path: path + ".outputs", allowIndexed: false),
                stateMutability: try mutability(entry, path: path)))
        case "event":
            var anonymous = false
            if let a = entry["anonymous"] {
                guard case .bool(let b) = a else { throw .invalidJSON(path: path + ".anonymous", reason: "expected true or false") }
                anonymous = b
            }
            return .event(ABIEvent(
                name: try name(entry, path: path),
                inputs: try parameters(entry["inputs"], path: path + ".inputs", allowIndexed: true),
                anonymous: anonymous))
        case "error":
            return .error(ABICustomError(
                name: try name(entry, path: path),
                inputs: try parameters(entry["inputs"], path: path + ".inputs", allowIndexed: false)))
        case "constructor":
            return .constructor(ABIConstructor(
                inputs: try parameters(entry["inputs"], path: path + ".inputs", allowIndexed: false),
                stateMutability: try mutability(entry, path: path)))
        case "fallback":
            return .fallback(try mutability(entry, path: path))
        case "receive":
            return .receive
        default:
            throw .invalidJSON(path: path + ".type", reason: "unknown entry type \(String(reflecting: kind))")
        }
    }

    private static func name(_ entry: JSONValue, path: String) throws(ABIError) -> String {
        guard case .string(let name)? = entry["name"], !name.isEmpty else {
            throw .invalidJSON(path: path + ".name", reason: "expected a non-empty name")
        }
        return name
    }

    private static func mutability(_ entry: JSONValue, path: String) throws(ABIError) -> StateMutability {
        if let m = entry["stateMutability"] {
            guard case .string(let s) = m, let value = StateMutability(rawValue: s) else {
                throw .invalidJSON(path: path + ".stateMutability", reason: "expected pure, view, nonpayable or payable")
            }
            return value
        }
        // Before Solidity 0.4.16 ABIs said "constant" and "payable" instead.
        if entry["payable"]?.boolValue == true { return .payable }
        if entry["constant"]?.boolValue == true { return .view }
        return .nonpayable
    }

    private static func parameters(_ value: JSONValue?, path: String, allowIndexed: Bool) throws(ABIError) -> [ABIParameter] {
        guard let value, !value.isNull else { return [] }
        guard case .array(let list) = value else { throw .invalidJSON(path: path, reason: "expected an array of parameters") }
        var result: [ABIParameter] = []
        for (i, p) in list.enumerated() {
            result.append(try parameter(p, path: "\(path)[\(i)]", depth: 0, allowIndexed: allowIndexed))
        }
        return result
    }

    private static func parameter(_ value: JSONValue, path: String, depth: Int, allowIndexed: Bool) throws(ABIError) -> ABIParameter {
        guard case .object = value else { throw .invalidJSON(path: path, reason: "expected a parameter object") }
        if depth > ABIType.maxDepth {
            throw .invalidJSON(path: path, reason: "nested more than \(ABIType.maxDepth) levels deep")
        }
        var name = ""
        if let n = value["name"] {
            guard case .string(let s) = n else { throw .invalidJSON(path: path + ".name", reason: "expected a string") }
            name = s
        }
        guard case .string(let typeText)? = value["type"] else {
            throw .invalidJSON(path: path + ".type", reason: "expected a type string")
        }
        var indexed = false
        if allowIndexed, let i = value["indexed"] {
            guard case .bool(let b) = i else { throw .invalidJSON(path: path + ".indexed", reason: "expected true or false") }
            indexed = b
        }
        if typeText.hasPrefix("tuple") {
            guard case .array(let list)? = value["components"] else {
                throw .invalidJSON(path: path + ".components", reason: "a tuple type needs a components array")
            }
            var components: [ABIParameter] = []
            for (i, c) in list.enumerated() {
                components.append(try parameter(c, path: "\(path).components[\(i)]", depth: depth + 1, allowIndexed: false))
            }
            // "tuple[2][]" → the canonical tuple followed by the same array suffixes.
            let suffix = typeText.dropFirst("tuple".count)
            let canonical = ABIType.tuple(components.map(\.type)).description + suffix
            let type: ABIType
            do {
                type = try ABIType(parsing: canonical)
            } catch {
                throw .invalidJSON(path: path + ".type", reason: "\(error)")
            }
            guard case .tuple = type.innermostElement else {
                throw .invalidJSON(path: path + ".type", reason: "malformed tuple type \(String(reflecting: typeText))")
            }
            return ABIParameter(name: name, type: type, components: components, indexed: indexed)
        }
        do {
            return ABIParameter(name: name, type: try ABIType(parsing: typeText), indexed: indexed)
        } catch {
            throw .invalidJSON(path: path + ".type", reason: "\(error)")
        }
    }

    // MARK: Writing

    /// The ABI as JSON (the standard format; tuples with `components`).
    public var jsonValue: JSONValue {
        .array(items.map(ContractABI.json(for:)))
    }

    private static func json(for item: ABIItem) -> JSONValue {
        switch item {
        case .function(let f):
            return .object([
                ("type", .string("function")), ("name", .string(f.name)),
                ("inputs", .array(f.inputs.map { json(for: $0, event: false) })),
                ("outputs", .array(f.outputs.map { json(for: $0, event: false) })),
                ("stateMutability", .string(f.stateMutability.rawValue)),
            ])
        case .event(let e):
            return .object([
                ("type", .string("event")), ("name", .string(e.name)),
                ("inputs", .array(e.inputs.map { json(for: $0, event: true) })),
                ("anonymous", .bool(e.anonymous)),
            ])
        case .error(let e):
            return .object([
                ("type", .string("error")), ("name", .string(e.name)),
                ("inputs", .array(e.inputs.map { json(for: $0, event: false) })),
            ])
        case .constructor(let c):
            return .object([
                ("type", .string("constructor")),
                ("inputs", .array(c.inputs.map { json(for: $0, event: false) })),
                ("stateMutability", .string(c.stateMutability.rawValue)),
            ])
        case .fallback(let m):
            return .object([("type", .string("fallback")), ("stateMutability", .string(m.rawValue))])
        case .receive:
            return .object([("type", .string("receive")), ("stateMutability", .string("payable"))])
        }
    }

    private static func json(for p: ABIParameter, event: Bool) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [("name", .string(p.name))]
        if case .tuple = p.type.innermostElement {
            members.append(("type", .string("tuple" + p.type.arraySuffix)))
            members.append(("components", .array(p.components.map { json(for: $0, event: false) })))
        } else {
            members.append(("type", .string(p.type.description)))
        }
        if event { members.append(("indexed", .bool(p.indexed))) }
        return .object(members)
    }
}
