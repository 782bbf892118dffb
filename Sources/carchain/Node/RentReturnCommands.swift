import ArgumentParser
import CarChain
import CarChainKit

/// `carchain rent PLATE [--user USER_ID]` (without `--user`: the logged-in user).
struct RentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rent",
        abstract: "Rent a car for a user (costs one credit).",
        discussion: """
            Checks first what the contract would refuse (unknown car, car taken, unknown user, no credit, already renting) and says so without sending; --no-precheck sends anyway and shows the on-chain revert.

            With --fork-url the rental is rehearsed on a fork of that node, in this process: checked, mined on the fork as the user's account (else as the contract's manager, or as a signer option's address) without any key or password, and its gas and fee printed. Nothing is sent; the node only answers reads.

            Examples:
              carchain rent 6789BBB                      (as the logged-in user; asks the password to unlock the account)
              carchain rent 6789BBB --user O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
              CARCHAIN_RPC=http://127.0.0.1:8545 carchain rent 6789BBB --user alice --dev-account 1 --json
              carchain rent 6789BBB --user alice --fork-url https://rpc.example.org --chain-id 11155111 --contract 0x…
            """
    )

    @Argument(help: "The car's plate.") var plate: String
    @Option(help: "The user id renting the car (default: the logged-in user).") var user: String?
    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        guard let user else {
            if fork.isForking {
                let session = try await ChainSession.reading(try fork.connection(node))
                let (user, account) = try await ForkRehearsal.loggedInUser(on: session)
                try await TransactionCommand.rehearse(
                    .rentCar(plate: plate, userId: user.uid), summary: "rented car \(plate) to \(user.email)", session: session,
                    from: try signer.source().address() ?? account, settings: try transactions.settings(), json: output.json)
                return
            }
            let acting = try await ActingUser.resolve(
                connection: try node.connection(), auth: auth.configuration, signer: try signer.source(), settings: try transactions.settings(),
                role: .notManager, password: signer.password.reader())
            try await TransactionCommand.run(
                .rentCar(plate: plate, userId: acting.user.uid), summary: "rented car \(plate) to \(acting.user.email)",
                session: acting.session, settings: try transactions.settings(), json: output.json)
            return
        }
        try await TransactionCommand.run(
            .rentCar(plate: plate, userId: user), summary: "rented car \(plate) to \(user)", node: node, signer: signer,
            transactions: transactions, fork: fork, json: output.json)
    }
}

/// `carchain return PLATE --user USER_ID`, or `carchain return [PLATE]` for the logged-in user.
struct ReturnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "return",
        abstract: "Return a rented car (no refund).",
        discussion: """
            With --fork-url the return is rehearsed on a fork of that node (see `carchain rent --help`): gas and fee printed, nothing sent.

            Example:
              carchain return                            (the logged-in user's car)
              carchain return 6789BBB --user O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
              carchain return --fork-url http://127.0.0.1:8545 --json
            """
    )

    @Argument(help: "The car's plate (default: the car the logged-in user rents).") var plate: String?
    @Option(help: "The user id returning the car (default: the logged-in user).") var user: String?
    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Rehearsing on a fork") var fork: ForkOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var output: JSONOption

    func validate() throws {
        if user != nil && plate == nil { throw ValidationError("give the PLATE with --user") }
    }

    func run() async throws {
        guard let user, let plate else {
            if fork.isForking { return try await rehearseForLoggedInUser() }
            let acting = try await ActingUser.resolve(
                connection: try node.connection(), auth: auth.configuration, signer: try signer.source(), settings: try transactions.settings(),
                password: signer.password.reader())
            var car = plate ?? ""
            if plate == nil {
                car = try await acting.contract.getUserCar(acting.user.uid)
                guard !car.isEmpty, car != CarChainModel.noCar else { throw CLIError("\(acting.user.email) is not renting a car") }
            }
            try await TransactionCommand.run(
                .returnCar(plate: car, userId: acting.user.uid), summary: "returned car \(car) from \(acting.user.email)",
                session: acting.session, settings: try transactions.settings(), json: output.json)
            return
        }
        try await TransactionCommand.run(
            .returnCar(plate: plate, userId: user), summary: "returned car \(plate) from \(user)", node: node, signer: signer,
            transactions: transactions, fork: fork, json: output.json)
    }

    /// `--fork-url` without `--user`: the logged-in user's return (of PLATE, else of the car the fork shows them renting).
    private func rehearseForLoggedInUser() async throws {
        let session = try await ChainSession.reading(try fork.connection(node))
        let (user, account) = try await ForkRehearsal.loggedInUser(on: session)
        var car = plate ?? ""
        if plate == nil {
            car = try await session.contract().getUserCar(user.uid)
            guard !car.isEmpty, car != CarChainModel.noCar else { throw CLIError("\(user.email) is not renting a car") }
        }
        try await TransactionCommand.rehearse(
            .returnCar(plate: car, userId: user.uid), summary: "returned car \(car) from \(user.email)", session: session,
            from: try signer.source().address() ?? account, settings: try transactions.settings(), json: output.json)
    }
}
