import ArgumentParser
import CarChain
import CarChainKit
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
            With --fork-url the registration is rehearsed on a fork of that node (see `carchain rent --help`): gas and fee printed, nothing sent.

            Examples:
              carchain user register O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
              carchain user register alice --rpc $NODE --dev-account 1 --json
              carchain user register alice --fork-url http://127.0.0.1:8545 --fork-block-number 12
            """
    )

    @Argument(help: "The user id (1 to 128 bytes).") var userId: String
    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await TransactionCommand.run(
            .registerNewUser(userId: userId), summary: "registered user \(userId)", node: node, signer: signer,
            transactions: transactions, fork: fork, json: output.json)
    }
}

/// `carchain car …`.
struct CarCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "car", abstract: "CarChain cars: register (manager) and move (the fleet map).",
        subcommands: [CarRegisterCommand.self, CarMoveCommand.self])
}

/// `carchain car register PLATE [--at LAT,LON]`.
struct CarRegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "register",
        abstract: "Register a car by its plate (the contract's manager only), and place it on the fleet map.",
        discussion: """
            Plates are checked as the seed app did (four digits and three capital letters, e.g. 6789BBB) unless --plate-format any. With --at the car is also placed in the fleet registry of the data dir (positions are telemetry, kept off chain). Signed by --dev-account/--keystore/--private-key-env, else by the logged-in user (who must be the manager), else by dev account 0 on a development chain.

            With --fork-url the registration is rehearsed on a fork of that node as the contract's manager (see `carchain rent --help`): gas and fee printed, nothing sent, nothing placed on the map.

            Examples:
              carchain car register 6789BBB --at 40.4168,-3.7038
              carchain car register CAR-1 --plate-format any --rpc http://127.0.0.1:8545
              carchain car register 1234ABC --fork-url http://127.0.0.1:8545 --json
            """
    )

    @Argument(help: "The plate (4 digits and 3 capital letters; with --plate-format any: 1 to 31 bytes, not \"-\").") var plate: String
    @Option(help: ArgumentHelp("Where the car is, in degrees (puts it on the fleet map).", valueName: "LAT,LON")) var at: String?
    @OptionGroup var plates: PlateFormatOption
    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        try validating { () throws(FleetError) in
            try plates.format.validate(plate)
            if let at { _ = try GeoPoint(parsing: at) }
        }
        if fork.isForking && at != nil {
            throw ValidationError("--at places the car on the fleet map: a rehearsal (--fork-url) changes nothing, give one or the other")
        }
    }

    func run() async throws {
        if fork.isForking {
            // The manager registers cars: the rehearsal acts as the signer option's address, else as the manager.
            return try await TransactionCommand.run(
                .registerNewCar(plate: plate), summary: "registered car \(plate)", node: node, signer: signer,
                transactions: transactions, fork: fork, json: output.json)
        }
        let position = try at.map { text throws(FleetError) in try GeoPoint(parsing: text) }
        let connection = try node.connection()
        let source = try signer.source()
        let settings = try transactions.settings()
        let paths = AppPaths.current(connection)
        let session: ChainSession
        if !source.isExplicit, try paths.sessions.read() != nil {
            // The logged-in user signs; only the manager may register cars.
            session = try await ActingUser.resolve(
                connection: connection, auth: auth.configuration, signer: source, settings: settings, role: .managerOnly,
                password: signer.password.reader()
            ).session
        } else {
            session = try await ChainSession.sending(connection, signer: source, settings: settings)
        }
        try await TransactionCommand.run(
            .registerNewCar(plate: plate), summary: "registered car \(plate)", session: session, settings: settings, json: output.json)
        if let position {
            try paths.fleet.place(plate, at: position)
            if !output.json { print("placed \(plate) at \(position) on the fleet map (\(paths.fleet.path))") }
        }
    }
}

/// `carchain credit …`.
struct CreditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credit", abstract: "CarChain credit.", subcommands: [CreditAddCommand.self])
}

/// `carchain credit add [USER_ID] AMOUNT` (without USER_ID: the logged-in user).
struct CreditAddCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add credit to a user (a whole number from 1 to 999, as the seed app allowed).",
        discussion: """
            Signed by the user's bound account or the manager. Without USER_ID, for the logged-in user, signed with their account (the password is asked to unlock it).

            With --fork-url the credit is rehearsed on a fork of that node (see `carchain rent --help`): gas and fee printed, nothing sent.

            Examples:
              carchain credit add 10
              carchain credit add O6fLnMnVXAUWmxdIYatVNzaE31i1 111 --rpc http://127.0.0.1:8545
              carchain credit add alice 5 --fork-url http://127.0.0.1:8545
            """
    )

    @Argument(help: ArgumentHelp("[USER_ID] AMOUNT: the user id (default: the logged-in user), then whole credits to add, 1 to 999.", valueName: "user-id-and-amount"))
    var values: [String]
    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var output: JSONOption

    /// The user id, when typed.
    var userId: String? { values.count == 2 ? values[0] : nil }
    /// The amount text.
    var amount: String { values.last ?? "" }

    /// The amount as the seed app accepted it (``CreditAmount``): digits only, 1 to 999.
    static func parseAmount(_ text: String) -> UInt64? { CreditAmount.parse(text) }

    func validate() throws {
        guard (1...2).contains(values.count) else { throw ValidationError("give AMOUNT, or USER_ID AMOUNT") }
        guard CreditAddCommand.parseAmount(amount) != nil else {
            throw ValidationError("AMOUNT must be a whole number from 1 to 999, not '\(amount)'")
        }
    }

    func run() async throws {
        let credit = UInt256(CreditAddCommand.parseAmount(amount) ?? 0)
        guard let userId else {
            if fork.isForking {
                let session = try await ChainSession.reading(try fork.connection(node))
                let (user, account) = try await ForkRehearsal.loggedInUser(on: session)
                try await TransactionCommand.rehearse(
                    .addCredit(userId: user.uid, credit: credit), summary: "added \(credit) credit to \(user.email)", session: session,
                    from: try signer.source().address() ?? account, settings: try transactions.settings(), json: output.json)
                return
            }
            let acting = try await ActingUser.resolve(
                connection: try node.connection(), auth: auth.configuration, signer: try signer.source(), settings: try transactions.settings(),
                password: signer.password.reader())
            try await TransactionCommand.run(
                .addCredit(userId: acting.user.uid, credit: credit), summary: "added \(credit) credit to \(acting.user.email)",
                session: acting.session, settings: try transactions.settings(), json: output.json)
            return
        }
        try await TransactionCommand.run(
            .addCredit(userId: userId, credit: credit), summary: "added \(credit) credit to \(userId)", node: node,
            signer: signer, transactions: transactions, fork: fork, json: output.json)
    }
}
