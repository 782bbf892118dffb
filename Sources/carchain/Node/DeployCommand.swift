import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives
import EthereumRPC
import Foundation

/// `carchain deploy`: deploys the CarChain contract and remembers its address for the chain.
struct DeployCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Deploy the CarChain contract (the deployer becomes its manager).",
        discussion: """
            Deploys the project's contract (contracts/CarChain.json, built in), or the artifact given with --artifact (the seed's CarChain.json works too), and remembers the address for the node's chain id in $CARCHAIN_HOME/config.json, so later commands need no --contract.

            Examples:
              carchain deploy --rpc http://127.0.0.1:8545
              carchain deploy --rpc $NODE --artifact ../shared/seed-carchain/CarChain.json --private-key-env PK
            """
    )

    @Option(help: ArgumentHelp("A compiled artifact (JSON with abi and bytecode) to deploy instead of the project's.", valueName: "FILE"))
    var artifact: String?

    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let chosen: CarChainArtifact
        if let artifact {
            chosen = try CarChainArtifact(json: try CLIInput.file(artifact, option: "--artifact"))
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
}
