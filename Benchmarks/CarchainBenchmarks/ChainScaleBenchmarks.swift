import Benchmark
import Chain
import DevNode
import EthereumPrimitives
import Foundation

/// Reads as the chain grows (issue 36), each next to its reference on a small chain in the same run:
/// - `eth_getLogs` with one topic (an ERC-20 Transfer's recipient) over 100,000 blocks of the soak's mixed traffic on
///   SQLite, through the node's handler, next to the same filter over 1,000 blocks;
/// - `eth_getBalance` and `eth_call` on a chain whose genesis holds 1,000,000 accounts, next to a fresh chain (each
///   chain made once, `AccountsChains`);
/// - the soak: resident memory after 100,000 and after 1,000,000 automined transactions on SQLite (custom metrics,
///   in KiB), from `ChainPerfProbe soak` (`CARCHAIN_SOAK_TRANSACTIONS` sets the length).
/// The chains of soak traffic are made by `ChainPerfProbe soak` (tools/bench.sh builds it), once per run.
func registerChainScaleBenchmarks() {
    for blocks in [1_000, 100_000] {
        Benchmark(
            "chain eth_getLogs one topic over \(blocks.formatted()) blocks (SQLite)",
            configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(3))
        ) { benchmark async in
            guard let directory = await SoakChains.shared.directory(transactions: blocks),
                let chain = try? await DevChain(config: .deterministic(), storage: .directory(directory))
            else { return }
            let handler = NodeRPCHandler(chain: chain)
            // A recipient of the soak's token transfers, as the Transfer event's second indexed topic. Step s of the
            // soak pays recipient (s × 7919) mod 1,000, in tokens when s mod 10 is 5, 6 or 7 (Soak.swift): recipient 84
            // gets tokens at step 36 and every 1,000 steps after (1 log over 1,000 blocks, 100 over 100,000).
            let recipient = Keccak256.hash(Array("soak recipient 84".utf8)).bytes[12...]
            let topic = Hex.encode([UInt8](repeating: 0, count: 12) + recipient)
            let body = Array(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getLogs\",\"params\":[{\"fromBlock\":\"earliest\",\"toBlock\":\"latest\",\"topics\":[null,null,\"\(topic)\"]}]}"
                    .utf8)
            let answer = await handler.handle(body)
            precondition(String(decoding: answer, as: UTF8.self).contains("\"logIndex\""), "the filter matched no log")
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(await handler.handle(body)) }
            benchmark.stopMeasurement()
            await chain.close()
        }
    }

    for accounts in [0, 1_000_000] {
        let label = accounts == 0 ? "fresh chain" : "\(accounts.formatted()) accounts"
        // The chain is made once (a million-account genesis takes a while) and every sample reads it: each sample is
        // 100 pairs of reads, so the figure is per 100 eth_getBalance + eth_call pairs.
        Benchmark(
            "chain eth_getBalance and eth_call getUserCredit ×100 (\(label))",
            configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(3))
        ) { benchmark async in
            guard let reads = await AccountsChains.shared.reads(accounts: accounts) else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for _ in 0..<100 {
                    blackHole(await reads.handler.handle(reads.balance))
                    blackHole(await reads.handler.handle(reads.call))
                }
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark(
        "chain soak resident memory (SQLite)",
        configuration: .init(
            metrics: [
                .custom("RSS after 100,000 tx (KiB)"), .custom("RSS after the last tx (KiB)"),
                .custom("tx/s", polarity: .prefersLarger),
            ], maxDuration: .seconds(7200), maxIterations: 1)
    ) { benchmark async in
        let transactions = Int(ProcessInfo.processInfo.environment["CARCHAIN_SOAK_TRANSACTIONS"] ?? "") ?? 1_000_000
        guard let reports = SoakChains.run(transactions: transactions, reportEvery: 100_000) else { return }
        if let early = reports.first(where: { $0.transactions == 100_000 }) {
            benchmark.measurement(.custom("RSS after 100,000 tx (KiB)"), early.residentKilobytes)
        }
        if let last = reports.last {
            benchmark.measurement(.custom("RSS after the last tx (KiB)"), last.residentKilobytes)
            benchmark.measurement(.custom("tx/s", polarity: .prefersLarger), last.transactionsPerSecond)
        }
    }
}

