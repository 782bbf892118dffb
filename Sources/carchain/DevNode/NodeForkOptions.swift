import ArgumentParser
import CarChainKit
import Chain
import EthereumContractsLocal
import Foundation

/// `carchain node --fork-url URL [--fork-block-number N] [--fork-chain-id ID] [--no-fork-cache] [--fork-timeout S]`:
/// a local chain that continues a remote one from a block, reading the remote's state there lazily (Chain/Fork,
/// EthereumContractsLocal's ForkSettings, docs/NODE.md "Fork mode").
struct NodeForkOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Fork the chain at URL (a JSON-RPC node; only reads are sent): local blocks continue from --fork-block-number.",
        valueName: "url"))
    var forkUrl: String?
    @Option(help: ArgumentHelp("The block to fork at (default: the remote's latest).", valueName: "n"))
    var forkBlockNumber: UInt64?
    @Option(help: ArgumentHelp(
        "The chain id the remote must have (a mismatch stops the node); with --fork-block-number, a start from a fork cache that holds the block asks the remote nothing.",
        valueName: "id"))
    var forkChainId: UInt64?
    @Flag(help: "Keep no fork cache file (fork-<chain id>-<block>.sqlite in the data directory): every start reads the remote afresh.")
    var noForkCache = false
    @Option(help: ArgumentHelp("Seconds each request to the fork remote may take (0.1 to 600).", valueName: "s"))
    var forkTimeout: Double = 30
    @Flag(help: "Stop when the fork block's header fields do not hash to the hash the remote reports (default: a warning naming the block, then the reported hash is used, as for an L2 whose headers carry fields of their own).")
    var forkVerifyHeaders = false

    func validate() throws {
        if forkUrl == nil && (forkBlockNumber != nil || forkChainId != nil || noForkCache || forkVerifyHeaders) {
            throw ValidationError("--fork-block-number, --fork-chain-id, --no-fork-cache and --fork-verify-headers need --fork-url")
        }
        guard ForkSettings.timeoutRange.contains(forkTimeout) else { throw ValidationError("--fork-timeout must be 0.1 to 600 seconds") }
    }

    /// The fork's cache over the remote, connected and checked; nil without --fork-url. The cache file lives in
    /// `cacheDirectory` (none with --no-fork-cache or in memory); a discarded file is reported on stderr.
    func open(cacheDirectory: URL?) async throws(CLIError) -> ForkCache? {
        guard let forkUrl else { return nil }
        var settings = ForkSettings(
            url: forkUrl, blockNumber: forkBlockNumber, chainID: forkChainId, cacheDirectory: noForkCache ? nil : cacheDirectory,
            timeout: forkTimeout, warn: { FileHandle.standardError.write(Data("carchain node: warning: \($0)\n".utf8)) })
        settings.verifyHeaders = forkVerifyHeaders
        do { return try await settings.open() } catch { throw CLIError(error.description) }
    }
}
