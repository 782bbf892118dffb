import Chain
import EthereumPrimitives
import EthereumRPC
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 31: nothing a request can do makes the data directory unstartable or loses an acknowledged block. A
/// property test on real `carchain node` processes: for each seed, a random sequence of the state-changing dev methods
/// (balances, nonces — the CarChain address's among them —, code, storage, state loads, resets, chain id, time,
/// coinbase, base fee, gas limit, snapshots and reverts, mining of one or several blocks) and transactions (plain,
/// impersonated, with automine off and on, dropped from the pool); then the node is stopped — SIGKILL three times in
/// four, SIGTERM otherwise — and started again on its data directory. It must start, and serve the last block it had
/// acknowledged with the same number, hash and state root, the same live state (`anvil_dumpState`, pending dev changes
/// included) and the same chain id. One seed in four instead kills it (SIGKILL) while a long request is under way — a
/// mine of hundreds of blocks, a reset, a revert — and the node must start on what that left (with the acknowledged
/// head still there after a partial mine).
///
/// Four lineages run side by side, each a data directory and a node that runs its seeds one after the other (a
/// restart per seed, the state growing across them); `CARCHAIN_RESTART_SEEDS` sets the total (default 200). A failure
/// names the lineage and the seed, and lists the requests of that seed with their answers.
@Suite(.serialized) struct RestartPropertyTests {
    static let lineages = 4
    static var totalSeeds: Int {
        ProcessInfo.processInfo.environment["CARCHAIN_RESTART_SEEDS"].flatMap { Int($0) }.map { max($0, lineages) } ?? 200
    }
    static let nodeArguments = ["--no-app"]
    static let carChain = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
    static let targets = [
        HandlerHarness.account0, HandlerHarness.account1, "0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", carChain,
        "0x000000000000000000000000000000000000beef", "0x0000f90827f1c53a10cb7a02335b175320002935",
    ]

    /// A JSON-RPC client of one node: answers parsed, errors kept (they are part of the sequence).
    struct Client {
        let url: String

        func answer(_ method: String, _ params: String = "[]") async throws -> JSONValue {
            let body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method)\",\"params\":\(params)}"
            return try JSONValue(parsing: try await HTTPTransport(url: url, timeout: 60).send(Array(body.utf8)))
        }

