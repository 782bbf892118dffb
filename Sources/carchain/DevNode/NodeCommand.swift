import ArgumentParser
import AuthEmulator
import CarChain
import CarChainApp
import CarChainKit
import Chain
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation
import Logging

/// `carchain node`: a development node over HTTP (JSON-RPC on `POST /` plus the Firebase Auth emulator's
/// endpoints), on a data directory or in memory.
struct NodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "node",
        abstract: "Run a development node: JSON-RPC (like anvil or Hardhat Network) and the auth emulator.",
        discussion: """
            Serves the chain of the data directory (default $CARCHAIN_HOME/chain, the same the CLI's embedded chain uses) on http://HOST:PORT/, with the dev methods (evm_snapshot, evm_revert, evm_mine, anvil_setBalance, ...) and the Firebase Auth emulator's endpoints on the same port. While it runs, CLI commands without --rpc talk to it (its URL is in the data directory's LOCK file). CarChain is deployed on the first start of a data directory; a chain that has blocks is never changed by a start (a contract anvil_reset removed stays removed: carchain deploy deploys one). A restart after SIGTERM or kill -9 serves the last block and the state as they were, dev methods' changes included. The banner lists the 10 dev accounts of the public test mnemonic and their keys: never send real funds to them.

            Limits (docs/NODE.md, "Limits"): eth_call, eth_estimateGas, eth_createAccessList and debug_traceTransaction get at most --rpc-gas-cap gas (a call asking more is capped, as geth does) and --rpc-evm-timeout seconds ("execution aborted (timeout = 5s)"). Browsers: CORS allows every origin unless --allow-origin is given; only requests whose Host is localhost, 127.0.0.1, [::1] or the --host address (or an --allow-host name) are served, so a web page cannot reach the node by DNS rebinding.

            Examples:
              carchain node
              carchain node --port 0 --ephemeral
              carchain node --data-dir /tmp/chain --block-time 2
              carchain node --rpc-gas-cap 100000000 --rpc-evm-timeout 10
              carchain node --allow-origin http://localhost:3000 --allow-host devbox.local
              carchain node --host 0.0.0.0 --allow-host 192.168.1.20
              carchain node --genesis genesis.json --import chain.rlp --finalized latest --no-mining --ephemeral
              carchain node --ephemeral --no-carchain --accounts 3 --balance 100 --chain-id 31337
              carchain node --ephemeral --mnemonic "$MNEMONIC" --derivation-path "m/44'/60'/0'/0/" --base-fee 0
              carchain node --ephemeral --load-state state.bin --dump-state state.bin --silent
              carchain node --fork-url http://127.0.0.1:8545 --fork-block-number 12 --port 8546
              carchain node --ephemeral --ipc /tmp/carchain.ipc     (web3.py: Web3(Web3.IPCProvider("/tmp/carchain.ipc")))
              carchain node --ephemeral --project-id my-project   (the Firebase Admin SDK with my-project's credentials: FIREBASE_AUTH_EMULATOR_HOST=127.0.0.1:8545)
              carchain node --open --eth-price 3000        (the CarChain web app at /app/, fees also in USD)
              carchain node --fork-url https://rpc.example.org --fork-block-number 7182113 --fork-chain-id 11155111 --no-fork-cache

            Fork mode (docs/NODE.md, "Fork mode"): --fork-url continues a live chain at --fork-block-number (default its latest), reading its state there lazily, by the block's hash, and only ever reading; what was read is kept in fork-<chain id>-<block>.sqlite in the data directory (checked row by row when opened), so a restart with --fork-chain-id and --fork-block-number asks the remote nothing it answered before. Local blocks follow the fork block's fork rules unless --hardfork is given. anvil_reset / hardhat_reset with {"forking": {"jsonRpcUrl": URL, "blockNumber": N}} forks again. A remote that is unreachable, rate-limits (429 and its Retry-After are honoured, up to 30 s), is another chain id or lacks the block's state is one line on stderr at start and a JSON-RPC error afterwards.

            State files: --dump-state writes the chain's state (accounts with balance, nonce, code and storage, and the head's number and timestamp; the format of anvil_dumpState, docs/NODE.md) when the node stops on SIGINT or SIGTERM, atomically and with mode 0600; --load-state writes a file's accounts into the state on start, as anvil_loadState does.

            A chain from elsewhere: --genesis reads a genesis.json in geth's format (chain id, fork blocks and times, blobSchedule, alloc, header fields) and --import executes and validates the blocks of an RLP file (geth's export format) on top of it, with each block's fork rules; proof-of-work seals are not verified. Such a chain gets no CarChain deployment and keeps its file's chain id and forks when its data directory is reopened.
            """
    )

    @Option(help: "The address to listen on.") var host: String = "127.0.0.1"
    @Option(help: "The port (0 picks a free one; the banner shows it).") var port: Int = 8545
    @Option(help: ArgumentHelp("The data directory (default: $CARCHAIN_HOME/chain, ~/.carchain/chain).", valueName: "dir"))
    var dataDir: String?
    @Flag(help: "Keep everything in memory: nothing is written, nothing survives the process.") var ephemeral = false
    @Option(help: ArgumentHelp("Mine a block every S seconds instead of one per transaction (\(Self.blockTimeRange.text)).", valueName: "S"))
    var blockTime: Double?
    @Option(help: "The chain id (\(OptionRanges.chainID.text)).") var chainId: UInt64 = 4
    @Option(help: ArgumentHelp(
        "The fork whose rules apply: \(Self.forkNames) (default: \(ChainConfig.defaultHardfork.name.lowercased()) for a new chain, the data directory's fork for an existing one).",
        valueName: "fork"))
    var hardfork: String?
    @Option(help: "The block gas limit (\(OptionRanges.gasLimit.text)).") var gasLimit: UInt64 = 30_000_000
    @Option(help: ArgumentHelp(
        "The most gas eth_call, eth_estimateGas, eth_createAccessList and debug_traceTransaction may use; more is capped (0: no cap, else \(Self.gasCapRange.text)).",
        valueName: "gas"))
    var rpcGasCap: UInt64 = CallLimits.standard.gasCap
    @Option(help: ArgumentHelp(
        "Seconds those requests may run the EVM before they fail with \"execution aborted\" (0: no limit, else \(Self.evmTimeoutRange.text)).",
        valueName: "seconds"))
    var rpcEvmTimeout: Double = 5
    @Option(help: ArgumentHelp(
        "Allow browser requests from this origin only (repeatable, e.g. http://localhost:3000; default: every origin, Access-Control-Allow-Origin: *).",
        valueName: "origin"))
    var allowOrigin: [String] = []
    @Option(help: ArgumentHelp(
        "Also serve requests whose Host header names HOST (repeatable; * allows any; always allowed: localhost, 127.0.0.1, [::1] and --host).",
        valueName: "host"))
    var allowHost: [String] = []
    @Option(help: ArgumentHelp(
        "Close connections idle this long, and refuse bodies not received within it (\(Self.httpTimeoutRange.text)).",
        valueName: "seconds"))
    var httpTimeout: Double = 30
    @Option(help: ArgumentHelp(
        "Start from this genesis file (geth's genesis.json format) instead of a dev genesis; replaces --chain-id, --hardfork and --gas-limit.",
        valueName: "file"))
    var genesis: String?
    @Option(help: ArgumentHelp(
        "Import the blocks of this file (concatenated RLP, as geth exports them) before serving; a bad block stops the node with its number and rule.",
        valueName: "file"))
    var `import`: String?
    @Option(help: ArgumentHelp(
        "Mark this block as safe and finalized (latest, a number or a hash; default: safe and finalized name the head).",
        valueName: "block"))
    var finalized: String?
    @Flag(help: "Do not mine: transactions wait in the pool until evm_mine (a node without a consensus client).")
    var noMining = false
    @Flag(help: "Print a log line per request.") var verbose = false
    @OptionGroup(title: "Dev accounts and fees") var accountOptions: NodeAccountOptions
    @OptionGroup(title: "Forking a remote chain") var forkOptions: NodeForkOptions
    @OptionGroup(title: "The CarChain web app (/app/)") var appOptions: AppOptions
    @Flag(help: "Do not deploy CarChain: the chain holds only the funded dev accounts (account 0's first deployment lands at 0x5FbDB2315678afecb367f032d93F642f64180aa3).")
    var noCarchain = false
    @Flag(help: "Print nothing on start and stop: no banner, no request logs (warnings and errors still go to stderr).")
    var silent = false
    @Option(help: ArgumentHelp("Write the chain's state to FILE when the node stops (SIGINT, SIGTERM).", valueName: "file"))
    var dumpState: String?
    @Option(help: ArgumentHelp("Load the accounts of a state FILE (written by --dump-state or anvil_dumpState) on start.", valueName: "file"))
    var loadState: String?
    @Option(help: ArgumentHelp(
        "Also serve JSON-RPC (every method, eth_subscribe included) on a Unix socket at PATH, as geth's --ipcpath and anvil's --ipc do (web3.py's IPCProvider, ethers' IpcSocketProvider); made mode 0600, removed on stop.",
        valueName: "path"))
    var ipc: String?
    @Option(name: .customLong("project-id"), help: ArgumentHelp(
        "The Firebase project the auth emulator serves requests that name none (API-key calls such as signUp; tokens get it as their audience), as firebase emulators:start --project does (default: demo-carchain).",
        valueName: "id"))
    var projectId: String = AuthEmulator.defaultProjectId

    /// Every fork name `--hardfork` accepts (also in any case, and paris as "merge"), from the Hardfork type.
    static var forkNames: String { ChainConfig.supportedHardforks.map { $0.name.lowercased() }.joined(separator: ", ") }

    /// The ranges of the node's own numeric options.
    static let blockTimeRange = OptionRange(
        "--block-time", 0.001...DevChain.maxMiningInterval, "0.001 to \(Int(DevChain.maxMiningInterval)) seconds (a year)")
    static let gasCapRange = OptionRange("--rpc-gas-cap", UInt64(21_000)...OptionRanges.maxGas, "21000 to 2^63-1")
    static let evmTimeoutRange = OptionRange("--rpc-evm-timeout", 0.001...OptionRanges.maxSeconds, "0.001 to 86400 seconds")
    static let httpTimeoutRange = OptionRange("--http-timeout", 0.1...3600, "0.1 to 3600 seconds")

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if ephemeral && dataDir != nil { throw ValidationError("give --data-dir or --ephemeral, not both") }
        try Self.blockTimeRange.check(blockTime)
        if let hardfork, !(Hardfork(name: hardfork).map(ChainConfig.supportedHardforks.contains) ?? false) {
            throw ValidationError("unknown --hardfork \(hardfork.prefix(40)) (one of \(Self.forkNames))")
        }
        try OptionRanges.chainID.check(chainId)
        try OptionRanges.gasLimit.check(gasLimit)
        if rpcGasCap != 0 { try Self.gasCapRange.check(rpcGasCap) }
        if rpcEvmTimeout != 0 { try Self.evmTimeoutRange.check(rpcEvmTimeout) }
        try Self.httpTimeoutRange.check(httpTimeout)
        if genesis != nil && hardfork != nil { throw ValidationError("--genesis sets the forks: give --genesis or --hardfork, not both") }
        if noMining && blockTime != nil { throw ValidationError("give --no-mining or --block-time, not both") }
        if let finalized { _ = try ChainFileOptions.blockID(finalized, option: "--finalized") }
        guard AuthRealm.isValidProjectId(projectId) else {
            throw ValidationError("--project-id must be 1 to 128 letters, digits and -_.: (a Firebase project id), got \(projectId.prefix(60))")
        }
        if verbose && silent { throw ValidationError("give --verbose or --silent, not both") }
        for origin in allowOrigin where !Self.isOrigin(origin) {
            throw ValidationError(
                "--allow-origin must be an origin such as http://localhost:3000 (scheme://host[:port], no path), got \(origin.prefix(100))")
        }
        for name in allowHost where name.isEmpty || name.count > 253 || name.contains(where: { $0 == "/" || $0 == " " || $0 == "@" }) {
            throw ValidationError("--allow-host must be a host name or address (or *), got \(name.prefix(100))")
        }
    }

    /// `scheme://host[:port]` without a path, as browsers send `Origin`.
    static func isOrigin(_ text: String) -> Bool {
        guard let separator = text.range(of: "://") else { return false }
        let scheme = text[..<separator.lowerBound]
        let rest = text[separator.upperBound...]
        return !scheme.isEmpty && scheme.allSatisfy { $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }
            && !rest.isEmpty && !rest.contains("/") && !rest.contains(" ") && text.count <= 300
    }

    /// The node's limits from the options.
    var limits: NodeRPCHandler.Limits {
        var limits = NodeRPCHandler.Limits()
        limits.calls = CallLimits(
            gasCap: rpcGasCap, timeout: rpcEvmTimeout == 0 ? nil : .milliseconds(Int64((rpcEvmTimeout * 1000).rounded())))
        return limits
    }

    /// What the options say, checked before anything starts (the files read, the chain configured).
    struct StartPlan {
        var config: ChainConfig
        var loaded: StateDump?
        var blocks: [UInt8]?
        var finalized: BlockID?
        var directory: URL?
    }

    /// Reads and checks the options and files. Kept apart from ``run()``: a synchronous step keeps the async function
    /// small (Swift 6.3's optimizer crashed splitting the coroutine when all of it was one async body).
    func plan() throws -> StartPlan {
        var config = ChainConfig()
        config.chainId = chainId
        if let fork = hardfork.flatMap(Hardfork.init(name:)) {
            config.hardfork = fork
        } else {
            config.keepsStoredHardfork = true
        }
        config.gasLimit = gasLimit
        if let blockTime { config.blockTime = .milliseconds(Int64((blockTime * 1000).rounded())) }
        config.automine = !noMining
        try accountOptions.apply(to: &config)
        var plan = StartPlan(config: config)
        if let loadState { plan.loaded = try NodeStateFile.load(loadState) }
        if let dumpState { try NodeStateFile.checkWritable(dumpState) }
        if let genesis { plan.config.use(try ChainFileOptions.genesis(genesis, option: "--genesis")) }
        if let path = self.import { plan.blocks = try ChainFileOptions.blocks(path, option: "--import") }
        if let finalized { plan.finalized = try ChainFileOptions.blockID(finalized, option: "--finalized") }
        plan.directory = ephemeral ? nil : (dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory)
        if !HTTPAccessPolicy.isLoopback(host) {
            FileHandle.standardError.write(Data((
                "carchain node: warning: --host \(host) is not a loopback address: other machines can reach this node, its dev "
                    + "methods and its unlocked dev accounts. Requests must still name an allowed host "
                    + "(--allow-host NAME, or * for any).\n").utf8))
        }
        if forkOptions.forkUrl != nil && (genesis != nil || plan.blocks != nil) {
            throw CLIError("--fork-url starts from the remote's block: give it or --genesis / --import, not both")
        }
        return plan
    }

    func run() async throws {
        let plan = try plan()
        let (config, loaded, blocks, finalizedBlock, directory) = (plan.config, plan.loaded, plan.blocks, plan.finalized, plan.directory)
        let fork = try await forkOptions.open(cacheDirectory: directory)
        let node = try await LocalNode.open(
            config: config, directory: directory, limits: limits, blocks: blocks, finalized: finalizedBlock,
            progress: blocks.map { ImportProgress(total: $0.count).report }, deployCarChain: !noCarchain, fork: fork,
            authProjectId: projectId)
        if let note = node.startupNote {
            FileHandle.standardError.write(Data("carchain node: warning: \(note)\n".utf8))
        }
        if let loaded {
            do { try await node.chain.loadState(loaded) } catch {
                await node.close()
                throw CLIError("--load-state \(loadState ?? ""): \(error)")
            }
        }
        let web: CarChainWebApp?
        do { web = try await appOptions.webApp(for: node) } catch {
            await node.close()
            throw error
        }
        defer { web?.close() }
        var logger = Logger(label: "carchain.node")
        logger.logLevel = verbose ? .info : silent ? .error : .warning
        let lock = await node.directoryLock
        var ipcServer: IPCServer?
        if let ipc {
            do { ipcServer = try await IPCServer.bind(path: ipc, handler: node.handler, logger: logger) } catch {
                await node.close()
                throw CLIError("--ipc: \(error)")
            }
        }
        let banner = Banner(
            chain: node.chain, contract: node.contract, directory: directory, silent: silent,
            showsKeys: accountOptions.usesTestMnemonic, servesApp: web != nil, manager: await Self.manager(of: node),
            authProject: node.auth.projectId, ipcPath: ipcServer?.path)
        // The IPC endpoint serves beside the HTTP server and stops with it (SIGINT, SIGTERM), removing its socket.
        let ipcTask = ipcServer.map { server in
            Task {
                do { try await server.run() } catch {
                    // Cancelled: the node is stopping, and the socket is gone with it.
                    if !Task.isCancelled {
                        FileHandle.standardError.write(Data("carchain node: warning: the IPC endpoint stopped: \(error)\n".utf8))
                    }
                }
            }
        }
        do {
            let access = HTTPAccessPolicy(boundHost: host, extraHosts: allowHost, origins: allowOrigin.isEmpty ? nil : allowOrigin)
            let timeout = Duration.milliseconds(Int64((httpTimeout * 1000).rounded()))
            try await DevNodeServer.run(
                handler: node.handler, auth: node.auth, host: host, port: port, logger: logger, access: access,
                // The body's deadline comes first, so a stalled body gets its 408 before the idle close.
                timeouts: DevNodeServer.Timeouts(idle: timeout, body: timeout * 0.9), routes: web
            ) { [appOptions] url in
                try? lock?.setURL(url)
                banner.print(url: url)
                if appOptions.open, let problem = Browser.open(url + CarChainWebApp.path) {
                    FileHandle.standardError.write(Data("carchain node: could not open the app: \(problem); open \(url)\(CarChainWebApp.path)\n".utf8))
                }
            }
            ipcTask?.cancel()
            await ipcTask?.value
        } catch {
            ipcTask?.cancel()
            await ipcTask?.value
            try? await writeState(node)
            await node.close()
            throw CLIError("node stopped: \(error)")
        }
        do { try await writeState(node) } catch {
            await node.close()
            throw error
        }
        await node.close()
        if !silent { FileHandle.standardError.write(Data("carchain node: stopped\n".utf8)) }
    }

    /// The manager of the node's CarChain (`manager()`), nil without a contract or an answer.
    static func manager(of node: LocalNode) async -> Address? {
        guard let contract = node.contract else { return nil }
        let client = RPCClient(transport: InProcessTransport(handler: node.handler, endpoint: "the node's chain"))
        return try? await CarChainContract(address: contract, backend: RPCContractBackend(client: client, sender: nil), artifact: .project).manager()
    }

    /// `--dump-state`: the chain's state, written as the node stops.
    private func writeState(_ node: LocalNode) async throws(CLIError) {
        guard let dumpState else { return }
        try NodeStateFile.write(await node.chain.dumpState(), to: dumpState)
    }

    /// The start-up banner.
    struct Banner: Sendable {
        let chain: DevChain
        let contract: Address?
        let directory: URL?
        /// `--silent`: no banner.
        var silent = false
        /// The keys are printed only for the public test mnemonic's accounts, never for a `--mnemonic` of one's own.
        var showsKeys = true
        /// The web app is served (not `--no-app`).
        var servesApp = false
        /// The CarChain contract's manager (`manager()`, its deployer), named so people know whose key manages the fleet.
        var manager: Address?
        /// The auth emulator's default project (`--project-id`), named when it is not demo-carchain.
        var authProject = AuthEmulator.defaultProjectId
        /// The IPC socket (`--ipc`).
        var ipcPath: String?

        func print(url: String) {
            if silent { return }
            var lines: [String] = []
            lines.append("carchain node listening on \(url)")
            let mining = chain.config.blockTime != nil ? "interval mining" : chain.config.automine ? "automine" : "no mining"
            if let point = chain.forkPoint {
                let remote = chain.forkCache?.remote.endpoint ?? "the remote"
                lines.append(
                    "chain id \(chain.chainId), forked from \(remote) at block \(point.number) (\(point.hash)), \(chain.hardfork.name), \(mining)")
            } else if let genesis = chain.config.genesis {
                lines.append("chain id \(chain.chainId), from a genesis file (\(genesis.fork.name) at genesis, \(chain.hardfork.name) last), \(mining)")
            } else {
                lines.append("chain id \(chain.chainId), \(chain.hardfork.name), gas limit \(chain.config.gasLimit), \(mining)")
            }
            if chain.forkPoint != nil {
                let cache = chain.forkCache?.file.map { "fork cache \($0.path)" } ?? "no fork cache"
                lines.append("data: the forked chain in memory; \(cache)" + (directory.map { "; auth data in \($0.path)" } ?? ""))
            } else {
                lines.append("data: " + (directory?.path ?? "in memory (--ephemeral)"))
            }
            if let contract { lines.append("CarChain: \(contract.checksummed)") }
            if let manager {
                // Its own line: scripts read the contract's address as the whole "CarChain: " line.
                var line = "CarChain manager: \(manager.checksummed)"
                if let index = chain.config.devAccounts.firstIndex(where: { $0.address == manager }) {
                    line += " (dev account \(index): sign up in the app with its key to manage the fleet)"
                }
                lines.append(line)
            }
            let project = authProject == AuthEmulator.defaultProjectId ? "" : " (project \(authProject))"
            lines.append("auth emulator: \(url)/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any\(project)")
            if let ipcPath { lines.append("ipc: \(ipcPath)") }
            if servesApp { lines.append("web app: \(url)\(CarChainWebApp.path)") }
            lines.append("")
            if showsKeys {
                lines.append("Dev accounts (the public test mnemonic \"\(DevAccounts.testMnemonic)\"; never send real funds):")
            } else {
                lines.append("Dev accounts (from --mnemonic / --derivation-path; keys not shown):")
            }
            for (i, account) in chain.config.devAccounts.enumerated() {
                let key = !showsKeys ? "(not shown)" : account.privateKey.map { Hex.encode($0.rawBytes) } ?? "(no key)"
                lines.append("(\(i)) \(account.address.checksummed) \(Units.format(account.balance, as: .ether)) ETH  key \(key)")
            }
            lines.append("")
            // Written straight to the descriptor: stdout may be a pipe, and a reader waits for the URL line.
            FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
