import AsyncHTTPClient
import EthereumPrimitives
import EthereumWire
import Foundation
import NIOCore
import NIOHTTP1

/// JSON-RPC over HTTP(S) with async-http-client: POST with a JSON body, keep-alive connections reused
/// from one process-wide pool, and a deadline on every request (connect, send and the whole answer).
public struct HTTPTransport: RPCTransport {
    /// The node's URL (`http://` or `https://`).
    public let url: String
    /// Seconds a request may take, from connecting to the last byte of the answer.
    public let timeout: Double
    /// Extra headers sent with every request (e.g. an API key).
    public let headers: [(name: String, value: String)]
    /// The largest answer accepted, in bytes.
    public let maxResponseBytes: Int
    private let client: HTTPClient

    public var endpoint: String { url }

    /// The longest per-request time limit accepted, in seconds (a day): longer ones mean a mistake, and every
    /// limit accepted must fit in NIO's 64-bit nanosecond deadline.
    public static let maxTimeout = 86_400.0

    /// Why a URL cannot be used as a node address.
    public struct InvalidURL: Error, Sendable, CustomStringConvertible {
        public let url: String
        public let reason: String
        public var description: String { "invalid node URL \(JSONValue.quote(url)): \(reason)" }
    }

    /// A transport to `url`. `client` defaults to a process-wide client that never gives up on a request
    /// silently: failed connection attempts are reported at once (the ``RetryPolicy`` decides on retries)
    /// rather than retried inside the pool until the deadline.
    public init(
        url: String, timeout: Double = 30, headers: [(name: String, value: String)] = [],
        maxResponseBytes: Int = 64 << 20, client: HTTPClient? = nil
    ) throws(InvalidURL) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased() else {
            throw InvalidURL(url: url, reason: "not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw InvalidURL(url: url, reason: "the scheme must be http or https, not \(scheme)")
        }
        guard let host = parsed.host, !host.isEmpty else { throw InvalidURL(url: url, reason: "no host") }
        guard timeout > 0, timeout <= Self.maxTimeout else {
            throw InvalidURL(url: url, reason: "the timeout must be more than 0 and at most \(Int(Self.maxTimeout)) seconds, not \(timeout)")
        }
        guard maxResponseBytes > 0 else { throw InvalidURL(url: url, reason: "the answer size limit must be positive") }
        self.url = url
        self.timeout = timeout
        self.headers = headers
        self.maxResponseBytes = maxResponseBytes
        self.client = client ?? processWideHTTPClient
    }

    public func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "Accept", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        // The timeout is at most a day (checked in init), so its nanoseconds fit in 64 bits.
        let nanoseconds = Int64(timeout * 1e9)
        let deadline = NIODeadline.now() + .nanoseconds(nanoseconds)
        let end = ContinuousClock.now + .nanoseconds(nanoseconds)
        do {
            let response = try await client.execute(request, deadline: deadline)
            // The client's deadline covers the head only: a node that trickles an endless body is cut here.
            let buffer = try await Self.collect(response.body, upTo: maxResponseBytes, before: end, timeout: timeout)
            let bytes = Array(buffer.readableBytesView)
            guard (200..<300).contains(response.status.code) else {
                let status = Int(response.status.code)
                // Some nodes send JSON-RPC errors with a 4xx/5xx status: those are answers, not HTTP failures. A 429
                // is not: whatever its body says, the node did not look at the request, and it may be retried.
                if status != 429, HTTPTransport.looksLikeJSON(bytes) { return bytes }
                let retryAfter = response.headers.first(name: "Retry-After").flatMap {
                    RetryAfter.seconds($0, now: Date().timeIntervalSince1970)
                }
                throw TransportError.http(status: status, body: JSONRPCResponse.excerpt(bytes), retryAfter: retryAfter)
            }
            return bytes
        } catch let error as TransportError {
            throw error
        } catch {
            throw map(error)
        }
    }

    /// The body, at most `limit` bytes, read before `end`; a `.timeout` after it (the read is cancelled). Also the
    /// auth client's (CarChainKit), so no HTTP answer the project reads can trickle on without end.
    package static func collect(
        _ body: HTTPClientResponse.Body, upTo limit: Int, before end: ContinuousClock.Instant, timeout: Double
    ) async throws -> ByteBuffer {
        try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(until: end, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw TransportError.timeout(seconds: timeout) }
            return buffer
        }
    }

    private func map(_ error: any Error) -> TransportError {
        if error is CancellationError { return .cancelled }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout:
                return .timeout(seconds: timeout)
            case .cancelled:
                return Task.isCancelled ? .cancelled : .timeout(seconds: timeout)
            default:
                return .unreachable(String(describing: error))
            }
        }
        if let error = error as? NIOTooManyBytesError {
            return .unreachable("the answer is larger than \(error.maxBytes.map(String.init) ?? String(maxResponseBytes)) bytes")
        }
        return .unreachable(HTTPTransport.describe(error))
    }

    /// A readable reason for a connection failure (NIO's errors print their whole structure).
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        let lower = text.lowercased()
        if lower.contains("connection refused") || lower.contains("errno: 111") { return "connection refused" }
        if lower.contains("connection reset") || lower.contains("errno: 104") { return "connection reset by peer" }
        if lower.contains("remoteconnectionclosed") { return "the node closed the connection without answering" }
        if lower.contains("could not resolve") || lower.contains("name or service not known") { return "unknown host" }
        return text
    }

    static func looksLikeJSON(_ bytes: [UInt8]) -> Bool {
        let first = bytes.first { $0 != 0x20 && $0 != 0x0a && $0 != 0x0d && $0 != 0x09 }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

}

/// The process-wide client behind ``HTTPTransport`` (never shut down, like `HTTPClient.shared`): keep-alive
/// pool, no redirects (a JSON-RPC POST must not be replayed elsewhere), and no connection retries inside the
/// pool, so a dead node fails fast and the caller's ``RetryPolicy`` decides.
private let processWideHTTPClient: HTTPClient = {
    var configuration = HTTPClient.Configuration()
    configuration.redirectConfiguration = .disallow
    configuration.connectionPool.retryConnectionEstablishment = false
    configuration.connectionPool.idleTimeout = .seconds(30)
    configuration.timeout = .init(connect: .seconds(10))
    configuration.decompression = .disabled
    return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
}()
