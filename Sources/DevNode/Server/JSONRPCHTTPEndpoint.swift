import Hummingbird
import NIOCore
import NIOHTTPTypes

/// JSON-RPC on `POST /`, answered inside the connection's channel pipeline: the request's parts are gathered here and
/// its answer is written back here, and every other request (the auth service, the web app, `OPTIONS` preflights)
/// goes on to Hummingbird's router. A request that Hummingbird answers passes through Hummingbird's asynchronous
/// request machinery (an async sequence of parts per connection, the router, the middleware chain, a response writer),
/// which costs about 80 µs of CPU per request on the machine of docs/CHAIN.md's figures; answering here skips it, and
/// JSON-RPC is nearly all of a node's traffic.
///
/// What the route did, this does:
/// - the ``HTTPAccessPolicy`` first (403 with its reason; CORS headers on the answer);
/// - a body over the handler's limit gets a JSON-RPC error with 413 as soon as it is known (from `Content-Length` or
///   from the bytes received), and the connection is closed: the rest is never read;
/// - a body not received within `bodyTimeout` of its headers gets 408 and the connection is closed;
/// - only notifications: 204 without a body; else 200 and the answer as `application/json`;
/// - `Connection: close` on the request closes the connection after the answer.
///
/// The connection's idle timeout and graceful shutdown stay Hummingbird's `HTTPConnectionStateHandler`'s: the node
/// places one in front of this handler, so that it sees every request of the connection, this one's and the router's.
/// Answers go out in the order of the requests: a request that arrives before the answer to the one before it has
/// ended (HTTP pipelining) is held here, whoever answers either, so at most one request per connection is in progress.
final class JSONRPCHTTPEndpoint: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let handler: NodeRPCHandler
    private let policy: HTTPAccessPolicy
    private let bodyTimeout: Duration

    private enum State {
        /// Between requests.
        case idle
        /// A request for the router: its parts go on.
        case passing
        /// A JSON-RPC request's body arriving (into `body`); `cors` is what its answer carries.
        case reading(cors: HTTPFields, close: Bool)
        /// Refused by the access policy: the body is dropped, the answer goes at its end, and the connection stays.
        case refusing(HTTPResponse, body: String, close: Bool)
        /// The answer is being worked out.
        case answering
        /// Answered early (413, 408); the connection closes and nothing more is read.
        case closing
    }

    private var state = State.idle
    /// Whether a request's answer (this handler's or the router's) has not ended yet.
    private var answerPending = false
    /// Parts of the requests after it, held until it ends: answers go in the order of the requests.
    private var held = CircularBuffer<HTTPRequestPart>()
    /// Whether a read from the socket was asked for while requests were held (and not passed on, so that a client
    /// sending request after request without reading answers is not read without bound).
    private var readDeferred = false
    private var draining = false
    /// Whether the router's answer being written says `Connection: close`.
    private var routerAnswerCloses = false
    /// Whether the client closed its side of the connection (a half-close) while a request of its was held or
    /// answered here: the router, told at once, would end the connection before those answers went out.
    private var inputClosedDeferred = false
    /// The body of the request being read.
    private var body = ByteBuffer()
    private var deadline: Scheduled<Void>?

    init(handler: NodeRPCHandler, policy: HTTPAccessPolicy, bodyTimeout: Duration) {
        self.handler = handler
        self.policy = policy
        self.bodyTimeout = bodyTimeout
    }

    /// Whether Hummingbird's router had this request at `POST /` (its path without the query).
    static func isJSONRPC(_ head: HTTPRequest) -> Bool {
        guard head.method == .post, let path = head.path else { return false }
        return path == "/" || path.hasPrefix("/?")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        // Hummingbird's HTTP/1 channel runs without NIO's pipelining assistance (its own loop reads one request at a
        // time), so a client's pipelined requests arrive here at once: each waits for the answer before it.
        if case .head = part, answerPending { return held.append(part) }
        guard held.isEmpty else { return held.append(part) }
        process(part, context: context)
    }

    /// The router's answers pass here too: their ends release held requests, and an answer that says
    /// `Connection: close` (the routes' 413 and 408, sent before the body was read) closes the connection after it.
    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let head):
            if head.headerFields[.connection]?.lowercased().contains("close") == true { routerAnswerCloses = true }
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard routerAnswerCloses else {
                context.write(data, promise: promise)
                return answerEnded(context: context)
            }
            state = .closing
            endAndClose(data, promise: promise, context: context)
        }
    }

    /// Writes an answer's end, then closes the connection; nothing held behind it will be answered.
    private func endAndClose(_ end: NIOAny, promise: EventLoopPromise<Void>?, context: ChannelHandlerContext) {
        held.removeAll()
        let channel = context.channel
        let written = promise ?? context.eventLoop.makePromise()
        written.futureResult.whenComplete { _ in channel.close(promise: nil) }
        context.writeAndFlush(end, promise: written)
    }

    /// Whether the current request is this handler's (being read, refused or answered).
    private var requestIsHere: Bool {
        switch state {
        case .reading, .refusing, .answering: true
        case .idle, .passing, .closing: false
        }
    }

    /// A client that half-closes after its request still gets the answer: the router hears of the closed input only
    /// once nothing before it is held or answered here.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let channelEvent = event as? ChannelEvent, channelEvent == .inputClosed else {
            return context.fireUserInboundEventTriggered(event)
        }
        // The body of a request being read can no longer arrive.
        if case .reading = state { return context.close(promise: nil) }
        if requestIsHere || !held.isEmpty { inputClosedDeferred = true } else { context.fireUserInboundEventTriggered(event) }
    }

    func read(context: ChannelHandlerContext) {
        if held.isEmpty { context.read() } else { readDeferred = true }
    }

    /// A request's answer has ended: the requests held behind it go on, until one of them awaits its own answer.
    private func answerEnded(context: ChannelHandlerContext) {
        answerPending = false
        guard !draining else { return }
        draining = true
        defer { draining = false }
        var passed = false
        // Handlers behind (Hummingbird's async channel) take what was read at the end of a read: so each release ends
        // with one.
        defer { if passed { context.fireChannelReadComplete() } }
        while let next = held.first {
            if case .head = next, answerPending { return }
            held.removeFirst()
            if process(next, context: context) { passed = true }
        }
        if inputClosedDeferred, !requestIsHere {
            inputClosedDeferred = false
            context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
        }
        if readDeferred {
            readDeferred = false
            context.read()
        }
    }

    /// Takes one part of a request; true when it went on to the router.
    @discardableResult
    private func process(_ part: HTTPRequestPart, context: ChannelHandlerContext) -> Bool {
        if case .head = part { answerPending = true }
        switch (state, part) {
        case (.idle, .head(let head)):
            guard Self.isJSONRPC(head) else {
                state = .passing
                context.fireChannelRead(wrapInboundOut(part))
                return true
            }
            start(head, context: context)
        case (.passing, _):
            if case .end = part { state = .idle }
            context.fireChannelRead(wrapInboundOut(part))
            return true
        case (.reading, .body(var bytes)):
            guard body.readableBytes + bytes.readableBytes <= handler.limits.maxBodyBytes else {
                closeEarly(.contentTooLarge, "body larger than \(handler.limits.maxBodyBytes) bytes", context: context)
                return false
            }
            body.writeBuffer(&bytes)
        case (.reading(let cors, let close), .end):
            deadline?.cancel()
            deadline = nil
            state = .answering
            let bytes = Array(body.readableBytesView)
            // A keep-alive connection keeps its buffer for the next request, unless a large body grew it.
            if body.capacity > 1 << 16 { body = ByteBuffer() } else { body.clear() }
            answer(bytes, cors: cors, close: close, context: context)
        case (.refusing(let response, let text, let close), .end):
            state = close ? .closing : .idle
            send(response, body: ByteBuffer(string: text), close: close, context: context)
        case (.refusing, _), (.closing, _):
            break
        case (.idle, _), (.reading, .head), (.answering, _):
            // NIO's HTTP decoder never sends these, and requests behind an answer are held; a request out of order
            // ends the connection rather than being answered out of order.
            context.close(promise: nil)
        }
        return false
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func start(_ head: HTTPRequest, context: ChannelHandlerContext) {
        let close = head.headerFields[.connection]?.lowercased().contains("close") == true
        switch policy.admission(host: head.authority, origin: head.headerFields[.origin]) {
        case .refused(let text):
            state = .refusing(
                HTTPResponse(status: .forbidden, headerFields: [.contentType: "text/plain; charset=utf-8"]), body: text,
                close: close)
        case .allowed(let cors):
            let limit = handler.limits.maxBodyBytes
            if let length = head.headerFields[.contentLength].flatMap({ Int($0) }), length > limit {
                return closeEarly(.contentTooLarge, "body larger than \(limit) bytes", context: context)
            }
            body.clear()
            state = .reading(cors: cors, close: close)
            let timeout = bodyTimeout
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            deadline = context.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
                let (endpoint, context) = bound.value
                guard case .reading = endpoint.state else { return }
                endpoint.deadline = nil
                endpoint.closeEarly(.requestTimeout, "request body not received within \(timeout)", context: context)
            }
        }
    }

    /// Answers with a JSON-RPC error and `status` before the request has ended, then closes the connection.
    private func closeEarly(_ status: HTTPResponse.Status, _ message: String, context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        state = .closing
        let failure = NodeRPCHandler.errorResponse(id: .null, .invalidRequest(message))
        send(
            HTTPResponse(status: status, headerFields: [.contentType: "application/json"]),
            body: ByteBuffer(string: failure.description), close: true, context: context)
    }

    private func answer(_ body: [UInt8], cors: HTTPFields, close: Bool, context: ChannelHandlerContext) {
        let handler = self.handler
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.makeFutureWithTask { await handler.handle(body) }.whenSuccess { answer in
            let (endpoint, context) = bound.value
            guard case .answering = endpoint.state else { return }
            endpoint.state = close ? .closing : .idle
            var head = HTTPResponse(status: answer.isEmpty ? .noContent : .ok, headerFields: cors)
            // Only notifications: nothing to answer (JSON-RPC over HTTP: 204 No Content).
            if !answer.isEmpty { head.headerFields[.contentType] = "application/json" }
            endpoint.send(head, body: answer.isEmpty ? nil : ByteBuffer(bytes: answer), close: close, context: context)
        }
    }

    private func send(_ head: HTTPResponse, body: ByteBuffer?, close: Bool, context: ChannelHandlerContext) {
        var head = head
        if let body { head.headerFields[.contentLength] = String(body.readableBytes) }
        if close { head.headerFields[.connection] = "close" }
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
        if close {
            endAndClose(wrapOutboundOut(.end(nil)), promise: nil, context: context)
        } else {
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            answerEnded(context: context)
        }
    }
}
