import EthereumPrimitives
import EthereumWire
import Foundation
import HummingbirdWSClient
import Logging

/// JSON-RPC over one WebSocket connection (`ws://` or `wss://`), with hummingbird-websocket's client: an
/// `RPCTransport` for ordinary calls, plus the `eth_subscription` notifications the node pushes on the same
/// connection (``notifications``).
///
/// One request is in flight at a time and the next message that is not a notification is its answer, so the
/// ids ``RPCClient`` picks never have to be rewritten, whatever order a node answers concurrent requests in.
/// When the connection ends (the node closed it, or it broke) the pending request fails with
/// `TransportError.unreachable(_:)` naming the close code, and ``notifications`` finishes.
public actor WebSocketTransport: SubscribingTransport {
    public nonisolated let endpoint: String
    /// Seconds a request may wait for its answer.
    public let timeout: Double
    /// The `eth_subscription` messages (their `params` member), in the order they arrived.
    public nonisolated let notifications: AsyncStream<JSONValue>
    private let notify: AsyncStream<JSONValue>.Continuation

    private var outbound: WebSocketOutboundWriter?
    private var pending: CheckedContinuation<[UInt8], any Error>?
    /// Callers waiting for their turn to send.
    private var queue: [CheckedContinuation<Void, Never>] = []
    private var busy = false
    /// Why the connection is gone; nil while it is open.
    private var ended: String?
    private var connected: CheckedContinuation<Void, any Error>?
    private var runner: Task<Void, Never>?

    /// The largest message accepted or sent, as ``HTTPTransport``'s answer limit.
    public static let maxMessageBytes = 64 << 20

    private init(endpoint: String, timeout: Double) {
        self.endpoint = endpoint
        self.timeout = timeout
        (notifications, notify) = AsyncStream<JSONValue>.makeStream()
    }

    /// Opens the connection (the HTTP upgrade included) within `timeout` seconds.
    public static func connect(url: String, timeout: Double) async throws(TransportError) -> WebSocketTransport {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "ws" || scheme == "wss",
            parsed.host?.isEmpty == false
        else {
            throw .unreachable("invalid WebSocket URL \(JSONValue.quote(url)): expected ws://HOST:PORT or wss://HOST:PORT")
        }
        let transport = WebSocketTransport(endpoint: url, timeout: timeout)
        do {
            try await transport.open()
        } catch let error as TransportError {
            throw error
        } catch {
            throw .unreachable("\(url): \(error)")
        }
        return transport
    }

    private func open() async throws {
        let endpoint = self.endpoint
        // The connection's task holds the transport until the connection ends (``close()`` ends it).
        let transport = self
        let deadline = Task { [weak self] in
            try? await Task.sleep(for: .seconds(self?.timeout ?? 30))
            await self?.connectFailed(TransportError.timeout(seconds: self?.timeout ?? 30))
        }
        defer { deadline.cancel() }
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            connected = continuation
            runner = Task {
                var logger = Logger(label: "carchain.rpc.websocket")
                logger.logLevel = .critical
                let configuration = WebSocketClientConfiguration(maxFrameSize: WebSocketTransport.maxMessageBytes)
                do {
                    let close = try await WebSocketClient.connect(url: endpoint, configuration: configuration, logger: logger) {
                        inbound, outbound, _ in
                        await transport.opened(outbound)
                        do {
                            for try await message in inbound.messages(maxSize: WebSocketTransport.maxMessageBytes) {
                                switch message {
                                case .text(let text): await transport.received(Array(text.utf8))
                                case .binary(let buffer): await transport.received(Array(buffer.readableBytesView))
                                }
                            }
                        } catch {
                            await transport.finish("the connection broke: \(error)")
                        }
                    }
                    let why = close.map { frame in
                        "the node closed the connection (\(frame.closeCode)\(frame.reason.map { ": \($0)" } ?? ""))"
                    }
                    await transport.finish(why ?? "the node closed the connection")
                } catch {
                    await transport.finish(WebSocketTransport.describe(error, url: endpoint))
                }
            }
        }
    }

    /// A connection failure in one line (`connection refused`, not NIO's type dump).
    nonisolated static func describe(_ error: any Error, url: String) -> String {
        let text = String(describing: error)
        if text.contains("WebSocket upgrade failed") { return "\(url) does not accept WebSocket connections (upgrade refused)" }
        if text.lowercased().contains("connection refused") || text.contains("ECONNREFUSED") {
            return "cannot reach \(url): connection refused"
        }
        return "cannot reach \(url): \(text.split(separator: "\n").first.map(String.init) ?? text)"
    }

    private func opened(_ writer: WebSocketOutboundWriter) {
        outbound = writer
        connected?.resume()
        connected = nil
    }

    private func connectFailed(_ error: TransportError) {
        guard let connected else { return }
        self.connected = nil
        connected.resume(throwing: error)
        runner?.cancel()
    }

    private func received(_ body: [UInt8]) {
        if let json = try? JSONValue(parsing: body), json["method"]?.stringValue == "eth_subscription", let params = json["params"] {
            notify.yield(params)
            return
        }
        pending?.resume(returning: body)
        pending = nil
    }

    /// Records why the connection ended, fails whatever waits, and ends ``notifications``.
    private func finish(_ reason: String) {
        if ended == nil { ended = reason }
        connected?.resume(throwing: TransportError.unreachable(reason))
        connected = nil
        pending?.resume(throwing: TransportError.unreachable(reason))
        pending = nil
        outbound = nil
        notify.finish()
    }

    /// Why the connection ended, nil while it is open.
    public var endReason: String? { ended }

    public func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        if Task.isCancelled { throw .cancelled }
        await takeTurn()
        defer { endTurn() }
        if let ended { throw .unreachable(ended) }
        guard let outbound else { throw .unreachable("not connected") }
        let seconds = timeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: .seconds(seconds))
            await self?.timedOut(seconds)
        }
        defer { timer.cancel() }
        do {
            return try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8], any Error>) in
                pending = continuation
                Task { [weak self] in
                    do {
                        try await outbound.write(.text(String(decoding: body, as: UTF8.self)))
                    } catch {
                        await self?.finish("the connection broke: \(error)")
                    }
                }
            }
        } catch let error as TransportError {
            throw error
        } catch {
            throw .unreachable(String(describing: error))
        }
    }

    /// A late answer would be taken for the next request's, so a request that times out ends the connection.
    private func timedOut(_ seconds: Double) {
        guard let pending else { return }
        self.pending = nil
        pending.resume(throwing: TransportError.timeout(seconds: seconds))
        finish(TransportError.timeout(seconds: seconds).description)
        runner?.cancel()
    }

    private func takeTurn() async {
        if !busy {
            busy = true
            return
        }
        await withCheckedContinuation { queue.append($0) }
    }

    private func endTurn() {
        if queue.isEmpty {
            busy = false
        } else {
            queue.removeFirst().resume()
        }
    }

    /// Closes the connection normally.
    public func close() async {
        if let outbound { try? await outbound.close(.normalClosure, reason: nil) }
        finish("closed")
        runner?.cancel()
    }
}
