/// Errors of the fleet map: plates, coordinates, distances and the registry file.
public enum FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A plate that does not match the required format.
    case invalidPlate(String, format: PlateFormat)
    /// A coordinate text that is not `LAT,LON` with latitude in [-85, 85] and longitude in [-180, 180].
    case invalidCoordinate(String)
    /// A distance text that is not a number of metres or kilometres (`500m`, `2km`) from 1 m to 20000 km.
    case invalidDistance(String)
    /// The registry file could not be read or written.
    case registryFile(path: String, reason: String)
    /// The plate is not in the registry.
    case unknownPlate(String)

    /// What went wrong and where.
    public var description: String {
        switch self {
        case .invalidPlate(let plate, let format):
            return "invalid plate \"\(plate)\": \(format.requirement)"
        case .invalidCoordinate(let text):
            return "invalid position \"\(text)\": expected LAT,LON in degrees, e.g. 40.4168,-3.7038 (latitude -85…85, longitude -180…180)"
        case .invalidDistance(let text):
            return "invalid distance \"\(text)\": expected 1m to 20000km, a number with m or km, e.g. 500m or 2km"
        case .registryFile(let path, let reason):
            return "fleet registry \(path): \(reason)"
        case .unknownPlate(let plate):
            return "car \(plate) is not in the fleet registry (register it with `carchain car register \(plate) --at LAT,LON`)"
        }
    }
}
