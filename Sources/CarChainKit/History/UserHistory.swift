import CarChain
import EthereumPrimitives

/// A CarChain event with where it happened, as `eth_getLogs` returns it.
public struct RecordedCarChainEvent: Sendable, Hashable {
    /// The decoded event.
    public var event: CarChainEvent
    /// The block holding it.
    public var blockNumber: UInt64
    /// The transaction that emitted it, when the node says.
    public var transactionHash: Bytes32?
    /// The log's index in its block, when the node says.
    public var logIndex: UInt64?

    /// Creates a record.
    public init(event: CarChainEvent, blockNumber: UInt64, transactionHash: Bytes32?, logIndex: UInt64? = nil) {
        self.event = event
        self.blockNumber = blockNumber
        self.transactionHash = transactionHash
        self.logIndex = logIndex
    }
}

/// A user's history rebuilt from the contract's events: their rentals (with the return, when it happened) and
/// their credit top-ups, in chain order.
public struct UserHistory: Sendable, Hashable {
    /// One rental.
    public struct Rental: Sendable, Hashable {
        /// The car.
        public var plate: String
        /// The block of `CarRented`.
        public var rentedAt: UInt64
        /// The block of the matching `CarReturned`, nil while the car is still rented.
        public var returnedAt: UInt64?
    }

    /// One `CreditAdded`.
    public struct TopUp: Sendable, Hashable {
        /// Credits added.
        public var amount: UInt256
        /// The balance afterwards.
        public var newBalance: UInt256
        /// The block.
        public var blockNumber: UInt64
    }

    /// The user id.
    public var userId: String
    /// Rentals, oldest first.
    public var rentals: [Rental]
    /// Top-ups, oldest first.
    public var topUps: [TopUp]
    /// The block where the id was registered, if seen.
    public var registeredAt: UInt64?

    /// Rebuilds `userId`'s history from `events` (in chain order: block, then log index).
    public init(userId: String, events: [RecordedCarChainEvent]) {
        self.userId = userId
        var rentals: [Rental] = []
        var topUps: [TopUp] = []
        var registeredAt: UInt64?
        func same(_ a: String) -> Bool { a.utf8.elementsEqual(userId.utf8) }
        for record in events {
            switch record.event {
            case .userRegistered(let u, _) where same(u):
                if registeredAt == nil { registeredAt = record.blockNumber }
            case .carRented(let plate, let u) where same(u):
                rentals.append(Rental(plate: plate, rentedAt: record.blockNumber, returnedAt: nil))
            case .carReturned(let plate, let u) where same(u):
                if let i = rentals.lastIndex(where: { $0.plate.utf8.elementsEqual(plate.utf8) && $0.returnedAt == nil }) {
                    rentals[i].returnedAt = record.blockNumber
                }
            case .creditAdded(let u, let amount, let balance) where same(u):
                topUps.append(TopUp(amount: amount, newBalance: balance, blockNumber: record.blockNumber))
            default:
                break
            }
        }
        self.rentals = rentals
        self.topUps = topUps
        self.registeredAt = registeredAt
    }
}
