import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore

/// Closes a connection whose first request head (everything up to the blank line after the headers) has not
/// arrived within a deadline. With a WebSocket upgrade on the port, Hummingbird installs its idle handler only
/// once the first head decides between HTTP and WebSocket, so without this a client that sends half a header
/// and stops would hold its connection forever (slowloris). Once the head is complete the handler removes
/// itself: later requests are timed by Hummingbird's idle timeout, WebSocket frames by its pings.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let deadline: TimeAmount
    private var timer: Scheduled<Void>?
    /// The last bytes seen, to find "\r\n\r\n" across reads.
    private var tail: [UInt8] = []
    private var done = false

    init(deadline: TimeAmount) { self.deadline = deadline }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    private func arm(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: deadline) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !done else { return context.fireChannelRead(data) }
        let buffer = unwrapInboundIn(data)
        for byte in buffer.readableBytesView {
            tail.append(byte)
            if tail.count > 4 { tail.removeFirst() }
            if tail == [13, 10, 13, 10] {
                done = true
                break
            }
        }
        context.fireChannelRead(data)
        if done {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }
}

/// Hummingbird's HTTP/1 channel with the WebSocket upgrade, behind a ``RequestHeadDeadline``.
struct DeadlinedUpgradeChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value
    let inner: HTTP1WebSocketUpgradeChannel
    let headDeadline: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(deadline: headDeadline))
        }.flatMap { inner.setup(channel: channel, logger: logger) }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
