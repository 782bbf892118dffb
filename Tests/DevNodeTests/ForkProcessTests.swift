import CarChain
import Chain
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 20's fork mode on node processes over loopback. Node A carries CarChain traffic; node B forks A at block N
/// (`--fork-url`) through a stand-in proxy that counts what reaches A. B's answers at N are A's (balances, nonces,
/// storage, code, `eth_call` of the CarChain getters); B's writes stay on B; a car rented on A after N is rented on A
/// only, one B rents on B only. B killed with SIGKILL and restarted on its fork cache sends A nothing for what it read
/// before. A killed while
/// B fetches: B says so in a JSON-RPC error and still serves its cache. A answering 429 then 200: B waits as asked. A
/// replaced by a node of another chain id: a clear error. The same fork against the py-evm reference node. And the
/// CLI's `carchain rent … --fork-url` rehearsal, which prints the gas A later charges and sends nothing.
@Suite(.serialized) struct ForkProcessTests {
    static let contract = "0x5fbdb2315678afecb367f032d93f642f64180aa3"
    static let queries: [CarChainQuery] = [
        .getCar(plate: "CAR1"), .getCar(plate: "CAR2"), .getCar(plate: "CAR3"), .registeredCars, .rentedCars, .availableCars,
        .registeredUsers, .getUserCredit(userId: "u1"), .getUserCredit(userId: "u2"), .getUserCar(userId: "u1"),
        .isUserRegistered(userId: "u2"), .getUserAccount(userId: "u1"), .manager,
    ]
    static let stranger = "0x000000000000000000000000000000000000beef"

