import ArgumentParser
import CarChainKit
import EthereumPrimitives
import EthereumRPC
import Foundation

/// Options of every command that talks to a node: where it is, which chain it must be, and time limits.
/// Without `--rpc` and `$CARCHAIN_RPC` the command uses the embedded chain in the data directory (or the
/// `carchain node` serving that directory).
struct NodeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The node's JSON-RPC URL (default: $CARCHAIN_RPC; without either, the embedded chain).", valueName: "url"))
    var rpc: String?

    @Option(name: .long, help: ArgumentHelp("The embedded chain's data directory (default: $CARCHAIN_HOME/chain, ~/.carchain/chain).", valueName: "dir"))
    var dataDir: String?

    @Option(name: .long, help: "The chain id the node must report; nothing is signed otherwise (\(OptionRanges.chainID.text)).")
    var chainId: UInt64 = 4

    @Option(name: .long, help: ArgumentHelp("Seconds each request to the node may take (\(OptionRanges.timeout.text)).", valueName: "seconds"))
    var timeout: Double = 30

    @Option(name: .long, help: ArgumentHelp("The CarChain contract (default: the one deployed on this chain id, from $CARCHAIN_HOME/config.json).", valueName: "address"))
    var contract: String?

    mutating func validate() throws {
        try OptionRanges.chainID.check(chainId)
        try OptionRanges.timeout.check(timeout)
    }

    /// The node URL from `--rpc` or `$CARCHAIN_RPC`.
    func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let rpc, !rpc.isEmpty { return rpc }
        if let env = environment["CARCHAIN_RPC"], !env.isEmpty { return env }
        return nil
    }

    /// The embedded chain's data directory: `--data-dir`, else `$CARCHAIN_HOME/chain`, else `~/.carchain/chain`.
    func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let dataDir, !dataDir.isEmpty { return URL(fileURLWithPath: dataDir) }
        return CarchainHome.current(environment: environment).chainDirectory
    }

    /// The connection these options describe.
    func connection() throws(CLIError) -> ChainConnection {
        var contractAddress: Address?
        if let contract {
            do { contractAddress = try Address(contract) } catch { throw CLIError("--contract: \(error)") }
        }
        return ChainConnection(url: url(), dataDirectory: dataDirectory(), chainID: chainId, timeout: timeout, contract: contractAddress)
    }
}

/// Options of commands that send transactions: gas, fees, receipts and checks.
struct TransactionOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("legacy, eip1559 or auto (EIP-1559 when the node's blocks have a base fee). Default: legacy on chain 4, auto elsewhere.", valueName: "type"))
    var txType: String?

    @Option(name: .long, help: "Gas limit (default: the node's estimate x 1.2; \(OptionRanges.gasLimit.text)).")
    var gasLimit: UInt64?

    @Option(name: .long, help: ArgumentHelp("Legacy gas price, e.g. '2 gwei' (default: eth_gasPrice; \(AmountOption.text)).", valueName: "amount"))
    var gasPrice: String?

    @Option(name: .long, help: ArgumentHelp("EIP-1559 fee cap, e.g. '30 gwei' (default: 2 x base fee + tip; \(AmountOption.text)).", valueName: "amount"))
    var maxFee: String?

    @Option(name: .long, help: ArgumentHelp("EIP-1559 tip, e.g. '1 gwei' (default: eth_maxPriorityFeePerGas; \(AmountOption.text)).", valueName: "amount"))
    var priorityFee: String?

    @Option(name: .long, help: "Blocks that must hold the transaction, its own included, before it counts (\(OptionRanges.confirmations.text)).")
    var confirmations: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for the receipt (\(OptionRanges.receiptTimeout.text)).", valueName: "seconds"))
    var receiptTimeout: Double = 120

    @Flag(name: .long, help: "Skip the checks made before sending (a refusal then happens on chain and costs gas).")
    var noPrecheck = false

    mutating func validate() throws {
        if let txType, FeeMode(rawValue: txType) == nil {
            throw ValidationError("--tx-type must be legacy, eip1559 or auto, not '\(txType)'")
        }
        try OptionRanges.confirmations.check(confirmations)
        try OptionRanges.receiptTimeout.check(receiptTimeout)
        try OptionRanges.gasLimit.check(gasLimit)
        if let gasPrice { _ = try AmountOption.parse(gasPrice, option: "--gas-price") }
        if let maxFee { _ = try AmountOption.parse(maxFee, option: "--max-fee") }
        if let priorityFee { _ = try AmountOption.parse(priorityFee, option: "--priority-fee") }
    }

    /// The sending settings these options describe.
    func settings() throws(CLIError) -> SendSettings {
        SendSettings(
            gasLimit: gasLimit,
            feeMode: txType.flatMap(FeeMode.init(rawValue:)),
            gasPrice: try gasPrice.map { text throws(CLIError) in try TransactionOptions.amount(text, option: "--gas-price") },
            maxFeePerGas: try maxFee.map { text throws(CLIError) in try TransactionOptions.amount(text, option: "--max-fee") },
            maxPriorityFeePerGas: try priorityFee.map { text throws(CLIError) in try TransactionOptions.amount(text, option: "--priority-fee") },
            confirmations: confirmations,
            receiptTimeout: receiptTimeout,
            precheck: !noPrecheck
        )
    }

    static func amount(_ text: String, option: String) throws(CLIError) -> UInt256 {
        do { return try Units.parse(text) } catch { throw CLIError("\(option): \(error)") }
    }
}
