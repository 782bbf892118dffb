import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A tiny HTTP server on 127.0.0.1 for the client's unit tests: every POST body goes to a script, which
/// says what to answer (status, body, delay) or to drop the connection without answering. Request bodies
/// are recorded in order.
final class ScriptedHTTPServer: Sendable {
    /// What the server does with one request.
    struct Reply: Sendable {
        var status: Int = 200
        var body: [UInt8] = []
        /// Extra response headers (e.g. `Retry-After`).
        var headers: [(name: String, value: String)] = []
        /// Seconds to wait before answering.
        var delay: Double = 0
        /// Close the connection instead of answering.
        var drop = false
        /// Instead of `body`, send `chunk` after the head and again every `interval` seconds until the client
        /// goes away: an answer that never ends. `declaredLength` is sent as Content-Length (a lie, e.g. 1 GB);
        /// without it the body is chunked.
        var stream: Stream?

        struct Stream: Sendable {
            var chunk: [UInt8]
            var interval: Double
            var declaredLength: Int?
        }

        static func endless(_ chunk: [UInt8], every interval: Double, declaredLength: Int? = nil) -> Reply {
            Reply(stream: Stream(chunk: chunk, interval: interval, declaredLength: declaredLength))
        }

        static func json(_ text: String, status: Int = 200, headers: [(name: String, value: String)] = []) -> Reply {
            Reply(status: status, body: Array(text.utf8), headers: headers)
        }
        static let dropConnection = Reply(drop: true)
        static func hang(seconds: Double) -> Reply { Reply(body: Array("{}".utf8), delay: seconds) }
    }

    /// Decides the reply to request number `index` (0-based) with this body.
    typealias Script = @Sendable (_ index: Int, _ body: [UInt8]) -> Reply

    private let channel: any Channel
    private let recorded: NIOLockedValueBox<[[UInt8]]>
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }

    /// The request bodies received so far, as text.
    var requests: [String] { recorded.withLockedValue { $0.map { String(decoding: $0, as: UTF8.self) } } }

    private init(channel: any Channel, recorded: NIOLockedValueBox<[[UInt8]]>, port: Int) {
        self.channel = channel
        self.recorded = recorded
        self.port = port
    }

    static func start(_ script: @escaping Script) async throws -> ScriptedHTTPServer {
        let recorded = NIOLockedValueBox<[[UInt8]]>([])
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(ScriptHandler(script: script, recorded: recorded))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        guard let port = channel.localAddress?.port else { throw ServerError.noPort }
        return ScriptedHTTPServer(channel: channel, recorded: recorded, port: port)
    }

    func stop() async {
        try? await channel.close()
    }

    enum ServerError: Error { case noPort }
}

private final class ScriptHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let script: ScriptedHTTPServer.Script
    private let recorded: NIOLockedValueBox<[[UInt8]]>
    private var body: [UInt8] = []

    init(script: @escaping ScriptedHTTPServer.Script, recorded: NIOLockedValueBox<[[UInt8]]>) {
        self.script = script
        self.recorded = recorded
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            body = []
        case .body(let buffer):
            body += buffer.readableBytesView
        case .end:
            let index = recorded.withLockedValue { list in
                list.append(body)
                return list.count - 1
            }
            let reply = script(index, body)
            if reply.drop {
                context.close(promise: nil)
                return
            }
            let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            context.eventLoop.scheduleTask(in: .nanoseconds(Int64(reply.delay * 1e9))) {
                let (handler, context) = loopBound.value
                handler.respond(reply, context: context)
            }
        }
    }

    private func respond(_ reply: ScriptedHTTPServer.Reply, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        if let stream = reply.stream {
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/json")
            if let length = stream.declaredLength {
                headers.add(name: "Content-Length", value: String(length))
            } else {
                headers.add(name: "Transfer-Encoding", value: "chunked")
            }
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
            streamChunk(stream, context: context)
            return
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        headers.add(name: "Content-Length", value: String(reply.body.count))
        for (name, value) in reply.headers { headers.add(name: name, value: value) }
        let head = HTTPResponseHead(version: .http1_1, status: HTTPResponseStatus(statusCode: reply.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: reply.body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    /// Writes one chunk of an endless answer and schedules the next, while the client listens.
    private func streamChunk(_ stream: ScriptedHTTPServer.Reply.Stream, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: stream.chunk)))), promise: nil)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        context.eventLoop.scheduleTask(in: .nanoseconds(Int64(stream.interval * 1e9))) {
            let (handler, context) = loopBound.value
            handler.streamChunk(stream, context: context)
        }
    }
}
