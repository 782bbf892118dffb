/// A JSON-RPC result (or part of one) that does not have the shape its method promises. The client reports
/// it as ``RPCError/decoding(method:what:)``, naming the method.
public struct WireError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong and where, e.g. `"blockNumber: expected a hex quantity, got 12"`.
    public let what: String

    /// Creates an error with a message that names the field.
    public init(_ what: String) { self.what = what }

    public var description: String { what }

    /// The same error with `field` in front of its path, for errors raised inside nested values.
    package func inside(_ field: String) -> WireError { WireError("\(field).\(what)") }
}
