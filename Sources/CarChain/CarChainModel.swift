import EthereumABI
import EthereumPrimitives

/// A pure-Swift reference model of the project's CarChain contract: the RULES of contracts/README.md
/// as a small state machine with dictionaries, no hashing and no EVM. Later issues run it beside the
/// bytecode and require the same outcome for every step (success and events, or revert and reason) and
/// the same reads.
///
/// Strings are compared and keyed by their UTF-8 bytes, as the contract compares them (Swift's `String`
/// equality would treat canonically equivalent spellings as equal). The registration rule "the id's tag
/// collides" needs a 192-bit hash collision; the model treats it as unreachable, as the README allows.
public struct CarChainModel: Sendable, Hashable {
    /// The longest plate that can be registered, in bytes.
    public static let maxPlateLength = 31
    /// The longest user id that can be registered, in bytes.
    public static let maxUserIdLength = 128
    /// The longest plate argument the contract's ABI decoder accepts; longer ones revert with empty data.
    public static let plateArgumentBound = 64
    /// The longest user id argument the contract's ABI decoder accepts; longer ones revert with empty data.
    public static let userIdArgumentBound = 256
    /// The largest balance: 2^191 − 1.
    public static let maxCredit = (UInt256.one << 191) - UInt256.one
    /// What a rental costs.
    public static let minimumRentCredit = UInt256.one
    /// `getUserCar`'s answer for a registered user who rents nothing (a reserved plate).
    public static let noCar = "-"

    /// What applying an operation did.
    public enum Outcome: Sendable, Hashable, CustomStringConvertible {
        /// Accepted, emitting these events (exactly one for the project's contract).
        case success([CarChainEvent])
        /// Refused: `.error(reason)`, or `.empty` for the ABI layer's refusals. State is unchanged.
        case reverted(RevertReason)

        /// True for `.success`.
        public var succeeded: Bool { if case .success = self { return true } else { return false } }

        public var description: String {
            switch self {
            case .success(let events): return "success " + events.map(\.description).joined(separator: ", ")
            case .reverted(let reason): return reason.description
            }
        }
    }

    private struct User: Sendable, Hashable {
        var credit: UInt256 = .zero
        /// The plate of the car the user rents (UTF-8 bytes), or nil.
        var car: [UInt8]?
        /// The bound account; nil when the manager registered the id.
        var account: Address?
    }

    /// The deploying account: registers cars, acts for every user, is never bound to an id.
    public let manager: Address
    private var users: [[UInt8]: User] = [:]
    /// plate → renter's user id (nil: free).
    private var cars: [[UInt8]: [UInt8]?] = [:]
    /// account → the id bound to it.
    private var bound: [Address: [UInt8]] = [:]

    /// A freshly deployed contract, deployed by `manager`.
    public init(manager: Address) {
        self.manager = manager
    }

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// Applies `operation` sent by `sender` with `value` wei attached. A refused operation changes nothing.
    public mutating func apply(_ operation: CarChainOperation, from sender: Address, value: UInt256 = .zero) -> Outcome {
        // The compiler-generated ABI layer refuses first, without data: ether sent to a non-payable
        // function, or a string beyond the decoder's bound.
        if value != .zero { return .reverted(.empty) }
        if let plate = operation.plate, plate.utf8.count > Self.plateArgumentBound { return .reverted(.empty) }
        if let userId = operation.userId, userId.utf8.count > Self.userIdArgumentBound { return .reverted(.empty) }
        switch operation {
        case .registerNewUser(let userId): return registerNewUser(Array(userId.utf8), sender)
        case .registerNewCar(let plate): return registerNewCar(Array(plate.utf8), sender)
        case .addCredit(let userId, let credit): return addCredit(Array(userId.utf8), credit, sender)
        case .rentCar(let plate, let userId): return rentCar(Array(plate.utf8), Array(userId.utf8), sender)
        case .returnCar(let plate, let userId): return returnCar(Array(plate.utf8), Array(userId.utf8), sender)
        }
    }

    private static func refuse(_ reason: String) -> Outcome { .reverted(.error(reason)) }

    /// Passes for the manager and for the id's bound account; refuses everyone else.
    private func authorized(_ sender: Address, _ userId: [UInt8]) -> Bool {
        sender == manager || (users[userId]?.account.map { $0 == sender } ?? false)
    }

    private mutating func registerNewUser(_ userId: [UInt8], _ sender: Address) -> Outcome {
        if userId.isEmpty { return Self.refuse("empty user id") }
        if userId.count > Self.maxUserIdLength { return Self.refuse("user id too long") }
        if users[userId] != nil { return Self.refuse("user already registered") }
        var account: Address?
        if sender != manager {
            if bound[sender] != nil { return Self.refuse("account already has a user id") }
            account = sender
            bound[sender] = userId
        }
        users[userId] = User(account: account)
        return .success([.userRegistered(userId: Self.text(userId), account: account ?? .zero)])
    }

