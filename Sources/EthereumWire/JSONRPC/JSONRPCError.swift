import Chain
import EthereumPrimitives

/// A JSON-RPC error answer: the standard codes (-32700 parse error, -32600 invalid request, -32601
/// unknown method, -32602 invalid params, -32603 internal error), 3 for a reverted call with its data,
/// and -32000 for transactions the chain rejects. Every failure of the node is mapped here, once.
public struct RPCFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The JSON-RPC error code.
    public var code: Int
    /// The message.
    public var message: String
    /// The `data` member (for reverts, the revert data as hex).
    public var data: JSONValue?

    /// Creates a failure.
    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    /// -32700: the body is not JSON.
    public static func parseError(_ why: String) -> RPCFailure { RPCFailure(code: -32700, message: "parse error: \(why)") }
    /// -32600: the JSON is not a valid request (or is over a limit).
    public static func invalidRequest(_ why: String) -> RPCFailure { RPCFailure(code: -32600, message: "invalid request: \(why)") }
    /// -32601: no such method.
    public static func methodNotFound(_ method: String) -> RPCFailure {
        RPCFailure(code: -32601, message: "the method \(method) does not exist/is not available")
    }
    /// -32602: the parameters do not fit the method.
    public static func invalidParams(_ why: String) -> RPCFailure { RPCFailure(code: -32602, message: "invalid params: \(why)") }
    /// -32603: the node failed.
    public static func internalError(_ why: String) -> RPCFailure { RPCFailure(code: -32603, message: "internal error: \(why)") }

    /// The answer for a chain error: its own code, and for reverts the data as hex.
    public init(_ error: ChainError) {
        if case .invalidParams(let why) = error {
            self = .invalidParams(why)
            return
        }
        self.init(code: error.rpcCode, message: error.description, data: error.rpcData.map { .string(Hex.encode($0)) })
    }

    /// The error object's JSON.
    var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .number(String(code))), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }
}
