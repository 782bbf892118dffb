import ArgumentParser
import CarChain

/// `carchain rent PLATE --user USER_ID`.
struct RentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rent",
        abstract: "Rent a car for a user (costs one credit).",
        discussion: """
            Checks first what the contract would refuse (unknown car, car taken, unknown user, no credit, already renting) and says so without sending; --no-precheck sends anyway and shows the on-chain revert.

            Examples:
              carchain rent 6789BBB --user O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
              CARCHAIN_RPC=http://127.0.0.1:8545 carchain rent 6789BBB --user alice --dev-account 1 --json
            """
    )

    @Argument(help: "The car's plate.") var plate: String
    @Option(help: "The user id renting the car.") var user: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await CarChainTransactionRunner.run(
            .rentCar(plate: plate, userId: user), summary: "rented car \(plate) to \(user)", node: node, signer: signer,
            transactions: transactions, json: output.json)
    }
}

/// `carchain return PLATE --user USER_ID`.
struct ReturnCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "return",
        abstract: "Return a rented car (no refund).",
        discussion: """
            Example:
              carchain return 6789BBB --user O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
            """
    )

    @Argument(help: "The car's plate.") var plate: String
    @Option(help: "The user id returning the car.") var user: String
    @OptionGroup var node: NodeOptions
    @OptionGroup var signer: NodeSignerOptions
    @OptionGroup var transactions: TransactionOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        try await CarChainTransactionRunner.run(
            .returnCar(plate: plate, userId: user), summary: "returned car \(plate) from \(user)", node: node, signer: signer,
            transactions: transactions, json: output.json)
    }
}
