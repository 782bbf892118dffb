/// Whether a function reads or changes state and whether it accepts ether.
public enum StateMutability: String, Hashable, Sendable, CaseIterable {
    /// Reads nothing from state.
    case pure
    /// Reads state, changes nothing.
    case view
    /// Changes state; refuses ether.
    case nonpayable
    /// Changes state; accepts ether.
    case payable
}

/// A contract function: name, parameters, return values, mutability.
public struct ABIFunction: Hashable, Sendable, CustomStringConvertible {
    /// The function's name.
    public var name: String { didSet { identify() } }
    /// The parameters.
    public var inputs: [ABIParameter] { didSet { identify() } }
    /// The return values.
    public var outputs: [ABIParameter]
    /// Mutability (`view` and `pure` functions are called, the others sent as transactions).
    public var stateMutability: StateMutability

    /// Creates a function description.
    public init(name: String, inputs: [ABIParameter] = [], outputs: [ABIParameter] = [], stateMutability: StateMutability = .nonpayable) {
        self.name = name
        self.inputs = inputs
        self.outputs = outputs
        self.stateMutability = stateMutability
        signature = ""
        selector = ABISelector(rawValue: 0)
        identify()
    }

    /// Parses a human-readable signature (`"function getCar(string plate) view returns (bool, string)"`)
    /// or a canonical one (`"rentCar(string,string)"`).
    public init(signature: String) throws(ABIError) {
        guard case .function(let f) = try ABIItem(signature: signature) else {
            throw .invalidSignature(signature, reason: "not a function")
        }
        self = f
    }

    /// The canonical signature, `name(type1,type2)`, that the selector hashes (kept with the name and inputs: a
    /// contract runtime reads it and the selector on every call).
    public private(set) var signature: String

    /// The 4-byte selector.
    public private(set) var selector: ABISelector

    /// Computes the signature and selector from the name and inputs.
    private mutating func identify() {
        signature = name + ABIType.tuple(inputTypes).description
        selector = ABISelector(signature: signature)
    }

    /// The parameter types.
    public var inputTypes: [ABIType] { inputs.map(\.type) }

    /// The return types.
    public var outputTypes: [ABIType] { outputs.map(\.type) }

    /// True for `view` and `pure` functions.
    public var isReadOnly: Bool { stateMutability == .view || stateMutability == .pure }

    /// Calldata: the selector followed by the encoded arguments.
    public func encodeCall(_ arguments: [ABIValue]) throws(ABIError) -> [UInt8] {
        selector.bytes + (try ABIEncoder.encode(arguments, as: inputTypes))
    }

    /// The arguments of calldata for this function (the selector must match).
    public func decodeCall(_ data: some Collection<UInt8>, options: ABIDecodingOptions = .strict) throws(ABIError) -> [ABIValue] {
        guard let s = ABISelector(prefixOf: data), s == selector else {
            throw .noMatch("calldata does not start with the selector \(selector) of \(signature)")
        }
        return try ABIDecoder.decode(inputTypes, from: data.dropFirst(4), options: options)
    }

    /// Encodes return values.
    public func encodeOutput(_ values: [ABIValue]) throws(ABIError) -> [UInt8] {
        try ABIEncoder.encode(values, as: outputTypes)
    }

    /// Decodes return data.
    public func decodeOutput(_ data: some Collection<UInt8>, options: ABIDecodingOptions = .strict) throws(ABIError) -> [ABIValue] {
        try ABIDecoder.decode(outputTypes, from: data, options: options)
    }

    /// The human-readable form, e.g. `function getCar(string _plate) view returns (bool, string)`.
    public var description: String {
        var out = "function \(name)(" + inputs.map(\.description).joined(separator: ", ") + ")"
        if stateMutability != .nonpayable { out += " \(stateMutability.rawValue)" }
        if !outputs.isEmpty { out += " returns (" + outputs.map(\.description).joined(separator: ", ") + ")" }
        return out
    }
}