        func result(_ method: String, _ params: String = "[]") async throws -> JSONValue {
            let answer = try await answer(method, params)
            if let error = answer["error"] { throw ClientError("\(method) \(params): \(error)") }
            return answer["result"] ?? .null
        }
    }

    struct ClientError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// What a restarted node must serve as it was.
    struct Observed: Equatable, CustomStringConvertible {
        var number: String
        var hash: String
        var stateRoot: String
        var dumpHash: String
        var chainId: String

        var description: String { "block \(number) \(hash) root \(stateRoot), dump \(dumpHash), chain \(chainId)" }

        static func of(_ client: Client) async throws -> Observed {
            let block = try await client.result("eth_getBlockByNumber", "[\"latest\",false]")
            let dump = try Hex.decode(try await client.result("anvil_dumpState").stringValue ?? "")
            return Observed(
                number: block["number"]?.stringValue ?? "?", hash: block["hash"]?.stringValue ?? "?",
                stateRoot: block["stateRoot"]?.stringValue ?? "?", dumpHash: Keccak256.hash(dump).hexString,
                chainId: try await client.result("eth_chainId").stringValue ?? "?")
        }
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("carchain-restart-\(UUID().uuidString)")
    }

    /// The issue's report, as it was found: after `anvil_reset` and `anvil_setNonce` on the CarChain address, a mined
    /// block, then a stop (SIGTERM, then SIGKILL), the node must start again — without deploying anything.
    @Test(arguments: [SIGTERM, SIGKILL])
    func aResetChainWhoseContractAddressIsTakenRestarts(signal: Int32) async throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--data-dir", directory.path] + Self.nodeArguments
        guard var node = try NodeProcess.start(arguments) else { return }
        var client = Client(url: node.url)
        _ = try await client.result("anvil_reset")
        _ = try await client.result("anvil_setNonce", "[\"\(Self.carChain)\",\"0x5\"]")
        _ = try await client.result("evm_mine")
        let before = try await Observed.of(client)
        node.stop(signal: signal)
        node = try #require(try NodeProcess.start(arguments))
        defer { node.stop() }
        client = Client(url: node.url)
        #expect(try await Observed.of(client) == before)
        #expect(try await client.result("eth_getTransactionCount", "[\"\(Self.carChain)\",\"latest\"]") == .string("0x5"))
        // It still mines, and `carchain deploy`'s account can deploy (at another address: the nonce moved on).
        _ = try await client.result("evm_mine")
    }

    @Test func killedNodesRestartServingTheirLastAcknowledgedBlock() async throws {
        guard ProcessRunner.carchainExecutable() != nil else { return }
        let perLineage = (Self.totalSeeds + Self.lineages - 1) / Self.lineages
        let started = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lineage in 0..<Self.lineages {
                let seeds = UInt64(lineage * perLineage)..<UInt64((lineage + 1) * perLineage)
                group.addTask { try await Self.runLineage(lineage, seeds: seeds) }
            }
            try await group.waitForAll()
        }
        print("RestartPropertyTests: \(perLineage * Self.lineages) seeds in \(ContinuousClock.now - started)")
    }

    /// One data directory and its node through `seeds`, restarting after each.
    static func runLineage(_ lineage: Int, seeds: Range<UInt64>) async throws {
        let directory = temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let arguments = ["--data-dir", directory.path] + nodeArguments
        guard var node = try NodeProcess.start(arguments) else { return }
        defer { node.stop(signal: SIGKILL) }
        var dumps: [String] = []
        for seed in seeds {
            var random = SplitMix64(seed: seed &* 0x9E37_79B9 &+ 1)
            let client = Client(url: node.url)
            var log: [String] = []
            let count = 4 + Int(random.next() % 11)
            var snapshots: [String] = []
            for _ in 0..<count {
                let (method, params) = step(&random, snapshots: snapshots, dumps: dumps)
                let answer = try await client.answer(method, params)
                log.append("\(method) \(params.prefix(120)) -> \(answer.description.prefix(160))")
                guard answer["error"] == nil else { continue }
                if method == "evm_snapshot", let id = answer["result"]?.stringValue { snapshots.append(id) }
                if method == "anvil_dumpState", let dump = answer["result"]?.stringValue, dumps.count < 4 { dumps.append(dump) }
            }
            let before = try await Observed.of(client)
            let signal = random.next() % 4 == 0 ? SIGTERM : SIGKILL
            // One seed in four kills the node while a long request is under way (not acknowledged, so either outcome,
            // or a part of a long one, is allowed; the node must start on it all the same).
            var inFlight: (String, String)?
            if random.next() % 4 == 0 {
                let request = longRequest(&random, snapshots: snapshots)
                inFlight = request
                let url = node.url
                let task = Task { _ = try? await Client(url: url).answer(request.0, request.1) }
                try await Task.sleep(for: .milliseconds(Int(random.next() % 30)))
                node.stop(signal: SIGKILL)
                task.cancel()
                log.append("\(request.0) \(request.1.prefix(120)) -> (killed while under way)")
            } else {
                node.stop(signal: signal)
            }
            let how = inFlight != nil ? "SIGKILL during a request" : signal == SIGKILL ? "SIGKILL" : "SIGTERM"
            let context = "lineage \(lineage), seed \(seed), stopped with \(how):\n  " + log.joined(separator: "\n  ")
            do {
                guard let restarted = try NodeProcess.start(arguments) else { return }
                node = restarted
            } catch {
                Issue.record("the node did not start again (\(error)); \(context)")
                throw error
            }
            let restarted = Client(url: node.url)
            let after = try await Observed.of(restarted)
            if let (method, _) = inFlight {
                // Mining only adds blocks: the acknowledged head is still there, under its hash.
                if method == "anvil_mine" {
                    let kept = try await restarted.result("eth_getBlockByNumber", "[\"\(before.number)\",false]")
                    #expect(kept["hash"]?.stringValue == before.hash, "restarted with \(after), had acknowledged \(before); \(context)")
                }
                #expect(after.chainId == before.chainId, "restarted with \(after), had acknowledged \(before); \(context)")
            } else {
                #expect(after == before, "restarted with \(after), had acknowledged \(before); \(context)")
                if after != before { return }
            }
        }
    }

    /// A request that runs long enough to be killed part way: mining many blocks, a reset, a revert far back, a state load.
    static func longRequest(_ random: inout SplitMix64, snapshots: [String]) -> (String, String) {
        switch random.next() % 4 {
        case 0: return ("anvil_mine", "[\"0x\(String(200 + random.next() % 2000, radix: 16))\"]")
        case 1: return ("anvil_reset", "[]")
        case 2: return snapshots.first.map { ("evm_revert", "[\"\($0)\"]") } ?? ("anvil_mine", "[\"0x3e8\"]")
        default: return ("anvil_mine", "[\"0x64\",\"0x1\"]")
        }
    }

    /// One random request: a dev method or a transaction, with parameters that are valid most of the time.
    static func step(_ random: inout SplitMix64, snapshots: [String], dumps: [String]) -> (String, String) {
        func pick(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        func q(_ value: UInt64) -> String { "\"0x\(String(value, radix: 16))\"" }
        let target = "\"\(targets[pick(targets.count)])\""
        let from = "\"\(targets[pick(3)])\""
        switch pick(26) {
        case 0, 1: return ("anvil_setBalance", "[\(target),\(q(random.next() >> UInt64(pick(64))))]")
        case 2: return ("anvil_addBalance", "[\(target),\(q(random.next() >> 20))]")
        case 3: return ("anvil_setNonce", "[\(target),\(q(UInt64(pick(6))))]")
        case 4:
            let byte = String(pick(256) + 256, radix: 16).dropFirst()  // two hex digits
            return ("anvil_setCode", "[\(target),\"\(pick(3) == 0 ? "0x" : "0x60\(byte)60005500")\"]")
        case 5, 6:
            let value = pick(3) == 0 ? "0x" + String(repeating: "0", count: 64) : "0x" + Hex.encode(random.bytes(32)).dropFirst(2)
            return ("anvil_setStorageAt", "[\(target),\(q(UInt64(pick(4)))),\"\(value)\"]")
        case 7: return dumps.isEmpty || pick(2) == 0 ? ("anvil_dumpState", "[]") : ("anvil_loadState", "[\"\(dumps[pick(dumps.count)])\"]")
        case 8: return pick(4) == 0 ? ("anvil_reset", "[]") : ("anvil_setChainId", "[\(q(1 + UInt64(pick(100_000))))]")
        case 9: return ("evm_increaseTime", "[\(q(UInt64(pick(100_000))))]")
        case 10: return ("evm_setNextBlockTimestamp", "[\(q(2_000_000_000 + UInt64(pick(1_000_000))))]")
        case 11: return (pick(2) == 0 ? "anvil_setTime" : "evm_setTime", "[\(1_700_000_000 + pick(400_000_000))]")
        case 12: return ("anvil_setCoinbase", "[\(target)]")
        case 13: return ("anvil_setNextBlockBaseFeePerGas", "[\(q(UInt64(pick(10_000_000_000))))]")
        case 14: return ("evm_setBlockGasLimit", "[\(q(30_000_000 + UInt64(pick(30_000_000))))]")
        case 15: return ("evm_snapshot", "[]")
        case 16: return snapshots.isEmpty ? ("evm_snapshot", "[]") : ("evm_revert", "[\"\(snapshots[pick(snapshots.count)])\"]")
        case 17, 18: return pick(2) == 0 ? ("evm_mine", "[]") : ("anvil_mine", "[\(q(UInt64(1 + pick(20)))),\(q(UInt64(1 + pick(12))))]")
        case 19, 20, 21: return ("eth_sendTransaction", "[{\"from\":\(from),\"to\":\(target),\"value\":\(q(UInt64(pick(1_000_000))))}]")
        case 22: return ("evm_setAutomine", "[\(pick(2) == 0)]")
        case 23: return ("anvil_dropAllTransactions", "[]")
        case 24:
            return pick(2) == 0
                ? ("anvil_impersonateAccount", "[\(target)]")
                : ("eth_sendTransaction", "[{\"from\":\(target),\"to\":\(from),\"value\":\"0x1\"}]")
        default: return ("anvil_dealERC20", "[\(from),\"\(carChain)\",\(q(UInt64(pick(1000))))]")
        }
    }
}
