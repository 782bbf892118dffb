import Chain
import EthereumContracts
import EthereumContractsLocal
import EthereumCrypto
import Foundation
import Testing
import TestSupport

/// snekmate's ERC-20, ERC-721, ERC-1155, ERC-4626 and access control (contracts nobody here wrote), compiled by the
/// venv's vyper, driven through the bindings the ContractBindings plugin generated from their ABIs: in process on
/// a DevChain, and over JSON-RPC on `carchain node`, where web3.py then reads the same contracts and must agree.
@Suite(.serialized) struct SnekmateTests {
    @Test func inProcessOnADevChain() async throws {
        guard let compiled = try await Snekmate.compiled() else { return }
        let chain = try await DevChain(config: .deterministic())
        let accounts = Array(chain.accounts.prefix(4))
        let backends: [any ContractBackend] = try accounts.map { try DevChainBackend(chain: chain, defaultSender: $0) }
        let result = try await SnekmateScenario(compiled: compiled, backends: backends, accounts: accounts).run()
        #expect(result.readings["erc20.balanceOf.1"] == "610")  // 1000 − 250 − 40 − 100 deposited
        #expect(result.readings["erc20.balanceOf.2"] == "320")  // 250 + 40 + 30 redeemed
        #expect(result.readings["erc4626.balanceOf.1"] == "70")
        #expect(result.readings["erc1155.balanceOfBatch"] == "45,30,2")
        #expect(result.readings["web3.erc1155.batches"] == "1,2,3/10,20,30;1,2/1,2")
        #expect(result.readings["web3.erc20.transfersToBob"] == "250,40,30")  // the last from the vault's redemption
        let readyMade = try await ReadyMadeTokens.readings(result, backend: backends[0], accounts: accounts)
        #expect(readyMade.count == 17)
        for (key, value) in readyMade.sorted(by: { $0.key < $1.key }) { #expect(result.readings[key] == value, "\(key)") }
        try await ReadyMadeTokens.transfers(result, backends: backends, accounts: accounts)
        await chain.close()
    }

    @Test func overJSONRPCOnCarchainNodeAgreesWithWeb3() async throws {
        guard let compiled = try await Snekmate.compiled() else { return }
        guard let python = PythonVenv.python(for: "snekmate web3.py cross-check") else { return }
        guard let node = try NodeProcess.start(for: "snekmate contracts on carchain node") else { return }
        defer { node.stop() }
        let (backends, accounts) = try await node.signingBackends(4)
        let result = try await SnekmateScenario(compiled: compiled, backends: backends, accounts: accounts).run()

        struct Request: Encodable {
            var url: String
            var abiDir: String
            var contracts: [String: String]
            var accounts: [String]
        }
        let request = Request(
            url: node.url, abiDir: TestPaths.packageRoot.appendingPathComponent("testdata/abi/snekmate").path,
            contracts: [
                "ERC20Token": result.token.address.checksummed, "ERC721Token": result.nft.address.checksummed,
                "ERC1155Token": result.multi.address.checksummed, "ERC4626Vault": result.vault.address.checksummed,
                "AccessControl": result.access.address.checksummed,
            ],
            accounts: accounts.map(\.checksummed))
        // The ready-made token bindings read the same as the contracts' own (and so as web3.py, below).
        let readyMade = try await ReadyMadeTokens.readings(result, backend: backends[0], accounts: accounts)
        for (key, value) in readyMade.sorted(by: { $0.key < $1.key }) { #expect(result.readings[key] == value, "ready-made \(key)") }
        let web3 = try await PythonVenv.runJSON(python, script: "contracts_web3.py", request: request, as: [String: String].self)
        #expect(web3.count == result.readings.count, "web3.py read \(web3.keys.sorted()), Swift \(result.readings.keys.sorted())")
        for (key, value) in result.readings.sorted(by: { $0.key < $1.key }) {
            #expect(web3[key] == value, "\(key): Swift read \(value), web3.py \(web3[key] ?? "nothing")")
        }
    }
}
