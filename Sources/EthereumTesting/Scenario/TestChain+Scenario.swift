@_exported import ContractScenarios
import EthereumContracts

extension ContractScenario {
    /// Runs the scenario on a test bench: each account sends as itself (the bench impersonates every address, so a key
    /// account needs no ether), and every contract is labelled with its name and ABI, so the bench's
    /// ``TestChain/gasReport()`` and ``TestChain/gasSnapshot(extra:)`` report it under that name.
    public func run(on chain: TestChain, checkExpectations: Bool = true) async throws -> ContractScenarioRun {
        var addresses: [String: Address] = [:]
        for account in accounts {
            switch account.source {
            case .dev(let index):
                guard chain.accounts.indices.contains(index) else {
                    throw ContractScenarioError.invalid(source: name, path: "accounts.\(account.name)", message: "the bench has no dev:\(index)")
                }
                addresses[account.name] = chain.accounts[index]
            case .key:
                addresses[account.name] = try account.privateKey().address
            }
            if let address = addresses[account.name] { chain.label(address, account.name) }
        }
        return try await run(backend: chain, addresses: addresses, checkExpectations: checkExpectations) { contract in
            chain.label(contract.address, contract.name, abi: contract.abi)
        }
    }
}
