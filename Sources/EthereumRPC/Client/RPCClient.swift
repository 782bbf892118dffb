import EthereumPrimitives
import EthereumWire

/// A JSON-RPC 2.0 client for Ethereum nodes: sends typed calls (``RPCMethods``) and batches over an
/// `RPCTransport`, matches answers to requests by id, maps failures to ``RPCError`` (keeping the layer
/// they came from) and retries idempotent reads after transport failures under a ``RetryPolicy``.
///
/// The typed methods (`chainID()`, `balance(of:at:)`, `call(_:at:)`, ...) are in `RPCClient+Eth.swift`.
public struct RPCClient: Sendable {
    /// Carries request bodies to the node.
    public let transport: any RPCTransport
    /// Retries for idempotent reads.
    public var retryPolicy: RetryPolicy

    /// A client over any transport.
    public init(transport: any RPCTransport, retryPolicy: RetryPolicy = .default) {
        self.transport = transport
        self.retryPolicy = retryPolicy
    }

    /// A client for a node's HTTP(S) URL; `timeout` bounds each request, in seconds.
    public init(url: String, timeout: Double = 30, retryPolicy: RetryPolicy = .default) throws(HTTPTransport.InvalidURL) {
        self.init(transport: try HTTPTransport(url: url, timeout: timeout), retryPolicy: retryPolicy)
    }

    /// Where the client sends requests.
    public var endpoint: String { transport.endpoint }

    /// Sends one call and reads its result, retrying as the policy allows.
    public func send<Value>(_ call: RPCMethodCall<Value>) async throws(RPCError) -> Value {
        try await withRetries(idempotent: call.isIdempotent) { () async throws(RPCError) -> Value in
            try await self.sendOnce(call)
        }
    }

    /// Sends a raw call and returns its result as JSON (for methods without a typed wrapper).
    public func request(_ method: String, _ params: [JSONValue] = [], idempotent: Bool = false) async throws(RPCError) -> JSONValue {
        try await send(RPCMethodCall(method: method, params: params, isIdempotent: idempotent) { $0 })
    }

    /// Sends calls of one result type as a single JSON-RPC batch. Answers are matched to calls by id, in
    /// any order; each call gets its own result or error. The whole batch fails only when the transport
    /// fails or the answer is not a batch answer at all; it is retried only if every call is idempotent.
    public func batch<Value>(_ calls: [RPCMethodCall<Value>]) async throws(RPCError) -> [Result<Value, RPCError>] {
        if calls.isEmpty { return [] }
        let idempotent = calls.allSatisfy(\.isIdempotent)
        return try await withRetries(idempotent: idempotent) { () async throws(RPCError) -> [Result<Value, RPCError>] in
            try await self.batchOnce(calls)
        }
    }

    // One attempt

    private func sendOnce<Value>(_ call: RPCMethodCall<Value>) async throws(RPCError) -> Value {
        let request = JSONRPCRequest(id: 1, method: call.method, params: call.params)
        let body = try await exchange(JSONRPCRequest.body(request), method: call.method)
        let document: JSONValue
        let response: JSONRPCResponse
        do throws(WireError) {
            document = try JSONRPCResponse.parseBody(body)
            if case .array = document { throw WireError("a batch answer to a single request") }
            response = try JSONRPCResponse(json: document)
        } catch {
            throw .decoding(method: call.method, what: error.what)
        }
        if response.intID != request.id, !(response.id.isNull && response.isFailure) {
            throw .decoding(method: call.method, what: "the answer's id \(response.id) does not match the request's \(request.id)")
        }
        return try RPCClient.result(of: call, from: response)
    }