    func answer(_ url: String, _ method: String, _ params: String) async throws -> JSONValue {
        let body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method)\",\"params\":\(params)}"
        return try JSONValue(parsing: try await HTTPTransport(url: url, timeout: 120).send(Array(body.utf8)))
    }

    func call(_ url: String, _ method: String, _ params: String = "[]") async throws -> JSONValue {
        let answer = try await answer(url, method, params)
        #expect(answer["error"] == nil, "\(method) \(params): \(answer)")
        return answer["result"] ?? .null
    }

    /// Sends a CarChain operation from account 0 (the manager) and checks it succeeded.
    func send(_ url: String, _ operation: CarChainOperation, contract: String = contract) async throws {
        let hash = try await call(
            url, "eth_sendTransaction",
            "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(contract)\",\"data\":\"\(Hex.encode(operation.calldata))\"}]")
        let receipt = try await call(url, "eth_getTransactionReceipt", "[\(hash)]")
        #expect(receipt["status"] == .string("0x1"), "\(operation): \(receipt)")
    }

    func query(_ url: String, _ query: CarChainQuery, at block: String, contract: String = contract) async throws -> JSONValue {
        try await call(url, "eth_call", "[{\"to\":\"\(contract)\",\"data\":\"\(Hex.encode(query.calldata))\"},\"\(block)\"]")
    }

    /// Node A's CarChain traffic up to block N (returned), then u1 rents CAR2 after N.
    func carChainTraffic(_ a: String) async throws -> String {
        for operation: CarChainOperation in [
            .registerNewCar(plate: "CAR1"), .registerNewCar(plate: "CAR2"), .registerNewCar(plate: "CAR3"), .registerNewUser(userId: "u1"),
            .registerNewUser(userId: "u2"), .addCredit(userId: "u1", credit: 1000), .addCredit(userId: "u2", credit: 1000),
        ] { try await send(a, operation) }
        _ = try await call(a, "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.stranger)\",\"value\":\"0x2a\"}]")
        let n = try #require(try await call(a, "eth_blockNumber").stringValue)
        try await send(a, .rentCar(plate: "CAR2", userId: "u1"))
        return n
    }

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("carchain-fork-\(UUID().uuidString)")
    }

    @Test func aForkAnswersTheRemotesStateKeepsItsWritesRestartsFromItsCacheAndOutlivesItsRemote() async throws {
        guard let a = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { a.stop(signal: SIGKILL) }
        let n = try await carChainTraffic(a.url)
        let proxy = try await ForkRemoteProxy.start(upstream: a.url)
        defer { proxy.stop() }
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let forkArguments = [
            "--data-dir", directory.path, "--fork-url", proxy.url, "--fork-block-number", String(try Quantity.decodeUInt64(n)),
            "--fork-chain-id", "4",
        ]
        var cached: [JSONValue] = []
        do {
            guard let b = try NodeProcess.start(forkArguments) else { return }
            defer { b.stop(signal: SIGKILL) }  // kill -9: the cache file must survive it
            #expect(b.output.contains("forked from \(proxy.url) at block \(try Quantity.decodeUInt64(n))"), "\(b.output)")
            #expect(try await call(b.url, "eth_blockNumber") == .string(n))
            #expect(try await call(b.url, "eth_chainId") == .string("0x4"))
            // B's latest (its head is the fork block) against A at N, and reads at N forwarded to A.
            for query in Self.queries {
                let atN = try await self.query(a.url, query, at: n)
                #expect(try await self.query(b.url, query, at: "latest") == atN, "\(query)")
                #expect(try await self.query(b.url, query, at: n) == atN, "\(query) at N")
                cached.append(atN)
            }
            for (method, params) in [
                ("eth_getCode", "\"\(Self.contract)\""), ("eth_getBalance", "\"\(Self.stranger)\""),
                ("eth_getBalance", "\"\(Self.contract)\""), ("eth_getTransactionCount", "\"\(HandlerHarness.account0)\""),
                ("eth_getStorageAt", "\"\(Self.contract)\",\"0x0\""), ("eth_getStorageAt", "\"\(Self.contract)\",\"0x1\""),
                ("eth_getStorageAt", "\"\(Self.contract)\",\"0x2\""), ("eth_getStorageAt", "\"\(Self.contract)\",\"0x3\""),
            ] {
                let remote = try await call(a.url, method, "[\(params),\"\(n)\"]")
                #expect(try await call(b.url, method, "[\(params),\"latest\"]") == remote, "\(method) \(params)")
            }
            let blockN = try await call(a.url, "eth_getBlockByNumber", "[\"\(n)\",false]")
            #expect(try await call(b.url, "eth_getBlockByNumber", "[\"\(n)\",false]") == blockN)
            let info = try await call(b.url, "anvil_nodeInfo")
            #expect(info["forkConfig"]?["forkUrl"] == .string(proxy.url))
            #expect(info["forkConfig"]?["forkBlockNumber"] == .number(String(try Quantity.decodeUInt64(n))))

            // B registers CAR4 and rents CAR1: on B only. CAR2, rented on A after N, stays free on B.
            let nonceOnA = try await call(a.url, "eth_getTransactionCount", "[\"\(HandlerHarness.account0)\",\"latest\"]")
            try await send(b.url, .registerNewCar(plate: "CAR4"))
            try await send(b.url, .rentCar(plate: "CAR1", userId: "u2"))
            let newHead = try await call(b.url, "eth_getBlockByNumber", "[\"latest\",false]")
            #expect(try await call(b.url, "eth_getBlockByNumber", "[\"\(Quantity.encode(try Quantity.decodeUInt64(n) + 1))\",false]")["parentHash"] == blockN["hash"])
            #expect(newHead["number"] == .string(Quantity.encode(try Quantity.decodeUInt64(n) + 2)))
            #expect(try await query(b.url, .getCar(plate: "CAR1"), at: "latest") != cached[0])
            #expect(try await query(a.url, .getCar(plate: "CAR1"), at: "latest") == cached[0])
            #expect(try await query(a.url, .getCar(plate: "CAR4"), at: "latest") == (try await query(a.url, .getCar(plate: "CAR9"), at: "latest")))
            #expect(try await query(b.url, .getCar(plate: "CAR2"), at: "latest") == cached[1])
            #expect(try await query(a.url, .getCar(plate: "CAR2"), at: "latest") != cached[1])
            #expect(try await call(a.url, "eth_getTransactionCount", "[\"\(HandlerHarness.account0)\",\"latest\"]") == nonceOnA)
        }

        // B, killed with SIGKILL, restarts on its cache: what it read before costs A nothing (counted at the proxy,
        // which every request to A passes); something new is fetched.
        guard let b = try NodeProcess.start(forkArguments) else { return }
        defer { b.stop() }
        let before = proxy.forwarded
        for (query, expected) in zip(Self.queries, cached) {
            #expect(try await self.query(b.url, query, at: "latest") == expected, "\(query) from the cache")
        }
        #expect(proxy.forwarded == before, "the restarted fork asked A for cached state")
        _ = try await call(b.url, "eth_getBalance", "[\"0x00000000000000000000000000000000000c0ffe\",\"latest\"]")
        #expect(proxy.forwarded > before)

        // A dies while B fetches: B's answer says so; B stays up and serves what it has.
        proxy.script { _, _ in
            a.stop(signal: SIGKILL)
            return .forward
        }
        let uncached = try await answer(b.url, "eth_getBalance", "[\"0x000000000000000000000000000000000000dead\",\"latest\"]")
        let message = uncached["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("fork remote \(proxy.url) unreachable"), "\(uncached)")
        #expect(uncached["error"]?["code"] == .number("-32000"))
        for (query, expected) in zip(Self.queries, cached) {
            #expect(try await self.query(b.url, query, at: "latest") == expected, "\(query) after A died")
        }
    }

    @Test func aRateLimitedRemoteIsWaitedForAsItAsks() async throws {
        guard let a = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { a.stop() }
        let proxy = try await ForkRemoteProxy.start(upstream: a.url)
        defer { proxy.stop() }
        // The first two requests get 429 with Retry-After: 1, then A answers.
        proxy.script { index, _ in
            index < 2 ? .reply(status: 429, body: "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":429,\"message\":\"too many requests\"}}", retryAfter: "1") : .forward
        }
        guard let b = try NodeProcess.start(["--ephemeral", "--fork-url", proxy.url]) else { return }
        defer { b.stop() }
        #expect(try await call(b.url, "eth_chainId") == .string("0x4"))
        let history = proxy.history
        #expect(history.prefix(3).map(\.status) == [429, 429, 200])
        for i in 0..<2 where history.count > i + 1 {
            // The next attempt came no sooner than the server asked (a lower bound: a loaded machine only adds time).
            #expect(history[i + 1].at - history[i].at >= .milliseconds(900), "retry \(i + 1) came early")
        }
    }

    @Test func aRemoteReplacedByAnotherChainIsAClearError() async throws {
        guard let a = try NodeProcess.start(["--ephemeral", "--no-carchain"]) else { return }
        defer { a.stop() }
        guard let other = try NodeProcess.start(["--ephemeral", "--no-carchain", "--chain-id", "5"]) else { return }
        defer { other.stop() }
        #expect {
            _ = try NodeProcess.start(["--ephemeral", "--fork-url", a.url, "--fork-chain-id", "999"])
        } throws: { error in
            Self.oneErrorLine(error) == "carchain: fork remote is chain 4, not the expected chain 999"
        }
        let proxy = try await ForkRemoteProxy.start(upstream: a.url)
        defer { proxy.stop() }
        guard let b = try NodeProcess.start(["--ephemeral", "--fork-url", proxy.url]) else { return }
        defer { b.stop() }
        proxy.switchUpstream(to: other.url)
        let answer = try await answer(b.url, "eth_getBalance", "[\"0x00000000000000000000000000000000000c0ffe\",\"latest\"]")
        #expect(answer["error"]?["message"] == .string("fork remote is chain 5, not the expected chain 4"), "\(answer)")
    }

    @Test func startFailuresAreOneLineEach() async throws {
        let refusing = try #require(RefusingPort())
        defer { withExtendedLifetime(refusing) {} }
        #expect {
            _ = try NodeProcess.start(["--ephemeral", "--fork-url", "http://127.0.0.1:\(refusing.port)"])
        } throws: { error in
            Self.oneErrorLine(error) == "carchain: fork remote http://127.0.0.1:\(refusing.port) unreachable: connection refused"
        }
        guard let a = try NodeProcess.start(["--ephemeral", "--no-carchain"]) else { return }
        defer { a.stop() }
        #expect {
            _ = try NodeProcess.start(["--ephemeral", "--fork-url", a.url, "--fork-block-number", "999999"])
        } throws: { error in
            Self.oneErrorLine(error)?.hasPrefix("carchain: fork block not available: the remote has no block 999999") == true
        }
        // A remote that pruned the block's state: geth's "missing trie node" for every state read at it.
        let proxy = try await ForkRemoteProxy.start(upstream: a.url)
        defer { proxy.stop() }
        proxy.script { _, body in
            guard body.contains("eth_getBalance"), case .array(let items)? = try? JSONValue(parsing: Array(body.utf8)) else { return .forward }
            let answers = items.map { item -> String in
                let id = item["id"]?.description ?? "null"
                if item["method"] == .string("eth_chainId") { return "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"result\":\"0x4\"}" }
                return "{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":-32000,\"message\":\"missing trie node 1c2f9a (path ) state 0x1c2f9a is not available\"}}"
            }
            return .reply(status: 200, body: "[" + answers.joined(separator: ",") + "]", retryAfter: nil)
        }
        #expect {
            _ = try NodeProcess.start(["--ephemeral", "--fork-url", proxy.url])
        } throws: { error in
            let line = Self.oneErrorLine(error) ?? ""
            return line.hasPrefix("carchain: fork block not available: the remote has no state for block")
                && line.contains("missing trie node") && line.contains("archive node")
        }
    }

    /// The forked node against the py-evm reference node (tools/pyevm-node.py), another implementation: CarChain deployed
    /// and used there with signed raw transactions; B's reads at N are py-evm's, B's rental stays on B.
    @Test func aForkOfThePyEVMNodeAnswersItsStateAtTheForkBlock() async throws {
        guard let pyevm = try ProcessPyEVMNode.start(for: "fork mode against the py-evm node") else { return }
        defer { pyevm.stop() }
        let key = try DevAccounts.key(index: 0)
        var nonce: UInt64 = 0
        func sendRaw(_ to: Address?, _ data: [UInt8]) async throws -> JSONValue {
            let price = try Quantity.decodeUInt256(try #require(try await call(pyevm.url, "eth_gasPrice").stringValue))
            let tx = Transaction.legacy(
                LegacyTransaction(nonce: nonce, gasPrice: price, gasLimit: to == nil ? 3_000_000 : 300_000, to: to, value: .zero, data: data, chainId: 4))
            nonce += 1
            let hash = try await call(pyevm.url, "eth_sendRawTransaction", "[\"\(Hex.encode(tx.sign(with: key).encoded))\"]")
            let receipt = try await call(pyevm.url, "eth_getTransactionReceipt", "[\(hash)]")
            #expect(receipt["status"] == .string("0x1"), "\(receipt)")
            return receipt
        }
        let deployed = try await sendRaw(nil, CarChainArtifact.project.bytecode)
        let contractText = try #require(deployed["contractAddress"]?.stringValue)
        let contract = try Address(contractText)
        for operation: CarChainOperation in [
            .registerNewCar(plate: "CAR1"), .registerNewCar(plate: "CAR2"), .registerNewCar(plate: "CAR3"), .registerNewUser(userId: "u1"),
            .registerNewUser(userId: "u2"), .addCredit(userId: "u1", credit: 1000), .addCredit(userId: "u2", credit: 1000),
        ] { _ = try await sendRaw(contract, operation.calldata) }
        let n = try #require(try await call(pyevm.url, "eth_blockNumber").stringValue)
        _ = try await sendRaw(contract, CarChainOperation.rentCar(plate: "CAR2", userId: "u1").calldata)

        // Its headers hash as they should: the fork starts even when an unverifiable header would stop it (issue 31).
        guard
            let b = try NodeProcess.start(
                ["--ephemeral", "--fork-url", pyevm.url, "--fork-block-number", String(try Quantity.decodeUInt64(n)), "--fork-verify-headers"],
                keepingErrors: true)
        else {
            return
        }
        defer { b.stop() }
        #expect(!b.errors.contains("could not be verified"), "\(b.errors)")
        let c = contract.lowercasedHex
        for query in Self.queries {
            let atN = try await self.query(pyevm.url, query, at: n, contract: c)
            #expect(try await self.query(b.url, query, at: "latest", contract: c) == atN, "\(query)")
        }
        let account0 = HandlerHarness.account0
        for (method, params) in [
            ("eth_getCode", "\"\(c)\""), ("eth_getStorageAt", "\"\(c)\",\"0x0\""), ("eth_getStorageAt", "\"\(c)\",\"0x1\""),
            ("eth_getBalance", "\"\(c)\""), ("eth_getTransactionCount", "\"\(account0)\""),
        ] {
            #expect(try await call(b.url, method, "[\(params),\"latest\"]") == (try await call(pyevm.url, method, "[\(params),\"\(n)\"]")), "\(method)")
        }
        // B (its account 0 is py-evm's deployer, the manager) rents CAR1: rented on B only; CAR2 is free on B.
        let car1 = try await query(pyevm.url, .getCar(plate: "CAR1"), at: "latest", contract: c)
        try await send(b.url, .rentCar(plate: "CAR1", userId: "u2"), contract: c)
        #expect(try await query(b.url, .getCar(plate: "CAR1"), at: "latest", contract: c) != car1)
        #expect(try await query(pyevm.url, .getCar(plate: "CAR1"), at: "latest", contract: c) == car1)
        #expect(try await query(b.url, .getCar(plate: "CAR2"), at: "latest", contract: c) == (try await query(pyevm.url, .getCar(plate: "CAR2"), at: n, contract: c)))
        #expect(try await call(pyevm.url, "eth_getTransactionCount", "[\"\(account0)\",\"latest\"]") == .string(Quantity.encode(nonce)))
    }

    /// `carchain rent PLATE --user U --fork-url A`: one line with the gas and fee, nothing sent to A; the gas is what A
    /// charges when the same rental is then sent to it. Errors are one line.
    @Test func theCLIRehearsesARentalOnAForkAndSendsNothing() async throws {
        guard let carchain = ProcessRunner.carchainExecutable() else { return }
        guard let a = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { a.stop() }
        let n = try await carChainTraffic(a.url)
        let home = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["CARCHAIN_HOME": home.path]
        let head = try await call(a.url, "eth_blockNumber")
        let rehearsal = try await ProcessRunner.run(
            carchain, ["rent", "CAR1", "--user", "u2", "--fork-url", a.url, "--fork-block-number", String(try Quantity.decodeUInt64(n)),
                "--contract", Self.contract, "--json"],
            environment: environment, removingEnvironment: ["CARCHAIN_RPC"])
        #expect(rehearsal.status == 0, "\(rehearsal.stderr)")
        let report = try JSONValue(parsing: Array(rehearsal.stdout.utf8))
        #expect(report["status"] == .string("success"))
        #expect(report["rehearsal"] == .bool(true))
        #expect(report["forkBlock"] == .number(String(try Quantity.decodeUInt64(n))))
        #expect(try await call(a.url, "eth_blockNumber") == head)
        #expect(try await query(a.url, .getCar(plate: "CAR1"), at: "latest") == (try await query(a.url, .getCar(plate: "CAR1"), at: n)))
        // The line for people (a fork of A's latest block).
        let line = try await ProcessRunner.run(
            carchain, ["rent", "CAR3", "--user", "u2", "--fork-url", a.url, "--contract", Self.contract], environment: environment,
            removingEnvironment: ["CARCHAIN_RPC"])
        #expect(line.status == 0, "\(line.stderr)")
        #expect(line.stdout.hasPrefix("would succeed: rented car CAR3 to u2: gas used "), "\(line.stdout)")
        #expect(line.stdout.contains("(rehearsed on a fork of \(a.url) at block"), "\(line.stdout)")
        #expect(line.stdout.contains("nothing was sent"))
        // The same rental on A costs the gas the rehearsal printed.
        let hash = try await call(
            a.url, "eth_sendTransaction",
            "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.contract)\",\"data\":\"\(Hex.encode(CarChainOperation.rentCar(plate: "CAR1", userId: "u2").calldata))\"}]")
        let receipt = try await call(a.url, "eth_getTransactionReceipt", "[\(hash)]")
        #expect(receipt["gasUsed"]?.stringValue.flatMap { try? Quantity.decodeUInt64($0) }.map { JSONValue.number(String($0)) } == report["gasUsed"])

        // The clear errors: another chain id, an unreachable remote.
        let wrongChain = try await ProcessRunner.run(
            carchain, ["rent", "CAR3", "--user", "u2", "--fork-url", a.url, "--chain-id", "1", "--contract", Self.contract],
            environment: environment, removingEnvironment: ["CARCHAIN_RPC"])
        #expect(wrongChain.status == 1)
        #expect(wrongChain.stderr == "carchain: fork remote is chain 4, not the expected chain 1\n")
        for (arguments, expected) in [
            (["rent", "CAR3", "--fork-url", a.url, "--contract", Self.contract],
             "carchain: not logged in: run `carchain login EMAIL`, or name the user (--user USER_ID)"),
            (["stats", "--rpc", a.url, "--fork-url", a.url], "carchain: give --rpc or --fork-url, not both"),
            (["car", "register", "1234ABC", "--at", "40.4,-3.7", "--fork-url", a.url],
             "carchain: --at places the car on the fleet map: a rehearsal (--fork-url) changes nothing, give one or the other (see --help)"),
            (["stats", "--fork-block-number", "3"], "carchain: --fork-block-number and --no-fork-cache need --fork-url (see --help)"),
        ] {
            let refused = try await ProcessRunner.run(carchain, arguments, environment: environment, removingEnvironment: ["CARCHAIN_RPC"])
            #expect(refused.status == 1, "\(arguments)")
            #expect(refused.stderr == expected + "\n", "\(arguments)")
        }
        let refusing = try #require(RefusingPort())
        defer { withExtendedLifetime(refusing) {} }
        let unreachable = try await ProcessRunner.run(
            carchain, ["stats", "--fork-url", "http://127.0.0.1:\(refusing.port)"], environment: environment, removingEnvironment: ["CARCHAIN_RPC"])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderr == "carchain: fork remote http://127.0.0.1:\(refusing.port) unreachable: connection refused\n")
    }

    /// The `carchain: …` line of a node that would not start, nil unless it is the only line on stderr.
    static func oneErrorLine(_ error: any Error) -> String? {
        guard case NodeProcess.StartError.noBanner(let text) = error else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard lines.count == 1 else { return nil }
        return lines[0]
    }

    /// A block object as an L2 (or a later fork) answers it: fields this node does not know, and a hash its known
    /// fields do not give (the proxy below makes node A such a remote).
    static func withForeignHeaderFields(_ answer: String) -> String {
        func rewrite(_ value: JSONValue) -> JSONValue {
            switch value {
            case .array(let items): return .array(items.map(rewrite))
            case .object(let members):
                guard let hash = value["hash"]?.stringValue, value["stateRoot"] != nil, value["parentHash"] != nil,
                    let bytes = try? Hex.decode(hash)
                else { return .object(members.map { ($0.key, rewrite($0.value)) }) }
                let reported = Keccak256.hash(bytes + [0x31]).hexString
                return .object(
                    members.map { $0.key == "hash" ? ("hash", .string(reported)) : ($0.key, $0.value) } + [
                        ("l1BlockNumber", .string("0x1234")), ("sendRoot", .string(Bytes32.zero.hexString)),
                        ("blockAccessListHash", .string(Keccak256.hash(bytes).hexString)),
                    ])
            default: return value
            }
        }
        guard let json = try? JSONValue(parsing: Array(answer.utf8)) else { return answer }
        return rewrite(json).description
    }

    /// Issue 31: a remote whose block fields do not hash to its block hash — here node A behind a proxy that adds three
    /// header fields and reports another hash, as an L2 does — is forked with one warning naming the block and the
    /// unknown fields; local blocks continue the reported hash, and a restart from the fork cache does too. With
    /// `--fork-verify-headers` the start stops with that reason.
    @Test func aRemoteWhoseHeadersCarryUnknownFieldsIsForkedWithOneWarning() async throws {
        guard let a = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { a.stop(signal: SIGKILL) }
        _ = try await call(a.url, "eth_sendTransaction", "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.stranger)\",\"value\":\"0x2a\"}]")
        let n = try #require(try await call(a.url, "eth_blockNumber").stringValue)
        let number = String(try Quantity.decodeUInt64(n))
        let proxy = try await ForkRemoteProxy.start(upstream: a.url)
        defer { proxy.stop() }
        // As an L2 does, the remote answers state reads by the hash it reports: the proxy puts A's hash back.
        let actual = try #require(try await call(a.url, "eth_getBlockByNumber", "[\"\(n)\",false]")["hash"]?.stringValue)
        let reported = Keccak256.hash(try Hex.decode(actual) + [0x31]).hexString
        proxy.script { _, body in
            .forwardRewriting(
                request: { $0.replacingOccurrences(of: reported, with: actual) },
                answer: { body.contains("eth_getBlockByNumber") ? Self.withForeignHeaderFields($0) : $0 })
        }
        let remoteBlock = try await call(proxy.url, "eth_getBlockByNumber", "[\"\(n)\",false]")
        #expect(remoteBlock["hash"]?.stringValue == reported)

        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var arguments = ["--data-dir", directory.path, "--fork-url", proxy.url, "--fork-block-number", number, "--fork-chain-id", "4", "--no-app"]
        for start in 0..<2 {
            // The second start reads the fork block from the cache file, reported hash included.
            guard let b = try NodeProcess.start(arguments, keepingErrors: true) else { return }
            let warnings = b.errors.split(separator: "\n").filter { $0.contains("could not be verified") }
            #expect(warnings.count == 1, "start \(start): \(b.errors)")
            let line = String(warnings.first ?? "")
            #expect(line.contains("fork block \(number) (\(reported))"), "\(line)")
            #expect(start == 1 || line.contains("blockAccessListHash, l1BlockNumber, sendRoot"), "\(line)")
            #expect(line.contains("--fork-verify-headers"), "\(line)")
            // The fork block's state is the remote's; the next local block's parent is the hash the remote reported.
            #expect(try await call(b.url, "eth_getBalance", "[\"\(Self.stranger)\",\"latest\"]") == .string("0x2a"))
            _ = try await call(b.url, "evm_mine")
            let local = try await call(b.url, "eth_getBlockByNumber", "[\"latest\",false]")
            #expect(local["parentHash"]?.stringValue == reported)
            b.stop(signal: SIGKILL)
        }
        arguments.append("--fork-verify-headers")
        do {
            _ = try NodeProcess.start(arguments)
            Issue.record("the fork started although its header could not be verified")
        } catch {
            #expect("\(error)".contains("fork block \(number) could not be verified"), "\(error)")
        }
    }
}
