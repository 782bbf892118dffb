import EthereumPrimitives

/// One JSON-RPC 2.0 request: a method, positional parameters and an id that the answer repeats.
public struct JSONRPCRequest: Sendable, Equatable {
    public var id: Int
    public var method: String
    public var params: [JSONValue]

    public init(id: Int, method: String, params: [JSONValue]) {
        self.id = id
        self.method = method
        self.params = params
    }

    /// The request's JSON text.
    public var json: String {
        "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\(JSONValue.quote(method)),\"params\":\(JSONValue.array(params).description)}"
    }

    /// The body of a single request.
    public static func body(_ request: JSONRPCRequest) -> [UInt8] { Array(request.json.utf8) }

    /// The body of a batch: a JSON array of requests.
    public static func batchBody(_ requests: [JSONRPCRequest]) -> [UInt8] {
        Array(("[" + requests.map(\.json).joined(separator: ",") + "]").utf8)
    }
}

/// One JSON-RPC 2.0 answer: the id it repeats and either a result or an error object.
public struct JSONRPCResponse: Sendable, Equatable {
    /// The id, as sent back (a number, a string, or null when the server could not read the request).
    public var id: JSONValue
    public var outcome: Result<JSONValue, JSONRPCErrorObject>

    /// The id as an integer, when it is one (this client only sends integer ids).
    public var intID: Int? {
        switch id {
        case .number(let text): return Int(text)
        case .string(let text): return Int(text)
        default: return nil
        }
    }

    /// Reads one answer object.
    public init(json: JSONValue) throws(WireError) {
        let o = try json.wireObject("response")
        id = o.members.first { $0.key == "id" }?.value ?? .null
        if let error = o.optional("error") {
            let e = try error.wireObject("response.error")
            guard case .number(let codeText) = try e.required("code"), let code = Int(codeText) else {
                throw WireError("response.error.code: expected an integer")
            }
            let message = e.optional("message")?.stringValue ?? ""
            outcome = .failure(JSONRPCErrorObject(code: code, message: message, data: e.optional("data")))
        } else if let result = o.members.first(where: { $0.key == "result" })?.value {
            outcome = .success(result)
        } else {
            throw WireError("response: neither result nor error")
        }
    }

    public init(id: JSONValue, outcome: Result<JSONValue, JSONRPCErrorObject>) {
        self.id = id
        self.outcome = outcome
    }

    /// Parses a response body: one answer object, or an array of them for a batch.
    public static func parseBody(_ body: [UInt8]) throws(WireError) -> JSONValue {
        do {
            return try JSONParser.parse(body)
        } catch {
            let text = excerpt(body)
            throw WireError(text.isEmpty ? "empty answer" : "the answer is not JSON: \(text)")
        }
    }

    /// The start of a body as one line of text, for error messages.
    package static func excerpt(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix(200), as: UTF8.self)
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return bytes.count > 200 ? line + "..." : line
    }
}