    private mutating func registerNewCar(_ plate: [UInt8], _ sender: Address) -> Outcome {
        if sender != manager { return Self.refuse("caller is not the manager") }
        if plate.isEmpty { return Self.refuse("empty plate") }
        if plate.count > Self.maxPlateLength { return Self.refuse("plate too long") }
        if plate == Array(Self.noCar.utf8) { return Self.refuse(#"plate "-" is reserved"#) }
        if cars[plate] != nil { return Self.refuse("car already registered") }
        cars[plate] = .some(nil)
        return .success([.carRegistered(plate: Self.text(plate))])
    }

    private mutating func addCredit(_ userId: [UInt8], _ credit: UInt256, _ sender: Address) -> Outcome {
        if !authorized(sender, userId) { return Self.refuse("not user's account or manager") }
        guard var user = users[userId] else { return Self.refuse("user not registered") }
        if credit > Self.maxCredit - user.credit { return Self.refuse("credit overflow") }
        user.credit += credit
        users[userId] = user
        return .success([.creditAdded(userId: Self.text(userId), amount: credit, newBalance: user.credit)])
    }

    private mutating func rentCar(_ plate: [UInt8], _ userId: [UInt8], _ sender: Address) -> Outcome {
        if !authorized(sender, userId) { return Self.refuse("not user's account or manager") }
        guard let renter = cars[plate] else { return Self.refuse("car not registered") }
        if renter != nil { return Self.refuse("car already rented") }
        guard var user = users[userId] else { return Self.refuse("user not registered") }
        if user.credit < Self.minimumRentCredit { return Self.refuse("insufficient credit") }
        if user.car != nil { return Self.refuse("user already renting a car") }
        user.credit -= Self.minimumRentCredit
        user.car = plate
        users[userId] = user
        cars[plate] = .some(userId)
        return .success([.carRented(plate: Self.text(plate), userId: Self.text(userId))])
    }

    private mutating func returnCar(_ plate: [UInt8], _ userId: [UInt8], _ sender: Address) -> Outcome {
        if !authorized(sender, userId) { return Self.refuse("not user's account or manager") }
        guard let entry = cars[plate] else { return Self.refuse("car not registered") }
        guard let renter = entry else { return Self.refuse("car not rented") }
        if users[userId] == nil { return Self.refuse("user not registered") }
        if renter != userId { return Self.refuse("car rented by another user") }
        cars[plate] = .some(nil)
        users[userId]?.car = nil
        return .success([.carReturned(plate: Self.text(plate), userId: Self.text(userId))])
    }

    // MARK: Reads

    /// Answers a view as the contract would; nil when the contract's decoder refuses the argument (a
    /// plate over 64 bytes or an id over 256 bytes: the call reverts with empty data).
    public func read(_ query: CarChainQuery) -> CarChainQueryResult? {
        switch query {
        case .getUserCredit(let u), .getUserCar(let u), .isUserRegistered(let u), .getUserAccount(let u):
            if u.utf8.count > Self.userIdArgumentBound { return nil }
        case .getCar(let p):
            if p.utf8.count > Self.plateArgumentBound { return nil }
        default: break
        }
        switch query {
        case .getUserCredit(let u): return .number(getUserCredit(u))
        case .getUserCar(let u): return .text(getUserCar(u))
        case .isUserRegistered(let u): return .flag(isUserRegistered(u))
        case .getUserAccount(let u): return .account(getUserAccount(u))
        case .getCar(let p): return .car(getCar(p))
        case .registeredUsers: return .number(registeredUsers)
        case .registeredCars: return .number(registeredCars)
        case .rentedCars: return .number(rentedCars)
        case .availableCars: return .number(availableCars)
        case .minimumRentCredit: return .number(Self.minimumRentCredit)
        case .manager: return .account(manager)
        }
    }

    /// A user's credit; 0 for unknown ids.
    public func getUserCredit(_ userId: String) -> UInt256 { users[Array(userId.utf8)]?.credit ?? .zero }

    /// The plate a user rents, `"-"` for none, `""` for an unknown id.
    public func getUserCar(_ userId: String) -> String {
        guard let user = users[Array(userId.utf8)] else { return "" }
        return user.car.map(Self.text) ?? Self.noCar
    }

    /// Whether `userId` is registered.
    public func isUserRegistered(_ userId: String) -> Bool { users[Array(userId.utf8)] != nil }

    /// The account bound to `userId`; zero if none or unknown.
    public func getUserAccount(_ userId: String) -> Address { users[Array(userId.utf8)]?.account ?? .zero }

    /// Whether `plate` is registered, and its renter (`""` when free or unknown).
    public func getCar(_ plate: String) -> CarInfo {
        guard let entry = cars[Array(plate.utf8)] else { return CarInfo(registered: false, renter: "") }
        return CarInfo(registered: true, renter: entry.map(Self.text) ?? "")
    }

    /// How many user ids are registered.
    public var registeredUsers: UInt256 { UInt256(UInt64(users.count)) }
    /// How many cars are registered.
    public var registeredCars: UInt256 { UInt256(UInt64(cars.count)) }
    /// How many cars are rented.
    public var rentedCars: UInt256 { UInt256(UInt64(cars.values.filter { $0 != nil }.count)) }
    /// `registeredCars − rentedCars`.
    public var availableCars: UInt256 { registeredCars - rentedCars }
}
