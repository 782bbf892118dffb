import CarChain
import CarChainKit
import Chain
import DevNode
import EthereumContractsLocal
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing

/// Fork mode over JSON-RPC in one process: a node A (a dev chain with CarChain traffic, answered by its
/// NodeRPCHandler) is the remote; forks of it go through EthereumContractsLocal's RemoteForkSource over a transport
/// that counts round trips. The first `eth_call` of every CarChain getter on a fresh fork takes at most 5 round trips (the
/// issue's bound) and a repeat none; a rehearsal mines on the fork only, with the gas A charges for the same
/// transaction; `anvil_reset` with forking parameters re-forks; a remote that loses the fork block, rate-limits
/// items or is another chain gets a clear error.
@Suite struct ForkRemoteTests {
    /// Node A: CAR1 and CAR2 registered, users u1 and u2 with credit, at block `n`; then u1 rents CAR2 (after `n`).
    struct Remote {
        let chain: DevChain
        let handler: NodeRPCHandler
        let contract: CarChainContract
        let n: UInt64

        static func make() async throws -> Remote {
            let chain = try await DevChain(config: .deterministic())
            let (contract, _) = try await CarChainContract.deploy(backend: try DevChainBackend(chain: chain))
            try await contract.registerNewCar("CAR1")
            try await contract.registerNewCar("CAR2")
            try await contract.registerNewUser("u1")
            try await contract.registerNewUser("u2")
            _ = try await contract.execute(.addCredit(userId: "u1", credit: UInt256(5)))
            _ = try await contract.execute(.addCredit(userId: "u2", credit: UInt256(5)))
            let n = await chain.blockNumber()
            _ = try await contract.execute(.rentCar(plate: "CAR2", userId: "u1"))
            return Remote(chain: chain, handler: NodeRPCHandler(chain: chain), contract: contract, n: n)
        }

        var transport: InProcessTransport { InProcessTransport(handler: handler, endpoint: "node A") }

        func settings(_ transport: any RPCTransport, block: UInt64? = nil, chainID: UInt64? = 4) -> ForkSettings {
            ForkSettings(url: "http://127.0.0.1:1", blockNumber: block ?? n, chainID: chainID, transport: transport)
        }

        /// A's answer to a raw request.
        func answer(_ method: String, _ params: JSONValue) async throws -> JSONValue {
            try await Self.answer(handler, method, params)
        }

        static func answer(_ handler: NodeRPCHandler, _ method: String, _ params: JSONValue) async throws -> JSONValue {
            let body = JSONValue.object([("jsonrpc", .string("2.0")), ("id", .number("1")), ("method", .string(method)), ("params", params)])
            let answer = await handler.handle(Array(body.description.utf8))
            return try JSONValue(parsing: answer)
        }
    }

    static let queries: [CarChainQuery] = [
        .getCar(plate: "CAR1"), .getCar(plate: "CAR2"), .getUserCredit(userId: "u1"), .getUserCar(userId: "u1"),
        .isUserRegistered(userId: "u2"), .getUserAccount(userId: "u2"), .registeredUsers, .registeredCars, .rentedCars,
        .availableCars, .minimumRentCredit, .manager,
    ]

    func callParams(_ contract: Address, _ query: CarChainQuery, _ block: String) -> JSONValue {
        .array([.object([("to", .string(contract.lowercasedHex)), ("data", .string(Hex.encode(query.calldata)))]), .string(block)])
    }

    @Test func theFirstCallOfEveryGetterTakesAtMostFiveRoundTripsAndARepeatNone() async throws {
        let a = try await Remote.make()
        let atN = Quantity.encode(a.n)
        for query in Self.queries {
            let counter = CountingTransport(a.transport)
            let fork = try await ForkedChain.open(a.settings(counter))
            let b = NodeRPCHandler(chain: fork.chain)
            let expected = try await a.answer("eth_call", callParams(a.contract.address, query, atN))
            let started = counter.roundTrips
            let first = try await Remote.answer(b, "eth_call", callParams(a.contract.address, query, "latest"))
            let firstTrips = counter.roundTrips - started
            #expect(first["result"] == expected["result"], "\(query): \(first)")
            #expect(firstTrips <= 5, "\(query): \(firstTrips) round trips")
            #expect(firstTrips >= 1, "\(query): the fresh fork read nothing from A")
            let again = try await Remote.answer(b, "eth_call", callParams(a.contract.address, query, "latest"))
            #expect(again["result"] == expected["result"])
            #expect(counter.roundTrips - started == firstTrips, "\(query): a repeated call went to the remote")
            print("fork first eth_call \(query.functionName): \(firstTrips) remote round trips")
            await fork.chain.close()
        }
    }

