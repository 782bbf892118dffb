import Benchmark
import CarChainKit
import Chain
import DevNode
import EthereumContractsLocal
import EthereumPrimitives
import EthereumRPC
import Foundation

/// Fork mode (issue 20): an `eth_call` of a CarChain getter on a chain forked from another node. The remote is an
/// in-process node holding the CarChain scenario (no network: the figures are the fork's own work, and the round
/// trips are counted, not timed). Read next to "fork reference: eth_call getCar on the remote (no fork)", the same call
/// on the remote, a chain of its own, measured in the same run (and "node handler eth_call getUserCredit",
/// NodeBenchmarks.swift):
///   - "fork first eth_call getCar": a fresh fork (started outside the measurement) answers its first call, which
///     finds the contract and its slots missing, asks the remote for the call's access list and fetches it all in one
///     batch; the custom metric is the remote round trips of that call (the bound: 5).
///   - "fork repeated eth_call getCar": the same call once everything is cached: no round trip, local latency.
func registerForkBenchmarks() {
    let fixture = ForkBenchmarkFixture()
    let getCar = Hex.encode(ChainBenchmarkSupport.encodeCall("getCar(string)", ["CAR-3"]))

    Benchmark(
        "fork first eth_call getCar (fresh fork)",
        configuration: .init(
            metrics: [.wallClock, .custom("remote round trips", polarity: .prefersSmaller, useScalingFactor: false)],
            maxDuration: .seconds(5), maxIterations: 200),
        closure: { benchmark in
            guard let remote = fixture.remote else { return }
            let counter = CountingTransport(remote.transport)
            guard let fork = try? await ForkedChain.open(
                ForkSettings(url: "http://in-process.invalid", blockNumber: remote.block, chainID: 4, transport: counter))
            else { return }
            let body = ForkBenchmarkFixture.call(remote.contract, getCar)
            let handler = NodeRPCHandler(chain: fork.chain)
            let before = counter.roundTrips
            benchmark.startMeasurement()
            blackHole(await handler.handle(body))
            benchmark.stopMeasurement()
            benchmark.measurement(.custom("remote round trips", polarity: .prefersSmaller, useScalingFactor: false), counter.roundTrips - before)
            await fork.chain.close()
        },
        setup: { await fixture.start() })

    // The reference: the same call on the remote itself, a chain of its own (no fork), in the same run.
    Benchmark(
        "fork reference: eth_call getCar on the remote (no fork)",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2)),
        closure: { benchmark in
            guard let remote = fixture.remote else { return }
            let body = ForkBenchmarkFixture.call(remote.contract, getCar)
            _ = await remote.transport.handler.handle(body)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(await remote.transport.handler.handle(body)) }
            benchmark.stopMeasurement()
        },
        setup: { await fixture.start() })

    Benchmark(
        "fork repeated eth_call getCar",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2)),
        closure: { benchmark in
            guard let remote = fixture.remote, let handler = fixture.warmFork else { return }
            let body = ForkBenchmarkFixture.call(remote.contract, getCar)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(await handler.handle(body)) }
            benchmark.stopMeasurement()
        },
        setup: { await fixture.start(warmingFork: getCar) })
}

/// The remote of the fork benchmarks: a dev chain with CarChain, 10 cars and users, and their rentals, answered
/// in process; started once per benchmark run.
final class ForkBenchmarkFixture: @unchecked Sendable {
    // @unchecked: `remote` is written once in `start()` (the benchmark's setup) before any closure reads it.
    struct Remote {
        let transport: InProcessTransport
        let block: UInt64
        let contract: Address
    }

    private(set) var remote: Remote?
    /// A fork of the remote that has answered the call once (so all it reads is cached), kept for the whole run as the
    /// reference's chain is.
    private(set) var warmFork: NodeRPCHandler?

    func start(warmingFork call: String? = nil) async {
        if remote == nil, let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 10),
            let chain = try? await DevChain(config: .deterministic())
        {
            for raw in scenario.setUp + scenario.rentals { _ = try? await chain.sendRawTransaction(raw) }
            remote = Remote(
                transport: InProcessTransport(handler: NodeRPCHandler(chain: chain), endpoint: "in-process remote"),
                block: await chain.blockNumber(), contract: scenario.contract)
        }
        guard let remote, let call, warmFork == nil,
            let fork = try? await ForkedChain.open(
                ForkSettings(url: "http://in-process.invalid", blockNumber: remote.block, chainID: 4, transport: remote.transport))
        else { return }
        let handler = NodeRPCHandler(chain: fork.chain)
        _ = await handler.handle(Self.call(remote.contract, call))  // the first call fetches; later ones are served locally
        warmFork = handler
    }

    static func call(_ contract: Address, _ data: String) -> [UInt8] {
        Array(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\"params\":[{\"to\":\"\(contract.lowercasedHex)\",\"data\":\"\(data)\"},\"latest\"]}"
                .utf8)
    }
}
