import ArgumentParser
import CarChainKit
import EthereumCrypto
import EthereumPrimitives

/// `carchain signup EMAIL`: an auth user, an Ethereum account for it, funding on a dev chain, and the uid
/// registered on chain — one step.
struct SignupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signup",
        abstract: "Create a user: auth account, Ethereum account, funding (dev chains) and on-chain registration.",
        discussion: """
            Creates the email/password account in the auth service (the embedded one on the data dir unless --auth-url), a new Ethereum account whose keystore is encrypted with the same password ($CARCHAIN_HOME/keystore, mode 0600), funds it from dev account 0 when the chain is a development chain (elsewhere it says how much ETH to send), registers the uid on chain with registerNewUser sent from the new account, and logs in (session in $CARCHAIN_HOME/session.json, tokens only). The password is asked twice without echo, or read from --password-file or --password-stdin; it is never printed or stored.

            Examples:
              carchain signup alice@example.com
              printf '%s\\n' "$PASSWORD" | carchain signup alice@example.com --password-stdin
              carchain signup manager@example.com --import-private-key-env DEPLOYER_KEY
            """
    )

    @Argument(help: "The email address.") var email: String
    @Option(help: ArgumentHelp("The amount sent to the new account from dev account 0 on a development chain (\(AmountOption.text)).", valueName: "amount"))
    var fund: String = "1 ether"
    @Option(name: .customLong("import-private-key-env"), help: ArgumentHelp("Use the private key in this environment variable for the account instead of a new one (e.g. the contract's deployer, who is then the manager).", valueName: "VAR"))
    var importPrivateKeyEnv: String?
    @OptionGroup var auth: AuthOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var node: NodeOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func validate() throws { _ = try AmountOption.parse(fund, option: "--fund") }

    func run() async throws {
        let connection = try node.connection()
        let fundAmount = try TransactionOptions.amount(fund, option: "--fund")
        let key = try importPrivateKeyEnv.map { try Secrets.privateKey(fromEnvironment: $0) } ?? PrivateKey.random()
        let password = try self.password.read(prompt: "Choose a password for \(email): ", confirm: true)
        // Reach the chain before creating anything, so a wrong --rpc or --chain-id leaves no half-made user.
        let chain = try await ChainSession.reading(connection)
        let result = try await AccountFlow.signup(
            email: email, password: password, key: key, paths: AppPaths.current(connection), auth: auth.configuration, chain: chain,
            settings: try transactions.settings(), fund: fundAmount)
        result.emit(json: output.json)
    }
}

/// `carchain login EMAIL`.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in with email and password; later commands act for this user.",
        discussion: """
            Signs in through the auth service and saves the session ($CARCHAIN_HOME/session.json, mode 0600, tokens only). If the user's uid is not registered on chain yet (a signup that could not register, or an account made on another machine), login finishes that: it makes or unlocks the account and registers it.

            Examples:
              carchain login alice@example.com
              printf '%s\\n' "$PASSWORD" | carchain login alice@example.com --password-stdin
            """
    )

    @Argument(help: "The email address.") var email: String
    @OptionGroup var auth: AuthOptions
    @OptionGroup var password: PasswordOptions
    @OptionGroup var node: NodeOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let connection = try node.connection()
        let password = try self.password.read(prompt: "Password for \(email): ")
        let result = try await AccountFlow.login(
            email: email, password: password, paths: AppPaths.current(connection), auth: auth.configuration, connection: connection,
            settings: try transactions.settings())
        result.emit(json: output.json)
    }
}

/// What an account step reports: lines for people, members for `--json`.
protocol AccountReport {
    var lines: [String] { get }
    var json: [(String, JSONValue)] { get }
}

extension AccountReport {
    /// Prints the report: its lines, or one JSON object.
    func emit(json asJSON: Bool) {
        if asJSON {
            print(JSONValue.object(json.map { (key: $0.0, value: $0.1) }).description)
        } else {
            print(lines.joined(separator: "\n"))
        }
    }
}

extension AccountFlow.Outcome: AccountReport {}
extension AccountFlow.Report: AccountReport {}
