import ArgumentParser
import CarChain
import CarChainKit
import Chain
import EthereumCrypto
import EthereumPrimitives
import EthereumRPC
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `carchain demo`: the whole app on a fresh data dir, narrated.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Walk through the app on a fresh data dir: a manager, 18 cars in Madrid, a user who rents one.",
        discussion: """
            Uses a fresh $CARCHAIN_HOME (--home, or a new temporary directory): the manager (dev account 0) deploys CarChain and registers 18 cars around Puerta del Sol; a user signs up (auth account, Ethereum account, funding, on-chain registration), adds credit, looks at the map, rents the nearest car, checks the profile and returns the car; then a gas report of every transaction. It ends with where the SVG map is and which commands to try next.

            Examples:
              carchain demo
              carchain demo --home .demo/home
            """
    )

    @Option(help: ArgumentHelp("The demo's $CARCHAIN_HOME; must be empty or absent (default: a new temporary directory).", valueName: "dir"))
    var home: String?
    @OptionGroup var auth: AuthOptions
    @OptionGroup var node: NodeOptions
    @OptionGroup var transactions: TransactionOptions

    /// The demo user's email, password and wallet passphrase (both secrets stay inside this process).
    static let userEmail = "lucia@example.com"
    static let userPassword = "carchain-demo-\(UInt32.random(in: 100_000...999_999))"
    static let userWalletPassphrase = "carchain-wallet-\(UInt32.random(in: 100_000...999_999))"

    func run() async throws {
        let directory = try prepareHome()
        // Every component below reads $CARCHAIN_HOME; the demo points it at its fresh directory first, before
        // anything else runs in this one-shot process.
        setenv("CARCHAIN_HOME", directory.path, 1)
        let connection = try node.connection()
        let settings = try transactions.settings()
        let paths = AppPaths.current(connection)
        var gas = DemoGasLedger()
        let started = Date()

        print("CarChain demo")
        print("=============")
        print("Everything lives in \(directory.path): the chain data, the auth service's users, your session and keystores.")

        // 1. The chain and the manager.
        let chain = try await ChainSession.reading(connection)
        let managerKey = try DevAccounts.key(index: 0)
        let manager = try await chain.signing(with: managerKey, settings: settings)
        step(1, "The chain and its manager")
        say("chain id \(chain.chainID), \(connection.url.map { "node at \($0)" } ?? "embedded chain")")
        var contract: CarChainContract
        if let existing = try await chain.contractIfDeployed() {
            contract = existing
            let how = chain.dataDirectory != nil ? "deployed by dev account 0 when the embedded chain was created" : "already deployed"
            say("CarChain at \(contract.address.checksummed), \(how)")
            if let deployment = try await deploymentGas(of: contract.address, chain: chain) { gas.record("deploy", gasUsed: deployment) }
        } else {
            let outcome = try await manager.backend.deploy(bytecode: CarChainArtifact.project.bytecode)
            guard outcome.succeeded, let address = outcome.contractAddress else { throw CLIError("deploying CarChain failed (tx \(outcome.transactionHash))") }
            try chain.remember(contract: address)
            gas.record("deploy", gasUsed: outcome.gasUsed)
            contract = try await manager.contract()
            say("dev account 0 deployed CarChain at \(address.checksummed) (gas \(outcome.gasUsed))")
        }
        let managerAddress = try await contract.manager()
        say("the manager is whoever manager() names: \(managerAddress.checksummed)\(managerAddress == managerKey.address ? " (dev account 0)" : "")")
        guard managerAddress == managerKey.address else {
            throw CLIError("the contract's manager is not dev account 0; run the demo on a fresh data dir")
        }

        // 2. The fleet.
        step(2, "The manager registers 18 cars around Puerta del Sol, Madrid (\(GeoPoint.puertaDelSol))")
        var placed: [String] = []
        for (index, plate) in DemoFleet.plates.enumerated() {
            if !(try await contract.getCar(plate).registered) {
                let transaction = try await CarChainTransactionRunner.execute(.registerNewCar(plate: plate), session: manager)
                gas.record("registerNewCar", gasUsed: transaction.outcome.gasUsed, succeeded: transaction.outcome.succeeded)
            }
            let position = DemoFleet.position(index: index)
            try paths.fleet.place(plate, at: position)
            placed.append("\(plate) \(Distance.format(position.distance(to: .puertaDelSol)))")
        }
        say("on chain (registerNewCar, one transaction each) and on the fleet map (\(paths.fleet.path)):")
        for chunk in stride(from: 0, to: placed.count, by: 6) {
            say("  " + placed[chunk..<min(chunk + 6, placed.count)].joined(separator: " · "))
        }

        // 3. Sign-up.
        step(3, "A user signs up: \(Self.userEmail)")
        let userKey = PrivateKey.random()
        let signup = try await AccountFlow.signup(
            email: Self.userEmail, password: Self.userPassword, walletPassphrase: Self.userWalletPassphrase, key: userKey,
            paths: paths, auth: auth.configuration, chain: chain, settings: settings, fund: AccountSetup.oneEther)
        for line in signup.lines { say(line) }
        let uid = signup.session.uid
        for (function, used) in signup.gas { gas.record(function, gasUsed: used) }
        let user = try await chain.signing(with: userKey, settings: settings)
        let role = try await contract.manager() == userKey.address ? "manager" : "user"
        say("role from the chain: \(role) (the account is not manager())")

        // 4. Credit.
        step(4, "The user adds 10 credits (each rental costs one)")
        let credit = try await CarChainTransactionRunner.execute(.addCredit(userId: uid, credit: 10), session: user)
        gas.record("addCredit", gasUsed: credit.outcome.gasUsed)
        say("addCredit(\(uid), 10): gas \(credit.outcome.gasUsed); credit now \(try await contract.getUserCredit(uid))")

        // 5. The map.
        step(5, "The user, standing in Puerta del Sol, looks for cars")
        let cars = try paths.fleet.cars()
        let availability = try await FleetChain.availability(of: cars, contract: contract)
        let rows = FleetListing.select(cars, availability: availability, near: .puertaDelSol, radius: 1000, all: false)
        let table = FleetTable.render(rows, total: cars.count, near: .puertaDelSol, radius: 1000, all: false)
        for line in table.split(separator: "\n").prefix(7) { say(String(line)) }
        if rows.count > 5 { say("… and \(rows.count - 5) more (`carchain cars` lists them all)") }
        let mapFile = directory.appendingPathComponent("fleet.svg").path
        let map = try FleetChain.writeMap(cars: cars, availability: availability, near: .puertaDelSol, radius: nil, to: mapFile)
        say("map with \(map.drawn) cars written to \(map.path)")

        // 6. Rent.
        guard let nearest = rows.first else { throw CLIError("no available car near Puerta del Sol") }
        step(6, "The user rents the nearest car, \(nearest.car.plate), \(Distance.format(nearest.distance ?? 0)) away")
        let rent = try await CarChainTransactionRunner.execute(.rentCar(plate: nearest.car.plate, userId: uid), session: user)
        gas.record("rentCar", gasUsed: rent.outcome.gasUsed)
        say("rentCar(\(nearest.car.plate), \(uid)): gas \(rent.outcome.gasUsed), signed by the user's own account")
        let refusal = try await CarChainPrecheck.make(contract: contract, sender: userKey.address)
            .refusal(of: .rentCar(plate: DemoFleet.plates[1], userId: uid))
        say("renting a second car now would be refused: \(refusal ?? "(allowed?)")")

        // 7. Profile.
        step(7, "The user checks the profile (history rebuilt from the contract's events)")
        let profile = try await UserProfile.load(user: LoggedInUser(session: signup.session, paths: paths), session: chain)
        for line in profile.text.split(separator: "\n") { say(String(line)) }

        // 8. Return.
        step(8, "The user returns \(nearest.car.plate)")
        let back = try await CarChainTransactionRunner.execute(.returnCar(plate: nearest.car.plate, userId: uid), session: user)
        gas.record("returnCar", gasUsed: back.outcome.gasUsed)
        say("returnCar(\(nearest.car.plate), \(uid)): gas \(back.outcome.gasUsed); car now \(try await contract.getUserCar(uid)), credit \(try await contract.getUserCredit(uid))")
        say("counters: \(try await contract.registeredUsers()) user(s), \(try await contract.registeredCars()) cars, \(try await contract.rentedCars()) rented")

        // 9. Gas.
        // The demo's home is always new, so the embedded chain runs the default fork; a node says nothing of its fork.
        let rules = connection.url == nil ? ", \(ChainConfig.defaultHardfork.name) rules" : ""
        step(9, "Gas used by every transaction of this demo\(rules)")
        let size = try await chain.client.code(at: contract.address).count
        let pricing = GasPricing(gasPrice: try await chain.client.gasPrice())
        for line in gas.report(deploymentSize: gas.deploymentGas == nil ? nil : CarChainArtifact.project.bytecode.count, runtimeSize: size).render(.table, pricing: pricing).split(separator: "\n", omittingEmptySubsequences: false) {
            say(String(line))
        }
        if !gas.transfers.isEmpty {
            say("plus \(gas.transfers.count) plain ETH transfer(s) funding the user: \(gas.transfers.map(String.init).joined(separator: ", ")) gas")
        }
        say("\(gas.transactionCount) transactions, \(gas.totalGas) gas in all")

        print("\nDone in \(String(format: "%.1f", Date().timeIntervalSince(started))) s. The map is at \(mapFile)")
        print("Try next (the demo's user is logged in there; sign up your own to act yourself):")
        let remote = connection.url.map { " (and CARCHAIN_RPC=\($0))" } ?? ""
        print("  export CARCHAIN_HOME=\(directory.path)\(remote)")
        print("  carchain cars --near 40.4168,-3.7038 --radius 500m")
        print("  carchain map --near 40.4168,-3.7038 --out map.svg")
        print("  carchain signup you@example.com          # your own user, funded and registered")
        print("  carchain credit add 5 && carchain rent \(rows.dropFirst().first?.car.plate ?? DemoFleet.plates[1])")
        print("  carchain whoami && carchain profile && carchain return")
        print("  carchain app --open                      # the same chain in the browser: sign in, the map, rent, return")
    }

    /// The demo's home: `--home` (created, must be empty) or a new temporary directory.
    private func prepareHome() throws -> URL {
        let url: URL
        if let home {
            url = URL(fileURLWithPath: home)
        } else {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("carchain-demo-\(UUID().uuidString.prefix(8))")
        }
        let contents = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        guard contents.isEmpty else { throw CLIError("\(url.path) is not empty: the demo needs a fresh directory") }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CLIError("cannot create \(url.path): \(error.localizedDescription)")
        }
        return url.standardizedFileURL
    }

    /// The gas of the transaction that created `address`, looked up in the first blocks (where a fresh data
    /// dir's chain deployed it); nil when not found there.
    private func deploymentGas(of address: Address, chain: ChainSession) async throws -> UInt64? {
        let latest = try await chain.client.blockNumber()
        guard latest >= 1 else { return nil }
        for number in 1...min(latest, 3) {
            guard let block = try await chain.client.block(.number(number)) else { continue }
            for hash in block.transactions.hashes {
                if let receipt = try await chain.client.receipt(hash), receipt.contractAddress == address { return receipt.gasUsed }
            }
        }
        return nil
    }

    private func step(_ n: Int, _ title: String) {
        print("\n\(n). \(title)")
    }

    private func say(_ line: String) {
        print("   " + line)
    }
}
