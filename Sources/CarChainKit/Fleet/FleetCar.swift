import Foundation

/// One car of the fleet map: its plate, where it was last seen, and when. A position is telemetry kept off
/// chain; whether the car is free is the contract's business.
public struct FleetCar: Sendable, Hashable, Codable {
    /// The plate, as registered on chain.
    public var plate: String
    /// Latitude in degrees.
    public var latitude: Double
    /// Longitude in degrees.
    public var longitude: Double
    /// When the position was recorded.
    public var updatedAt: Date

    /// Creates a record.
    public init(plate: String, position: GeoPoint, updatedAt: Date) {
        self.plate = plate
        self.latitude = position.latitude
        self.longitude = position.longitude
        self.updatedAt = updatedAt
    }

    /// The position.
    public var position: GeoPoint { GeoPoint(latitude: latitude, longitude: longitude) }
}
