import ArgumentParser
import CarChainKit
import EthereumPrimitives

/// `carchain logout`.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Forget the saved session (the account and its keystore stay).",
        discussion: """
            Example:
              carchain logout
            """
    )

    @OptionGroup var output: JSONOption

    func run() async throws {
        let email = try AccountFlow.logout(paths: AppPaths.current())
        if output.json {
            Output.json(["loggedOut": email ?? ""])
        } else {
            print(email.map { "logged out \($0)" } ?? "not logged in")
        }
    }
}

/// `carchain whoami`.
struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami",
        abstract: "Show the logged-in user: email, uid, account, and role on chain (manager or user).",
        discussion: """
            The session's ID token is checked with the auth service (accounts:lookup) and refreshed when it has expired. The role comes from the chain: the manager is the account equal to the contract's manager().

            Example:
              carchain whoami --json
            """
    )

    @OptionGroup var auth: AuthOptions
    @OptionGroup var node: NodeOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let connection = try node.connection()
        let (lines, json) = try await AccountFlow.whoami(paths: AppPaths.current(connection), auth: auth.configuration, connection: connection)
        print(output.json ? json.description : lines.joined(separator: "\n"))
    }
}
