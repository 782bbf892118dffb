import Chain
import EthereumContracts
import EthereumContractsLocal
import EthereumCrypto
import Foundation
import Testing
import TestSupport

/// ENS resolution against ENS's published public resolver and reverse registrar, web3.py's ExtendedResolver and
/// OffchainResolver (all bytecode read from the venv at test time) on the EIP-137 registry: in process on a DevChain,
/// and over JSON-RPC on `carchain node`, where web3.py resolves the same names on the same contracts (its name
/// handling, ENS ABIs and CCIP-read) and must agree. CCIP-read goes through a gateway served here on a loopback port.
@Suite(.serialized) struct ENSTests {
    static let gatewayKey = try! DevAccounts.key(index: 9)

    @Test func forwardReverseTextWildcardAndOffchainInProcess() async throws {
        guard let published = try await ENSContracts.load() else { return }
        let gateway = try await ENSGateway.start(answers: ENSGatewayAnswers(key: Self.gatewayKey))
        defer { gateway.stop() }
        let chain = try await DevChain(config: .deterministic())
        let accounts = Array(chain.accounts.prefix(4))
        let backends: [any ContractBackend] = try accounts.map { try DevChainBackend(chain: chain, defaultSender: $0) }
        let deployed = try await ENSScenario(
            published: published, backends: backends, accounts: accounts, gateway: gateway.url, gatewaySigner: Self.gatewayKey.address
        ).run()
        let ens = ENS(backend: backends[0], registry: deployed.registry, offchainLookup: .local)
        for (query, expected) in ENSScenario.queries(accounts: accounts, offchain: true) {
            let got = await ENSScenario.answer(query, ens: ens)
            #expect(got == expected, "\(query)")
        }
        // The three offchain names went through each kind of gateway URL: GET first, POST only, a 500 then GET.
        #expect(gateway.requests("POST") >= 2)
        #expect(gateway.requests("GET") >= 4)
        #expect(gateway.requests("fail") == 1)

        // The resolver and its kind, the owner; a name that does not normalise says which label and character.
        let wild = try #require(try await ens.resolver(of: "x.extended-resolver.eth"))
        #expect(wild.setOn == "extended-resolver.eth" && wild.isExtended)
        let plain = try #require(try await ens.resolver(of: "alice.eth"))
        #expect(plain.setOn == "alice.eth" && !plain.isExtended)
        #expect(try await ens.owner(of: "alice.eth") == accounts[1])
        #expect(try await ens.owner(of: "nobody.eth") == nil)
        await #expect(throws: ENSNameError.self) { try await ens.address(of: "ali_ce.eth") }

        // With CCIP-read off, the offchain resolver's OffchainLookup is the revert it is.
        let offline = ENS(backend: backends[0], registry: deployed.registry, offchainLookup: nil)
        do {
            _ = try await offline.address(of: "offchain.eth")
            Issue.record("expected the OffchainLookup revert")
        } catch let error as ContractError {
            #expect(OffchainLookupRequest(revertData: error.revert?.data ?? []) != nil, "\(error)")
        }
        // The default policy asks only HTTPS gateways on public hosts: the local gateway is refused, and said why.
        let strict = ENS(backend: backends[0], registry: deployed.registry)
        do {
            _ = try await strict.address(of: "offchain.eth")
            Issue.record("expected the policy to refuse the loopback gateway")
        } catch let error as OffchainLookupError {
            #expect(error.description.contains("http:// gateways are not allowed"), "\(error)")
        }
        await chain.close()
    }

    @Test func overJSONRPCOnCarchainNodeAgreesWithWeb3() async throws {
        guard let published = try await ENSContracts.load() else { return }
        guard let python = PythonVenv.python(for: "ENS web3.py cross-check") else { return }
        guard let node = try NodeProcess.start(for: "ENS on carchain node") else { return }
        defer { node.stop() }
        let gateway = try await ENSGateway.start(answers: ENSGatewayAnswers(key: Self.gatewayKey))
        defer { gateway.stop() }
        let (backends, accounts) = try await node.signingBackends(4)
        let deployed = try await ENSScenario(
            published: published, backends: backends, accounts: accounts, gateway: gateway.url, gatewaySigner: Self.gatewayKey.address
        ).run()
        let ens = ENS(backend: backends[0], registry: deployed.registry, offchainLookup: .local)
        var queries = ENSScenario.queries(accounts: accounts, offchain: true)
        // The OffchainResolver called directly with CCIP-read on: the callback's raw return data.
        let offchain = try #require(deployed.offchainResolver)
        let inner = try ENS.addr.encodeCall([.word(ENSName.namehash("raw.offchain.eth"))])
        let resolve = try ABIFunction(signature: "function resolve(bytes name, bytes data) view returns (bytes)")
        let rawCall = try resolve.encodeCall([.bytes(try ENSName.dnsEncode("raw.offchain.eth")), .bytes(inner)])
        queries.append((["kind": "raw", "to": offchain.checksummed, "data": Hex.encode(rawCall)], nil))

        struct Request: Encodable {
            var mode = "resolve"
            var url: String
            var registry: String
            var queries: [[String: String]]
        }
        struct Answer: Decodable {
            var value: String?
            var error: String?
        }
        let answers = try await PythonVenv.runJSON(
            python, script: "ens_web3.py", request: Request(url: node.url, registry: deployed.registry.checksummed, queries: queries.map(\.query)),
            as: [Answer].self)
        #expect(answers.count == queries.count)
        var agreed = 0
        for ((query, expected), web3) in zip(queries, answers) {
            let swift: String?
            if query["kind"] == "raw" {
                let outcome = try await backends[0].followingOffchainLookups(.local).call(
                    CallRequest(to: offchain, data: try Hex.decode(query["data"] ?? "")), at: .latest)
                guard case .returned(let data) = outcome else {
                    Issue.record("the raw resolve reverted: \(outcome)")
                    continue
                }
                swift = Hex.encode(data)
                // resolveWithProof returns the gateway's result: abi.encode(address) for addr(bytes32).
                let decoded = try ABIDecoder.decode([.bytes], from: data)
                let result = try ABIEncoder.encode([.address(ENSGatewayAnswers.address(for: "raw.offchain.eth"))], as: [.address])
                #expect(decoded == [.bytes(result)])
            } else {
                swift = await ENSScenario.answer(query, ens: ens)
                #expect(swift == expected, "Swift, \(query)")
            }
            let web3Value = web3.error != nil ? "error" : web3.value
            #expect(web3Value == swift, "\(query): Swift \(swift ?? "nil"), web3.py \(web3.error ?? web3.value ?? "nil")")
            if web3Value == swift { agreed += 1 }
        }
        print("ENS over carchain node: web3.py and Swift agreed on \(agreed) of \(queries.count) lookups")
    }
}