/// Chains whose genesis holds `accounts` funded accounts besides the dev accounts, with CarChain deployed and 10 rentals,
/// made once per run and kept open: the requests the reads benchmark sends to each.
actor AccountsChains {
    static let shared = AccountsChains()

    struct Reads: Sendable {
        var handler: NodeRPCHandler
        var balance: [UInt8]
        var call: [UInt8]
    }

    private var made: [Int: Reads] = [:]

    func reads(accounts: Int) async -> Reads? {
        if let made = made[accounts] { return made }
        var config = ChainConfig.deterministic()
        config.devAccounts.reserveCapacity(config.devAccounts.count + accounts)
        for i in 0..<accounts {
            let address = Address(bytes: Array(Keccak256.hash(UInt256(UInt64(i)).bigEndianBytes).bytes[12...])) ?? .zero
            config.devAccounts.append(DevAccount(address: address, balance: UInt256(UInt64(i) + 1)))
        }
        guard let scenario = try? ChainBenchmarkSupport.carChainScenario(count: 10),
            let chain = try? await DevChain(config: config)
        else { return nil }
        for raw in scenario.setUp + scenario.rentals { _ = try? await chain.sendRawTransaction(raw) }
        let data = Hex.encode(ChainBenchmarkSupport.encodeCall("getUserCredit(string)", ["user-7"]))
        let reads = Reads(
            handler: NodeRPCHandler(chain: chain),
            balance: Array(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBalance\",\"params\":[\"\(DevAccounts.standard[3].address.lowercasedHex)\",\"latest\"]}"
                    .utf8),
            call: Array(
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_call\",\"params\":[{\"to\":\"\(scenario.contract.lowercasedHex)\",\"data\":\"\(data)\"},\"latest\"]}"
                    .utf8))
        // Both answer (a failure would time an error path).
        let answers = [await reads.handler.handle(reads.balance), await reads.handler.handle(reads.call)]
        precondition(answers.allSatisfy { !String(decoding: $0, as: UTF8.self).contains("\"error\"") }, "a read failed")
        made[accounts] = reads
        return reads
    }
}

/// Chains of the soak's traffic, made once per run by `ChainPerfProbe soak` in temporary directories.
actor SoakChains {
    static let shared = SoakChains()
    private var made: [Int: URL] = [:]

    struct Report {
        var transactions: Int
        var residentKilobytes: Int
        var transactionsPerSecond: Int
    }

    static var probe: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/release/ChainPerfProbe")
    }

    /// A directory holding a chain of `transactions` soak transactions (and the soak's set-up blocks).
    func directory(transactions: Int) -> URL? {
        if let made = made[transactions] { return made }
        let directory = ChainBenchmarkSupport.temporaryDirectory()
        guard Self.run(transactions: transactions, directory: directory, reportEvery: transactions) != nil else { return nil }
        made[transactions] = directory
        return directory
    }

    /// Runs the soak (in a temporary directory, removed after, unless `directory` is given) and returns its reports.
    static func run(transactions: Int, directory: URL? = nil, reportEvery: Int) -> [Report]? {
        let target = directory ?? ChainBenchmarkSupport.temporaryDirectory()
        defer { if directory == nil { try? FileManager.default.removeItem(at: target) } }
        let process = Process()
        process.executableURL = probe
        process.arguments = ["soak", String(transactions), target.path, String(reportEvery)]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        do { try process.run() } catch {
            print("SKIPPED: the soak needs \(probe.path) (swift build -c release --product ChainPerfProbe): \(error)")
            return nil
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line -> Report? in
            guard line.hasPrefix("report ") else { return nil }
            var fields: [Substring: Int] = [:]
            for part in line.split(separator: " ") {
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2, let value = Int(pair[1]) { fields[pair[0]] = value }
            }
            guard let tx = fields["tx"], let rss = fields["rss_kb"] else { return nil }
            return Report(transactions: tx, residentKilobytes: rss, transactionsPerSecond: fields["tx_per_s"] ?? 0)
        }
    }
}
