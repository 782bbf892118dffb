import CarChain
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import EthereumTransactions
import EthereumWire
import Foundation
import Testing
import TestSupport

/// `carchain node` as a process: hostile HTTP requests, the project's own client, web3.py, and
/// SIGKILL during a burst of transactions.
@Suite(.serialized) struct NodeServerTests {
    func code(_ body: [UInt8]) -> Int? {
        guard let json = try? JSONValue(parsing: body) else { return nil }
        return json["error"]?["code"].flatMap { Int($0.description) }
    }

    @Test func bannerAndShutdown() throws {
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        #expect(node.url.hasPrefix("http://127.0.0.1:"))
        #expect(!node.url.hasSuffix(":0"))
        Thread.sleep(forTimeInterval: 0.3)
        let banner = node.output
        #expect(banner.contains("chain id 4"))
        #expect(banner.contains("CarChain: 0x"))
        #expect(banner.contains("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"))
        #expect(banner.contains("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"))
        #expect(banner.components(separatedBy: "\n").filter { $0.hasPrefix("(") }.count == 10)
        #expect(node.stop(signal: SIGINT) == 0)
    }

    @Test func hostileRequestsOverHTTP() async throws {
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        #expect(code(try await node.post(Array("{\"jsonrpc\":".utf8))) == -32700)
        #expect(code(try await node.post(Array(String(repeating: "[", count: 200_000).utf8))) == -32700)
        let huge = [UInt8](repeating: UInt8(ascii: "["), count: 10 << 20)
        do {
            #expect(code(try await node.post(huge)) == -32600)
        } catch {
            // The server may close the connection after refusing the body: that is an answer too.
            #expect(error is TransportError)
        }
        #expect(code(try await node.post(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_getBalance\",\"params\":[1,2]}".utf8))) == -32602)
        #expect(code(try await node.post(Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"eth_nope\"}".utf8))) == -32601)
        let batch = "[" + (0..<1001).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"eth_chainId\"}" }.joined(separator: ",") + "]"
        #expect(code(try await node.post(Array(batch.utf8))) == -32600)
        let okBatch = "[" + (0..<1000).map { "{\"jsonrpc\":\"2.0\",\"id\":\($0),\"method\":\"eth_blockNumber\"}" }.joined(separator: ",") + "]"
        let answers = try JSONValue(parsing: try await node.post(Array(okBatch.utf8)))
        #expect(answers.arrayValue?.count == 1000)
        // A notification is executed and answered with 204 and no body.
        #expect(try await node.post(Array("{\"jsonrpc\":\"2.0\",\"method\":\"evm_mine\"}".utf8)).isEmpty)
        // Still serving.
        let client = try node.client()
        #expect(try await client.chainID() == 4)
        #expect(node.process.exitIfEnded() == nil)
    }

    @Test func authEmulatorRoutesShareThePort() async throws {
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let signUp = try HTTPTransport(url: node.url + "/identitytoolkit.googleapis.com/v1/accounts:signUp?key=demo", timeout: 60)
        let body = Array("{\"email\":\"driver@example.com\",\"password\":\"correct horse\",\"returnSecureToken\":true}".utf8)
        let answer = try JSONValue(parsing: try await signUp.send(body))
        #expect(answer["idToken"]?.stringValue?.split(separator: ".").count == 3)
        #expect(answer["localId"]?.stringValue?.isEmpty == false)
        // JSON-RPC still answers on / next to it.
        #expect(try await node.client().chainID() == 4)
    }

    @Test func projectClientAgainstTheNode() async throws {
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let client = try node.client()
        #expect(try await client.chainID() == 4)
        #expect(try await client.netVersion() == "4")
        #expect(try await client.clientVersion().contains("carchain"))
        let accounts = try await client.accounts()
        #expect(accounts.count == 10)
        let start = try await client.blockNumber()
        #expect(start == 1)  // CarChain deployed on start
        let key = try PrivateKey(hex: "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d")
        let sender = try await TransactionSender.connect(
            client: client, signer: PrivateKeySigner(key: key), options: SendOptions(expectedChainID: 4))
        let mined = try await sender.sendAndWait(EthereumRPC.TransactionRequest(to: accounts[2], value: UInt256(777)))
        #expect(mined.succeeded)
        #expect(try await client.blockNumber() == start + 1)
        let receipt = try #require(try await client.receipt(mined.hash))
        #expect(receipt.blockNumber == start + 1)
        let block = try #require(try await client.block(.latest, fullTransactions: true))
        #expect(block.transactions.hashes == [mined.hash])
        let history = try await client.feeHistory(blockCount: 2, rewardPercentiles: [25, 75])
        #expect(history.baseFeePerGas.count == 3)
        let contract = try #require(node.output.components(separatedBy: "CarChain: ").dropFirst().first?.prefix(42))
        let code = try await client.code(at: try Address(String(contract)))
        #expect(!code.isEmpty)
        let request = CallRequest(
            from: accounts[0], to: try Address(String(contract)),
            data: CarChainOperation.rentCar(plate: "NONE", userId: "x").calldata)
        do throws(RPCError) {
            _ = try await client.call(request)
            Issue.record("the call should revert")
        } catch {
            guard case .reverted(let revert) = error else { Issue.record("expected a revert, got \(error)"); return }
            #expect(revert.data.starts(with: [0x08, 0xc3, 0x79, 0xa0]))
        }
    }

    @Test func web3PyDrivesTheNode() async throws {
        guard let python = PythonVenv.python(for: "web3.py against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run("web3_node.py", python: python, request: ["url": node.url], suite: "Web3NodeTests")
        #expect(counts.total >= 30)
    }

    /// web3.py's AsyncWeb3 over WebSocket, and a raw `websockets` client (tools/xcheck/web3_ws.py): eth_subscribe
    /// newHeads, logs (filtered), newPendingTransactions (hashes and full), syncing, eth_unsubscribe, the HTTP
    /// answer, and a subscriber that stops reading while 20,000 blocks are mined closed with 1008 and a reason.
    @Test func web3PySubscribesOverWebSocket() async throws {
        guard let python = PythonVenv.python(for: "web3.py over WebSocket against carchain node") else { return }
        guard let node = try NodeProcess.start(["--ephemeral"]) else { return }
        defer { node.stop() }
        let counts = try await XCheckScript.run("web3_ws.py", python: python, request: ["url": node.url], suite: "Web3WebSocketTests")
        #expect(counts.total >= 17)
    }

    @Test func killDuringBurstKeepsAcknowledgedTransactions() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-kill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        guard let node = try NodeProcess.start(["--data-dir", directory.path]) else { return }
        let url = node.url
        let key = try PrivateKey(hex: "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a")  // dev account 2
        let to = try Address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8")
        let acknowledged = AckList()
        let burst = Task {
            let transport = try HTTPTransport(url: url, timeout: 10)
            for nonce in UInt64(0)..<5000 {
                let tx = Transaction.legacy(LegacyTransaction(
                    nonce: nonce, gasPrice: UInt256(5_000_000_000 as UInt64), gasLimit: 21_000, to: to, value: UInt256(1),
                    data: [], chainId: 4))
                let signed = tx.sign(with: key)
                let body = JSONRPCRequest.body(JSONRPCRequest(id: Int(nonce), method: "eth_sendRawTransaction", params: [.string(signed.rawHex)]))
                guard let answer = try? await transport.send(body),
                    let json = try? JSONValue(parsing: answer),
                    json["result"]?.stringValue == Hex.encode(signed.hash.bytes)
                else { return }
                acknowledged.append(signed.hash)
            }
        }
        // Kill it mid-burst.
        let deadline = Date().addingTimeInterval(60)
        while acknowledged.count < 150 && Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        node.stop(signal: SIGKILL)
        _ = await burst.result
        let hashes = acknowledged.all
        #expect(hashes.count >= 150)

        guard let again = try NodeProcess.start(["--data-dir", directory.path]) else { return }
        defer { again.stop() }
        let client = try again.client()
        var found = 0
        for hash in hashes where try await client.receipt(hash) != nil { found += 1 }
        #expect(found == hashes.count, "\(hashes.count - found) acknowledged transactions lost")
        print("NodeKillTests: \(found) of \(hashes.count) acknowledged transactions present after SIGKILL and restart")
        #expect(again.stop() == 0)
    }
}

/// Hashes acknowledged by the node, appended from the burst task.
final class AckList: @unchecked Sendable {
    private let lock = NSLock()
    private var hashes: [Bytes32] = []
    func append(_ hash: Bytes32) { lock.lock(); hashes.append(hash); lock.unlock() }
    var count: Int { lock.lock(); defer { lock.unlock() }; return hashes.count }
    var all: [Bytes32] { lock.lock(); defer { lock.unlock() }; return hashes }
}
