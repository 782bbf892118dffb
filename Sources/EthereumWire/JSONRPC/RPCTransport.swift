/// Moves one JSON-RPC request body to a node and its response body back. The client does the JSON-RPC
/// work (envelopes, ids, batches, errors, retries); a transport only carries bytes, so an HTTP transport
/// and an in-process one (a node in the same process) are interchangeable.
public protocol RPCTransport: Sendable {
    /// Where requests go, for error messages (a URL, or e.g. `"in-process node"`).
    var endpoint: String { get }

    /// Sends one request body (a JSON-RPC request or batch) and returns the response body.
    func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8]
}

/// Why a transport could not deliver a request or bring its answer back.
public enum TransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The node could not be reached or the connection failed before an answer (refused, reset, DNS, TLS).
    case unreachable(String)
    /// No complete answer within this many seconds.
    case timeout(seconds: Double)
    /// An HTTP status other than 2xx whose body is not a JSON-RPC answer (or any 429: a rate limit is never an
    /// answer to the request); `body` is an excerpt. `retryAfter` is the server's `Retry-After`, in seconds
    /// from when the answer came, when it sent one that could be read.
    case http(status: Int, body: String, retryAfter: Double? = nil)
    /// The calling task was cancelled.
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let reason): return reason
        case .timeout(let seconds): return "no answer within \(TransportError.format(seconds)) s"
        case .http(let status, let body, let retryAfter):
            let wait = retryAfter.map { " (retry after \(TransportError.format($0)) s)" } ?? ""
            return body.isEmpty ? "HTTP \(status)\(wait)" : "HTTP \(status)\(wait): \(body)"
        case .cancelled: return "cancelled"
        }
    }

    /// Seconds without a trailing ".0" (`2`, `0.5`).
    package static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
