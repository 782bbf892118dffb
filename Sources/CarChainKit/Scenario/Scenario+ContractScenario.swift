import CarChain
import ContractScenarios
import EthereumABI
import EthereumContractsLocal
import EthereumPrimitives

extension Scenario {
    /// This CarChain scenario as a scenario of any contract (docs/SCENARIOS.md, "Scenarios for any contract"): a first
    /// step deploys `artifact` under `contractName`, and each operation becomes a call of its function by signature with
    /// the same arguments, sender, label and expectation. CarChain's operations are sugar for these calls, so the
    /// scenario runs wherever a `ContractScenario` runs — `ContractScenario.run(backend:addresses:)`, a `TestChain`
    /// (EthereumTesting's `run(on:)`), `carchain gas-report` — with the gas ``ScenarioRunner`` reports.
    ///
    /// Gas limits the file leaves out are the in-process chain's defaults, as ``ScenarioRunner`` uses them. The seed's
    /// contract gives no revert reasons, so on its artifact an expected reason becomes any revert, as
    /// ``ScenarioRunner`` checks it.
    public func contractScenario(artifact: CarChainArtifact, contractName: String = "CarChain") throws(ScenarioError) -> ContractScenario {
        let accounts = accounts.map { account in
            switch account.source {
            case .dev(let index): return ContractScenario.Account(name: account.name, source: .dev(index))
            case .key(let key): return ContractScenario.Account(name: account.name, source: .key(key.withUnsafeBytes { Bytes32(unsafeBytes: $0) }))
            }
        }
        let contract = ContractArtifact(name: contractName, abi: artifact.abi, bytecode: artifact.bytecode)
        var steps = [ContractScenario.Step(action: .deploy(contract: contractName, artifact: contract), from: deployer)]
        for (index, step) in self.steps.enumerated() {
            let operation = step.operation
            guard let function = artifact.abi.function(named: operation.functionName) else {
                throw ScenarioError.invalid(
                    source: name, path: "steps[\(index)].op", message: "the artifact has no function \(operation.functionName)")
            }
            let expect: ContractScenario.Expectation? = step.expect.map { expectation in
                switch expectation {
                case .success: return .success
                case .revert(let reason): return .revert(reason: artifact.flavour == .seed ? nil : reason)
                }
            }
            steps.append(
                ContractScenario.Step(
                    action: .call(contract: contractName, function: function), arguments: operation.arguments.map(\.jsonValue), from: step.from, expect: expect,
                    label: step.label))
        }
        return ContractScenario(
            name: name, description: description, accounts: accounts, deployer: deployer,
            deploymentGasLimit: deploymentGasLimit ?? DevChainBackend.defaultDeploymentGasLimit,
            callGasLimit: callGasLimit ?? DevChainBackend.defaultCallGasLimit, steps: steps)
    }
}