    @Test func stateReadsAtTheForkBlockEqualTheRemotes() async throws {
        let a = try await Remote.make()
        let fork = try await ForkedChain.open(a.settings(a.transport))
        let b = NodeRPCHandler(chain: fork.chain)
        let atN = JSONValue.string(Quantity.encode(a.n))
        let contract = JSONValue.string(a.contract.address.lowercasedHex)
        let manager = JSONValue.string(try #require(a.chain.accounts.first).lowercasedHex)
        for (method, params) in [
            ("eth_getCode", [contract]), ("eth_getBalance", [contract]), ("eth_getTransactionCount", [manager]),
            ("eth_getStorageAt", [contract, .string("0x0")]), ("eth_getStorageAt", [contract, .string("0x1")]),
            ("eth_getStorageAt", [contract, .string("0x2")]),
        ] {
            let remote = try await a.answer(method, .array(params + [atN]))
            let local = try await Remote.answer(b, method, .array(params + [.string("latest")]))
            #expect(local["result"] == remote["result"], "\(method) \(params)")
            #expect(local["result"] != nil)
        }
        await fork.chain.close()
    }

    @Test func aRehearsalMinesOnTheForkOnlyAndCostsWhatTheRemoteChargesForTheSameTransaction() async throws {
        let a = try await Remote.make()
        var connection = ChainConnection(url: nil, dataDirectory: URL(fileURLWithPath: "/nonexistent"), contract: a.contract.address)
        connection.fork = a.settings(a.transport)
        let session = try await ChainSession.reading(connection)
        let rehearsed = try await ForkRehearsal.execute(.rentCar(plate: "CAR1", userId: "u2"), session: session, from: nil, settings: SendSettings())
        #expect(rehearsed.transaction.outcome.succeeded)
        #expect(rehearsed.from == (try await a.contract.manager()))
        #expect(rehearsed.fork.block == a.n)
        #expect(try await a.contract.getCar("CAR1").registered == true)
        #expect(try await a.contract.getCar("CAR1").renter == "")  // nothing reached A
        let onA = try await a.contract.execute(.rentCar(plate: "CAR1", userId: "u2"))
        #expect(onA.outcome.succeeded)
        #expect(rehearsed.transaction.outcome.gasUsed == onA.outcome.gasUsed)
        let report = RehearsalReport(summary: "rented car CAR1 to u2", outcome: rehearsed)
        #expect(report.line.contains("gas used \(onA.outcome.gasUsed)"))
        #expect(report.line.contains("nothing was sent"))
        #expect(report.json["rehearsal"] == .bool(true))
    }

    @Test func aRehearsalThatWouldFailSaysWhyAndSendsNothing() async throws {
        let a = try await Remote.make()
        var connection = ChainConnection(url: nil, dataDirectory: URL(fileURLWithPath: "/nonexistent"), contract: a.contract.address)
        connection.fork = a.settings(a.transport)
        let session = try await ChainSession.reading(connection)
        let head = await a.chain.blockNumber()
        await #expect {
            _ = try await ForkRehearsal.execute(.rentCar(plate: "NOPE", userId: "u2"), session: session, from: nil, settings: SendSettings())
        } throws: { error in
            "\(error)".hasPrefix("car not registered (rehearsed on a fork of") && "\(error)".contains("nothing was sent")
        }
        await #expect {
            _ = try await ForkRehearsal.execute(
                .rentCar(plate: "NOPE", userId: "u2"), session: session, from: nil, settings: SendSettings(precheck: false))
        } throws: { error in
            "\(error)".hasPrefix("rentCar would revert: car not registered (found by eth_estimateGas")
        }
        #expect(await a.chain.blockNumber() == head)
        // A session on a fork signs nothing.
        await #expect(throws: AppError.self) {
            _ = try await ChainSession.sending(connection, signer: .devAccount(0), settings: SendSettings())
        }
    }

    /// A raw transaction from an account the fork has not read yet, whose nonce on A is past 0: the fork reads the
    /// sender before judging the nonce, so the transaction is mined, not queued behind a gap that is not there.
    @Test func aRawTransactionFromAnUnreadSenderIsMinedAtItsRemoteNonce() async throws {
        let a = try await Remote.make()
        let key = try PrivateKey(hex: "0x" + String(repeating: "42", count: 32))
        let manager = try #require(a.chain.accounts.first)
        _ = try await a.chain.sendTransaction(CallRequest(from: manager, to: key.address, value: UInt256(1_000_000_000_000_000_000 as UInt64)))
        let price = await a.chain.gasPrice()
        func signed(_ nonce: UInt64) -> String {
            Hex.encode(
                Transaction.legacy(
                    LegacyTransaction(nonce: nonce, gasPrice: price * UInt256(2), gasLimit: 21_000, to: manager, value: UInt256(1), chainId: 4)
                ).sign(with: key).encoded)
        }
        for nonce in 0..<2 {
            let sent = try await a.answer("eth_sendRawTransaction", .array([.string(signed(UInt64(nonce)))]))
            #expect(sent["error"] == nil, "\(sent)")
        }
        #expect(try await a.chain.nonce(key.address) == 2)
        let fork = try await ForkedChain.open(a.settings(a.transport, block: await a.chain.blockNumber()))
        let b = NodeRPCHandler(chain: fork.chain)
        let sent = try await Remote.answer(b, "eth_sendRawTransaction", .array([.string(signed(2))]))
        let hash = try #require(sent["result"], "\(sent)")
        let receipt = try await Remote.answer(b, "eth_getTransactionReceipt", .array([hash]))
        #expect(receipt["result"]?["status"] == .string("0x1"), "\(receipt)")
        await fork.chain.close()
    }

    /// Dev methods that change an account the fork has not read yet (anvil's setBalance, setNonce, setCode,
    /// setStorageAt, addBalance) change only what they name: the rest of the account is the remote's, as anvil keeps it.
    /// A change built on an unread account would start from an empty one and lose its code, nonce and balance.
    @Test func devMethodsOnUnreadAccountsKeepTheRestOfTheRemoteAccount() async throws {
        let a = try await Remote.make()
        let manager = try #require(a.chain.accounts.first)
        // Three accounts that are not dev accounts (those the fork funds, so reads): one with a nonce of 2, one with
        // 1 ether, one with 1,000 wei.
        let keys = try ["42", "43", "44"].map { try PrivateKey(hex: "0x" + String(repeating: $0, count: 32)) }
        let price = await a.chain.gasPrice()
        for (key, amount) in zip(keys, [UInt256(1_000_000_000_000_000_000 as UInt64), UInt256(1_000_000_000_000_000_000 as UInt64), UInt256(1000)]) {
            _ = try await a.chain.sendTransaction(CallRequest(from: manager, to: key.address, value: amount))
        }
        for nonce in 0..<2 {
            let raw = Transaction.legacy(
                LegacyTransaction(nonce: UInt64(nonce), gasPrice: price * UInt256(2), gasLimit: 21_000, to: manager, value: UInt256(1), chainId: 4)
            ).sign(with: keys[0]).encoded
            let sent = try await a.answer("eth_sendRawTransaction", .array([.string(Hex.encode(raw))]))
            #expect(sent["error"] == nil, "\(sent)")
        }
        let forkBlock = await a.chain.blockNumber()
        let fork = try await ForkedChain.open(a.settings(a.transport, block: forkBlock))
        let b = NodeRPCHandler(chain: fork.chain)
        func remote(_ method: String, _ params: [JSONValue]) async throws -> JSONValue? {
            try await a.answer(method, .array(params + [.string(Quantity.encode(forkBlock))]))["result"]
        }
        func local(_ method: String, _ params: [JSONValue]) async throws -> JSONValue? {
            let answer = try await Remote.answer(b, method, .array(params))
            #expect(answer["error"] == nil, "\(method): \(answer)")
            return answer["result"]
        }
        let contract = JSONValue.string(a.contract.address.lowercasedHex)
        // The contract keeps its code, nonce and other slots through a new balance and a written slot.
        _ = try await local("anvil_setBalance", [contract, .string("0x1234")])
        _ = try await local("anvil_setStorageAt", [contract, .string(Quantity.encode(UInt64(9))), .string("0x" + String(repeating: "0", count: 63) + "1")])
        #expect(try await local("eth_getCode", [contract, .string("latest")]) == remote("eth_getCode", [contract]))
        #expect(try await local("eth_getTransactionCount", [contract, .string("latest")]) == remote("eth_getTransactionCount", [contract]))
        #expect(try await local("eth_getBalance", [contract, .string("latest")]) == .string("0x1234"))
        let slot0 = JSONValue.string("0x0")
        #expect(try await local("eth_getStorageAt", [contract, slot0, .string("latest")]) == remote("eth_getStorageAt", [contract, slot0]))
        // A new balance keeps the nonce (2 on A); a new nonce keeps the balance; addBalance adds to the remote's.
        let (sender, funded, small) = (JSONValue.string(keys[0].address.lowercasedHex), JSONValue.string(keys[1].address.lowercasedHex), JSONValue.string(keys[2].address.lowercasedHex))
        _ = try await local("anvil_setBalance", [sender, .string("0x5")])
        #expect(try await local("eth_getTransactionCount", [sender, .string("latest")]) == .string("0x2"))
        _ = try await local("anvil_setNonce", [funded, .string("0x7")])
        #expect(try await local("eth_getBalance", [funded, .string("latest")]) == .string("0xde0b6b3a7640000"))
        _ = try await local("anvil_addBalance", [small, .string("0x1")])
        #expect(try await local("eth_getBalance", [small, .string("latest")]) == .string(Quantity.encode(UInt64(1001))))
        await fork.chain.close()
    }

    @Test func anvilResetWithForkingParametersForksAgain() async throws {
        let a = try await Remote.make()
        let fork = try await ForkedChain.open(a.settings(a.transport))
        let b = NodeRPCHandler(chain: fork.chain)
        let car2 = callParams(a.contract.address, .getCar(plate: "CAR2"), "latest")
        let freeOnB = try await Remote.answer(b, "eth_call", car2)
        _ = try await Remote.answer(b, "evm_mine", .array([]))

        let later = await a.chain.blockNumber()
        let reset = try await Remote.answer(b, "anvil_reset", .array([.object([("forking", .object([("blockNumber", .number(String(later)))]))])]))
        #expect(reset["result"] == .null, "\(reset)")
        #expect(try await Remote.answer(b, "eth_blockNumber", .array([]))["result"] == .string(Quantity.encode(later)))
        let rentedOnB = try await Remote.answer(b, "eth_call", car2)
        #expect(rentedOnB["result"] != freeOnB["result"])
        #expect(rentedOnB["result"] == (try await a.answer("eth_call", car2))["result"])
        let metadata = try await Remote.answer(b, "anvil_metadata", .array([]))
        #expect(metadata["result"]?["forkedNetwork"]?["forkBlockNumber"] == .number(String(later)))

        // hardhat's spelling, with a URL: another node, over HTTP — here a port that refuses: a clear error, no change.
        let refused = try await Remote.answer(
            b, "hardhat_reset", .array([.object([("forking", .object([("jsonRpcUrl", .string("http://127.0.0.1:1")), ("blockNumber", .number("1"))]))])]))
        #expect(refused["error"]?["message"]?.stringValue?.contains("fork remote http://127.0.0.1:1 unreachable") == true, "\(refused)")
        #expect(try await Remote.answer(b, "eth_blockNumber", .array([]))["result"] == .string(Quantity.encode(later)))

        // A chain of its own has no remote to fork again.
        let plain = try await Remote.answer(a.handler, "anvil_reset", .array([.object([("forking", .object([("blockNumber", .number("1"))]))])]))
        #expect(plain["error"]?["code"] == .number("-32602"))
        #expect(plain["error"]?["message"]?.stringValue?.contains("not started with --fork-url") == true)
        await fork.chain.close()
    }

    @Test func aRemoteOfAnotherChainIsRefused() async throws {
        let a = try await Remote.make()
        await #expect {
            _ = try await ForkedChain.open(a.settings(a.transport, chainID: 1))
        } throws: { error in
            "\(error)" == "fork remote is chain 4, not the expected chain 1"
        }
        // Started fine, then the remote answers as another chain: the next fetch says so.
        let switching = RewritingTransport(a.transport)
        let fork = try await ForkedChain.open(a.settings(switching))
        switching.rewrite = { $0.replacingOccurrences(of: "\"result\":\"0x4\"", with: "\"result\":\"0x5\"") }
        let answer = try await Remote.answer(
            NodeRPCHandler(chain: fork.chain), "eth_getBalance", .array([.string("0x00000000000000000000000000000000000c0ffe"), .string("latest")]))
        #expect(answer["error"]?["message"] == .string("fork remote is chain 5, not the expected chain 4"), "\(answer)")
        await fork.chain.close()
    }

    @Test func aRemoteThatLostTheForkBlockIsReportedAsNotAvailable() async throws {
        let a = try await Remote.make()
        let lost = RewritingTransport(a.transport)
        let fork = try await ForkedChain.open(a.settings(lost))
        // The remote no longer knows the fork block (pruned, reorganised, replaced): every read by its hash fails.
        let hash = fork.origin.hash.hexString
        lost.rewriteRequest = { $0.replacingOccurrences(of: hash, with: "0x" + String(repeating: "ab", count: 32)) }
        let answer = try await Remote.answer(
            NodeRPCHandler(chain: fork.chain), "eth_getBalance", .array([.string("0x00000000000000000000000000000000000c0ffe"), .string("latest")]))
        let message = answer["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("fork block not available: the remote has no state for block \(a.n)"), "\(answer)")
        #expect(message.contains("archive node"))
        await fork.chain.close()
    }

    @Test func itemsTheRemoteRateLimitsAreFetchedAgain() async throws {
        let a = try await Remote.make()
        let limited = RewritingTransport(a.transport)
        let fork = try await ForkedChain.open(a.settings(limited))
        // The next batch comes back with every item refused as Infura refuses over its rate: -32005.
        limited.rewriteOnce = { text in
            var items: [String] = []
            for id in 1...(text.components(separatedBy: "\"id\":").count - 1) {
                items.append("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"error\":{\"code\":-32005,\"message\":\"limit exceeded\"}}")
            }
            return "[" + items.joined(separator: ",") + "]"
        }
        let balance = try await Remote.answer(
            NodeRPCHandler(chain: fork.chain), "eth_getBalance", .array([.string(a.contract.address.lowercasedHex), .string("latest")]))
        #expect(balance["result"] == (try await a.answer("eth_getBalance", .array([.string(a.contract.address.lowercasedHex), .string(Quantity.encode(a.n))])))["result"])
        #expect(limited.rewrittenOnce)
        await fork.chain.close()
    }
}

