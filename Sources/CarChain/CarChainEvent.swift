import EthereumABI
import EthereumContracts
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

    /// The ABI of the five events (nothing indexed), as contracts/CarChain.vy declares them (the generated binding's).
    public static var definitions: [ABIEvent] { CarChainBinding.abi.events }

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

    /// Decodes a CarChain log (strictly, through the generated binding's events); nil when its topic 0 is none of
    /// the five events.
    public init?(topics: [Bytes32], data: [UInt8]) throws(ABIError) {
        let decoded: CarChainBinding.Event?
        do {
            decoded = try CarChainBinding.Event(log: TransactionLog(address: .zero, topics: topics, data: data))
        } catch {
            throw .invalidData(offset: 0, path: "CarChain log", reason: "\(error)")
        }
        switch decoded {
        case nil: return nil
        case .userRegistered(let e)?: self = .userRegistered(userId: e.userId, account: e.account)
        case .carRegistered(let e)?: self = .carRegistered(plate: e.plate)
        case .carRented(let e)?: self = .carRented(plate: e.plate, userId: e.userId)
        case .carReturned(let e)?: self = .carReturned(plate: e.plate, userId: e.userId)
        case .creditAdded(let e)?: self = .creditAdded(userId: e.userId, amount: e.amount, newBalance: e.newBalance)
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
