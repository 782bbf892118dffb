import EthereumPrimitives

/// The JSON-RPC error codes this project sends and recognises: JSON-RPC 2.0's own (-32700 … -32603) and
/// Ethereum's (3 for a reverted call, -32000 for a rejected transaction or failed call, as geth answers).
public enum JSONRPCErrorCode {
    /// The body is not JSON.
    public static let parseError = -32700
    /// The JSON is not a valid request (or is over a limit).
    public static let invalidRequest = -32600
    /// No such method.
    public static let methodNotFound = -32601
    /// The parameters do not fit the method.
    public static let invalidParams = -32602
    /// The server failed.
    public static let internalError = -32603
    /// A rejected transaction or a call that could not run (geth's "server error").
    public static let serverError = -32000
    /// The executed code reverted; the error's `data` holds the revert data.
    public static let executionReverted = 3
    /// EIP-7966: a transaction `eth_sendRawTransactionSync` pooled was not mined within the wait; `data` holds its hash.
    public static let transactionSyncTimeout = 4
}

/// The error object of a JSON-RPC answer: what the node sends and what the client reads back.
public struct JSONRPCErrorObject: Error, Sendable, Equatable, CustomStringConvertible {
    /// The code (see ``JSONRPCErrorCode``).
    public var code: Int
    /// The message.
    public var message: String
    /// Extra information; for reverts, the revert data as hex.
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var description: String { "\(code): \(message)" }

    /// The object's JSON (`data` only when present).
    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .number(String(code))), ("message", .string(message))]
        if let data { members.append(("data", data)) }
        return .object(members)
    }

    /// -32700: the body is not JSON.
    public static func parseError(_ why: String) -> JSONRPCErrorObject {
        JSONRPCErrorObject(code: JSONRPCErrorCode.parseError, message: "parse error: \(why)")
    }

    /// -32600: the JSON is not a valid request (or is over a limit).
    public static func invalidRequest(_ why: String) -> JSONRPCErrorObject {
        JSONRPCErrorObject(code: JSONRPCErrorCode.invalidRequest, message: "invalid request: \(why)")
    }

    /// -32601: no such method.
    public static func methodNotFound(_ method: String) -> JSONRPCErrorObject {
        JSONRPCErrorObject(code: JSONRPCErrorCode.methodNotFound, message: "the method \(method) does not exist/is not available")
    }

    /// -32602: the parameters do not fit the method.
    public static func invalidParams(_ why: String) -> JSONRPCErrorObject {
        JSONRPCErrorObject(code: JSONRPCErrorCode.invalidParams, message: "invalid params: \(why)")
    }
}
