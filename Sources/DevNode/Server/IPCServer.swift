import Foundation
import Logging
import NIOCore
import NIOPosix

/// Why the IPC endpoint could not be opened.
public struct IPCServerError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// JSON-RPC over a Unix domain socket (`carchain node --ipc PATH`), as geth's `--ipcpath` and anvil's `--ipc` serve
/// it: requests and batches written one after another on a stream (``JSONStreamFramer``), each answer written as
/// one line, every method of the HTTP endpoint plus `eth_subscribe` (one ``SubscriptionSession`` per connection,
/// as over WebSocket). Clients: web3.py's `IPCProvider` / `AsyncIPCProvider`, ethers' `IpcSocketProvider`,
/// `geth attach`. The socket file is made mode 0600 (whoever can open it controls the node, as over HTTP on
/// loopback) and removed when the node stops; a stale file left by a killed node is replaced, a live one (another
/// node answers on it) is refused. ``run()`` serves until its task is cancelled (the node stopping).
public final class IPCServer: Sendable {
    /// The socket's path.
    public let path: String
    private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
    private let handler: NodeRPCHandler
    private let limits: SubscriptionSession.Limits
    private let headTexts: HeadTextCache
    private let logger: Logger

    /// The longest path a Unix domain socket takes on Linux (`sun_path` holds 108 bytes with the terminating zero).
    public static let maxPathBytes = 107

    /// Binds the socket at `path` (before anything is served, so a bad path is an error at start).
    public static func bind(
        path: String, handler: NodeRPCHandler, limits: SubscriptionSession.Limits = SubscriptionSession.Limits(),
        headTexts: HeadTextCache = HeadTextCache(), logger: Logger
    ) async throws(IPCServerError) -> IPCServer {
        guard !path.isEmpty else { throw IPCServerError(description: "the IPC path is empty") }
        guard path.utf8.count <= maxPathBytes else {
            throw IPCServerError(description: "the IPC path is \(path.utf8.count) bytes long; a Unix socket path is at most \(maxPathBytes)")
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw IPCServerError(description: "\(directory) is not a directory")
        }
        try await removeStaleSocket(at: path)
        let group = MultiThreadedEventLoopGroup.singleton
        let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>
        do {
            channel = try await ServerBootstrap(group: group)
                .serverChannelOption(.backlog, value: 256)
                .bind(unixDomainSocketPath: path) { child in
                    child.eventLoop.makeCompletedFuture {
                        try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
                    }
                }
        } catch {
            throw IPCServerError(description: "cannot listen on \(path): \(error)")
        }
        // Only the node's user may connect (geth makes its endpoint 0600 too).
        if chmod(path, 0o600) != 0 {
            try? await channel.channel.close()
            unlink(path)
            throw IPCServerError(description: "cannot make \(path) private (chmod 0600): \(String(cString: strerror(errno)))")
        }
        return IPCServer(path: path, channel: channel, handler: handler, limits: limits, headTexts: headTexts, logger: logger)
    }

    private init(
        path: String, channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>, handler: NodeRPCHandler,
        limits: SubscriptionSession.Limits, headTexts: HeadTextCache, logger: Logger
    ) {
        self.path = path
        self.channel = channel
        self.handler = handler
        self.limits = limits
        self.headTexts = headTexts
        self.logger = logger
    }

    /// A file at `path` from an earlier run: removed when it is a socket nobody answers on; an error when it is
    /// another kind of file or a live node's socket.
    private static func removeStaleSocket(at path: String) async throws(IPCServerError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw IPCServerError(description: "\(path) exists and is not a socket")
        }
        let live: Bool
        do {
            let probe = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connectTimeout(.seconds(2))
                .connect(unixDomainSocketPath: path).get()
            try? await probe.close()
            live = true
        } catch {
            live = false
        }
        if live { throw IPCServerError(description: "\(path) is in use: another process answers on it") }
        guard unlink(path) == 0 else {
            throw IPCServerError(description: "cannot remove the stale socket \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Serves connections until the task is cancelled (the node stops), then closes the socket, its connections
    /// and removes its file.
    public func run() async throws {
        defer { unlink(path) }
        let server = channel.channel
        try await withTaskCancellationHandler {
            try await withThrowingDiscardingTaskGroup { group in
                try await channel.executeThenClose { connections in
                    for try await connection in connections {
                        group.addTask { [self] in await serve(connection) }
                    }
                }
            }
        } onCancel: {
            server.close(promise: nil)
        }
    }

    /// One client: requests read in order, answers and notifications written in order, one per line.
    private func serve(_ connection: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        let session = SubscriptionSession(chain: handler.chain, limits: limits, headTexts: headTexts)
        let handler = self.handler
        let socket = connection.channel
        do {
            try await withTaskCancellationHandler {
            try await connection.executeThenClose { inbound, outbound in
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        for await text in session.messages {
                            if await session.overflowed { break }
                            var line = ByteBuffer(string: text)
                            line.writeInteger(UInt8(ascii: "\n"))
                            do { try await outbound.write(line) } catch { break }
                        }
                        // An overflowed subscriber is closed: the reason has no frame to go in, so it is logged.
                        if let reason = await session.closeReason {
                            self.logger.warning("IPC client closed: \(reason)")
                            connection.channel.close(promise: nil)
                        }
                    }
                    var framer = JSONStreamFramer(maxBytes: handler.limits.maxBodyBytes)
                    reading: do {
                        for try await buffer in inbound {
                            framer.append(buffer.readableBytesView)
                            while let frame = framer.next() {
                                switch frame {
                                case .message(let body):
                                    let answer = await handler.handle(body, subscriptions: session)
                                    if !answer.isEmpty, !(await session.send(String(decoding: answer, as: UTF8.self))) {
                                        break reading
                                    }
                                case .invalid(let reason):
                                    let failure = NodeRPCHandler.errorResponse(id: .null, .parseError(reason))
                                    await session.send(failure.description)
                                    break reading
                                }
                            }
                        }
                    } catch {
                        // The client went away.
                    }
                    // The writer sends what is queued (a last parse error included), then stops.
                    await session.close()
                    await group.waitForAll()
                }
            }
            } onCancel: {
                socket.close(promise: nil)
            }
        } catch {
            logger.debug("IPC connection ended: \(error)")
        }
    }
}
