import ArgumentParser
import CarChain
import CarChainKit
import ContractBindingsGenerator
import EthereumContracts
import EthereumPrimitives
import EthereumRPC
import Foundation

/// `carchain deploy`: deploys the CarChain contract and remembers its address for the chain; with `--artifact`, any
/// compiled contract with constructor arguments.
struct DeployCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Deploy the CarChain contract (the deployer becomes its manager), or any contract with --artifact.",
        discussion: """
            Without --artifact, deploys the project's CarChain (contracts/CarChain.json, built in) and remembers the address for the node's chain id in $CARCHAIN_HOME/config.json, so later commands need no --contract.

            With --artifact FILE, deploys any compiled contract: a Foundry or Hardhat artifact, vyper's -f combined_json (--contract-name picks one of several), or solc's --combined-json, with ARGS parsed as the constructor's parameter types (as `carchain call` parses arguments). A CarChain artifact (the seed's CarChain.json too) is remembered as the chain's CarChain, as without --artifact. A constructor that reverts prints its reason and exits 1.

            Examples:
              carchain deploy --rpc http://127.0.0.1:8545
              carchain deploy --rpc $NODE --artifact ../shared/seed-carchain/CarChain.json --private-key-env PK
              carchain deploy --artifact out/Token.sol/Token.json "My Token" MTK 18 --json
              carchain deploy --artifact build/vault.json --contract-name vault $ASSET --value '1 ether'
            """
    )

    @Option(help: ArgumentHelp("A compiled artifact (Foundry, Hardhat, vyper, solc) to deploy instead of the project's CarChain.", valueName: "FILE"))
    var artifact: String?

    @Option(help: ArgumentHelp("With --artifact: the contract of a combined output to deploy.", valueName: "NAME"))
    var contractName: String?

    @Option(help: ArgumentHelp("With --artifact: wei for a payable constructor, e.g. '1 ether' (\(AmountOption.text)).", valueName: "amount"))
    var value: String?

    @Argument(parsing: .allUnrecognized, help: "With --artifact: one argument per constructor parameter.")
    var arguments: [String] = []

    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if artifact == nil && (contractName != nil || value != nil || !arguments.isEmpty) {
            throw ValidationError("constructor arguments, --contract-name and --value go with --artifact")
        }
        if let value { _ = try AmountOption.parse(value, option: "--value") }
    }

    func run() async throws {
        let chosen: CarChainArtifact
        if let artifact {
            let bytes = try CLIInput.file(artifact, option: "--artifact", limit: BindingFiles.inputLimit)
            // A CarChain artifact without arguments is deployed as the chain's CarChain; anything else as any contract.
            if contractName == nil, value == nil, arguments.isEmpty, let carchain = try? CarChainArtifact(json: bytes),
                carchain.abi.function(named: "rentCar") != nil
            {
                chosen = carchain
            } else {
                try await deployAny(artifact)
                return
            }
        } else {
            chosen = .project
        }
        let session = try await ChainSession.sending(try node.connection(), signer: try signer.source(), settings: try transactions.settings())
        let outcome: TransactionOutcome
        do {
            outcome = try await session.backend.deploy(bytecode: chosen.bytecode)
        } catch let error as SendError {
            if let revert = error.revert {
                throw CLIError("deployment would fail: \(CarChainTransactionRunner.reason(revert.data)) (found by eth_estimateGas; nothing was sent)")
            }
            throw error
        }
        guard outcome.succeeded, let address = outcome.contractAddress else {
            try TransactionReport(summary: "deployment", function: "deploy", outcome: outcome).emit(json: output.json)
            throw CLIError("the deployment transaction \(outcome.transactionHash) failed")
        }
        try session.remember(contract: address)
        let report = TransactionReport(
            summary: "deployed CarChain (\(chosen.flavour)) at \(address.checksummed) on chain \(session.chainID)",
            function: "deploy", outcome: outcome)
        try report.emit(json: output.json, extra: [("contractAddress", .string(address.checksummed)), ("flavour", .string(chosen.flavour.rawValue))])
    }

    /// Deploys any compiled contract with constructor arguments.
    private func deployAny(_ path: String) async throws {
        let compiled = try ContractInput.artifact(path, option: "--artifact", name: contractName)
        let constructor = compiled.abi.constructor ?? ABIConstructor()
        let values = try ContractInput.values(arguments, for: constructor.inputs, what: "\(compiled.name)'s constructor")
        let wei = try value.map { try TransactionOptions.amount($0, option: "--value") } ?? .zero
        let session = try await ChainSession.sending(try node.connection(), signer: try signer.source(), settings: try transactions.settings())
        let (contract, outcome) = try await Contract.deploy(
            compiled, arguments: values, backend: session.backend, options: TransactOptions(value: wei, gasLimit: transactions.gasLimit))
        let report = TransactionReport(
            summary: "deployed \(compiled.name) at \(contract.address.checksummed) on chain \(session.chainID)", function: "constructor", outcome: outcome)
        try report.emit(json: output.json, extra: [("contractAddress", .string(contract.address.checksummed)), ("contract", .string(compiled.name))])
    }
}
