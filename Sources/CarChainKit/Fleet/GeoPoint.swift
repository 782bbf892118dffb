import Foundation

/// A position on Earth in degrees (WGS 84), as phones report it.
public struct GeoPoint: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Latitude in degrees, north positive.
    public var latitude: Double
    /// Longitude in degrees, east positive.
    public var longitude: Double

    /// The mean Earth radius in metres (IUGG), used by ``distance(to:)``.
    public static let earthRadius = 6_371_008.8
    /// Puerta del Sol, Madrid: where the seed's cars were and where the demo puts them.
    public static let puertaDelSol = GeoPoint(latitude: 40.4168, longitude: -3.7038)

    /// Creates a point (unchecked; see ``isValid``).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses `LAT,LON` (e.g. `40.4168,-3.7038`; spaces allowed around the comma).
    public init(parsing text: String) throws(FleetError) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]) else {
            throw .invalidCoordinate(text)
        }
        let point = GeoPoint(latitude: lat, longitude: lon)
        guard point.isValid else { throw .invalidCoordinate(text) }
        self = point
    }

    /// Finite, latitude within ±85° (the Web Mercator map's limit) and longitude within ±180°.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 85 && abs(longitude) <= 180
    }

    /// The great-circle distance in metres by the haversine formula on a sphere of ``earthRadius``.
    public func distance(to other: GeoPoint) -> Double {
        let φ1 = latitude * .pi / 180, φ2 = other.latitude * .pi / 180
        let Δφ = φ2 - φ1
        let Δλ = (other.longitude - longitude) * .pi / 180
        let a = sin(Δφ / 2) * sin(Δφ / 2) + cos(φ1) * cos(φ2) * sin(Δλ / 2) * sin(Δλ / 2)
        return 2 * GeoPoint.earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// The point `metres` away in direction `bearing` (degrees clockwise from north), on the same sphere.
    public func moved(metres: Double, bearing: Double) -> GeoPoint {
        let δ = metres / GeoPoint.earthRadius
        let θ = bearing * .pi / 180
        let φ1 = latitude * .pi / 180, λ1 = longitude * .pi / 180
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return GeoPoint(latitude: φ2 * 180 / .pi, longitude: λ2 * 180 / .pi)
    }

    /// `40.416800,-3.703800` (six decimals: about 10 cm).
    public var description: String {
        String(format: "%.6f,%.6f", latitude, longitude)
    }
}

/// Distances as people type and read them: `500m`, `2km`, `1.5 km`.
public enum Distance {
    /// The smallest distance accepted, in metres (a map or a search narrower than a metre means nothing here).
    public static let minimum = 1.0
    /// The largest distance accepted, in metres: 20,000 km, about half the Earth's circumference, so no two
    /// points are farther apart; a larger radius would only make the map's scale and grid loops degenerate.
    public static let maximum = 20_000_000.0

    /// Metres from `500m`, `2km`, `1.5km` or a bare number of metres, from ``minimum`` to ``maximum``.
    public static func parse(_ text: String) throws(FleetError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        var number = trimmed
        var factor = 1.0
        if trimmed.hasSuffix("km") {
            number = String(trimmed.dropLast(2))
            factor = 1000
        } else if trimmed.hasSuffix("m") {
            number = String(trimmed.dropLast())
        }
        guard let value = Double(number.trimmingCharacters(in: .whitespaces)), value.isFinite, value > 0 else {
            throw .invalidDistance(text)
        }
        let metres = value * factor
        guard (minimum...maximum).contains(metres) else { throw .invalidDistance(text) }
        return metres
    }

    /// `350 m` under a kilometre, else `1.25 km` (two decimals at most).
    public static func format(_ metres: Double) -> String {
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        var text = String(format: "%.2f", metres / 1000)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text + " km"
    }
}
