import CarChain
import EthereumABI
import EthereumPrimitives
import Testing
import TestSupport

/// CarChainContract over three backends: the model (no EVM), and py-evm running the project's and the
/// seed's bytecode through the same API.
@Suite struct BindingTests {
    static let uid1 = "O6fLnMnVXAUWmxdIYatVNzaE31i1"
    static let uid2 = "I7ZgpBfkQTMaEcUrcNlrcjolez22"

    /// The seed README's scenario (steps 1–18) and whether each step succeeds.
    static let scenario: [(CarChainOperation, Bool)] = [
        (.registerNewUser(userId: uid1), true), (.registerNewUser(userId: uid2), true), (.registerNewUser(userId: uid1), false),
        (.registerNewCar(plate: "6789BBB"), true), (.registerNewCar(plate: "2353HYP"), true), (.registerNewCar(plate: "5432TPK"), true),
        (.addCredit(userId: uid1, credit: 111), true), (.addCredit(userId: uid1, credit: 5), true), (.addCredit(userId: uid2, credit: 1), true),
        (.rentCar(plate: "6789BBB", userId: uid1), true), (.rentCar(plate: "2353HYP", userId: uid1), false),
        (.rentCar(plate: "2353HYP", userId: uid2), true), (.returnCar(plate: "2353HYP", userId: uid2), true),
        (.returnCar(plate: "6789BBB", userId: uid1), true), (.rentCar(plate: "6789BBB", userId: uid1), true),
        (.returnCar(plate: "6789BBB", userId: uid1), true), (.rentCar(plate: "6789BBB", userId: uid2), false),
        (.returnCar(plate: "6789BBB", userId: uid1), false),
    ]

