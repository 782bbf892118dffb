import Chain
import EthereumContracts
import EthereumContractsLocal
import EthereumWire
import Foundation
import Testing
import TestSupport

/// CCIP-read (EIP-3668) on any contract, with web3.py's own OffchainLookup test contract (bytecode from the venv) on
/// a DevChain and a scripted gateway transport: off by default; the GET and POST URL forms; the callback; a 4xx that
/// stops; 5xx and transport failures that move on; every gateway failing; malformed answers; the redirect limit; the
/// sender check; the URL policy.
@Suite(.serialized) struct OffchainLookupTests {
    /// Records requests and answers them from a script.
    final class ScriptedTransport: OffchainLookupTransport, @unchecked Sendable {
        // @unchecked: `requests` only under `lock`.
        private let lock = NSLock()
        private var log: [(url: String, body: String?)] = []
        let script: @Sendable (String, String?) throws -> (Int, String)

        init(_ script: @escaping @Sendable (String, String?) throws -> (Int, String)) { self.script = script }

        var requests: [(url: String, body: String?)] { lock.withLock { log } }

        func send(url: String, body: [UInt8]?, timeout: Double, maxBytes: Int) async throws -> (status: Int, body: [UInt8]) {
            let text = body.map { String(decoding: $0, as: UTF8.self) }
            lock.withLock { log.append((url, text)) }
            let (status, answer) = try script(url, text)
            return (status, Array(answer.utf8))
        }
    }

    struct Refused: Error, CustomStringConvertible { var description: String { "connection refused" } }

    static func encoded(_ s: String) -> [UInt8] { (try? ABIEncoder.encode([.string(s)], as: [.string])) ?? [] }
    static let web3py = "{\"data\":\"\(Hex.encode(encoded("web3py")))\"}"

    func deployed() async throws -> (Contract, DevChain)? {
        guard let published = try await ENSContracts.load(), let artifact = published.artifacts["offchainLookup"] else { return nil }
        let chain = try await DevChain(config: .deterministic())
        let backend = try DevChainBackend(chain: chain)
        let contract = try await Contract.deploy(bytecode: artifact.bytecode, abi: artifact.abi, backend: backend).contract
        return (contract, chain)
    }

