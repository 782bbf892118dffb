import ArgumentParser
import CarChainKit
import Chain
import Foundation

/// `carchain node --fork-url URL [--fork-block-number N] [--fork-chain-id ID] [--no-fork-cache]`: a local chain
/// that continues a remote one from a block, reading the remote's state there lazily (Chain/Fork, docs/NODE.md).
struct NodeForkOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Fork the chain at URL (a JSON-RPC node; only reads are sent): local blocks continue from --fork-block-number.",
        valueName: "url"))
    var forkUrl: String?
    @Option(help: ArgumentHelp("The block to fork at (default: the remote's latest).", valueName: "n"))
    var forkBlockNumber: UInt64?
    @Option(help: ArgumentHelp("The chain id the remote must have (a mismatch stops the node).", valueName: "id"))
    var forkChainId: UInt64?
    @Flag(help: "Keep no fork cache file: every start reads the remote afresh.")
    var noForkCache = false
    @Option(help: ArgumentHelp("Seconds each request to the fork remote may take (0.1 to 600).", valueName: "s"))
    var forkTimeout: Double = 30

    func validate() throws {
        if forkUrl == nil && (forkBlockNumber != nil || forkChainId != nil || noForkCache) {
            throw ValidationError("--fork-block-number, --fork-chain-id and --no-fork-cache need --fork-url")
        }
        guard (0.1...600).contains(forkTimeout) else { throw ValidationError("--fork-timeout must be 0.1 to 600 seconds") }
    }

    /// The fork's cache over the remote, connected and checked; nil without --fork-url. The cache file lives in
    /// `directory` (none with --no-fork-cache or in memory); a discarded file is reported on stderr.
    func open(directory: URL?) async throws(CLIError) -> ForkCache? {
        guard let forkUrl else { return nil }
        do {
            // With the chain id and block given, a cache file that holds the fork block starts the node without
            // asking the remote anything (it may be down: cached state is still served).
            if let directory, !noForkCache, let forkChainId, let forkBlockNumber {
                let file = try openFile(directory, chainId: forkChainId, block: forkBlockNumber)
                if let point = file.storedPoint() {
                    let remote = try RemoteForkSource.offline(url: forkUrl, block: forkBlockNumber, timeout: forkTimeout)
                    return try ForkCache(point: point, remote: remote, file: file)
                }
            }
            let (remote, point) = try await RemoteForkSource.connect(
                url: forkUrl, number: forkBlockNumber, expectedChainId: forkChainId, timeout: forkTimeout)
            var file: ForkCacheFile?
            if let directory, !noForkCache {
                file = try openFile(directory, chainId: point.chainId, block: point.number)
                try file?.storePoint(point)
            }
            return try ForkCache(point: point, remote: remote, file: file)
        } catch {
            throw CLIError("--fork-url: \(error)")
        }
    }

    private func openFile(_ directory: URL, chainId: UInt64, block: UInt64) throws(ForkError) -> ForkCacheFile {
        let file = try ForkCacheFile(directory: directory, chainId: chainId, block: block)
        if let discarded = file.discarded {
            FileHandle.standardError.write(Data("carchain node: warning: discarded the fork cache \(file.path): \(discarded)\n".utf8))
        }
        return file
    }
}
