import CarChain
import EthereumPrimitives

/// The fleet's use over time, rebuilt from the contract's events: after each block that changed it, how many cars
/// were registered and how many rented (`CarRegistered`, `CarRented`, `CarReturned`). The manager's chart in the
/// web app draws it; the last point agrees with the contract's `registeredCars` and `rentedCars`.
public struct FleetUtilisation: Sendable, Hashable {
    /// The fleet after one block.
    public struct Point: Sendable, Hashable {
        /// The block.
        public var blockNumber: UInt64
        /// Cars registered after it.
        public var registered: Int
        /// Cars rented after it.
        public var rented: Int

        /// Rented cars as a share of the registered ones, 0 with none.
        public var share: Double { registered == 0 ? 0 : Double(rented) / Double(registered) }
    }

    /// One point per block that registered, rented or returned a car, in chain order.
    public var points: [Point]

    /// Rebuilds the series from `events` (in chain order: block, then log index).
    public init(events: [RecordedCarChainEvent]) {
        var points: [Point] = []
        var registered = 0
        var rented = 0
        for record in events {
            switch record.event {
            case .carRegistered: registered += 1
            case .carRented: rented += 1
            case .carReturned: rented -= 1
            case .userRegistered, .creditAdded: continue
            }
            if let last = points.last, last.blockNumber == record.blockNumber {
                points[points.count - 1] = Point(blockNumber: record.blockNumber, registered: registered, rented: rented)
            } else {
                points.append(Point(blockNumber: record.blockNumber, registered: registered, rented: rented))
            }
        }
        self.points = points
    }

    /// At most `limit` points: the series thinned to evenly spaced points, the last one always kept (a chart
    /// needs no more points than it has pixels).
    public func thinned(to limit: Int) -> [Point] {
        guard limit > 1, points.count > limit else { return points }
        let step = Double(points.count - 1) / Double(limit - 1)
        return (0..<limit).map { points[Int((Double($0) * step).rounded())] }
    }
}

/// A user id registered on chain, as `UserRegistered` recorded it.
public struct RegisteredUser: Sendable, Hashable {
    /// The user id (the auth service's uid for the app's users).
    public var userId: String
    /// The bound account; nil when the manager registered the id.
    public var account: Address?
    /// The block of the registration.
    public var blockNumber: UInt64

    /// Every registered id in `events`, in registration order.
    public static func all(in events: [RecordedCarChainEvent]) -> [RegisteredUser] {
        events.compactMap { record in
            guard case .userRegistered(let userId, let account) = record.event else { return nil }
            return RegisteredUser(userId: userId, account: account == .zero ? nil : account, blockNumber: record.blockNumber)
        }
    }
}
