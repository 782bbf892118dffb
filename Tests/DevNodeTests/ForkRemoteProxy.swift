import EthereumRPC
import EthereumWire
import Foundation
import Hummingbird
import Logging

/// A stand-in HTTP proxy on a loopback port between a forked node (B) and its remote (A), for the fork's process
/// tests: it forwards each JSON-RPC body to the current upstream and counts what it forwarded (every request that
/// reached A), unless the test's script answers in its place — HTTP 429 with a `Retry-After`, a JSON-RPC error —
/// or kills A first. The upstream can be switched (A replaced by a node of another chain id at the same URL).
final class ForkRemoteProxy: @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `lock`; the task is set once in start().
    /// What the proxy does with one request.
    enum Action: Sendable {
        /// Sends it on to the upstream (502 when the upstream cannot be reached).
        case forward
        /// Answers in the upstream's place.
        case reply(status: Int, body: String, retryAfter: String?)
        /// Sends it on (the request rewritten first) and answers with the upstream's answer rewritten (a remote whose
        /// answers differ from it).
        case forwardRewriting(request: @Sendable (String) -> String, answer: @Sendable (String) -> String)
    }

    /// Decides what to do with request number `index` (0-based) and its body.
    typealias Script = @Sendable (_ index: Int, _ body: String) -> Action

    private let lock = NSLock()
    private var upstreamURL: String
    private var script: Script
    private var received = 0
    private var forwardedCount = 0
    private var log: [(body: String, status: Int, at: ContinuousClock.Instant)] = []
    private var task: Task<Void, Never>?
    private(set) var url = ""

    private init(upstream: String) {
        self.upstreamURL = upstream
        self.script = { _, _ in .forward }
    }

    /// Starts a proxy to `upstream` on a free port of 127.0.0.1.
    static func start(upstream: String) async throws -> ForkRemoteProxy {
        let proxy = ForkRemoteProxy(upstream: upstream)
        let router = Router()
        router.post("/") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 64 << 20)
            return await proxy.handle(Array(body.readableBytesView))
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "fork-remote-proxy")
        logger.logLevel = .error
        let app = Application(
            router: router, configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) }, logger: logger)
        proxy.task = Task { try? await app.runService(gracefulShutdownSignals: []) }
        var iterator = stream.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else { throw ProxyError("the proxy did not start") }
        proxy.url = "http://127.0.0.1:\(port)"
        return proxy
    }

    struct ProxyError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    func stop() { task?.cancel() }

    /// Replaces the script (from the next request on).
    func script(_ script: @escaping Script) { lock.withLock { self.script = script } }

    /// Sends later requests to another node.
    func switchUpstream(to url: String) { lock.withLock { upstreamURL = url } }

    /// Requests forwarded to the upstream so far.
    var forwarded: Int { lock.withLock { forwardedCount } }

    /// Every request so far: its body, the status answered and when.
    var history: [(body: String, status: Int, at: ContinuousClock.Instant)] { lock.withLock { log } }

    private func handle(_ body: [UInt8]) async -> Response {
        let text = String(decoding: body, as: UTF8.self)
        let (index, script, upstream) = lock.withLock { () -> (Int, Script, String) in
            defer { received += 1 }
            return (received, self.script, upstreamURL)
        }
        let response: (status: Int, body: [UInt8], retryAfter: String?)
        let action = script(index, text)
        switch action {
        case .reply(let status, let reply, let retryAfter):
            response = (status, Array(reply.utf8), retryAfter)
        case .forward, .forwardRewriting:
            do {
                let transport = try HTTPTransport(url: upstream, timeout: 60, maxResponseBytes: 256 << 20)
                lock.withLock { forwardedCount += 1 }
                var request = body
                if case .forwardRewriting(let rewrite, _) = action { request = Array(rewrite(text).utf8) }
                var answer = try await transport.send(request)
                if case .forwardRewriting(_, let rewrite) = action {
                    answer = Array(rewrite(String(decoding: answer, as: UTF8.self)).utf8)
                }
                response = (200, answer, nil)
            } catch {
                response = (502, Array("upstream unreachable: \(error)".utf8), nil)
            }
        }
        lock.withLock { log.append((text, response.status, ContinuousClock.now)) }
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        if let retryAfter = response.retryAfter { headers[.retryAfter] = retryAfter }
        return Response(
            status: HTTPResponse.Status(code: response.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}
