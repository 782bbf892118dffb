import ArgumentParser
import Foundation
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
            Creates the email/password account in the auth service (the embedded one on the data dir unless --auth-url), a new Ethereum account whose keystore is encrypted with a wallet passphrase ($CARCHAIN_HOME/keystore, mode 0600), funds it from dev account 0 when the chain is a development chain (elsewhere it says how much ETH to send), registers the uid on chain with registerNewUser sent from the new account, and logs in (session in $CARCHAIN_HOME/session.json, tokens only).

            Two secrets: the login password (the auth service's; asked twice without echo, or --password-file / --password-stdin) and the wallet passphrase that encrypts the account key, asked separately so that a leaked login password does not unlock the key (asked twice without echo, or --wallet-password-file, or the second line of standard input with --password-stdin). Commands that sign for the user (rent, return, credit, …) ask for the wallet passphrase. --same-password uses the login password for both, with a warning. Neither is ever printed or stored.

            Examples:
              carchain signup alice@example.com
              printf '%s\\n%s\\n' "$PASSWORD" "$WALLET_PASSPHRASE" | carchain signup alice@example.com --password-stdin
              carchain signup bob@example.com --password-file pw.txt --wallet-password-file wallet.txt
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
    @Option(help: ArgumentHelp(
        "Read the wallet passphrase (it encrypts the account key) from the first line of this file; with --password-stdin it may instead be stdin's second line.",
        valueName: "FILE"))
    var walletPasswordFile: String?
    @Flag(help: "Encrypt the account key with the login password instead of a separate wallet passphrase (then a leak of the login password also unlocks the key).")
    var samePassword = false
    @OptionGroup var node: NodeOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        _ = try AmountOption.parse(fund, option: "--fund")
        if samePassword && walletPasswordFile != nil { throw ValidationError("give --wallet-password-file or --same-password, not both") }
    }

    /// The wallet passphrase: the login password with `--same-password` (with a warning), `--wallet-password-file`,
    /// standard input's second line after `--password-stdin`'s first, or typed twice without echo. A script that
    /// gives the login password non-interactively must say which. The warning to print once the sign-up succeeded
    /// (a failed one prints its error line alone) comes back with it.
    func walletPassphrase(loginPassword: String) throws -> (passphrase: String, warning: String?) {
        if samePassword {
            return (loginPassword, "--same-password: the account key is encrypted with the login password, so a leak of that password also unlocks the key")
        }
        let passphrase: String
        if let walletPasswordFile {
            passphrase = try Secrets.password(
                file: walletPasswordFile, fileOption: "--wallet-password-file", stdin: false, prompt: "", confirm: false)
        } else if password.passwordStdin {
            passphrase = try Secrets.firstLine(of: STDIN_FILENO, limit: InputFile.secretLimit, what: "--password-stdin")
            guard !passphrase.isEmpty else {
                throw CLIError(
                    "--password-stdin: the wallet passphrase goes on the second line of standard input (or give --wallet-password-file, or --same-password)")
            }
        } else if password.passwordFile != nil {
            throw CLIError("--password-file gives the login password only: add --wallet-password-file FILE (or --same-password)")
        } else {
            passphrase = try Secrets.password(
                file: nil, fileOption: "", stdin: false,
                prompt: "Choose a wallet passphrase for the account key (not your login password): ", confirm: true)
        }
        guard !passphrase.isEmpty else { throw CLIError("the wallet passphrase is empty") }
        if passphrase == loginPassword {
            return (passphrase, "the wallet passphrase is the login password: a leak of one unlocks both (that is what --same-password says)")
        }
        return (passphrase, nil)
    }

    func run() async throws {
        let connection = try node.connection()
        let fundAmount = try TransactionOptions.amount(fund, option: "--fund")
        let key = try importPrivateKeyEnv.map { try Secrets.privateKey(fromEnvironment: $0) } ?? PrivateKey.random()
        let password = try self.password.read(prompt: "Choose a password for \(email): ", confirm: true)
        let (walletPassphrase, warning) = try walletPassphrase(loginPassword: password)
        // Reach the chain before creating anything, so a wrong --rpc or --chain-id leaves no half-made user.
        let chain = try await ChainSession.reading(connection)
        let result = try await AccountFlow.signup(
            email: email, password: password, walletPassphrase: walletPassphrase, key: key, paths: AppPaths.current(connection),
            auth: auth.configuration, chain: chain, settings: try transactions.settings(), fund: fundAmount)
        result.emit(json: output.json)
        if let warning { FileHandle.standardError.write(Data("carchain: warning: \(warning)\n".utf8)) }
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
