import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Glibc
import Logging
import NIOCore
import NIOPosix
import Testing

/// The framing of geth's IPC stream: whole objects and arrays, however the bytes arrive.
@Suite struct JSONStreamFramerTests {
    private func frames(_ chunks: [String], maxBytes: Int = 1_000) -> [JSONStreamFramer.Frame] {
        var framer = JSONStreamFramer(maxBytes: maxBytes)
        var out: [JSONStreamFramer.Frame] = []
        for chunk in chunks {
            framer.append(Array(chunk.utf8))
            while let frame = framer.next() { out.append(frame) }
        }
        return out
    }

    private func message(_ text: String) -> JSONStreamFramer.Frame { .message(Array(text.utf8)) }

    @Test func splitsBackToBackMessagesArrivingInAnyPieces() {
        let stream = #" {"a":[1,{"b":"}]"}]} [{"id":1},{"id":2}]"# + "\n" + #"{"s":"\"{["}"#
        let expected = [message(#"{"a":[1,{"b":"}]"}]}"#), message(#"[{"id":1},{"id":2}]"#), message(#"{"s":"\"{["}"#)]
        #expect(frames([stream]) == expected)
        // Byte by byte, and cut inside an escape and inside a string.
        #expect(frames(stream.map { String($0) }) == expected)
        let cut = stream.index(stream.startIndex, offsetBy: 43)
        #expect(frames([String(stream[..<cut]), String(stream[cut...])]) == expected)
    }

    @Test func waitsForTheRestOfAMessage() {
        #expect(frames([#"{"jsonrpc":"2.0","#]).isEmpty)
        #expect(frames(["   \n\t "]).isEmpty)
    }

    @Test func endsTheStreamOnWhatCannotBeFramed() {
        #expect(frames(["42 {}"]) == [.invalid("expected a JSON-RPC request object or batch array, found byte 0x34")])
        #expect(frames(["{} x {}"]) == [message("{}"), .invalid("expected a JSON-RPC request object or batch array, found byte 0x78")])
        #expect(frames([#"{"pad":"0123456789"}"#], maxBytes: 10) == [.invalid("message larger than 10 bytes")])
        // After the failure nothing more is framed.
        var framer = JSONStreamFramer(maxBytes: 100)
        framer.append(Array("]".utf8))
        #expect(framer.next() != nil)
        framer.append(Array("{}".utf8))
        #expect(framer.next() == nil)
    }
}

/// `carchain node --ipc`'s server in process: requests, batches and subscriptions over a Unix socket, the socket's
/// mode, and what happens to files already at the path.
@Suite struct IPCServerTests {
    private static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ipc-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Binds a Unix socket at `path` and closes it without removing the file, as a killed process leaves it.
    private static func leaveStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
    }

    struct MissingAnswers: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `text` and reads `lines` newline-terminated answers; `afterFirstAnswer` runs once the first has
    /// arrived (for a subscription: once it exists). An answer that does not come within 30 s fails the test (the
    /// connection is closed, which ends the read) instead of stalling the run.
    private static func exchange(
        _ path: String, _ text: String, lines: Int, afterFirstAnswer: (@Sendable () async throws -> Void)? = nil
    ) async throws -> [JSONValue] {
        let client = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
            }
        let channel = client.channel
        let deadline = Task {
            try await Task.sleep(for: .seconds(30))
            try await channel.close()
        }
        defer { deadline.cancel() }
        let answers = try await client.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: text))
            var answers: [JSONValue] = []
            var pending: [UInt8] = []
            reading: for try await buffer in inbound {
                pending.append(contentsOf: buffer.readableBytesView)
                while let newline = pending.firstIndex(of: 0x0A) {
                    answers.append(try JSONValue(parsing: Array(pending[..<newline])))
                    pending.removeSubrange(...newline)
                    if answers.count == 1 { try await afterFirstAnswer?() }
                    if answers.count >= lines { break reading }
                }
            }
            return answers
        }
        guard answers.count >= lines else {
            throw MissingAnswers(description: "\(answers.count) of \(lines) answers to \(text.prefix(80)) within 30 s: \(answers)")
        }
        return answers
    }

    @Test func servesRequestsBatchesAndSubscriptionsInOrder() async throws {
        let harness = try await HandlerHarness.make()
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("node.ipc").path
        let server = try await IPCServer.bind(path: path, handler: harness.handler, logger: Logger(label: "test"))
        let serving = Task { try await server.run() }
        // Only the owner may connect.
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)

        // Two requests in one write, the second split by nothing: answers in order, one per line.
        let answers = try await Self.exchange(
            path, #"{"jsonrpc":"2.0","id":1,"method":"eth_chainId","params":[]}[{"jsonrpc":"2.0","id":2,"method":"eth_blockNumber"},{"jsonrpc":"2.0","id":3,"method":"nope"}]"#,
            lines: 2)
        #expect(answers[0]["id"] == .number("1"))
        #expect(answers[0]["result"] == .string("0x" + String(harness.chain.chainId, radix: 16)))
        #expect(answers[1].arrayValue?.count == 2)
        #expect(answers[1].arrayValue?[1]["error"]?["code"] == .number("-32601"))

        // A subscription's notification follows its answer on the same connection. (The block is mined once the answer
        // is in: mined after a fixed pause instead, a loaded machine could mine before the subscription existed, and the
        // read waited for ever: a full test run stalled here.)
        let chain = harness.chain
        let notified = try await Self.exchange(
            path, #"{"jsonrpc":"2.0","id":9,"method":"eth_subscribe","params":["newHeads"]}"#, lines: 2,
            afterFirstAnswer: { _ = try await chain.mine() })
        let subscription = try #require(notified[0]["result"])
        #expect(notified[1]["method"] == .string("eth_subscription"))
        #expect(notified[1]["params"]?["subscription"] == subscription)
        #expect(notified[1]["params"]?["result"]?["number"] == .string("0x1"))

        // What cannot be framed gets a parse error, then the connection ends.
        let refused = try await Self.exchange(path, "hello", lines: 1)
        #expect(refused[0]["error"]?["code"] == .number("-32700"))

        serving.cancel()
        _ = await serving.result
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func replacesAStaleSocketAndRefusesALiveOneOrAnotherFile() async throws {
        let harness = try await HandlerHarness.make()
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("node.ipc").path
        let logger = Logger(label: "test")

        let first = try await IPCServer.bind(path: path, handler: harness.handler, logger: logger)
        let serving = Task { try await first.run() }
        await #expect(throws: IPCServerError.self) { _ = try await IPCServer.bind(path: path, handler: harness.handler, logger: logger) }
        serving.cancel()
        _ = await serving.result

        // A socket file nobody answers on (a killed node's: bound, never unlinked) is replaced.
        try Self.leaveStaleSocket(at: path)
        #expect(FileManager.default.fileExists(atPath: path))
        let second = try await IPCServer.bind(path: path, handler: harness.handler, logger: logger)
        let answers = Task { try await second.run() }
        #expect(try await Self.exchange(path, #"{"jsonrpc":"2.0","id":1,"method":"net_version"}"#, lines: 1)[0]["result"] != nil)
        answers.cancel()
        _ = await answers.result

        // Not a socket, a missing directory, a path too long for sun_path: refused, the file untouched.
        let plain = dir.appendingPathComponent("plain").path
        try Data("keep".utf8).write(to: URL(fileURLWithPath: plain))
        await #expect(throws: IPCServerError.self) { _ = try await IPCServer.bind(path: plain, handler: harness.handler, logger: logger) }
        #expect(try String(contentsOfFile: plain, encoding: .utf8) == "keep")
        await #expect(throws: IPCServerError.self) {
            _ = try await IPCServer.bind(path: dir.appendingPathComponent("missing/node.ipc").path, handler: harness.handler, logger: logger)
        }
        await #expect(throws: IPCServerError.self) {
            _ = try await IPCServer.bind(path: "/tmp/" + String(repeating: "x", count: 120), handler: harness.handler, logger: logger)
        }
    }
}
