import ArgumentParser
import CarChain
import CarChainKit
import EthereumPrimitives

/// `carchain profile [USER_ID]`: a user's credit and rented car; without USER_ID, the logged-in user's profile
/// with their history rebuilt from the contract's events.
struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show a user's credit and the car they rent (\"-\" for none).",
        discussion: """
            Without USER_ID: the logged-in user's email, uid, account, credit, car, and their rentals and credit top-ups rebuilt from the contract's events (eth_getLogs).

            Examples:
              carchain profile
              carchain profile O6fLnMnVXAUWmxdIYatVNzaE31i1 --rpc http://127.0.0.1:8545
            """
    )

    @Argument(help: "The user id (default: the logged-in user).") var userId: String?
    @OptionGroup var node: NodeOptions
    @OptionGroup var auth: AuthOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        guard let userId else {
            let connection = try node.connection()
            let user = try await LoggedInUser.current(paths: AppPaths.current(connection), auth: auth.configuration)
            let profile = try await UserProfile.load(user: user, session: try await ChainSession.reading(connection))
            print(output.json ? profile.json.description : profile.text)
            return
        }
        let session = try await ChainSession.reading(try node.connection())
        let contract = try await session.contract()
        let car = try await contract.getUserCar(userId)
        let credit = try await contract.getUserCredit(userId)
        // The contract reads an unknown id as credit 0 and car "" (a registered user without a car reads "-").
        guard !car.isEmpty else { throw CLIError("user not registered: \(userId)") }
        if output.json {
            Output.json(["userId": userId, "credit": credit.description, "car": car])
        } else {
            print("user:   \(userId)\ncredit: \(credit)\ncar:    \(car)")
        }
    }
}

/// `carchain stats`: the contract's counters.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the counters: registered users and cars, rented and available cars.",
        discussion: """
            With --fork-url the counters are read from a fork of that node at --fork-block-number (default: its latest).

            Example:
              carchain stats --rpc http://127.0.0.1:8545 --json
              carchain stats --fork-url http://127.0.0.1:8545 --fork-block-number 12
            """
    )

    @OptionGroup var node: NodeOptions
    @OptionGroup(title: "Reading a fork") var fork: ForkOptions
    @OptionGroup var output: JSONOption

    func run() async throws {
        let session = try await ChainSession.reading(try fork.connection(node))
        let contract = try await session.contract()
        let users = try await contract.registeredUsers()
        let cars = try await contract.registeredCars()
        let rented = try await contract.rentedCars()
        let available = try await contract.availableCars()
        if output.json {
            Output.json([
                "registeredUsers": users.description, "registeredCars": cars.description,
                "rentedCars": rented.description, "availableCars": available.description,
            ])
        } else {
            print("registered users: \(users)\nregistered cars:  \(cars)\nrented cars:      \(rented)\navailable cars:   \(available)")
        }
    }
}
