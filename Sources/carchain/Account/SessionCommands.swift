import ArgumentParser
import CarChain
import EthereumPrimitives
import Foundation

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
        let store = AppPaths.current().sessions
        let saved = try? store.read()
        try store.delete()
        if output.json {
            Output.json(["loggedOut": saved?.email ?? ""])
        } else {
            print(saved.map { "logged out \($0.email)" } ?? "not logged in")
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
        let paths = AppPaths.current(node: node)
        let user = try await LoggedInUser.current(paths: paths, auth: auth)
        let client = try await auth.client(paths: paths, url: user.session.backend == "in-process" ? nil : user.session.backend)
        let checked: (session: AuthSession, account: AuthAccount)
        do {
            checked = try await client.currentAccount(user.session)
        } catch {
            throw CLIError("the saved session is no longer valid (\(error)); run `carchain login \(user.email)`")
        }
        if checked.session != user.session { try paths.sessions.write(checked.session) }
        var members: [(key: String, value: JSONValue)] = [
            ("email", .string(checked.account.email)), ("uid", .string(checked.account.uid)),
            ("idTokenExpires", .string(ISO8601DateFormatter().string(from: checked.session.expiresAt))),
            ("auth", .string(checked.session.backend)),
        ]
        var lines = ["email:   \(checked.account.email)", "uid:     \(checked.account.uid)"]
        var chainNote: String?
        do {
            let chain = try await NodeSession.reading(node)
            let contract = try await chain.contractIfDeployed()
            let address = try await user.address(contract: contract)
            lines.append("account: \(address?.checksummed ?? "-")")
            members.append(("address", address.map { .string($0.checksummed) } ?? .null))
            if let contract {
                let manager = try await contract.manager()
                let role = address == manager ? "manager" : "user"
                lines.append("role:    \(role) (manager is \(manager.checksummed))")
                members.append(("role", .string(role)))
                let registered = try await contract.isUserRegistered(user.uid)
                members.append(("registered", .bool(registered)))
                if !registered { lines.append("         not registered on chain yet: run `carchain login \(user.email)`") }
            }
        } catch {
            chainNote = "(chain not reachable: \(error))"
        }
        lines.append("session: ID token valid until \(checked.session.expiresAt), auth \(checked.session.backend)")
        if let chainNote { lines.append(chainNote) }
        if output.json {
            print(JSONValue.object(members).description)
        } else {
            print(lines.joined(separator: "\n"))
        }
    }
}
