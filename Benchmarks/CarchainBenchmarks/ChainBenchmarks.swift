import Benchmark
import Chain
import EVM
import EthereumCrypto
import EthereumPrimitives
import EthereumTransactions
import Foundation

/// Automined throughput of the dev chain — value transfers and CarChain `rentCar` calls, in memory
/// and on SQLite (one block per transaction) — and `eth_call` latency.
/// Transactions are signed before the measurement starts: the chain receives them signed and recovers their senders,
/// as over JSON-RPC. The `unsigned` rentCar runs send the same calls as the test bench does (`send(_:unsigned:)`, the
/// sender impersonated): the chain's own cost without the signature's recovery.
/// Each iteration is a new chain, set up outside the measurement; five of them give a minimum and a median.
func registerChainBenchmarks() {
    let config = Benchmark.Configuration(
        metrics: [.wallClock, .throughput], maxDuration: .seconds(30), maxIterations: 5)
    let batch = 2_000

    for onDisk in [false, true] {
        let label = onDisk ? "SQLite" : "memory"
        Benchmark("chain automined transfers ×\(batch) (\(label))", configuration: config) { benchmark async in
            let key = DevAccounts.standard[1].privateKey!
            let to = DevAccounts.standard[0].address
            let raws = (0..<batch).map { nonce in
                Transaction.dynamicFee(
                    DynamicFeeTransaction(
                        chainId: 4, nonce: UInt64(nonce), maxPriorityFeePerGas: UInt256(1),
                        maxFeePerGas: UInt256(100_000_000_000 as UInt64), gasLimit: 21_000, to: to, value: UInt256(1))
                ).sign(with: key).encoded
            }
            let directory = ChainBenchmarkSupport.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            guard let chain = try? await DevChain(config: .deterministic(), storage: onDisk ? .directory(directory) : .memory)
            else { return }
            benchmark.startMeasurement()
            for raw in raws { blackHole(try? await chain.sendRawTransaction(raw)) }
            benchmark.stopMeasurement()
            await chain.close()
        }

        for unsigned in [false, true] {
            let name = "chain automined rentCar ×\(batch)\(unsigned ? " unsigned" : "") (\(label))"
            Benchmark(name, configuration: config) { benchmark async in
                guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: batch) else { return }
                let directory = ChainBenchmarkSupport.temporaryDirectory()
                defer { try? FileManager.default.removeItem(at: directory) }
                guard let chain = try? await DevChain(config: .deterministic(), storage: onDisk ? .directory(directory) : .memory)
                else { return }
                for raw in scenario.setUp { _ = try? await chain.sendRawTransaction(raw) }
                if unsigned {
                    await chain.setAutoImpersonate(true)
                    benchmark.startMeasurement()
                    for call in scenario.rentalCalls {
                        let sent = try? await chain.send(call, signingWith: nil, unsigned: true)
                        precondition(sent?.receipt?.status == true, "an unsigned rentCar was not mined or reverted")
                    }
                } else {
                    benchmark.startMeasurement()
                    for raw in scenario.rentals { blackHole(try? await chain.sendRawTransaction(raw)) }
                }
                benchmark.stopMeasurement()
                await chain.close()
            }
        }
    }

    // `carchain chain import` of a dev chain's export: 10,001 automined blocks of CarChain traffic (deployment,
    // 2,500 cars, users and credits, 2,500 rentals), each block executed and every root checked, into SQLite. The
    // export is made once; each iteration imports it into a new directory.
    Benchmark(
        "chain import 10,001 CarChain blocks (SQLite)",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(30), maxIterations: 5)
    ) { benchmark async in
        guard let bytes = await ImportSource.shared.bytes() else { return }
        let directory = ChainBenchmarkSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let chain = try? await DevChain(config: .deterministic(), storage: .directory(directory)) else { return }
        benchmark.startMeasurement()
        let summary = try? await chain.importBlocks(rlp: bytes)
        benchmark.stopMeasurement()
        precondition(summary?.imported == 10_001, "the import stopped: \(String(describing: summary))")
        await chain.close()
    }

    Benchmark("chain eth_call getUserCredit", configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(2))) {
        benchmark async in
        guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 10),
            let chain = try? await DevChain(config: .deterministic())
        else { return }
        for raw in scenario.setUp + scenario.rentals { _ = try? await chain.sendRawTransaction(raw) }
        let request = CallRequest(
            to: scenario.contract, data: ChainBenchmarkSupport.encodeCall("getUserCredit(string)", ["user-7"]))
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try? await chain.call(request)) }
        benchmark.stopMeasurement()
    }
}

