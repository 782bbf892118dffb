import Benchmark
import Chain
import DevNode
import EthereumPrimitives
import Foundation
import HummingbirdWSClient
import Logging
import NIOConcurrencyHelpers

/// `newHeads` fan-out over WebSocket (issue 18's target: 1,000 subscribers notified within 50 ms of a block): the
/// node's server on a loopback port in this process, N hummingbird-websocket clients subscribed, and each sample
/// the time from asking for a block (`evm_mine` through the handler) to the moment the last of the N received its
/// notification. The same-run reference is 1 subscriber: the cost of mining one block plus one notification's
/// trip, which the 1,000-subscriber figure should be compared with. Client and server share this process's cores.
func registerWebSocketBenchmarks() {
    for subscribers in [1, 1_000] {
        let fixture = FanOutFixture(subscribers: subscribers)
        Benchmark(
            "node WebSocket newHeads to \(subscribers) subscriber\(subscribers == 1 ? "" : "s") (mine to last receipt)",
            configuration: .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 200),
            closure: { benchmark in
                guard let ready = fixture.ready else { return }
                for _ in benchmark.scaledIterations {
                    let arrived = ready.tally.expect(subscribers)
                    benchmark.startMeasurement()
                    _ = await ready.handler.handle(Array(#"{"jsonrpc":"2.0","id":1,"method":"evm_mine","params":[]}"#.utf8))
                    await arrived.wait()
                    benchmark.stopMeasurement()
                }
            },
            setup: { try await fixture.start() }, teardown: { await fixture.stop() })
    }
}

/// Counts notifications and wakes the benchmark when the expected number arrived.
final class ArrivalTally: Sendable {
    private struct State {
        var count = 0
        var target = Int.max
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Starts counting afresh toward `target`; the returned handle waits for it.
    func expect(_ target: Int) -> ArrivalTally {
        state.withLockedValue { $0 = State(count: 0, target: target, waiter: nil) }
        return self
    }

    func arrived() {
        let waiter: CheckedContinuation<Void, Never>? = state.withLockedValue { s in
            s.count += 1
            guard s.count >= s.target, let w = s.waiter else { return nil }
            s.waiter = nil
            return w
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done: Bool = state.withLockedValue { s in
                if s.count >= s.target { return true }
                s.waiter = continuation
                return false
            }
            if done { continuation.resume() }
        }
    }
}

/// The node (server task, chain, handler) and the subscribed clients, shared by a benchmark's setup and teardown.
final class FanOutFixture: Sendable {
    struct Ready: Sendable {
        let handler: NodeRPCHandler
        let tally: ArrivalTally
    }

    private struct State: Sendable {
        var ready: Ready?
        var tasks: [Task<Void, Never>] = []
        var chain: DevChain?
    }

    let subscribers: Int
    private let state = NIOLockedValueBox(State())

    init(subscribers: Int) { self.subscribers = subscribers }

    var ready: Ready? { state.withLockedValue { $0.ready } }

    func start() async throws {
        if ready != nil { return }
        let chain = try await DevChain(config: .deterministic())
        let handler = NodeRPCHandler(chain: chain)
        var logger = Logger(label: "bench.node")
        logger.logLevel = .critical
        let (http, server) = try await startBenchmarkServer(handler, logger: logger)
        let url = "ws://" + http.dropFirst("http://".count)
        let tally = ArrivalTally()
        let subscribed = ArrivalTally().expect(subscribers)
        var tasks = [server]
        // A client that cannot connect counts as answered (so the wait ends) and as failed (so setup throws).
        let failures = NIOLockedValueBox(0)
        for _ in 0..<subscribers {
            tasks.append(Task {
                let answered = NIOLockedValueBox(false)
                do {
                    try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                        try await outbound.write(.text(#"{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}"#))
                        for try await _ in inbound.messages(maxSize: 1 << 20) {
                            if answered.withLockedValue({ $0 }) {
                                tally.arrived()
                            } else {
                                answered.withLockedValue { $0 = true }
                                subscribed.arrived()
                            }
                        }
                    }
                } catch {
                    if !answered.withLockedValue({ $0 }) {
                        failures.withLockedValue { $0 += 1 }
                        subscribed.arrived()
                    }
                }
            })
        }
        state.withLockedValue { $0.tasks = tasks; $0.chain = chain }
        await subscribed.wait()
        let failed = failures.withLockedValue { $0 }
        if failed > 0 {
            await stop()
            throw RPCBenchmarkError("\(failed) of \(subscribers) WebSocket subscribers could not connect")
        }
        state.withLockedValue { $0.ready = Ready(handler: handler, tally: tally) }
    }

    func stop() async {
        let (tasks, chain) = state.withLockedValue { s in
            defer { s = State() }
            return (s.tasks, s.chain)
        }
        for task in tasks.reversed() { task.cancel() }
        for task in tasks { await task.value }
        await chain?.close()
    }
}

/// Serves `handler` on a loopback port of this process (as `carchain node` does, without auth); returns its URL and the
/// server's task (cancel it to stop).
func startBenchmarkServer(_ handler: NodeRPCHandler, logger: Logger) async throws -> (url: String, server: Task<Void, Never>) {
    let (urls, gotURL) = AsyncStream<String>.makeStream()
    let server = Task {
        _ = try? await DevNodeServer.run(handler: handler, auth: nil, host: "127.0.0.1", port: 0, logger: logger) { url in
            gotURL.yield(url)
        }
        gotURL.finish()
    }
    var iterator = urls.makeAsyncIterator()
    guard let url = await iterator.next() else { throw RPCBenchmarkError("the node did not start") }
    return (url, server)
}
