import EthereumPrimitives
import EthereumWire

/// A JSON-RPC method call with its parameters and the type of its result: what the client sends, whether
/// it may be repeated, and how the result is read. The typed `eth_*` calls are built by ``RPCMethods``.
public struct RPCMethodCall<Value: Sendable>: Sendable {
    /// The method name, e.g. `eth_getBalance`.
    public let method: String
    /// Positional parameters.
    public let params: [JSONValue]
    /// True when repeating the call is harmless (reads), so the client may retry it after a transport failure.
    public let isIdempotent: Bool
    private let decodeResult: @Sendable (JSONValue) throws(WireError) -> Value

    /// A call whose result `decode` reads.
    public init(
        method: String, params: [JSONValue], isIdempotent: Bool,
        decode: @escaping @Sendable (JSONValue) throws(WireError) -> Value
    ) {
        self.method = method
        self.params = params
        self.isIdempotent = isIdempotent
        self.decodeResult = decode
    }

    /// Reads a result.
    public func decode(_ result: JSONValue) throws(WireError) -> Value { try decodeResult(result) }

    /// The same call with its result transformed.
    public func map<T: Sendable>(_ transform: @escaping @Sendable (Value) throws(WireError) -> T) -> RPCMethodCall<T> {
        let decode = decodeResult
        return RPCMethodCall<T>(method: method, params: params, isIdempotent: isIdempotent) { json throws(WireError) in
            try transform(try decode(json))
        }
    }
}
