import CarChain
import EthereumPrimitives

/// Who sends a simulated operation.
public enum SimulationSender: Sendable, Hashable, CustomStringConvertible {
    /// The deployer.
    case manager
    /// The account of user number `i`.
    case user(Int)
    /// An account bound to no one and not the manager.
    case stranger

    public var description: String {
        switch self {
        case .manager: return "manager"
        case .user(let i): return "account of \(SimulationWorkload.userId(i))"
        case .stranger: return "stranger"
        }
    }
}

/// The seeded random workload of a simulation: which operation comes next, from whom. Choices are
/// steered by the reference model's state (registered users and cars, current rentals) so runs reach
/// rentals, second rentals, returns by the wrong user and every refusal often; a few edge values (empty
/// and over-long ids and plates, the reserved plate "-", a credit that overflows) are mixed in.
///
/// Only the generator and the model's answers for the workload's own ids and plates decide a choice —
/// never a dictionary's iteration order — so a seed gives the same operations on every run and machine.
public struct SimulationWorkload: Sendable {
    /// The generator.
    public var random: SplitMix64
    /// How many users and cars the pools hold.
    public let users: Int
    /// How many cars.
    public let cars: Int

    /// A workload for `seed` over `users` ids and `cars` plates (at least one of each).
    public init(seed: UInt64, users: Int, cars: Int) {
        random = SplitMix64(seed: seed)
        self.users = max(1, users)
        self.cars = max(1, cars)
    }

