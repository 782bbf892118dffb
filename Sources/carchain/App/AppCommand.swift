import ArgumentParser
import CarChainApp
import CarChainKit
import Chain
import Foundation

/// `carchain app`: the CarChain web app in a browser. Starts `carchain node` on the embedded default's data
/// directory (the one the CLI uses) and prints the app's URL; when a node already serves that directory, prints
/// its app's URL instead. `--open` opens it.
struct AppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app",
        abstract: "Serve the CarChain web app (sign in, the map of cars, rent and return, the manager's view) and print its URL.",
        discussion: """
            Runs `carchain node` on the data directory (default $CARCHAIN_HOME/chain, the embedded chain the CLI uses) with the web app at http://HOST:PORT/app/, until Ctrl-C. When a carchain node already serves that directory, prints its app's URL (and opens it with --open) and exits. Everything the app shows is served by the node: no file comes from the internet. Accounts made in the app keep their keystores in <data dir>/app/ (mode 0600); the wallet passphrase typed for an action unlocks the key for that action only.

            Examples:
              carchain app --open
              carchain app --port 8600 --eth-price 3000
              carchain app --ephemeral --port 0
            """
    )

    @Option(help: "The address to listen on.") var host: String = "127.0.0.1"
    @Option(help: "The port (0 picks a free one).") var port: Int = 8545
    @Option(help: ArgumentHelp("The data directory (default: $CARCHAIN_HOME/chain, ~/.carchain/chain).", valueName: "dir"))
    var dataDir: String?
    @Flag(help: "Keep everything in memory: nothing is written, nothing survives the process.") var ephemeral = false
    @Option(help: ArgumentHelp("The price of one ETH in USD: fee estimates show USD next to ETH.", valueName: "usd")) var ethPrice: String?
    @Flag(help: "Open the app in a browser ($BROWSER, else xdg-open).") var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
        if ephemeral && dataDir != nil { throw ValidationError("give --data-dir or --ephemeral, not both") }
    }

    func run() async throws {
        if !ephemeral {
            let directory = dataDir.map { URL(fileURLWithPath: $0) } ?? CarchainHome.current().chainDirectory
            if let url = ChainLock.owner(of: directory)?.url {
                let app = url + CarChainWebApp.path
                print("CarChain app: \(app) (served by the carchain node of \(directory.path))")
                if open, let problem = Browser.open(app) { throw CLIError("could not open the app: \(problem); open \(app)") }
                return
            }
        }
        var arguments = ["--host", host, "--port", String(port)]
        if ephemeral { arguments.append("--ephemeral") }
        if let dataDir { arguments += ["--data-dir", dataDir] }
        if let ethPrice { arguments += ["--eth-price", ethPrice] }
        if open { arguments.append("--open") }
        var node = try NodeCommand.parse(arguments)
        try await node.run()
    }
}
