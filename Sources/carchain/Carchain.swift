import ArgumentParser
import DevNode

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `carchain` command: thin — it parses, calls the library, prints.
struct Carchain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "carchain",
        abstract: "A Swift toolkit for Ethereum apps, and CarChain, a car-rental contract.",
        discussion: """
            Commands run against the embedded chain by default, or any node with --rpc URL.

            Any contract: `carchain call`, `send`, `logs`, `deploy --artifact`, and typed Swift bindings with `carchain bindgen`.

            Examples:
              carchain util keccak --text hello
              carchain util to-wei 1.5 ether
            """,
        version: "0.1.0",
        subcommands: [
            UtilCommand.self, TxCommand.self, WalletCommand.self, SignMessageCommand.self, VerifyMessageCommand.self,
            ABICommand.self, EVMCommand.self,
            DeployCommand.self, UserCommand.self, CarCommand.self, CreditCommand.self, RentCommand.self,
            ReturnCommand.self, ProfileCommand.self, StatsCommand.self, NodeCommand.self, ChainCommand.self,
            GasReportCommand.self, SimulateCommand.self,
            SignupCommand.self, LoginCommand.self, LogoutCommand.self, WhoamiCommand.self, AccountCommand.self, CarsCommand.self, MapCommand.self,
            DemoCommand.self, WatchCommand.self, AppCommand.self,
            CallCommand.self, SendCommand.self, LogsCommand.self, BindgenCommand.self,
        ]
    )
}

/// Entry point: runs the command and turns every failure into one line on stderr and a non-zero exit.
@main
enum CarchainMain {
    static func main() async {
        // `carchain node` serves requests on NIO's event loops; running its tasks there too saves two
        // thread hops per request (see DevNodeServer.adoptEventLoopsAsGlobalExecutor). Nothing has been
        // scheduled on the global executor yet at this point, and this is the main thread.
        if ["node", "app"].contains(CommandLine.arguments.dropFirst().first) {
            DevNodeServer.adoptEventLoopsAsGlobalExecutor()
        }
        do {
            var command = try Carchain.parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = Carchain.exitCode(for: error)
            if code == .success {
                Carchain.exit(withError: error)  // --help, --version: ArgumentParser prints them to stdout.
            }
            Output.fail(error)
        }
    }
}
