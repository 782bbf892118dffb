import ArgumentParser
import CarChain
import EthereumPrimitives

/// `carchain user …`.
struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "CarChain users.", subcommands: [UserRegisterCommand.self])
}

/// `carchain user register USER_ID`.
struct UserRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a user id (bound to the signing account unless the manager signs).",
        discussion: """
            Examples:
              carchain user register O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
              carchain user register alice --rpc $NODE --dev-account 1 --json
            """
    )

    @Argument(help: "The user id (1 to 128 bytes).") var userId: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await CarChainTransactionRunner.run(
            .registerNewUser(userId: userId), summary: "registered user \(userId)", node: node, signer: signer,
            transactions: transactions, json: output.json)
    }
}

/// `carchain car …`.
struct CarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "car", abstract: "CarChain cars.", subcommands: [CarRegisterCommand.self])
}

/// `carchain car register PLATE`.
struct CarRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a car by its plate (the contract's manager only).",
        discussion: """
            Example:
              carchain car register 6789BBB --rpc http://127.0.0.1:8545
            """
    )

    @Argument(help: "The plate (1 to 31 bytes, not \"-\").") var plate: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await CarChainTransactionRunner.run(
            .registerNewCar(plate: plate), summary: "registered car \(plate)", node: node, signer: signer,
            transactions: transactions, json: output.json)
    }
}

/// `carchain credit …`.
struct CreditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credit", abstract: "CarChain credit.", subcommands: [CreditAddCommand.self])
}

/// `carchain credit add USER_ID AMOUNT`.
struct CreditAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add credit to a user (a whole number from 1 to 999, as the seed app allowed).",
        discussion: """
            Signed by the user's bound account or the manager.

            Example:
              carchain credit add O6fLnMnVXAUWmxdIYatVNzaE31i1 111 --rpc http://127.0.0.1:8545
            """
    )

    @Argument(help: "The user id.") var userId: String
    @Argument(help: "Whole credits to add, 1 to 999.") var amount: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    /// The amount as the seed app accepted it: digits only, 1 to 999.
    static func parseAmount(_ text: String) -> UInt64? {
        guard !text.isEmpty, text.utf8.count <= 3, text.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(text), (1...999).contains(n) else {
            return nil
        }
        return n
    }

    func validate() throws {
        guard CreditAddCommand.parseAmount(amount) != nil else {
            throw ValidationError("AMOUNT must be a whole number from 1 to 999, not '\(amount)'")
        }
    }

    func run() async throws {
        let credit = UInt256(CreditAddCommand.parseAmount(amount) ?? 0)
        try await CarChainTransactionRunner.run(
            .addCredit(userId: userId, credit: credit), summary: "added \(credit) credit to \(userId)", node: node,
            signer: signer, transactions: transactions, json: output.json)
    }
}
