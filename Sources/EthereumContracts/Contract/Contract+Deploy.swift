import EthereumABI
import EthereumPrimitives
import EthereumRPC

extension Contract {
    /// Deploys creation code with constructor arguments (encoded as `abi`'s constructor says) and binds the new
    /// contract. A revert in the constructor throws ``ContractError/reverted(_:)`` (function `constructor`).
    public static func deploy(
        bytecode: [UInt8], abi: ContractABI, arguments: [ABIValue] = [], backend: any ContractBackend,
        options: TransactOptions = .default
    ) async throws -> (contract: Contract, outcome: TransactionOutcome) {
        guard !bytecode.isEmpty else { throw ContractError.deploymentFailed("the creation code is empty") }
        let constructor = abi.constructor ?? ABIConstructor()
        if !options.value.isZero && constructor.stateMutability != .payable && abi.constructor != nil {
            throw ContractError.deploymentFailed("the constructor is not payable, but \(options.value) wei would be sent")
        }
        let data: [UInt8]
        do { data = try constructor.encodeDeployment(bytecode: bytecode, arguments: arguments) } catch {
            throw ContractError.invalidArguments(function: constructor.description, error)
        }
        let outcome = try await mined(
            TransactionRequest(to: nil, data: data, value: options.value, gasLimit: options.gasLimit), from: options.from,
            function: "constructor", abi: abi, backend: backend)
        guard let address = outcome.contractAddress else {
            throw ContractError.deploymentFailed("the receipt of \(outcome.transactionHash) names no contract address")
        }
        return (Contract(address: address, abi: abi, backend: backend), outcome)
    }

    /// Deploys a compiled artifact (Foundry, Hardhat, vyper, solc; see `ContractArtifact`) with constructor arguments.
    public static func deploy(
        _ artifact: ContractArtifact, arguments: [ABIValue] = [], backend: any ContractBackend, options: TransactOptions = .default
    ) async throws -> (contract: Contract, outcome: TransactionOutcome) {
        guard let bytecode = artifact.bytecode else {
            if !artifact.unlinkedLibraries.isEmpty {
                throw ContractError.deploymentFailed(
                    "\(artifact.name)'s bytecode needs libraries linked first (\(artifact.unlinkedLibraries.joined(separator: ", ")))")
            }
            throw ContractError.deploymentFailed("the \(artifact.format.rawValue) for \(artifact.name) has no bytecode")
        }
        return try await deploy(bytecode: bytecode, abi: artifact.abi, arguments: arguments, backend: backend, options: options)
    }
}
