import ArgumentParser
import CarChainApp
import CarChainKit
import Chain
import DevNode
import EthereumPrimitives
import EthereumRPC
import Foundation
import Logging

/// `carchain app`: the CarChain web app in a browser. Two modes:
///
/// - **Dev node** (default): starts `carchain node` on the embedded default's data directory (the one the CLI uses) and
///   prints the app's URL; when a node already serves that directory, prints its app's URL instead. The server keeps
///   each account's keystore (a convenience the page states).
/// - **A real network** (`--rpc URL --auth-url URL --contract ADDR --chain-id N`): serves the same pages for any node
///   and Firebase project, holding no user key — the browser signs (its wallet, or a key it keeps encrypted).
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Serve the CarChain web app (sign in, the map of cars, rent and return, the manager's view) and print its URL.",
        discussion: """
            Dev node (default): runs `carchain node` on the data directory (default $CARCHAIN_HOME/chain, the embedded chain the CLI uses) with the web app at http://HOST:PORT/app/, until Ctrl-C. When a carchain node already serves that directory, prints its app's URL (and opens it with --open) and exits. Accounts made in the app keep their keystores in <data dir>/app/ (mode 0600); the wallet passphrase typed for an action unlocks the key for that action only.

            A real network: with --rpc, the app is served for that node's chain (--chain-id, checked), the CarChain contract at --contract, and the Firebase project whose auth service is at --auth-url (real Firebase: https://identitytoolkit.googleapis.com with the project's --api-key and --project-id; or an emulator's URL). The server holds no user key and signs nothing: each browser signs with its wallet (EIP-1193) or with a key it keeps encrypted with the wallet passphrase (WebCrypto; never sent). The server prepares each transaction (checks, gas, fees, nonce), relays the signed one, and the page waits for --confirmations blocks. Its files (the fleet's positions, the uid -> address book; no keys) are in --data-dir (default $CARCHAIN_HOME/app/<chain id>-<contract>). Serve it behind HTTPS for anything but localhost: browsers give WebCrypto to secure pages only.

            Map tiles: the map is an offline grid unless --map-tiles names an XYZ tile server; --map-attribution says whose tiles they are (shown on the map).

            Examples:
              carchain app --open
              carchain app --port 8600 --eth-price 3000
              carchain app --ephemeral --port 0
              carchain app --rpc https://sepolia.example.org --chain-id 11155111 --contract 0x5FbDB2315678afecb367f032d93F642f64180aa3 \\
                --auth-url https://identitytoolkit.googleapis.com --api-key AIza... --project-id my-rentals --confirmations 2
              carchain app --rpc http://127.0.0.1:8546 --chain-id 11155111 --contract 0x5FbD... --auth-url http://127.0.0.1:9099 --port 0
              carchain app --map-tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' --map-attribution '© OpenStreetMap contributors'
            """
    )

    @Option(help: "The address to listen on.") var host: String = "127.0.0.1"
    @Option(help: "The port (0 picks a free one; default 8545, or 8600 with --rpc).") var port: Int?
    @Option(help: ArgumentHelp(
        "The data directory (default: $CARCHAIN_HOME/chain for a dev node; $CARCHAIN_HOME/app/<chain id>-<contract> with --rpc).",
        valueName: "dir"))
    var dataDir: String?
    @Flag(help: "Keep everything in memory: nothing is written, nothing survives the process.") var ephemeral = false
    @Option(help: ArgumentHelp("The price of one ETH in USD: fee estimates show USD next to ETH.", valueName: "usd")) var ethPrice: String?
    @Option(help: ArgumentHelp("An XYZ raster tile server for the map, e.g. https://tile.openstreetmap.org/{z}/{x}/{y}.png.", valueName: "url-template"))
    var mapTiles: String?
    @Option(help: ArgumentHelp("Who the tiles are from, shown on the map (e.g. \"© OpenStreetMap contributors\").", valueName: "text"))
    var mapAttribution: String?
    @Option(help: ArgumentHelp("The tile server's highest zoom level (0 to 22).", valueName: "z")) var mapMaxZoom: Int = 19
    @Flag(help: "Open the app in a browser ($BROWSER, else xdg-open).") var open = false

    @Option(help: ArgumentHelp("A real network: the node's JSON-RPC URL (the app server reads and relays through it).", valueName: "url"))
    var rpc: String?
    @Option(name: .customLong("auth-url"), help: ArgumentHelp(
        "With --rpc: the Firebase Auth service (https://identitytoolkit.googleapis.com, or an emulator's URL) the browser signs in with.",
        valueName: "url"))
    var authURL: String?
    @Option(name: .customLong("api-key"), help: ArgumentHelp("With --rpc: the Firebase project's web API key (required for real Firebase).", valueName: "key"))
    var apiKey: String?
    @Option(help: ArgumentHelp("With --rpc: the Firebase project id, the audience of its ID tokens.", valueName: "id"))
    var projectId: String = "demo-carchain"
    @Option(help: ArgumentHelp("With --rpc: the CarChain contract's address.", valueName: "address")) var contract: String?
    @Option(help: ArgumentHelp("With --rpc: the chain id the node must report (\(OptionRanges.chainID.text)).", valueName: "id"))
    var chainId: UInt64?
    @Option(help: ArgumentHelp("With --rpc: blocks a transaction needs (its own included) before the page calls it done (1 to 64).", valueName: "n"))
    var confirmations: UInt64 = 2

    /// Options only a real network takes.
    private var networkOptionsGiven: Bool { authURL != nil || apiKey != nil || contract != nil || chainId != nil }

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if ephemeral && dataDir != nil { throw ValidationError("give --data-dir or --ephemeral, not both") }
        _ = try mapOptions().configuration()
        guard rpc != nil else {
            if networkOptionsGiven { throw ValidationError("--auth-url, --api-key, --contract and --chain-id are for a real network: give --rpc URL too") }
            return
        }
        guard authURL != nil, contract != nil, let chainId else {
            throw ValidationError("--rpc serves the app for a real network: give --auth-url, --contract and --chain-id too")
        }
        try OptionRanges.chainID.check(chainId)
        guard (1...64).contains(confirmations) else { throw ValidationError("--confirmations must be 1 to 64, got \(confirmations)") }
        if let contract, (try? Address(contract)) == nil {
            throw ValidationError("--contract must be a 20-byte address (0x and 40 hex digits), got \(contract.prefix(60))")
        }
        guard !projectId.isEmpty, projectId.count <= 128, projectId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw ValidationError("--project-id must be a Firebase project id (letters, digits and -), got \(projectId.prefix(60))")
        }
        let auth = try browserAuth()
        if auth.isProduction && apiKey == nil { throw ValidationError("real Firebase needs the project's --api-key") }
    }

    /// The map and price options, checked by the node's own option group.
    private func mapOptions() throws -> AppOptions {
        var arguments: [String] = []
        if let ethPrice { arguments += ["--eth-price", ethPrice] }
        if let mapTiles { arguments += ["--map-tiles", mapTiles] }
        if let mapAttribution { arguments += ["--map-attribution", mapAttribution] }
        arguments += ["--map-max-zoom", String(mapMaxZoom)]
        return try AppOptions.parse(arguments)
    }

    private func browserAuth() throws -> AppConfiguration.BrowserAuth {
        do { return try AppConfiguration.BrowserAuth(url: authURL ?? "", apiKey: apiKey ?? "carchain-web") } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        if let rpc { return try await serveNetwork(rpc: rpc) }
        if !ephemeral {
            let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory
            if let url = ChainLock.owner(of: directory)?.url {
                let app = url + CarChainWebApp.path
                print("CarChain app: \(app) (served by the carchain node of \(directory.path))")
                if open, let problem = Browser.open(app) { throw CLIError("could not open the app: \(problem); open \(app)") }
                return
            }
        }
        var arguments = ["--host", host, "--port", String(port ?? 8545)]
        if ephemeral { arguments.append("--ephemeral") }
        if let dataDir { arguments += ["--data-dir", dataDir] }
        if let ethPrice { arguments += ["--eth-price", ethPrice] }
        if let mapTiles { arguments += ["--map-tiles", mapTiles, "--map-attribution", mapAttribution ?? ""] }
        if mapTiles != nil { arguments += ["--map-max-zoom", String(mapMaxZoom)] }
        if open { arguments.append("--open") }
        let node = try NodeCommand.parse(arguments)
        try await node.run()
    }

    /// The app for a real network: reads and relays through `rpc`, checks ID tokens with the keys the auth service
    /// publishes, signs nothing.
    private func serveNetwork(rpc: String) async throws {
        guard let chainId, let contractText = contract, let address = try? Address(contractText) else { return }
        let client: RPCClient
        do { client = try RPCClient(url: rpc, timeout: 30) } catch { throw CLIError("--rpc \(rpc.prefix(200)): \(error)") }
        let shown = Self.origin(of: rpc)
        let nodeChain: UInt64
        do { nodeChain = try await client.chainID() } catch { throw CLIError("the node at \(shown) does not answer: \(error)") }
        guard nodeChain == chainId else { throw CLIError("the node at \(shown) is on chain \(nodeChain), not --chain-id \(chainId)") }
        let code: [UInt8]
        do { code = try await client.code(at: address) } catch { throw CLIError("the node at \(shown): \(error)") }
        if code.isEmpty { throw CLIError("no contract at \(address.checksummed) on chain \(chainId) (\(shown)): deploy CarChain there, or give its address") }

        let auth = try browserAuth()
        let keys: FirebaseTokenKeys
        do { keys = try FirebaseTokenKeys(authURL: auth.url, projectId: projectId) } catch { throw CLIError(error.description) }
        // The keys are fetched once now, so a wrong --auth-url is said at start rather than at the first sign-in.
        do { try await keys.prefetch() } catch { throw CLIError("\(error)") }

        var configuration = try mapOptions().configuration()
        configuration.signing = .browser
        configuration.fund = .zero
        configuration.projectId = projectId
        configuration.auth = auth
        configuration.settings = SendSettings(confirmations: confirmations, receiptTimeout: 120)
        configuration.pollInterval = 2
        let directory: URL? = ephemeral ? nil : dataDir.map { URL(fileURLWithPath: $0) }
            ?? CarchainHome.current().directory.appendingPathComponent("app").appendingPathComponent("\(chainId)-\(address.lowercasedHex)")
        if let directory { try SecureFile.createDirectory(directory.path) }
        let web: CarChainWebApp
        do {
            web = try await CarChainWebApp.open(
                client: client, chainID: chainId, contract: address, dataDirectory: directory, tokens: .published(keys),
                configuration: configuration)
        } catch {
            throw CLIError("cannot start the web app: \(error)")
        }
        defer { web.close() }
        var logger = Logger(label: "carchain.app")
        logger.logLevel = .warning
        let access = HTTPAccessPolicy(boundHost: host)
        let network = AppAPI.networkName(chainId).map { " (\($0))" } ?? ""
        let open = self.open
        do {
            try await AppServer.run(app: web, host: host, port: port ?? 8600, logger: logger, access: access, timeout: .seconds(30)) { url in
                let lines = [
                    "carchain app listening on \(url)",
                    "web app: \(url)\(CarChainWebApp.path)",
                    "chain \(chainId)\(network) through \(shown); CarChain \(address.checksummed); \(confirmations) confirmation\(confirmations == 1 ? "" : "s")",
                    "auth: \(auth.url) (project \(projectId)); the browser signs: this server holds no user key",
                    "data: " + (directory?.path ?? "in memory (--ephemeral)"),
                    "",
                ]
                FileHandle.standardOutput.write(Data(lines.joined(separator: "\n").utf8))
                if open, let problem = Browser.open(url + CarChainWebApp.path) {
                    FileHandle.standardError.write(Data("carchain app: could not open the app: \(problem); open \(url)\(CarChainWebApp.path)\n".utf8))
                }
            }
        } catch {
            throw CLIError("app stopped: \(error)")
        }
    }

    /// `scheme://host[:port]` of a URL: what is printed of an RPC URL, whose path or query may hold an API key.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return "the node" }
        return "\(scheme)://\(host)\(components.port.map { ":\($0)" } ?? "")"
    }
}