    /// User number `i`'s id: `user-01`.
    public static func userId(_ i: Int) -> String { i < 10 ? "user-0\(i)" : "user-\(i)" }
    /// Car number `j`'s plate: `SIM-001`.
    public static func plate(_ j: Int) -> String {
        let digits = String(j)
        return "SIM-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// Ids the contract refuses to register: empty, and one byte over the 128-byte limit.
    static let oddIds = ["", String(repeating: "x", count: 129)]
    /// Plates the contract refuses to register: empty, the reserved "-", one byte over the limit.
    static let oddPlates = ["", "-", String(repeating: "P", count: 32)]

    /// Every id and plate the workload may name (for the final reads).
    public var allUserIds: [String] { (0..<users).map(Self.userId) + Self.oddIds }
    /// Every plate the workload may name.
    public var allPlates: [String] { (0..<cars).map(Self.plate) + Self.oddPlates }

    private mutating func anyUser() -> Int { random.below(users) }

    private mutating func userId(in model: CarChainModel) -> String {
        if random.chance(3) { return random.pick(Self.oddIds) }
        let registered = (0..<users).map(Self.userId).filter { model.isUserRegistered($0) }
        if !registered.isEmpty && random.chance(75) { return random.pick(registered) }
        return Self.userId(anyUser())
    }

    private mutating func plate(in model: CarChainModel, preferFree: Bool) -> String {
        if random.chance(3) { return random.pick(Self.oddPlates) }
        let registered = (0..<cars).map(Self.plate).filter { model.getCar($0).registered }
        let free = registered.filter { model.getCar($0).renter.isEmpty }
        if preferFree && !free.isEmpty && random.chance(70) { return random.pick(free) }
        if !registered.isEmpty && random.chance(75) { return random.pick(registered) }
        return Self.plate(random.below(cars))
    }

    /// Someone allowed to act for `userId` most of the time: its bound account or the manager; now and
    /// then another user's account or a stranger.
    private mutating func sender(for userId: String, in model: CarChainModel, accounts: [Address]) -> SimulationSender {
        if random.chance(8) { return random.chance(50) ? .stranger : .user(anyUser()) }
        let bound = model.getUserAccount(userId)
        if bound != .zero, let i = accounts.firstIndex(of: bound), random.chance(65) { return .user(i) }
        return .manager
    }

    /// The next operation. `accounts[i]` is user i's account.
    ///
    /// Roughly: a tenth registrations of users and cars (mostly new ones while any are left), a fifth
    /// credit, the rest rentals and returns (mostly of rented cars, by their renters); about a third of
    /// all operations are refused.
    public mutating func next(model: CarChainModel, accounts: [Address]) -> (sender: SimulationSender, operation: CarChainOperation) {
        let ids = (0..<users).map(Self.userId)
        let plates = (0..<cars).map(Self.plate)
        let unregisteredUsers = (0..<users).filter { !model.isUserRegistered(Self.userId($0)) }
        let unregisteredCars = plates.filter { !model.getCar($0).registered }
        let rented = plates.filter { !model.getCar($0).renter.isEmpty }
        var roll = random.below(100)
        // Registrations are mostly pointless once everyone is registered; returns once nothing is rented.
        if roll < 10 && unregisteredUsers.isEmpty && random.chance(70) { roll = 17 + random.below(18) }
        if (10..<17).contains(roll) && unregisteredCars.isEmpty && random.chance(70) { roll = 35 + random.below(35) }
        if roll >= 70 && rented.isEmpty && random.chance(70) { roll = 35 + random.below(35) }
        let free = plates.filter { model.getCar($0).registered && model.getCar($0).renter.isEmpty }
        if (35..<70).contains(roll) && free.isEmpty && !rented.isEmpty && random.chance(60) { roll = 70 + random.below(30) }
        switch roll {
        case 0..<10:
            let i = !unregisteredUsers.isEmpty && random.chance(80) ? random.pick(unregisteredUsers) : anyUser()
            let id = random.chance(3) ? random.pick(Self.oddIds) : Self.userId(i)
            let sender: SimulationSender
            switch random.below(20) {
            case 0..<11: sender = .user(i)
            case 11..<18: sender = .manager
            case 18: sender = .user(anyUser())
            default: sender = .stranger
            }
            return (sender, .registerNewUser(userId: id))
        case 10..<17:
            let plate: String
            if random.chance(5) {
                plate = random.pick(Self.oddPlates)
            } else if !unregisteredCars.isEmpty && random.chance(80) {
                plate = random.pick(unregisteredCars)
            } else {
                plate = random.pick(plates)
            }
            let sender: SimulationSender = random.chance(92) ? .manager : (random.chance(50) ? .stranger : .user(anyUser()))
            return (sender, .registerNewCar(plate: plate))
        case 17..<35:
            // Mostly a registered user whose credit ran out.
            let broke = ids.filter { model.isUserRegistered($0) && model.getUserCredit($0).isZero }
            let id = !broke.isEmpty && random.chance(50) ? random.pick(broke) : userId(in: model)
            let credit: UInt256 = random.chance(1) ? CarChainModel.maxCredit : UInt256(UInt64(random.pick([0, 1, 1, 2, 2, 3, 3, 5])))
            return (sender(for: id, in: model, accounts: accounts), .addCredit(userId: id, credit: credit))
        case 35..<70:
            let plate = plate(in: model, preferFree: true)
            // Mostly someone who can rent: registered, with credit, renting nothing.
            let eligible = ids.filter {
                model.isUserRegistered($0) && model.getUserCredit($0) >= CarChainModel.minimumRentCredit && model.getUserCar($0) == CarChainModel.noCar
            }
            let id = !eligible.isEmpty && random.chance(70) ? random.pick(eligible) : userId(in: model)
            return (sender(for: id, in: model, accounts: accounts), .rentCar(plate: plate, userId: id))
        default:
            if !rented.isEmpty && random.chance(85) {
                let plate = random.pick(rented)
                let id = random.chance(85) ? model.getCar(plate).renter : userId(in: model)
                return (sender(for: id, in: model, accounts: accounts), .returnCar(plate: plate, userId: id))
            }
            let plate = plate(in: model, preferFree: false)
            let id = userId(in: model)
            return (sender(for: id, in: model, accounts: accounts), .returnCar(plate: plate, userId: id))
        }
    }
}
