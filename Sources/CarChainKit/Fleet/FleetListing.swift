import CarChain
/// A car's state on chain, as the fleet map shows it.
public enum CarAvailability: Sendable, Hashable, CustomStringConvertible {
    /// Registered and free.
    case available
    /// Rented by this user id.
    case rented(by: String)
    /// In the registry but not registered in the contract.
    case notOnChain

    /// Whether the car can be rented now.
    public var isAvailable: Bool { self == .available }

    /// `available`, `rented`, `not on chain`.
    public var description: String {
        switch self {
        case .available: return "available"
        case .rented: return "rented"
        case .notOnChain: return "not on chain"
        }
    }

    /// From the contract's `getCar` answer.
    public init(_ info: CarInfo) {
        if !info.registered {
            self = .notOnChain
        } else if info.renter.isEmpty {
            self = .available
        } else {
            self = .rented(by: info.renter)
        }
    }
}

/// One row of `carchain cars`: a registry record, its availability and its distance from the reference point.
public struct FleetListingEntry: Sendable, Hashable {
    /// The registry record.
    public var car: FleetCar
    /// The state on chain.
    public var availability: CarAvailability
    /// Metres from the reference point, nil without one.
    public var distance: Double?

    /// Creates a row.
    public init(car: FleetCar, availability: CarAvailability, distance: Double?) {
        self.car = car
        self.availability = availability
        self.distance = distance
    }
}

/// Chooses and orders the cars to show: sorted by distance from `near` (by plate without a reference point);
/// by default only available cars within `radius` of `near`; `all` keeps every car.
public enum FleetListing {
    /// The default search radius, in metres.
    public static let defaultRadius = 2000.0

    /// The rows for `cars` with their availability (`availability[plate]`, `.notOnChain` when missing).
    public static func select(
        _ cars: [FleetCar], availability: [String: CarAvailability], near: GeoPoint?, radius: Double?, all: Bool
    ) -> [FleetListingEntry] {
        var rows = cars.map { car in
            FleetListingEntry(
                car: car, availability: availability[car.plate] ?? .notOnChain, distance: near.map { car.position.distance(to: $0) })
        }
        if !all {
            rows.removeAll { !$0.availability.isAvailable }
            if near != nil {
                let limit = radius ?? defaultRadius
                rows.removeAll { ($0.distance ?? 0) > limit }
            }
        }
        rows.sort { a, b in
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            return a.car.plate.utf8.lexicographicallyPrecedes(b.car.plate.utf8)
        }
        return rows
    }
}