    private func batchOnce<Value>(_ calls: [RPCMethodCall<Value>]) async throws(RPCError) -> [Result<Value, RPCError>] {
        let requests = calls.enumerated().map { JSONRPCRequest(id: $0.offset + 1, method: $0.element.method, params: $0.element.params) }
        let label = "batch of \(calls.count)"
        let body = try await exchange(JSONRPCRequest.batchBody(requests), method: label)
        var byID: [Int: JSONRPCResponse] = [:]
        do {
            let document = try JSONRPCResponse.parseBody(body)
            guard case .array(let items) = document else {
                // A server that cannot read the batch answers with one error object (e.g. -32600).
                let single = try JSONRPCResponse(json: document)
                if case .failure(let error) = single.outcome {
                    throw RPCError.jsonRPC(code: error.code, message: error.message, data: error.data, method: label)
                }
                throw WireError("expected an array of answers")
            }
            for (i, item) in items.enumerated() {
                let response: JSONRPCResponse
                do { response = try JSONRPCResponse(json: item) } catch { throw error.inside("answers[\(i)]") }
                guard let id = response.intID, (1...calls.count).contains(id) else {
                    throw WireError("answers[\(i)]: id \(response.id) matches no request")
                }
                guard byID[id] == nil else { throw WireError("answers[\(i)]: id \(id) answered twice") }
                byID[id] = response
            }
        } catch let error as RPCError {
            throw error
        } catch let error as WireError {
            throw .decoding(method: label, what: error.what)
        } catch {
            throw .decoding(method: label, what: String(describing: error))
        }
        return calls.enumerated().map { offset, call in
            guard let response = byID[offset + 1] else {
                return .failure(.decoding(method: call.method, what: "the batch answer has no answer for id \(offset + 1)"))
            }
            return Result { () throws(RPCError) -> Value in try RPCClient.result(of: call, from: response) }
        }
    }

    private static func result<Value>(of call: RPCMethodCall<Value>, from response: JSONRPCResponse) throws(RPCError) -> Value {
        switch response.outcome {
        case .failure(let error):
            throw RPCClient.map(error, method: call.method)
        case .success(let json):
            do { return try call.decode(json) } catch { throw .decoding(method: call.method, what: error.what) }
        }
    }

    /// A JSON-RPC error object as an ``RPCError``: a revert when the node says the code reverted (code 3,
    /// or a message saying so) — with the revert data when it sent some — else the error as sent.
    public static func map(_ error: JSONRPCErrorObject, method: String) -> RPCError {
        let saysReverted = error.code == JSONRPCErrorCode.executionReverted || error.message.lowercased().contains("revert")
        if saysReverted {
            if let text = error.data?.stringValue, Hex.hasPrefix(text), let bytes = try? Hex.decode(text) {
                return .reverted(RevertError(data: bytes, nodeMessage: error.message, method: method))
            }
            // Some nodes put the data in an object ({"data": "0x..."}); others send none for an empty revert.
            if let text = error.data?["data"]?.stringValue, Hex.hasPrefix(text), let bytes = try? Hex.decode(text) {
                return .reverted(RevertError(data: bytes, nodeMessage: error.message, method: method))
            }
            if error.data == nil || error.data?.isNull == true {
                return .reverted(RevertError(data: [], nodeMessage: error.message, method: method))
            }
        }
        return .jsonRPC(code: error.code, message: error.message, data: error.data, method: method)
    }

    private func exchange(_ body: [UInt8], method: String) async throws(RPCError) -> [UInt8] {
        do {
            return try await transport.send(body)
        } catch {
            throw .transport(error, method: method, endpoint: transport.endpoint)
        }
    }

    private func withRetries<T>(idempotent: Bool, _ attempt: () async throws(RPCError) -> T) async throws(RPCError) -> T {
        var retry = 0
        while true {
            do {
                return try await attempt()
            } catch {
                retry += 1
                guard retry < retryPolicy.maxAttempts, retryPolicy.shouldRetry(error, idempotent: idempotent),
                    let delay = retryPolicy.delay(after: error, retry: retry, random: Double.random(in: 0..<1))
                else { throw error }
                try await pause(seconds: delay, after: error)
            }
        }
    }

    /// Sleeps between attempts; cancellation ends the wait with the failure that caused it.
    func pause(seconds: Double, after failure: RPCError) async throws(RPCError) {
        do {
            try await Task.sleep(nanoseconds: Self.nanoseconds(seconds))
        } catch {
            throw .transport(.cancelled, method: RPCClient.method(of: failure), endpoint: transport.endpoint)
        }
    }

    /// `seconds` as nanoseconds for a sleep, saturating: negative or NaN is 0, anything past 2^64 ns (584 years)
    /// is the maximum, so a policy with absurd delays waits long instead of trapping.
    static func nanoseconds(_ seconds: Double) -> UInt64 {
        let value = seconds * 1e9
        guard value > 0 else { return 0 }
        return value < 18_446_744_073_709_551_615.0 ? UInt64(value) : .max
    }

    static func method(of error: RPCError) -> String {
        switch error {
        case .transport(_, let method, _), .jsonRPC(_, _, _, let method), .decoding(let method, _): return method
        case .reverted(let revert): return revert.method
        }
    }
}

extension JSONRPCResponse {
    var isFailure: Bool {
        if case .failure = outcome { return true }
        return false
    }
}
