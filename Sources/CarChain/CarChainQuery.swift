import EthereumABI
import EthereumContracts
import EthereumPrimitives

/// One CarChain view, as data: what the binding calls and what ``CarChainModel/read(_:)`` answers.
public enum CarChainQuery: Sendable, Hashable, CustomStringConvertible {
    /// `getUserCredit(userId) → uint256`: the balance, 0 for unknown ids.
    case getUserCredit(userId: String)
    /// `getUserCar(userId) → string`: the rented plate, `"-"` for none, `""` for unknown ids.
    case getUserCar(userId: String)
    /// `isUserRegistered(userId) → bool` (not in the seed).
    case isUserRegistered(userId: String)
    /// `getUserAccount(userId) → address`: the bound account, zero if none (not in the seed).
    case getUserAccount(userId: String)
    /// `getCar(plate) → (bool registered, string renter)` (not in the seed).
    case getCar(plate: String)
    /// `registeredUsers() → uint256`.
    case registeredUsers
    /// `registeredCars() → uint256`.
    case registeredCars
    /// `rentedCars() → uint256`.
    case rentedCars
    /// `availableCars() → uint256`.
    case availableCars
    /// `minimumRentCredit() → uint256` (always 1).
    case minimumRentCredit
    /// `manager() → address` (not in the seed).
    case manager

    /// The contract function's name.
    public var functionName: String {
        switch self {
        case .getUserCredit: return "getUserCredit"
        case .getUserCar: return "getUserCar"
        case .isUserRegistered: return "isUserRegistered"
        case .getUserAccount: return "getUserAccount"
        case .getCar: return "getCar"
        case .registeredUsers: return "registeredUsers"
        case .registeredCars: return "registeredCars"
        case .rentedCars: return "rentedCars"
        case .availableCars: return "availableCars"
        case .minimumRentCredit: return "minimumRentCredit"
        case .manager: return "manager"
        }
    }

    /// The arguments as ABI values.
    public var arguments: [ABIValue] {
        switch self {
        case .getUserCredit(let u), .getUserCar(let u), .isUserRegistered(let u), .getUserAccount(let u): return [.string(u)]
        case .getCar(let p): return [.string(p)]
        default: return []
        }
    }

    /// The argument types.
    public var argumentTypes: [ABIType] { arguments.isEmpty ? [] : [.string] }

    /// The return types.
    public var outputTypes: [ABIType] {
        switch self {
        case .getUserCar: return [.string]
        case .isUserRegistered: return [.bool]
        case .getUserAccount, .manager: return [.address]
        case .getCar: return [.bool, .string]
        default: return [.uint256]
        }
    }

    /// The canonical signature.
    public var signature: String { functionName + ABIType.tuple(argumentTypes).description }

    /// The function in the generated binding's ABI (Generated/CarChainBinding.swift).
    public var function: ABIFunction? { CarChainBinding.abi.function(named: functionName) }

    /// The call's data.
    public var calldata: [UInt8] {
        // Every view takes a string or nothing, so encoding cannot fail.
        (try? function?.encodeCall(arguments)) ?? []
    }

    /// Converts decoded return values to a result.
    public func result(from values: [ABIValue]) -> CarChainQueryResult? {
        switch self {
        case .getUserCar:
            guard values.count == 1, let s = values[0].stringValue else { return nil }
            return .text(s)
        case .isUserRegistered:
            guard values.count == 1, let b = values[0].boolValue else { return nil }
            return .flag(b)
        case .getUserAccount, .manager:
            guard values.count == 1, let a = values[0].addressValue else { return nil }
            return .account(a)
        case .getCar:
            guard values.count == 2, let registered = values[0].boolValue, let renter = values[1].stringValue else { return nil }
            return .car(CarInfo(registered: registered, renter: renter))
        case .getUserCredit, .registeredUsers, .registeredCars, .rentedCars, .availableCars, .minimumRentCredit:
            guard values.count == 1, let n = values[0].uintValue else { return nil }
            return .number(n)
        }
    }

    /// `getCar("C1")`.
    public var description: String {
        functionName + "(" + arguments.map(\.description).joined(separator: ", ") + ")"
    }
}

/// What a CarChain view returns.
public enum CarChainQueryResult: Sendable, Hashable, CustomStringConvertible {
    /// A `uint256`.
    case number(UInt256)
    /// A string (`getUserCar`).
    case text(String)
    /// A bool (`isUserRegistered`).
    case flag(Bool)
    /// An address (`getUserAccount`, `manager`).
    case account(Address)
    /// `getCar`'s pair.
    case car(CarInfo)

    public static func == (a: CarChainQueryResult, b: CarChainQueryResult) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)): return x == y
        case (.text(let x), .text(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.flag(let x), .flag(let y)): return x == y
        case (.account(let x), .account(let y)): return x == y
        case (.car(let x), .car(let y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    public var description: String {
        switch self {
        case .number(let n): return n.description
        case .text(let s): return JSONValue.quote(s)
        case .flag(let b): return b ? "true" : "false"
        case .account(let a): return a.checksummed
        case .car(let c): return c.description
        }
    }
}

/// `getCar`'s answer: whether the plate is registered, and who rents it (`""` when free).
public struct CarInfo: Sendable, Hashable, CustomStringConvertible {
    /// The plate is registered.
    public var registered: Bool
    /// The renter's user id, or `""` when the car is free (or unknown).
    public var renter: String

    /// Creates a car record.
    public init(registered: Bool, renter: String) {
        self.registered = registered
        self.renter = renter
    }

    public static func == (a: CarInfo, b: CarInfo) -> Bool {
        a.registered == b.registered && a.renter.utf8.elementsEqual(b.renter.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(registered)
        hasher.combine(Array(renter.utf8))
    }

    public var description: String { "(\(registered), \(JSONValue.quote(renter)))" }
}
