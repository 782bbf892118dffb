import EthereumABI
import EthereumPrimitives

/// An event of the project's CarChain contract (the seed emits none). Every successful state change
/// emits exactly one.
public enum CarChainEvent: Sendable, Hashable, CustomStringConvertible {
    /// `UserRegistered(userId, account)`: `account` is the bound account, zero when the manager registered the id.
    case userRegistered(userId: String, account: Address)
    /// `CarRegistered(plate)`.
    case carRegistered(plate: String)
    /// `CarRented(plate, userId)`.
    case carRented(plate: String, userId: String)
    /// `CarReturned(plate, userId)`.
    case carReturned(plate: String, userId: String)
    /// `CreditAdded(userId, amount, newBalance)`.
    case creditAdded(userId: String, amount: UInt256, newBalance: UInt256)

    /// The ABI of the five events (nothing indexed), as contracts/CarChain.vy declares them.
    public static let definitions: [ABIEvent] = [
        ABIEvent(name: "UserRegistered", inputs: [ABIParameter(name: "userId", type: .string), ABIParameter(name: "account", type: .address)]),
        ABIEvent(name: "CarRegistered", inputs: [ABIParameter(name: "plate", type: .string)]),
        ABIEvent(name: "CarRented", inputs: [ABIParameter(name: "plate", type: .string), ABIParameter(name: "userId", type: .string)]),
        ABIEvent(name: "CarReturned", inputs: [ABIParameter(name: "plate", type: .string), ABIParameter(name: "userId", type: .string)]),
        ABIEvent(name: "CreditAdded", inputs: [
            ABIParameter(name: "userId", type: .string), ABIParameter(name: "amount", type: .uint256),
            ABIParameter(name: "newBalance", type: .uint256),
        ]),
    ]

    /// The event's name.
    public var name: String {
        switch self {
        case .userRegistered: return "UserRegistered"
        case .carRegistered: return "CarRegistered"
        case .carRented: return "CarRented"
        case .carReturned: return "CarReturned"
        case .creditAdded: return "CreditAdded"
        }
    }

    /// The values, in the event's parameter order.
    public var values: [ABIValue] {
        switch self {
        case .userRegistered(let u, let a): return [.string(u), .address(a)]
        case .carRegistered(let p): return [.string(p)]
        case .carRented(let p, let u), .carReturned(let p, let u): return [.string(p), .string(u)]
        case .creditAdded(let u, let amount, let balance): return [.string(u), .uint(amount), .uint(balance)]
        }
    }

    /// Decodes a CarChain log (strictly); nil when its topic 0 is none of the five events.
    public init?(topics: [Bytes32], data: [UInt8]) throws(ABIError) {
        guard let first = topics.first, let event = CarChainEvent.definitions.first(where: { $0.topic0 == first }) else {
            return nil
        }
        let values = try event.decodeLog(topics: topics, data: data).values.compactMap(\.value)
        func string(_ i: Int) -> String? { i < values.count ? values[i].stringValue : nil }
        func number(_ i: Int) -> UInt256? { i < values.count ? values[i].uintValue : nil }
        switch event.name {
        case "UserRegistered":
            guard let u = string(0), values.count == 2, let a = values[1].addressValue else { return nil }
            self = .userRegistered(userId: u, account: a)
        case "CarRegistered":
            guard let p = string(0) else { return nil }
            self = .carRegistered(plate: p)
        case "CarRented":
            guard let p = string(0), let u = string(1) else { return nil }
            self = .carRented(plate: p, userId: u)
        case "CarReturned":
            guard let p = string(0), let u = string(1) else { return nil }
            self = .carReturned(plate: p, userId: u)
        case "CreditAdded":
            guard let u = string(0), let a = number(1), let b = number(2) else { return nil }
            self = .creditAdded(userId: u, amount: a, newBalance: b)
        default:
            return nil
        }
    }

    /// The log this event is emitted as (topics and data).
    public var log: (topics: [Bytes32], data: [UInt8]) {
        let event = CarChainEvent.definitions.first { $0.name == name }
        // The values match the definitions by construction, so encoding cannot fail.
        return (try? event?.encodeLog(values)) ?? ([], [])
    }

    // Strings compare by their bytes, as the contract compares them.
    public static func == (a: CarChainEvent, b: CarChainEvent) -> Bool {
        a.name == b.name && a.values == b.values
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(values)
    }

    /// `CarRented(plate: "C1", userId: "u1")`.
    public var description: String {
        let names = CarChainEvent.definitions.first { $0.name == name }?.inputs.map(\.name) ?? []
        return name + "(" + zip(names, values).map { "\($0): \($1)" }.joined(separator: ", ") + ")"
    }
}
