import Chain
import EthereumPrimitives
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore

/// JSON-RPC over WebSocket on the node's HTTP port (`ws://HOST:PORT/`), for clients that subscribe
/// (`eth_subscribe`): Hummingbird's WebSocket upgrade and frame handling, the same ``NodeRPCHandler`` as
/// `POST /`, and one ``SubscriptionSession`` per connection. An upgrade passes the same access policy as an HTTP
/// request (Host allowlist; a browser's Origin must be allowed). Each text (or binary) message is one request
/// or batch, answered in order; a message larger than the handler's body limit closes the connection (1009).
enum WebSocketRPC {
    /// Whether to upgrade `request`, and the connection's handler when so.
    static func shouldUpgrade(
        _ request: HTTPRequest, handler: NodeRPCHandler, access: HTTPAccessPolicy, limits: SubscriptionSession.Limits,
        headTexts: HeadTextCache
    ) -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        guard request.path == "/" || request.path?.hasPrefix("/?") == true else { return .dontUpgrade }
        if access.refusal(host: request.authority) != nil { return .dontUpgrade }
        if let origin = request.headerFields[.origin], access.allowOriginHeader(origin: origin, host: request.authority) == nil { return .dontUpgrade }
        return .upgrade([:]) { inbound, outbound, _ in
            await serve(inbound: inbound, outbound: outbound, handler: handler, limits: limits, headTexts: headTexts)
        }
    }

    /// Reads requests and writes answers and notifications until either side closes.
    static func serve(
        inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, handler: NodeRPCHandler,
        limits: SubscriptionSession.Limits, headTexts: HeadTextCache = HeadTextCache()
    ) async {
        let session = SubscriptionSession(chain: handler.chain, limits: limits, headTexts: headTexts)
        await withTaskGroup(of: Void.self) { group in
            // The writer: everything queued for this connection, in order. When the queue overflowed the
            // connection is closed with a reason (the subscriber was too slow).
            group.addTask {
                for await text in session.messages {
                    // Once the queue overflowed, what is still queued is dropped: the close goes out next.
                    if await session.overflowed { break }
                    do { try await outbound.write(.text(text)) } catch { break }
                }
                if let reason = await session.closeReason { try? await outbound.close(.policyViolation, reason: reason) }
            }
            do {
                for try await message in inbound.messages(maxSize: handler.limits.maxBodyBytes) {
                    let body: [UInt8]
                    switch message {
                    case .text(let text): body = Array(text.utf8)
                    case .binary(let buffer): body = Array(buffer.readableBytesView)
                    }
                    let answer = await handler.handle(body, subscriptions: session)
                    if !answer.isEmpty, !(await session.send(String(decoding: answer, as: UTF8.self))) { break }
                }
            } catch {
                // A frame over the size limit or a broken connection: the library closes it.
            }
            await session.close()
            group.cancelAll()
        }
    }
}