/// A transport in front of another that can change what goes out and what comes back (a remote that changes its
/// chain id, forgets a block, or rate-limits one batch).
final class RewritingTransport: RPCTransport, @unchecked Sendable {
    // @unchecked: the closures and the flag are only touched under `lock`.
    private let inner: any RPCTransport
    private let lock = NSLock()
    private var _rewrite: (@Sendable (String) -> String)?
    private var _rewriteRequest: (@Sendable (String) -> String)?
    private var _rewriteOnce: (@Sendable (String) -> String)?
    private var _rewrittenOnce = false

    init(_ inner: any RPCTransport) { self.inner = inner }

    var endpoint: String { inner.endpoint }
    /// Applied to every answer.
    var rewrite: (@Sendable (String) -> String)? {
        get { lock.withLock { _rewrite } }
        set { lock.withLock { _rewrite = newValue } }
    }
    /// Applied to every request.
    var rewriteRequest: (@Sendable (String) -> String)? {
        get { lock.withLock { _rewriteRequest } }
        set { lock.withLock { _rewriteRequest = newValue } }
    }
    /// Replaces the next answer (given the request's text), once.
    var rewriteOnce: (@Sendable (String) -> String)? {
        get { lock.withLock { _rewriteOnce } }
        set { lock.withLock { _rewriteOnce = newValue } }
    }
    var rewrittenOnce: Bool { lock.withLock { _rewrittenOnce } }

    func send(_ body: [UInt8]) async throws(TransportError) -> [UInt8] {
        var text = String(decoding: body, as: UTF8.self)
        if let once = lock.withLock({ () -> (@Sendable (String) -> String)? in
            defer { _rewriteOnce = nil }
            if _rewriteOnce != nil { _rewrittenOnce = true }
            return _rewriteOnce
        }) {
            return Array(once(text).utf8)
        }
        if let rewriteRequest { text = rewriteRequest(text) }
        let answer = try await inner.send(Array(text.utf8))
        guard let rewrite else { return answer }
        return Array(rewrite(String(decoding: answer, as: UTF8.self)).utf8)
    }
}
