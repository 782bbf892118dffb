import ArgumentParser
import CarChainKit
import Chain
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain watch`: the CarChain contract's events as they are mined, one line each.
struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print CarChain events (users and cars registered, credit added, rentals, returns) as they are mined.",
        discussion: """
            One line per event: the block, the event and its plate, user id, account or amounts. With --json, one \
            JSON object per line (block, logIndex, transaction, event, and the event's parameters; amounts as \
            decimal strings).

            Where events come from:
              --rpc ws://HOST:PORT    eth_subscribe("logs"), told as each block is mined
              --rpc http://HOST:PORT  polls eth_getLogs every --poll-interval (a note on stderr)
              no --rpc                the `carchain node` serving the data directory, over
                                      WebSocket; without one, the embedded chain in this process

            --from-block N replays the events from block N first, then follows new ones with no gap and no \
            repeat. --count N exits 0 after N events. Ctrl-C exits 0.

            A dropped connection to a node is reopened (5 attempts over about 5 s) and the events mined \
            meanwhile are read with eth_getLogs, so none is missed or printed twice. An unreachable node, a \
            contract that is not CarChain, or a connection that cannot be reopened is one line on stderr and exit \
            1: run again with --from-block set to the block after the last one printed to resume without a gap.

            Examples:
              carchain watch
              carchain watch --rpc ws://127.0.0.1:8545 --from-block 0
              carchain watch --rpc ws://127.0.0.1:8545 --json --count 10 | jq .plate
              carchain watch --rpc http://127.0.0.1:8545 --poll-interval 0.5
            """
    )

    @OptionGroup var node: NodeOptions

    @Option(name: .long, help: ArgumentHelp("Replay the events from this block before following new ones (default: new events only).", valueName: "N"))
    var fromBlock: UInt64?

    @Option(name: .long, help: ArgumentHelp("Exit after this many events (\(OptionRanges.watchCount.text); default: until Ctrl-C).", valueName: "N"))
    var count: UInt64?

    @Option(name: .long, help: ArgumentHelp("Seconds between polls of an http:// node (\(OptionRanges.pollInterval.text); default 1). Only for http:// nodes.", valueName: "seconds"))
    var pollInterval: Double?

    @OptionGroup var output: JSONOption

    mutating func validate() throws {
        try OptionRanges.watchCount.check(count)
        try OptionRanges.pollInterval.check(pollInterval)
    }

    func run() async throws {
        let interrupts = Interrupts.exitCleanly()
        defer { withExtendedLifetime(interrupts) {} }
        let connection = try node.connection()
        let (session, source, opened) = try await open(connection)
        let contract = try await session.contract()
        do {
            _ = try await contract.registeredCars()
        } catch {
            throw CLIError("\(contract.address) on chain \(session.chainID) is not a CarChain contract (registeredCars() failed: \(error))")
        }
        // A connection in this process cannot drop; a node's is reopened a few times (about 5 s) before giving up.
        let reconnect: ReconnectPolicy = opened == nil ? .none : ReconnectPolicy(maxAttempts: 5, initialDelay: 0.2, maxDelay: 2)
        let feed = EventFeed(subscriptions: RPCSubscriptions(source: source, reconnect: reconnect), contract: contract.address, fromBlock: fromBlock)
        var printed: UInt64 = 0
        let json = output.json
        let limit = count
        do {
            try await feed.run(warn: { Self.note($0, kind: "warning") }) { record in
                print(json ? WatchLine.json(record) : WatchLine.text(record))
                fflush(nil)
                printed += 1
                return limit.map { printed < $0 } ?? true
            }
        } catch let error as RPCError {
            throw CLIError("\(session.client.endpoint): \(error)")
        }
        await opened?.close()
    }

    /// The session, where events come from, and the WebSocket connection the session reads over (nil when it reads
    /// in process or over HTTP): from `--rpc` (or `$CARCHAIN_RPC`) or the data directory.
    private func open(_ connection: ChainConnection) async throws -> (ChainSession, SubscriptionSource, WebSocketTransport?) {
        if connection.url == nil, let owner = ChainLock.owner(of: connection.dataDirectory), let served = owner.url,
            let url = Self.webSocketURL(served)
        {
            // The `carchain node` serving the data directory answers WebSocket on its HTTP port.
            return try await overWebSocket(url, connection: connection)
        }
        if let url = connection.url {
            let scheme = url.split(separator: ":", maxSplits: 1).first.map { $0.lowercased() } ?? ""
            if scheme == "ws" || scheme == "wss" { return try await overWebSocket(url, connection: connection) }
            return try await polling(connection)
        }
        let session = try await ChainSession.reading(connection)
        guard let inProcess = session.client.transport as? InProcessTransport else {
            return try await polling(connection)  // a node took the data directory meanwhile
        }
        try rejectPollInterval()
        let source = SubscriptionSource.connection(endpoint: inProcess.endpoint) {
            InProcessSubscriptions(handler: inProcess.handler, endpoint: inProcess.endpoint)
        }
        return (session, source, nil)
    }

    private func overWebSocket(_ url: String, connection: ChainConnection) async throws -> (ChainSession, SubscriptionSource, WebSocketTransport?) {
        try rejectPollInterval()
        let transport: WebSocketTransport
        do {
            transport = try await WebSocketTransport.connect(url: url, timeout: connection.timeout)
        } catch {
            throw CLIError("\(error)")
        }
        let client = RPCClient(transport: transport, retryPolicy: .none)
        return (try await ChainSession.reading(connection, over: client), .webSocket(url: url, timeout: connection.timeout), transport)
    }

    private func polling(_ connection: ChainConnection) async throws -> (ChainSession, SubscriptionSource, WebSocketTransport?) {
        let session = try await ChainSession.reading(connection)
        let seconds = pollInterval ?? 1
        Self.note(
            "\(session.client.endpoint) is HTTP, which has no notifications: polling eth_getLogs every \(seconds) s "
                + "(a ws:// URL is told of each block as it is mined)", kind: "note")
        return (session, .polling(session.client, interval: .milliseconds(Int64((seconds * 1000).rounded()))), nil)
    }

    /// `--poll-interval` means something only when polling; accepting it otherwise would ignore it.
    private func rejectPollInterval() throws {
        if pollInterval != nil {
            throw ValidationError("--poll-interval applies to http:// nodes only (this one sends notifications)")
        }
    }

    /// `ws://HOST:PORT` for a node's `http://HOST:PORT` (`wss` for `https`).
    static func webSocketURL(_ http: String) -> String? {
        if http.lowercased().hasPrefix("http://") { return "ws://" + http.dropFirst("http://".count) }
        if http.lowercased().hasPrefix("https://") { return "wss://" + http.dropFirst("https://".count) }
        return nil
    }

    private static func note(_ text: String, kind: String) {
        FileHandle.standardError.write(Data("carchain: \(kind): \(text)\n".utf8))
    }
}

/// Ctrl-C (and SIGTERM) end `carchain watch` with status 0 after flushing what was printed: stopping is the
/// normal way to end a watch, not a failure.
enum Interrupts {
    static func exitCleanly() -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "carchain.watch.signal"))
            source.setEventHandler {
                fflush(nil)
                exit(0)
            }
            source.resume()
            return source
        }
    }
}
