import CarChain
import CarChainKit
import Chain
import EthereumCrypto
import EthereumContractsLocal
import EthereumPrimitives
import Testing

@Suite struct DevChainBackendTests {
    @Test func deploysCallsAndRecoversRevertReasons() async throws {
        let chain = try await DevChain(config: .deterministic())
        // A fixed call gas limit: a refusal is mined (with an estimate it would be reported unsent).
        let backend = try DevChainBackend(chain: chain, callGasLimit: DevChainBackend.defaultCallGasLimit)
        let manager = try #require(chain.accounts.first)
        #expect(backend.defaultSender == manager)
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend)
        #expect(deployment.succeeded)
        #expect(deployment.blockNumber == 1)
        #expect(try await contract.manager() == manager)

        try await contract.registerNewCar("C1")
        // Another dev account is not the manager: the refusal comes back with its reason and its gas.
        let stranger = chain.accounts[1]
        let refused = try await contract.execute(.registerNewCar(plate: "C2"), from: stranger)
        #expect(refused.error == .reverted(reason: "caller is not the manager"))
        #expect(refused.outcome.gasUsed > 21000)
        #expect(refused.outcome.succeeded == false)
        #expect(try await contract.registeredCars() == 1)
        #expect(await chain.blockNumber() == 3)
        await chain.close()
    }

    @Test func signsWithGivenKeysAndRefusesUnknownSenders() async throws {
        let key = try PrivateKey(hex: "0x" + String(repeating: "01", count: 32))
        var config = ChainConfig.deterministic()
        config.devAccounts = [DevAccount(privateKey: key, balance: DevAccounts.defaultBalance)]
        let chain = try await DevChain(config: config)
        let backend = try DevChainBackend(chain: chain, keys: [key], gasPrice: UInt256(2_000_000_000 as UInt64))
        #expect(backend.defaultSender == key.address)
        #expect(backend.canSign(for: key.address))
        let outsider = try #require(try? Address("0x00000000000000000000000000000000000000aa"))
        #expect(!backend.canSign(for: outsider))
        await #expect(throws: DevChainBackendError.self) {
            _ = try await backend.send(to: outsider, data: [], value: .zero, from: outsider)
        }
        #expect(throws: DevChainBackendError.self) { try DevChainBackend(chain: chain, defaultSender: outsider) }
        let sent = try await backend.send(to: outsider, data: [], value: .one, from: nil)
        #expect(sent.succeeded)
        #expect(sent.gasUsed == 21000)
        #expect(sent.effectiveGasPrice == UInt256(2_000_000_000 as UInt64))
        #expect(try await chain.balance(outsider) == .one)
        await chain.close()
    }
}
