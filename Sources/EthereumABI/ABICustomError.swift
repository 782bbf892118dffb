/// A custom error declared in a contract (`error InsufficientBalance(uint256 needed)`): revert data is
/// its 4-byte selector followed by the encoded arguments.
public struct ABICustomError: Hashable, Sendable, CustomStringConvertible {
    /// The error's name.
    public var name: String
    /// Its parameters.
    public var inputs: [ABIParameter]

    /// Creates an error description.
    public init(name: String, inputs: [ABIParameter] = []) {
        self.name = name
        self.inputs = inputs
    }

    /// Parses `"error Name(type name, …)"`.
    public init(signature: String) throws(ABIError) {
        guard case .error(let e) = try ABIItem(signature: signature) else {
            throw .invalidSignature(signature, reason: "not an error (start it with \"error\")")
        }
        self = e
    }

    /// The canonical signature, `Name(type1,type2)`.
    public var signature: String { name + ABIType.tuple(inputs.map(\.type)).description }

    /// The 4-byte selector revert data starts with.
    public var selector: ABISelector { ABISelector(signature: signature) }

    /// Revert data for this error with the given arguments.
    public func encode(_ arguments: [ABIValue]) throws(ABIError) -> [UInt8] {
        selector.bytes + (try ABIEncoder.encode(arguments, as: inputs.map(\.type)))
    }

    /// The arguments in revert data for this error (the selector must match).
    public func decode(_ data: some Collection<UInt8>, options: ABIDecodingOptions = .strict) throws(ABIError) -> [ABIValue] {
        guard let s = ABISelector(prefixOf: data), s == selector else {
            throw .noMatch("revert data does not start with the selector \(selector) of \(signature)")
        }
        return try ABIDecoder.decode(inputs.map(\.type), from: data.dropFirst(4), options: options)
    }

    /// The human-readable form.
    public var description: String {
        "error \(name)(" + inputs.map(\.description).joined(separator: ", ") + ")"
    }
}
