import EthereumPrimitives
import Foundation

/// The fleet map's registry: plate → position and time, in `<directory>/fleet.json`. Every change rewrites the
/// whole file atomically (a new file renamed over the old one), so a reader never sees half a write; the fleet is
/// small (tens to thousands of cars) and JSON keeps it readable. Concurrent writers are not coordinated: the
/// last rename wins.
public struct FleetRegistry: Sendable {
    /// The registry's file name inside its directory.
    public static let fileName = "fleet.json"
    /// The file.
    public let path: String

    /// A registry in `directory` (the file is created on the first write).
    public init(directory: String) {
        self.path = (directory as NSString).appendingPathComponent(FleetRegistry.fileName)
    }

    /// A registry at an explicit file path.
    public init(path: String) {
        self.path = path
    }

    private struct Document: Codable {
        var version: Int
        var cars: [FleetCar]
    }

    /// Every car, sorted by plate (empty when the file does not exist yet).
    public func cars() throws(FleetError) -> [FleetCar] {
        guard FileManager.default.fileExists(atPath: path) else { return [] }
        let data: Data
        do { data = Data(try InputFile.read(path, limit: InputFile.documentLimit)) } catch {
            throw .registryFile(path: path, reason: "cannot read: \(error.reason)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let document = try decoder.decode(Document.self, from: data)
            guard document.version == 1 else { throw FleetError.registryFile(path: path, reason: "unknown version \(document.version)") }
            // Positions feed the map's projection and scale: one out of range (a hand edit) is refused here.
            if let bad = document.cars.first(where: { !$0.position.isValid }) {
                throw FleetError.registryFile(path: path, reason: "car \(bad.plate) has an invalid position \(bad.position)")
            }
            return document.cars.sorted { $0.plate.utf8.lexicographicallyPrecedes($1.plate.utf8) }
        } catch let error as FleetError {
            throw error
        } catch {
            throw .registryFile(path: path, reason: "not a fleet registry (\(error))")
        }
    }

    /// The car with `plate`, if registered here.
    public func car(_ plate: String) throws(FleetError) -> FleetCar? {
        try cars().first { $0.plate.utf8.elementsEqual(plate.utf8) }
    }

    /// Records `plate` at `position` (adding it, or moving it when present) and returns the record.
    @discardableResult
    public func place(_ plate: String, at position: GeoPoint, time: Date = Date()) throws(FleetError) -> FleetCar {
        guard position.isValid else { throw .invalidCoordinate(position.description) }
        var all = try cars()
        let record = FleetCar(plate: plate, position: position, updatedAt: time)
        all.removeAll { $0.plate.utf8.elementsEqual(plate.utf8) }
        all.append(record)
        try write(all)
        return record
    }

    /// Moves a car that is already registered here; throws ``FleetError/unknownPlate(_:)`` otherwise.
    @discardableResult
    public func move(_ plate: String, to position: GeoPoint, time: Date = Date()) throws(FleetError) -> FleetCar {
        guard try car(plate) != nil else { throw .unknownPlate(plate) }
        return try place(plate, at: position, time: time)
    }

    private func write(_ cars: [FleetCar]) throws(FleetError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let sorted = cars.sorted { $0.plate.utf8.lexicographicallyPrecedes($1.plate.utf8) }
        do {
            let data = try encoder.encode(Document(version: 1, cars: sorted))
            let directory = (path as NSString).deletingLastPathComponent
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .registryFile(path: path, reason: "cannot write: \(error.localizedDescription)")
        }
    }
}