/// The export the import benchmark reads, made once per run.
actor ImportSource {
    static let shared = ImportSource()
    private var cached: [UInt8]?

    func bytes() async -> [UInt8]? {
        if let cached { return cached }
        guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 2_500),
            let source = try? await DevChain(config: .deterministic())
        else { return nil }
        for raw in scenario.setUp + scenario.rentals { _ = try? await source.sendRawTransaction(raw) }
        let head = await source.blockNumber()
        guard let blocks = try? await source.exportBlocks(from: 1, to: head), blocks.count == 10_001 else { return nil }
        cached = Array(blocks.joined())
        return cached
    }
}

/// Pre-signed CarChain transactions and a small ABI encoder for string arguments.
enum ChainBenchmarkSupport {
    struct Scenario {
        var contract: Address
        var setUp: [[UInt8]] = []
        var rentals: [[UInt8]] = []
        /// The rentals as calls from the manager, with the nonces the signed ones carry (for `send(_:unsigned:)`).
        var rentalCalls: [CallRequest] = []
    }

    /// Deployment, `count` cars and users with credit, then one rentCar per user (from the manager).
    static func carChainScenario(count: Int) throws -> Scenario {
        guard let key = DevAccounts.standard.first?.privateKey else { throw CocoaError(.featureUnsupported) }
        let artifact = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../contracts/CarChain.json")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: artifact)) as? [String: Any]
        guard let hex = json?["bytecode"] as? String else { throw CocoaError(.fileReadCorruptFile) }
        var nonce: UInt64 = 0
        // One fee for every transaction, signed or sent unsigned.
        let tip = UInt256(1), maxFee = UInt256(100_000_000_000 as UInt64)
        func sign(_ to: Address?, _ data: [UInt8], gas: UInt64) -> [UInt8] {
            defer { nonce += 1 }
            return Transaction.dynamicFee(
                DynamicFeeTransaction(
                    chainId: 4, nonce: nonce, maxPriorityFeePerGas: tip, maxFeePerGas: maxFee,
                    gasLimit: gas, to: to, data: data)
            ).sign(with: key).encoded
        }
        var scenario = Scenario(contract: ContractAddress.create(sender: key.address, nonce: 0))
        scenario.setUp.append(sign(nil, try Hex.decode(hex), gas: 3_000_000))
        let c = scenario.contract
        for i in 0..<count {
            scenario.setUp.append(sign(c, encodeCall("registerNewCar(string)", ["CAR-\(i)"]), gas: 200_000))
            scenario.setUp.append(sign(c, encodeCall("registerNewUser(string)", ["user-\(i)"]), gas: 200_000))
            scenario.setUp.append(
                sign(c, encodeCall("addCredit(string,uint256)", ["user-\(i)"], uint: UInt256(10)), gas: 200_000))
        }
        for i in 0..<count {
            let data = encodeCall("rentCar(string,string)", ["CAR-\(i)", "user-\(i)"])
            scenario.rentalCalls.append(
                CallRequest(
                    from: key.address, to: c, gas: 200_000, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, data: data,
                    nonce: nonce))
            scenario.rentals.append(sign(c, data, gas: 200_000))
        }
        return scenario
    }

    /// ABI-encodes string arguments, optionally followed by one uint256.
    static func encodeCall(_ signature: String, _ strings: [String], uint: UInt256? = nil) -> [UInt8] {
        let words = strings.count + (uint == nil ? 0 : 1)
        var head: [UInt8] = []
        var tail: [UInt8] = []
        for s in strings {
            head += UInt256(UInt64(32 * words + tail.count)).bigEndianBytes
            let bytes = Array(s.utf8)
            tail += UInt256(UInt64(bytes.count)).bigEndianBytes + bytes
                + [UInt8](repeating: 0, count: (32 - bytes.count % 32) % 32)
        }
        if let uint { head += uint.bigEndianBytes }
        return Array(Keccak256.hash(signature).bytes[0..<4]) + head + tail
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("carchain-bench-\(UUID().uuidString)")
    }
}
