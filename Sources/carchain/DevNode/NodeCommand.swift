import ArgumentParser
import CarChainKit
import Chain
import DevNode
import EthereumPrimitives
import Foundation
import Logging

/// `carchain node`: a development node over HTTP (JSON-RPC on `POST /` plus the Firebase Auth emulator's
/// endpoints), on a data directory or in memory.
struct NodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Run a development node: JSON-RPC (like anvil or Hardhat Network) and the auth emulator.",
        discussion: """
            Serves the chain of the data directory (default $CARCHAIN_HOME/chain, the same the CLI's embedded chain uses) on http://HOST:PORT/, with the dev methods (evm_snapshot, evm_revert, evm_mine, anvil_setBalance, ...) and the Firebase Auth emulator's endpoints on the same port. While it runs, CLI commands without --rpc talk to it (its URL is in the data directory's LOCK file). CarChain is deployed on start when the chain has none. The banner lists the 10 dev accounts of the public test mnemonic and their keys: never send real funds to them.

            Examples:
              carchain node
              carchain node --port 0 --ephemeral
              carchain node --data-dir /tmp/chain --block-time 2
            """
    )

    @Option(help: "The address to listen on.") var host: String = "127.0.0.1"
    @Option(help: "The port (0 picks a free one; the banner shows it).") var port: Int = 8545
    @Option(help: ArgumentHelp("The data directory (default: $CARCHAIN_HOME/chain, ~/.carchain/chain).", valueName: "dir"))
    var dataDir: String?
    @Flag(help: "Keep everything in memory: nothing is written, nothing survives the process.") var ephemeral = false
    @Option(help: ArgumentHelp("Mine a block every S seconds instead of one per transaction.", valueName: "S"))
    var blockTime: Double?
    @Option(help: "The chain id.") var chainId: UInt64 = 4
    @Option(help: ArgumentHelp("The fork whose rules apply (byzantium ... cancun, prague).", valueName: "fork"))
    var hardfork: String = "cancun"
    @Option(help: "The block gas limit.") var gasLimit: UInt64 = 30_000_000
    @Flag(help: "Print a log line per request.") var verbose = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        if ephemeral && dataDir != nil { throw ValidationError("give --data-dir or --ephemeral, not both") }
        if let blockTime, !(blockTime > 0 && blockTime.isFinite) { throw ValidationError("--block-time must be positive") }
        guard Hardfork(name: hardfork) != nil else { throw ValidationError("unknown --hardfork \(hardfork)") }
        guard gasLimit >= 21_000 else { throw ValidationError("--gas-limit must be at least 21000") }
    }

    func run() async throws {
        var config = ChainConfig()
        config.chainId = chainId
        config.hardfork = Hardfork(name: hardfork) ?? .cancun
        config.gasLimit = gasLimit
        if let blockTime { config.blockTime = .milliseconds(Int64(blockTime * 1000)) }
        let directory: URL? = ephemeral ? nil : (dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory)
        let node = try await LocalNode.open(config: config, directory: directory)
        var logger = Logger(label: "carchain.node")
        logger.logLevel = verbose ? .info : .warning
        let lock = await node.chain.dataDirectoryLock
        let banner = Banner(chain: node.chain, contract: node.contract, directory: directory)
        do {
            try await DevNodeServer.run(handler: node.handler, auth: node.auth, host: host, port: port, logger: logger) { url in
                try? lock?.setURL(url)
                banner.print(url: url)
            }
        } catch {
            await node.close()
            throw CLIError("node stopped: \(error)")
        }
        await node.close()
        FileHandle.standardError.write(Data("carchain node: stopped\n".utf8))
    }

    /// The start-up banner.
    struct Banner: Sendable {
        let chain: DevChain
        let contract: Address
        let directory: URL?

        func print(url: String) {
            var lines: [String] = []
            lines.append("carchain node listening on \(url)")
            lines.append("chain id \(chain.chainId), \(chain.hardfork.name), gas limit \(chain.config.gasLimit), "
                + (chain.config.blockTime == nil ? "automine" : "interval mining"))
            lines.append("data: " + (directory?.path ?? "in memory (--ephemeral)"))
            lines.append("CarChain: \(contract.checksummed)")
            lines.append("auth emulator: \(url)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any")
            lines.append("")
            lines.append("Dev accounts (the public test mnemonic \"\(DevAccounts.testMnemonic)\"; never send real funds):")
            for (i, account) in chain.config.devAccounts.enumerated() {
                let key = account.privateKey.map { Hex.encode($0.rawBytes) } ?? "(no key)"
                lines.append("(\(i)) \(account.address.checksummed) \(Units.format(account.balance, as: .ether)) ETH  key \(key)")
            }
            lines.append("")
            // Written straight to the descriptor: stdout may be a pipe, and a reader waits for the URL line.
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
