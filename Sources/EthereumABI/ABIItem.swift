/// A contract's constructor: its parameters are ABI-encoded after the creation bytecode.
public struct ABIConstructor: Hashable, Sendable, CustomStringConvertible {
    /// The parameters.
    public var inputs: [ABIParameter]
    /// `payable` or `nonpayable`.
    public var stateMutability: StateMutability

    /// Creates a constructor description.
    public init(inputs: [ABIParameter] = [], stateMutability: StateMutability = .nonpayable) {
        self.inputs = inputs
        self.stateMutability = stateMutability
    }

    /// Creation data: the bytecode followed by the encoded arguments.
    public func encodeDeployment(bytecode: [UInt8], arguments: [ABIValue]) throws(ABIError) -> [UInt8] {
        bytecode + (try ABIEncoder.encode(arguments, as: inputs.map(\.type)))
    }

    /// The human-readable form.
    public var description: String {
        "constructor(" + inputs.map(\.description).joined(separator: ", ") + ")"
            + (stateMutability == .payable ? " payable" : "")
    }
}

/// One entry of a contract ABI.
public enum ABIItem: Hashable, Sendable, CustomStringConvertible {
    case function(ABIFunction)
    case event(ABIEvent)
    case error(ABICustomError)
    case constructor(ABIConstructor)
    /// The fallback function, run for calldata that names no function; its mutability.
    case fallback(StateMutability)
    /// The receive function, run for plain ether transfers (always payable).
    case receive

    /// The human-readable form (`function …`, `event …`, `error …`, `constructor(…)`, `fallback()`, `receive()`).
    public var description: String {
        switch self {
        case .function(let f): return f.description
        case .event(let e): return e.description
        case .error(let e): return e.description
        case .constructor(let c): return c.description
        case .fallback(let m): return "fallback() external" + (m == .payable ? " payable" : "")
        case .receive: return "receive() external payable"
        }
    }

    /// Parses a human-readable signature:
    ///
    /// - `function name(type name, …) [external|public] [view|pure|payable|nonpayable] [returns (type name, …)]`
    /// - `event Name(type [indexed] name, …) [anonymous]`
    /// - `error Name(type name, …)`
    /// - `constructor(type name, …) [payable]`, `fallback() [external] [payable]`, `receive() external payable`
    /// - a canonical signature without keyword, `name(type1,type2)`, is a function.
    ///
    /// Tuples are written `(type name, …)` or `tuple(…)`; data locations (`memory`, `calldata`, `storage`)
    /// are ignored; `uint`/`int` mean 256 bits.
    public init(signature text: String) throws(ABIError) {
        var p = SignatureParser(text, mode: .signature)
        guard let first = p.peekIdentifier() else { throw p.fail("expected a keyword or a function name") }
        switch first {
        case "event":
            _ = p.identifier()
            guard let name = p.identifier() else { throw p.fail("expected the event's name") }
            let inputs = try p.parseParenthesizedList(depth: 0, allowNames: true, allowIndexed: true)
            var anonymous = false
            if p.peekIdentifier() == "anonymous" {
                _ = p.identifier()
                anonymous = true
            }
            try p.expectEnd()
            if inputs.filter(\.indexed).count > (anonymous ? 4 : 3) {
                throw .invalidSignature(text, reason: "too many indexed parameters")
            }
            self = .event(ABIEvent(name: name, inputs: inputs, anonymous: anonymous))
        case "error":
            _ = p.identifier()
            guard let name = p.identifier() else { throw p.fail("expected the error's name") }
            let inputs = try p.parseParenthesizedList(depth: 0, allowNames: true)
            try p.expectEnd()
            self = .error(ABICustomError(name: name, inputs: inputs))
        case "constructor":
            _ = p.identifier()
            let inputs = try p.parseParenthesizedList(depth: 0, allowNames: true)
            let modifiers = try ABIItem.modifiers(&p)
            try p.expectEnd()
            self = .constructor(ABIConstructor(inputs: inputs, stateMutability: modifiers.mutability ?? .nonpayable))
        case "fallback", "receive":
            _ = p.identifier()
            let inputs = try p.parseParenthesizedList(depth: 0, allowNames: true)
            if !inputs.isEmpty { throw p.fail("\(first) takes no parameters in the ABI") }
            let modifiers = try ABIItem.modifiers(&p)
            try p.expectEnd()
            self = first == "receive" ? .receive : .fallback(modifiers.mutability ?? .nonpayable)
        default:
            if first == "function" { _ = p.identifier() }
            guard let name = p.identifier() else { throw p.fail("expected the function's name") }
            let inputs = try p.parseParenthesizedList(depth: 0, allowNames: true)
            let modifiers = try ABIItem.modifiers(&p)
            var outputs: [ABIParameter] = []
            if modifiers.returns {
                outputs = try p.parseParenthesizedList(depth: 0, allowNames: true)
            }
            try p.expectEnd()
            self = .function(ABIFunction(
                name: name, inputs: inputs, outputs: outputs, stateMutability: modifiers.mutability ?? .nonpayable))
        }
    }

    /// Visibility and mutability words, up to `returns` (consumed) or the end.
    private static func modifiers(_ p: inout SignatureParser) throws(ABIError) -> (mutability: StateMutability?, returns: Bool) {
        var mutability: StateMutability?
        while let word = p.peekIdentifier() {
            _ = p.identifier()
            switch word {
            case "external", "public", "internal", "private", "virtual", "override":
                continue
            case "returns":
                return (mutability, true)
            default:
                guard let m = StateMutability(rawValue: word) else { throw p.fail("unexpected word \(String(reflecting: word))") }
                if mutability != nil { throw p.fail("more than one state mutability") }
                mutability = m
            }
        }
        return (mutability, false)
    }
}