    @Test func followsLookupsOnlyWhenAskedAndAsEIP3668Says() async throws {
        guard let setUp = try await deployed() else { return }
        let (contract, chain) = setUp
        let input = ABIValue.bytes(Self.encoded("test offchain lookup"))
        let sender = contract.address.lowercasedHex
        let data = Hex.encode(Self.encoded("test offchain lookup"))

        // Off by default: the revert is a revert, decoded with the contract's ABI.
        do {
            _ = try await contract.call("testOffchainLookup", [input])
            Issue.record("expected the OffchainLookup revert")
        } catch let error as ContractError {
            #expect(error.revert?.customError?.name == "OffchainLookup", "\(error)")
        }

        // GET with {sender} and {data} filled in; the callback checks the answer and returns it.
        let get = ScriptedTransport { _, _ in (200, Self.web3py) }
        let on = contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: get)))
        #expect(try await on.call("testOffchainLookup", [input]) == [.bytes(Self.encoded("web3py"))])
        #expect(get.requests.map(\.url) == ["https://web3.py/gateway/\(sender)/\(data).json"])
        #expect(get.requests.first?.body == nil)

        // A 5xx moves on to the next URL, which has no {data}: POST with {"data", "sender"}.
        let post = ScriptedTransport { url, _ in url.hasSuffix(".json") ? (503, "{\"message\":\"busy\"}") : (200, Self.web3py) }
        let retried = contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: post)))
        #expect(try await retried.call("testOffchainLookup", [input]) == [.bytes(Self.encoded("web3py"))])
        #expect(post.requests.map(\.url) == ["https://web3.py/gateway/\(sender)/\(data).json", "https://web3.py/gateway"])
        let body = try JSONValue(parsing: post.requests.last?.body ?? "")
        #expect(body["data"] == .string(data) && body["sender"] == .string(sender))

        // A 4xx stops at once, naming the gateway and its message.
        let refusing = ScriptedTransport { _, _ in (404, "{\"message\":\"no such record\"}") }
        await #expect(throws: OffchainLookupError.gatewayRefused(url: "https://web3.py/gateway/\(sender)/\(data).json", status: 404, message: "no such record")) {
            _ = try await contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: refusing))).call("testOffchainLookup", [input])
        }
        #expect(refusing.requests.count == 1)

        // Every gateway failing: each one's failure, by URL.
        let failing = ScriptedTransport { url, _ in
            if url.hasSuffix(".json") { throw Refused() }
            return (200, "not json")
        }
        do {
            _ = try await contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: failing))).call("testOffchainLookup", [input])
            Issue.record("expected every gateway to fail")
        } catch let error as OffchainLookupError {
            guard case .allGatewaysFailed(let failures) = error else { throw error }
            #expect(failures.map(\.url) == ["https://web3.py/gateway/\(sender)/\(data).json", "https://web3.py/gateway"])
            #expect(failures[0].reason == "connection refused" && failures[1].reason.contains("not JSON"), "\(error)")
        }

        // An answer the callback rejects is the callback's revert.
        let wrong = ScriptedTransport { _, _ in (200, "{\"data\":\"\(Hex.encode(Self.encoded("nope")))\"}") }
        do {
            _ = try await contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: wrong))).call("testOffchainLookup", [input])
            Issue.record("expected the callback's revert")
        } catch let error as ContractError {
            #expect(error.revert?.reason == .error("http request result validation failed."), "\(error)")
        }

        // A callback that keeps asking: stopped after the policy's redirects.
        let endless = ScriptedTransport { _, _ in (200, "{\"data\":\"0x\"}") }
        await #expect(throws: OffchainLookupError.tooManyRedirects(max: 4)) {
            _ = try await contract.with(backend: contract.backend.followingOffchainLookups(OffchainLookup(transport: endless))).call("continuousOffchainLookup")
        }
        #expect(endless.requests.count == 4)
        await chain.close()
    }

    /// A backend whose every call reverts with an OffchainLookup from another contract.
    struct NestedLookupBackend: ContractBackend {
        let from: Address
        var defaultSender: Address? { nil }
        func chainID() async throws -> UInt64 { 1 }
        func call(_ request: CallRequest, at block: BlockTag) async throws -> CallOutcome {
            .reverted(OffchainLookupRequest(sender: from, urls: ["https://gateway.example/{data}"], callData: [1], callbackFunction: [1, 2, 3, 4], extraData: []).revertData)
        }
        func estimateGas(_ request: CallRequest, at block: BlockTag) async throws -> GasEstimate { .gas(21_000) }
        func send(_ request: TransactionRequest, from: Address?) async throws -> EthereumContracts.TransactionOutcome { throw Refused() }
        func logs(_ filter: EthereumWire.LogFilter) async throws -> [RPCLog] { [] }
        func code(at address: Address, block: BlockTag) async throws -> [UInt8] { [0] }
    }

    @Test func refusesNestedLookupsAndLocalOrPlainGatewaysByDefault() async throws {
        let called = Address(uint32: 0xca11), other = Address(uint32: 0x0e1)
        let backend = NestedLookupBackend(from: other).followingOffchainLookups()
        await #expect(throws: OffchainLookupError.senderMismatch(sender: other, called: called)) {
            _ = try await backend.call(CallRequest(to: called, data: []), at: .latest)
        }
        #expect(OffchainLookupRequest(revertData: [0x55, 0x6f, 0x18, 0x30]) == nil)
        let policy = OffchainLookup.default
        #expect(policy.refusal(for: "https://gateway.example/x") == nil)
        #expect(policy.refusal(for: "http://gateway.example/x")?.contains("http://") == true)
        #expect(policy.refusal(for: "ftp://gateway.example/x") != nil)
        for local in ["https://127.0.0.1:8000/x", "https://localhost/x", "https://10.1.2.3/x", "https://192.168.0.1/", "https://[::1]/", "https://169.254.169.254/"] {
            #expect(policy.refusal(for: local) != nil, "\(local)")
            #expect(OffchainLookup.local.refusal(for: local) == nil, "\(local)")
        }
    }
}
