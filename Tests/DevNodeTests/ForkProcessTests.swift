import CarChain
import EthereumPrimitives
import EthereumWire
import Foundation
import Testing
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Issue 20's fork mode on two node processes over loopback: node A carries CarChain traffic; node B forks A at
/// block N (`--fork-url`). B's answers at N are A's; B's writes stay on B; a car rented on A after N is not rented
/// on B. Then A is killed and B restarted on its fork cache: cached state is still served (so the restart asked the
/// remote nothing), uncached state gets a clear error. A remote of another chain id is refused at start.
@Suite(.serialized) struct ForkProcessTests {
    static let contract = "0x5fbdb2315678afecb367f032d93f642f64180aa3"

    func answer(_ node: NodeProcess, _ method: String, _ params: String) async throws -> JSONValue {
        let body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\(method)\",\"params\":\(params)}"
        return try JSONValue(parsing: try await node.post(Array(body.utf8)))
    }

    func call(_ node: NodeProcess, _ method: String, _ params: String = "[]") async throws -> JSONValue {
        let answer = try await answer(node, method, params)
        #expect(answer["error"] == nil, "\(method): \(answer)")
        return answer["result"] ?? .null
    }

    /// Sends a CarChain operation from account 0 (the manager) and checks it succeeded.
    func send(_ node: NodeProcess, _ operation: CarChainOperation) async throws {
        let hash = try await call(
            node, "eth_sendTransaction",
            "[{\"from\":\"\(HandlerHarness.account0)\",\"to\":\"\(Self.contract)\",\"data\":\"\(Hex.encode(operation.calldata))\"}]")
        let receipt = try await call(node, "eth_getTransactionReceipt", "[\(hash)]")
        #expect(receipt["status"] == .string("0x1"), "\(operation): \(receipt)")
    }

    func query(_ node: NodeProcess, _ query: CarChainQuery, at block: String) async throws -> JSONValue {
        try await call(node, "eth_call", "[{\"to\":\"\(Self.contract)\",\"data\":\"\(Hex.encode(query.calldata))\"},\"\(block)\"]")
    }

    @Test func aForkAnswersTheRemotesStateKeepsItsWritesAndRestartsFromItsCache() async throws {
        guard let a = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { a.stop(signal: SIGKILL) }
        for operation: CarChainOperation in [
            .registerNewCar(plate: "CAR1"), .registerNewCar(plate: "CAR2"), .registerNewUser(userId: "u1"),
            .registerNewUser(userId: "u2"), .addCredit(userId: "u1", credit: 1000), .addCredit(userId: "u2", credit: 1000),
        ] { try await send(a, operation) }
        let n = try #require(try await call(a, "eth_blockNumber").stringValue)
        try await send(a, .rentCar(plate: "CAR2", userId: "u1"))  // after N: only on A

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-fork-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let forkArguments = ["--data-dir", directory.path, "--fork-url", a.url, "--fork-block-number", String(try Quantity.decodeUInt64(n)), "--fork-chain-id", "4"]
        let queries: [CarChainQuery] = [
            .getCar(plate: "CAR1"), .getCar(plate: "CAR2"), .registeredCars, .rentedCars, .getUserCredit(userId: "u1"),
            .getUserCar(userId: "u1"),
        ]
        var cached: [JSONValue] = []
        do {
            guard let b = try NodeProcess.start(forkArguments) else { return }
            defer { b.stop() }
            #expect(try await call(b, "eth_blockNumber") == .string(n))
            #expect(try await call(b, "eth_chainId") == .string("0x4"))
            // B's latest (its head is the fork block) against A at N, and reads at N forwarded to A.
            for query in queries {
                let atN = try await self.query(a, query, at: n)
                #expect(try await self.query(b, query, at: "latest") == atN, "\(query)")
                #expect(try await self.query(b, query, at: n) == atN, "\(query) at N")
                cached.append(atN)
            }
            #expect(try await call(b, "eth_getCode", "[\"\(Self.contract)\",\"latest\"]") == (try await call(a, "eth_getCode", "[\"\(Self.contract)\",\"\(n)\"]")))
            for slot in ["0x0", "0x1", "0x2", "0x3"] {
                #expect(
                    try await call(b, "eth_getStorageAt", "[\"\(Self.contract)\",\"\(slot)\",\"latest\"]")
                        == (try await call(a, "eth_getStorageAt", "[\"\(Self.contract)\",\"\(slot)\",\"\(n)\"]")))
            }
            let blockN = try await call(a, "eth_getBlockByNumber", "[\"\(n)\",false]")
            #expect(try await call(b, "eth_getBlockByNumber", "[\"\(n)\",false]") == blockN)

            // B rents CAR1: rented on B only; CAR2, rented on A after N, stays free on B.
            try await send(b, .rentCar(plate: "CAR1", userId: "u2"))
            let newHead = try await call(b, "eth_getBlockByNumber", "[\"latest\",false]")
            #expect(newHead["parentHash"] == blockN["hash"])
            #expect(try await query(b, .getCar(plate: "CAR1"), at: "latest") != (try await query(a, .getCar(plate: "CAR1"), at: "latest")))
            #expect(try await query(a, .getCar(plate: "CAR1"), at: "latest") == cached[0])
            #expect(try await query(b, .getCar(plate: "CAR2"), at: "latest") == cached[1])
            #expect(try await query(a, .getCar(plate: "CAR2"), at: "latest") != cached[1])
        }

        // A dies; B restarts on its cache: every value read before is served without A.
        a.stop(signal: SIGKILL)
        guard let b = try NodeProcess.start(forkArguments) else { return }
        defer { b.stop() }
        for (query, expected) in zip(queries, cached) {
            #expect(try await self.query(b, query, at: "latest") == expected, "\(query) from the cache")
        }
        let uncached = try await answer(b, "eth_getBalance", "[\"0x00000000000000000000000000000000000c0ffe\",\"latest\"]")
        let message = uncached["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains("fork remote") && message.contains("unreachable"), "\(uncached)")
    }

    @Test func aRemoteOfAnotherChainIdIsRefusedAtStart() async throws {
        guard let a = try NodeProcess.start(["--ephemeral", "--no-carchain"]) else { return }
        defer { a.stop() }
        #expect {
            _ = try NodeProcess.start(["--ephemeral", "--fork-url", a.url, "--fork-chain-id", "999"])
        } throws: { error in
            "\(error)".contains("fork remote is chain 4, not the expected chain 999")
        }
    }
}
