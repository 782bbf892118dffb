import ArgumentParser
import CarChainKit
import EthereumContractsLocal
import Foundation

/// `--fork-url URL [--fork-block-number N] [--no-fork-cache]` on the CarChain commands: run on a fork of that node in
/// this process (CarChainKit's ForkedChain). Reads are the node's at the fork block; a transaction is rehearsed on the
/// fork — checked, mined there as its sender without the key, its gas and fee printed — and never sent.
struct ForkOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Rehearse on a fork of this node (in this process; only reads reach it): print the gas and fee, send nothing. Give the chain's id with --chain-id and its CarChain with --contract (or $CARCHAIN_HOME/config.json).",
        valueName: "url"))
    var forkUrl: String?

    @Option(help: ArgumentHelp("The block to fork at (default: the node's latest); with it, a fork cache that holds the block asks the node nothing it already answered.", valueName: "n"))
    var forkBlockNumber: UInt64?

    @Flag(help: "Keep no fork cache (fork-<chain id>-<block>.sqlite in the data directory).")
    var noForkCache = false

    func validate() throws {
        if forkUrl == nil && (forkBlockNumber != nil || noForkCache) {
            throw ValidationError("--fork-block-number and --no-fork-cache need --fork-url")
        }
    }

    /// True when the command runs on a fork.
    var isForking: Bool { forkUrl != nil }

    /// The connection `node` describes, forking `--fork-url` when given (which then replaces `$CARCHAIN_RPC`; with
    /// `--rpc` it is an error: one chain at a time). The remote must report `--chain-id`.
    func connection(_ node: NodeOptions) throws(CLIError) -> ChainConnection {
        var connection = try node.connection()
        guard let forkUrl else { return connection }
        if let rpc = node.rpc, !rpc.isEmpty { throw CLIError("give --rpc or --fork-url, not both") }
        connection.url = nil
        connection.fork = ForkSettings(
            url: forkUrl, blockNumber: forkBlockNumber, chainID: connection.chainID,
            cacheDirectory: noForkCache ? nil : connection.dataDirectory, timeout: connection.timeout,
            warn: { FileHandle.standardError.write(Data("carchain: warning: \($0)\n".utf8)) })
        return connection
    }
}