    @Test func typedAPIOverTheModel() async throws {
        let backend = ModelBackend(defaultSender: Keys.manager)
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend)
        #expect(deployment.succeeded)
        let registered = try await contract.registerNewUser("alice", from: Keys.addresses[1])
        #expect(registered.events == [.userRegistered(userId: "alice", account: Keys.addresses[1])])
        try await contract.registerNewCar("C1")
        try await contract.addCredit(userId: "alice", credit: 2, from: Keys.addresses[1])
        let rented = try await contract.rentCar(plate: "C1", userId: "alice")
        #expect(rented.events == [.carRented(plate: "C1", userId: "alice")])
        #expect(try await contract.getUserCar("alice") == "C1")
        #expect(try await contract.getCar("C1") == CarInfo(registered: true, renter: "alice"))
        #expect(try await contract.getUserCredit("alice") == 1)
        #expect(try await contract.rentedCars() == 1)
        #expect(try await contract.manager() == Keys.manager)
        await #expect(throws: CarChainError.reverted(reason: "car already rented")) {
            try await contract.rentCar(plate: "C1", userId: "alice")
        }
        await #expect(throws: CarChainError.reverted(reason: "caller is not the manager")) {
            try await contract.registerNewCar("C2", from: Keys.addresses[2])
        }
        // execute() returns the refused transaction instead of throwing.
        let refused = try await contract.execute(.returnCar(plate: "C1", userId: "bob"))
        #expect(!refused.succeeded)
        #expect(refused.error == .reverted(reason: "user not registered"))
        #expect(throws: CarChainError.self) { try refused.get() }
        await #expect(throws: CarChainError.revertedWithoutReason) {
            try await contract.getUserCredit(String(repeating: "z", count: 257))
        }
    }

    @Test func projectContractOnPyEVM() async throws {
        guard let backend = try PyEVMBackend.start(what: "CarChain binding on py-evm") else { return }
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, from: Keys.manager)
        // The gas figures of contracts/README.md's Cancun table, through the binding.
        #expect(deployment.gasUsed == 1_111_249)
        var gas: [UInt64] = []
        var errors: [CarChainError?] = []
        for (i, (operation, ok)) in Self.scenario.enumerated() {
            let tx = try await contract.execute(operation, from: Keys.manager)
            #expect(tx.succeeded == ok, "step \(i + 1) \(operation): \(tx.error?.description ?? "ok")")
            #expect(tx.events.count == (ok ? 1 : 0))
            gas.append(tx.outcome.gasUsed)
            errors.append(tx.error)
        }
        #expect(gas[9] == 40962 && gas[12] == 35638, "rent/return gas \(gas)")
        #expect(errors[2] == .reverted(reason: "user already registered"))
        #expect(errors[10] == .reverted(reason: "user already renting a car"))
        #expect(errors[16] == .reverted(reason: "insufficient credit"))
        #expect(errors[17] == .reverted(reason: "car not rented"))
        #expect(try await contract.registeredUsers() == 2)
        #expect(try await contract.registeredCars() == 3)
        #expect(try await contract.rentedCars() == 0)
        #expect(try await contract.availableCars() == 3)
        #expect(try await contract.getUserCredit(Self.uid1) == 114)
        #expect(try await contract.getUserCar(Self.uid1) == "-")
        #expect(try await contract.getUserCar("nobody") == "")
        #expect(try await contract.minimumRentCredit() == 1)
        #expect(try await contract.manager() == Keys.manager)
        #expect(try await contract.isUserRegistered(Self.uid2))
        #expect(try await contract.getUserAccount(Self.uid2) == .zero)
        #expect(try await contract.getCar("6789BBB") == CarInfo(registered: true, renter: ""))
        // A bound user, events with the account, and typed refusals with reasons.
        let alice = Keys.addresses[1]
        let reg = try await contract.registerNewUser("alice", from: alice)
        #expect(reg.events == [.userRegistered(userId: "alice", account: alice)])
        #expect(try await contract.getUserAccount("alice") == alice)
        await #expect(throws: CarChainError.reverted(reason: "not user's account or manager")) {
            try await contract.addCredit(userId: "alice", credit: 1, from: Keys.addresses[2])
        }
        await #expect(throws: CarChainError.reverted(reason: #"plate "-" is reserved"#)) { try await contract.registerNewCar("-") }
        await #expect(throws: CarChainError.revertedWithoutReason) {
            try await contract.registerNewUser(String(repeating: "z", count: 257))
        }
        await #expect(throws: CarChainError.revertedWithoutReason) { try await contract.getCar(String(repeating: "z", count: 65)) }
        // Ether sent to a non-payable function: empty revert data.
        let paid = try await backend.send(to: contract.address, data: CarChainOperation.registerNewUser(userId: "rich").calldata, value: 1, from: Keys.manager)
        #expect(!paid.succeeded && paid.revertData == [])
        // An unknown selector: the fallback's reason.
        let unknown = try await backend.call(to: contract.address, data: [0xde, 0xad, 0xbe, 0xef], from: nil)
        #expect(unknown == .reverted(RevertReason.encodeError("unknown function")))
        await backend.stop()
    }

    @Test func seedContractOnPyEVM() async throws {
        guard let url = TestPaths.shared("seed-carchain/CarChain.json", what: "seed artifact") else { return }
        let seed = try CarChainArtifact(contentsOf: url)
        guard let backend = try PyEVMBackend.start(what: "seed CarChain on py-evm") else { return }
        let (contract, deployment) = try await CarChainContract.deploy(backend: backend, artifact: seed, from: Keys.manager)
        #expect(contract.flavour == .seed)
        #expect(deployment.gasUsed == 1_176_506)  // the seed README's Cancun figure
        var gas: [UInt64] = []
        for (i, (operation, ok)) in Self.scenario.enumerated() {
            let tx = try await contract.execute(operation, from: Keys.manager)
            #expect(tx.succeeded == ok, "step \(i + 1) \(operation)")
            #expect(tx.events.isEmpty)
            if !ok { #expect(tx.error == .revertedWithoutReason) }
            gas.append(tx.outcome.gasUsed)
        }
        #expect(gas[9] == 82453, "seed rentCar gas \(gas[9])")
        #expect(try await contract.registeredUsers() == 2)
        #expect(try await contract.getUserCredit(Self.uid1) == 114)
        #expect(try await contract.getUserCar(Self.uid1) == "-")
        await #expect(throws: CarChainError.notSupported(function: "getCar", flavour: .seed)) { try await contract.getCar("6789BBB") }
        await #expect(throws: CarChainError.notSupported(function: "manager", flavour: .seed)) { try await contract.manager() }
        #expect(CarChainError.notSupported(function: "getCar", flavour: .seed).description == "getCar is not supported by the seed contract")
        await backend.stop()
    }
}
